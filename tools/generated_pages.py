"""What tools/validation.py and tools/reference.py share: their command line (--binary, --check)
and writing a generated page, or with --check comparing it with the one in the repository."""
import argparse
import difflib
import os
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def arguments():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=os.path.join(ROOT, "build", "sim", "cli", "codesim"))
    parser.add_argument("--check", action="store_true")
    return parser.parse_args()


def write_or_check(pages, check, command):
    """`pages`: {path relative to the repository: text}. Writes them, or with `check` prints the
    difference of each that is not current; returns the exit code (1: some page is stale)."""
    stale = 0
    for relative, page in pages.items():
        path = os.path.join(ROOT, relative)
        if not check:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(page)
            continue
        current = open(path).read() if os.path.exists(path) else ""
        if current != page:
            sys.stdout.writelines(difflib.unified_diff(current.splitlines(True),
                                                       page.splitlines(True), path, "generated"))
            print(f"{relative} is not current: run {command}")
            stale += 1
    return 1 if stale else 0
