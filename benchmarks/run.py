"""``make bench``: measure Boardwalk's hot paths and write docs/benchmarks.md.

Timings are measured here, never asserted in tests: a shared two-core machine is too noisy
for timed assertions, while a dated table with the machine it ran on shows trends honestly.

Each benchmark is a function returning rows for the report; add new ones to BENCHMARKS.
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

from gameplay import check_sheet, load_edition  # noqa: E402
from gameplay.simulate import simulate_game  # noqa: E402

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


BENCHMARKS = [bench_score_sheet_check, bench_simulation]


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


def main() -> None:
    rows: list[Row] = []
    for benchmark in BENCHMARKS:
        print(f"running {benchmark.__name__} ...", flush=True)
        rows.extend(benchmark())
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
    ]
    REPORT.parent.mkdir(exist_ok=True)
    REPORT.write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
