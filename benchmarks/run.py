"""``make bench``: measure Boardwalk's hot paths and write docs/benchmarks.md.

Timings are measured here, never asserted in tests: a shared two-core machine is too noisy
for timed assertions, while a dated table with the machine it ran on shows trends honestly.

Each benchmark is a function returning rows for the report; add new ones to BENCHMARKS.
``run.py --only pdf`` reruns one group (GROUPS) and rewrites only its rows, each then
naming the date and machine it ran on.
"""

from __future__ import annotations

import datetime as dt
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import load, pdfs  # noqa: E402
from gameplay import check_sheet, load_edition  # noqa: E402
from gameplay.simulate import simulate_game  # noqa: E402
from tournament.seating import SeatingProblem, check_seating, seat  # noqa: E402

REPORT = ROOT / "docs" / "benchmarks.md"
Row = tuple[str, str, str]


def _timed(function: Callable[[], object], *, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return times


def bench_score_sheet_check() -> list[Row]:
    """The banker's tablet re-checks the whole table after every tap: it must be instant."""
    edition = load_edition("classic-us")
    sheets = [
        simulate_game(edition=edition, players=4, seed=seed, max_turns=300).sheet
        for seed in range(200)
    ]
    times = _timed(lambda: [check_sheet(sheet) for sheet in sheets], repeat=5)
    per_sheet = statistics.median(times) / len(sheets)
    return [
        (
            "check_sheet, 4-player end states (classic-us)",
            f"{per_sheet * 1e6:,.0f} µs per sheet",
            f"median of 5 runs over {len(sheets)} simulated sheets",
        )
    ]


def bench_simulation() -> list[Row]:
    """Demo and load data come from the simulator; a hall's worth of tables must be quick."""
    edition = load_edition("classic-us")
    games = 100
    times = _timed(
        lambda: [
            simulate_game(edition=edition, players=4, seed=seed, max_turns=400)
            for seed in range(games)
        ],
        repeat=3,
    )
    per_game = statistics.median(times) / games
    return [
        (
            "simulate_game, 4 players, up to 400 turns",
            f"{per_game * 1e3:,.1f} ms per game",
            f"median of 3 runs over {games} games",
        )
    ]


def _families(n: int, seed: int) -> dict[str, str]:
    """About 10% of the roster in households of 2–4, spread through the roster."""
    import random

    rng = random.Random(seed)
    families: dict[str, str] = {}
    players = list(range(n))
    rng.shuffle(players)
    cursor, group = 0, 0
    while cursor < n // 10:
        size = min(rng.randint(2, 4), n - cursor)
        for p in players[cursor : cursor + size]:
            families[f"p{p}"] = f"f{group}"
        cursor, group = cursor + size, group + 1
    return families


SWEEP_SIZES = (16, 17, 18, 19, 21, 23, 30, 37, 50, 75, 101, 150, 216, 217, 500, 999, 1000)
SWEEP_SIZES += (2000, 2001)
# 4 tables hold at most 16 players over 3 rounds without repeats (bounds.pigeonhole_bound).
FORCED_REPEATS = {17: 2, 18: 4, 19: 6}


def bench_seating_sweep() -> list[Row]:
    """Pre-seating 3 rounds must be instant for a club and quick for a national event.

    Sizes include non-multiples of 4 (5-tables): there the 5th seats must rotate, so the
    row also shows the 5-table exposure spread against the report's ideal.
    """
    rows = []
    for n in SWEEP_SIZES:
        problem = SeatingProblem(
            players=tuple(f"p{i}" for i in range(n)),
            rounds=3,
            families=_families(n, seed=n),
            seed=1,
            time_limit=30.0,
        )
        times = []
        for _ in range(3):
            start = time.perf_counter()
            seating = seat(problem)
            times.append(time.perf_counter() - start)
        check = check_seating(problem, seating)
        report = seating.report
        target = 1.0 if n <= 216 else 10.0
        seconds = statistics.median(times)
        allowed = FORCED_REPEATS.get(n, 0)
        met = (
            seconds < target
            and check.repeat_meetings <= allowed
            and not check.family_conflicts
            and check.exposure_spread <= max(1, report.exposure_ideal_spread)
            and check.valid
        )
        goal = "0 repeats" if not allowed else f"{allowed} repeats (forced)"
        rows.append(
            (
                f"seat, N={n}, 3 rounds, 10% families",
                f"{seconds:.3f} s; repeats {check.repeat_meetings}; "
                f"family conflicts {check.family_conflicts}; "
                f"5-table spread {check.exposure_spread} (ideal {report.exposure_ideal_spread})",
                f"median of 3; target < {target:g} s, {goal}, 0 conflicts, "
                f"spread ≤ max(1, ideal): " + ("met" if met else "NOT met"),
            )
        )
    return rows


SGP_INSTANCES = [
    # (players, rounds, (min, max) rule, time limit in seconds, note)
    (32, 8, (4, 5), 60.0, "8-4-8"),
    (32, 9, (4, 5), 60.0, "8-4-9, target 0 within 60 s"),
    (32, 10, (4, 5), 60.0, "8-4-10, zero exists (GRASP)"),
    (20, 5, (4, 5), 30.0, "5-4-5"),
    (24, 8, (4, 5), 20.0, "6-4-8"),
    (25, 6, (5, 5), 20.0, "5-5-6 (rule 5–5: five tables of 5)"),
    (25, 6, (4, 5), 20.0, "25 under the 4–5 rule: 5+4+4+4+4+4"),
    (11, 4, (4, 5), 5.0, "awkward: 4–5 rule falls back to 4+4+3"),
    (11, 4, (3, 5), 5.0, "awkward, club rule 3–5"),
    (12, 4, (4, 5), 5.0, "awkward"),
    (12, 5, (4, 5), 5.0, "awkward"),
    (13, 4, (4, 5), 5.0, "awkward"),
    (13, 5, (4, 5), 5.0, "awkward"),
]


def bench_seating_social_golfer() -> list[Row]:
    """Classic social golfer instances (CSPLib prob010): how close to the bound we get."""
    rows = []
    for n, rounds, rule, limit, note in SGP_INSTANCES:
        problem = SeatingProblem(
            players=tuple(f"p{i}" for i in range(n)),
            rounds=rounds,
            table_sizes=rule,
            seed=1,
            time_limit=limit,
            stall_iterations=None,
        )
        start = time.perf_counter()
        seating = seat(problem)
        seconds = time.perf_counter() - start
        check = check_seating(problem, seating)
        report = seating.report
        rows.append(
            (
                f"SGP {n} players × {rounds} rounds, tables {rule[0]}–{rule[1]} ({note})",
                f"{check.repeat_meetings} repeats (bound {report.repeat_lower_bound}, "
                f"gap {check.repeat_meetings - report.repeat_lower_bound}); {seconds:.2f} s",
                f"seed 1, limit {limit:g} s, stopped by {report.stopped_by}, "
                f"{report.constructed_rounds} constructed rounds, "
                f"5-table exposure spread {check.exposure_spread}"
                + ("" if check.valid else f", INVALID: {check.errors[0]}"),
            )
        )
    return rows


BENCHMARKS = [
    bench_score_sheet_check,
    bench_simulation,
    bench_seating_sweep,
    bench_seating_social_golfer,
    pdfs.bench_pdfs,
    load.bench_load,
]
# `run.py --only pdf` reruns these and rewrites only their rows of the report.
GROUPS = {"pdf": ([pdfs.bench_pdfs], "PDF")}


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}"


