public enum Corpus {}
