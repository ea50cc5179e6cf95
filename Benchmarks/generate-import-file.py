#!/usr/bin/env python3
"""Writes an import file ({"objects": [...]}, the shape `modelc fetch --json` prints) for the
project's Library model (version Library 3): BOOKS books with two reviews each (listed before
the books they need), an author per ten books whose ordered `publications` run in reverse file
order, and twenty topics shared by the books (a many-to-many). With --bad, a last review rated 9
(the model allows 0-5); with --unknown, a last object of an entity the model lacks (refused when
the file is checked, before anything is inserted). Prints the number of objects.

Usage: Benchmarks/generate-import-file.py BOOKS OUT.json [--bad | --unknown]
"""
import json
import sys

books, out = int(sys.argv[1]), sys.argv[2]
authors, topics = max(1, books // 10), 20


def book(i):
    return f"book{i}"


reviews, book_objects = [], []
for i in range(books):
    ids = [f"review{i}a", f"review{i}b"]
    for n, review in enumerate(ids):
        reviews.append({"id": review, "entity": "Review", "attributes": {"rating": (i + n) % 6, "text": f"r{i}"},
                        "relationships": {"publication": book(i)}})
    book_objects.append({"id": book(i), "entity": "Book", "attributes": {"title": f"Title {i}", "isbn": f"isbn-{i}", "pages": i},
                         "relationships": {"author": f"author{i % authors}", "reviews": ids,
                                           "topics": [f"topic{i % topics}", f"topic{(i * 7 + 3) % topics}"]}})
author_objects = [{"id": f"author{a}", "entity": "Author", "attributes": {"name": f"Author {a}"},
                   "relationships": {"publications": [book(b) for b in reversed(range(a, books, authors))]}} for a in range(authors)]
topic_objects = [{"id": f"topic{t}", "entity": "Topic", "attributes": {"name": f"topic {t}"},
                  "relationships": {"publications": [book(b) for b in range(books) if b % topics == t or (b * 7 + 3) % topics == t]}}
                 for t in range(topics)]
objects = reviews + book_objects + author_objects + topic_objects
if "--bad" in sys.argv[3:]:
    objects.append({"id": "bad", "entity": "Review", "attributes": {"rating": 9}, "relationships": {"publication": book(0)}})
if "--unknown" in sys.argv[3:]:
    objects.append({"id": "unknown", "entity": "Nope"})
with open(out, "w") as file:
    json.dump({"objects": objects}, file)
print(len(objects))
