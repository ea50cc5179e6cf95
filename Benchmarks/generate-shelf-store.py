#!/usr/bin/env python3
"""Writes a store of the Shelf fixture's first version (Fixtures/Shelf.xcdatamodeld, `Shelf`)
with N books and one author per ten books, for the custom-mapping benchmark.

    Benchmarks/generate-shelf-store.py --books 1000000 --out Benchmarks/output/shelf.sqlite [--modelc PATH]

`modelc store create` makes the empty store in Core Data's layout; the rows go in with SQLite
(Python's sqlite3 module). Book i is titled `title i`, has `i % 900` pages, costs `i / 100` and
belongs to author `(i - 1) % authors + 1`; author j is named `author j`, born j days after
2001-01-01. The same rows as the kill test's store (Tests/ModelMigrationTests/ShelfMapping.swift).
With --gaps every primary key is doubled, as in a store where every other object was deleted:
the keys are no longer consecutive, which the migration manager's set-based path handles with
a table of its own instead of a shift. Python 3, standard library only.
"""
import argparse
import os
import sqlite3
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODEL = os.path.join(ROOT, "Fixtures", "Shelf.xcdatamodeld")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--books", type=int, default=1_000_000)
    parser.add_argument("--out", required=True, help="the store to write (replaced if it exists)")
    parser.add_argument("--modelc", default=os.path.join(ROOT, ".build", "release", "modelc"))
    parser.add_argument("--gaps", action="store_true", help="double every primary key")
    args = parser.parse_args()
    for suffix in ("", "-wal", "-shm", "-journal"):
        if os.path.exists(args.out + suffix):
            os.remove(args.out + suffix)
    subprocess.run([args.modelc, "store", "create", "--model", MODEL, "--model-version", "Shelf",
                    "--journal-mode", "delete", args.out], check=True, stdout=subprocess.DEVNULL)
    books, authors = args.books, max(1, args.books // 10)
    db = sqlite3.connect(args.out)
    entities = dict(db.execute("SELECT Z_NAME, Z_ENT FROM Z_PRIMARYKEY"))
    step = 2 if args.gaps else 1
    numbers = f"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {books})"
    db.execute(f"""{numbers} INSERT INTO ZAUTHOR (Z_PK, Z_ENT, Z_OPT, ZNAME, ZBORN)
        SELECT i * {step}, {entities['Author']}, 1, 'author ' || i, i * 86400.0 FROM n WHERE i <= {authors}""")
    db.execute(f"""{numbers} INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZAUTHOR, ZPAGES, ZPRICE, ZTITLE)
        SELECT i * {step}, {entities['Book']}, 1, ((i - 1) % {authors} + 1) * {step}, i % 900, i / 100.0, 'title ' || i FROM n""")
    db.execute(f"UPDATE Z_PRIMARYKEY SET Z_MAX = CASE Z_NAME WHEN 'Author' THEN {authors * step} ELSE {books * step} END")
    db.commit()
    db.close()
    print(args.out)


if __name__ == "__main__":
    sys.exit(main())
