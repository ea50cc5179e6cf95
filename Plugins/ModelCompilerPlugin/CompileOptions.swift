import Foundation

/// The `modelc compile` options a target asks for in a `modelc.options` file at its top (one
/// option per line, `#` starts a comment), the plugin's counterpart of Xcode's momc build
/// settings: `--suppress-inverse-transient-error` for `MOMC_SUPPRESS_INVERSE_TRANSIENT_ERROR`,
/// `--xcode-version 15.4`. The plugin passes them on unread; `modelc compile` checks them.
struct CompileOptions {
    static let fileName = "modelc.options"

    /// The options file, when the target has one: an input of every compile, so that editing it
    /// recompiles.
    var file: URL?
    var arguments: [String] = []

    init(in directory: URL) throws {
        let url = directory.appending(path: Self.fileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        file = url
        arguments = try String(contentsOf: url, encoding: .utf8).split(whereSeparator: \.isNewline).flatMap { line in
            (line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
                .split(whereSeparator: \.isWhitespace).map(String.init)
        }
    }
}
