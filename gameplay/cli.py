"""``python -m gameplay``: check a score sheet or list the editions from a shell."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from gameplay.check import check_sheet
from gameplay.edition import all_editions
from gameplay.sheet import SheetFormatError

EXIT_VALID, EXIT_INVALID, EXIT_UNREADABLE = 0, 1, 2


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gameplay", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("check", help="check and value an end-of-game score sheet")
    check.add_argument("file", help="a JSON score sheet, or - for standard input")
    commands.add_parser("editions", help="list the editions")
    args = parser.parse_args(argv)

    if args.command == "editions":
        for edition in all_editions():
            print(f"{edition.slug}\t{edition.currency_code}\t{edition.name}")
        return EXIT_VALID

    try:
        if args.file == "-":
            data = json.load(sys.stdin)
        else:
            with open(args.file, encoding="utf-8") as handle:
                data = json.load(handle)
        report = check_sheet(data)
    except (OSError, UnicodeDecodeError) as error:
        return _unreadable(f"cannot read {args.file}: {error}")
    except json.JSONDecodeError as error:
        return _unreadable(f"{args.file} is not JSON: {error}")
    except SheetFormatError as error:
        return _unreadable(f"{args.file} is not a score sheet: {error}")
    json.dump(report.to_dict(), sys.stdout, indent=2, ensure_ascii=False)
    print()
    return EXIT_VALID if report.valid else EXIT_INVALID


def _unreadable(reason: str) -> int:
    print(f"error: {reason}", file=sys.stderr)
    return EXIT_UNREADABLE
