"""``python -m seating.engine PLAYERS.json --rounds R``: seat a roster from a shell.

Exit 0 with the seating and report as JSON on stdout; exit 2 with one line on stderr when
the input cannot be read or does not describe a roster (the organizer fixes the file).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from seating.engine.engine import seat
from seating.engine.model import PlayerId, SeatingProblem

EXIT_OK, EXIT_UNREADABLE = 0, 2


def problem_from_json(data: Any, args: argparse.Namespace) -> SeatingProblem:
    """Build a problem from the PLAYERS.json shape; ``ValueError`` says what is wrong."""
    if not isinstance(data, dict) or not isinstance(data.get("players"), list):
        raise ValueError('expected an object with a "players" list')
    players, families = [], {}
    for entry in data["players"]:
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str):
            raise ValueError('every player needs a string "id"')
        players.append(entry["id"])
        family = entry.get("family")
        if family is not None and not isinstance(family, str):
            raise ValueError(f"family of {entry['id']} must be a string or null")
        families[entry["id"]] = family

    def pairs(key: str) -> tuple[tuple[str, str], ...]:
        value = data.get(key, [])
        if not isinstance(value, list) or not all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p)
            for p in value
        ):
            raise ValueError(f'"{key}" must be a list of [id, id] pairs')
        return tuple((a, b) for a, b in value)

    pinned: dict[tuple[int, PlayerId], int] = {}
    for pin in data.get("pinned", []):
        try:
            pinned[(int(pin["round"]), str(pin["player"]))] = int(pin["table"])
        except (TypeError, KeyError, ValueError) as error:
            raise ValueError('"pinned" entries need "round", "player" and "table"') from error
    return SeatingProblem(
        players=tuple(players),
        families=families,
        avoid=pairs("avoid"),
        history=pairs("history"),
        pinned=pinned,
        rounds=args.rounds,
        table_sizes=(args.min_size, args.max_size),
        seed=args.seed,
        time_limit=args.time_limit,
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m seating.engine", description=__doc__)
    parser.add_argument("players", help="PLAYERS.json, or - for standard input")
    parser.add_argument("--rounds", type=int, required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--min-size", type=int, default=4)
    parser.add_argument("--max-size", type=int, default=5)
    args = parser.parse_args(argv)
    try:
        if args.players == "-":
            data = json.load(sys.stdin)
        else:
            with open(args.players, encoding="utf-8") as handle:
                data = json.load(handle)
        problem = problem_from_json(data, args)
        seating = seat(problem)
    except (OSError, UnicodeDecodeError) as error:
        return _unreadable(f"cannot read {args.players}: {error}")
    except json.JSONDecodeError as error:
        return _unreadable(f"{args.players} is not JSON: {error}")
    except ValueError as error:
        return _unreadable(f"{args.players}: {error}")
    output = {
        "rounds": [[list(table) for table in tables] for tables in seating.rounds],
        "report": seating.report.to_dict(),
    }
    json.dump(output, sys.stdout, indent=2, ensure_ascii=False)
    print()
    return EXIT_OK


def _unreadable(reason: str) -> int:
    print(f"error: {' '.join(reason.split())}", file=sys.stderr)
    return EXIT_UNREADABLE
