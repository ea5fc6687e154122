#!/usr/bin/env python3
"""Lists the Rust functions longer than a limit.

    .ci/fnlen.py LIMIT FILE...

A function's length is its lines from the one with `fn` to its closing
brace, both included. Prints one line per function over LIMIT (length,
file:line, name) and exits 1 if there is any, 0 if none.

This is a line scanner, not a parser, which is enough for rustfmt's layout:
a function's closing brace is the first later line that is exactly `}` at
the indentation of its `fn` line. Declarations without a body (trait
methods, foreign functions) and functions on one line are skipped.
"""

import re
import sys

# The start of a function item: indentation, qualifiers, `fn`, the name.
FN = re.compile(
    r"^(?P<indent>\s*)"
    r"(?:pub(?:\([^)]*\))?\s+)?"
    r"(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+\"C\"\s+)?"
    r"fn\s+(?P<name>\w+)"
)


def one_line(line):
    """Whether a function's body opens and closes on its `fn` line."""
    return line.rstrip().endswith("}") and line.count("{") == line.count("}")


def long_functions(path, limit):
    """Yields (length, line, name) of each function in `path` over `limit`."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for i, line in enumerate(lines):
        m = FN.match(line)
        if not m:
            continue
        # The signature may span lines; it ends at its body's `{` or, for a
        # declaration, at a `;`.
        j = i
        while j < len(lines) and "{" not in lines[j] and not lines[j].rstrip().endswith(";"):
            j += 1
        if j == len(lines) or "{" not in lines[j]:
            continue
        if j == i and one_line(line):
            continue
        close = m.group("indent") + "}"
        k = j + 1
        while k < len(lines) and lines[k] != close:
            k += 1
        length = k - i + 1
        if length > limit:
            yield length, i + 1, m.group("name")


def main(argv):
    if len(argv) < 2 or not argv[1].isdigit():
        print(__doc__.strip().split("\n\n")[1].strip(), file=sys.stderr)
        return 2
    limit = int(argv[1])
    found = False
    for path in argv[2:]:
        for length, line, name in long_functions(path, limit):
            print(f"{length:5d} {path}:{line} {name}")
            found = True
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
