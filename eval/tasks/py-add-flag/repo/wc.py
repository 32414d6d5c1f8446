#!/usr/bin/env python3
"""Count the words of a file (or of stdin)."""
import argparse
import sys


def count_words(text: str) -> int:
    return len(text.split())


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("file", nargs="?", help="the file to read (default: stdin)")
    args = parser.parse_args(argv)
    if args.file:
        with open(args.file, encoding="utf-8") as f:
            text = f.read()
    else:
        text = sys.stdin.read()
    print(count_words(text))
    return 0


if __name__ == "__main__":
    sys.exit(main())