def run(benchmarks) -> list[Row]:
    rows: list[Row] = []
    for benchmark in benchmarks:
        print(f"running {benchmark.__name__} ...", flush=True)
        rows.extend(benchmark())
    return rows


def merge_rows(report: str, rows: list[Row], marker: str) -> str:
    """``report`` with its table rows naming ``marker`` replaced by ``rows``, in place of the
    first of them (or at the table's end); every other line as it was."""
    lines, out, placed = report.splitlines(), [], False
    table_end = max(i for i, line in enumerate(lines) if line.startswith("| ")) + 1
    new = [f"| {name} | {result} | {how} |" for name, result, how in rows]
    for index, line in enumerate(lines):
        if line.startswith("| ") and marker in line.split(" | ")[0]:
            if not placed:
                out += new
                placed = True
            continue
        if index == table_end and not placed:
            out += new
            placed = True
        out.append(line)
    return "\n".join(out) + "\n"


def main() -> None:
    if sys.argv[1:2] == ["--only"] and len(sys.argv) == 3 and sys.argv[2] in GROUPS:
        benchmarks, marker = GROUPS[sys.argv[2]]
        rows = [(name, result, f"{how}; {machine()}") for name, result, how in run(benchmarks)]
        report = merge_rows(REPORT.read_text(encoding="utf-8"), rows, marker)
        REPORT.write_text(report, encoding="utf-8")
        print(report)
        return
    if sys.argv[1:]:
        sys.exit(f"usage: {sys.argv[0]} [--only {'|'.join(GROUPS)}]")
    rows = run(BENCHMARKS)
    lines = [
        "# Benchmarks",
        "",
        "Written by `make bench` (benchmarks/run.py); rerun it to refresh. Numbers are medians",
        "on the machine below; they are measured, never asserted in tests.",
        "",
        f"- Date: {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC",
        f"- Machine: {machine()}",
        "",
        "| benchmark | result | how |",
        "|---|---|---|",
        *(f"| {name} | {result} | {how} |" for name, result, how in rows),
        "",
        *load.NOTES,
        "",
    ]
    REPORT.parent.mkdir(exist_ok=True)
    REPORT.write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
