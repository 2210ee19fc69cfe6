"""PDF bench: 200 score sheets against a trivial 200-page WeasyPrint document.

Three documents are built in one process, taking turns (trivial, blank, filled, then again)
so a neighbour's burst of work weighs on each alike; each row reports the median of its runs
and its ratio to the trivial document's median, the number that carries over between
machines. Targets: blank sheets at most 3x the trivial document, filled sheets at most 5x,
judged on wall-clock time; the ratio of CPU times (time.process_time) is shown beside it,
since on a shared machine the wall clock also counts the other work's share of the cores.

- trivial: 200 pages of one short paragraph, A4, straight through WeasyPrint.
- blank: a round's batch, 50 tables of 4 (header filled in, the rest blank), as
  printouts.render.score_sheets_pdf builds it for the round's view.
- filled: the sheets of 50 simulated 4-player games (gameplay.simulate), with initials and
  an approval, as the table view prints them.

Called by benchmarks/run.py (``bench_pdfs``); ``benchmarks/run.py --only pdf`` reruns just
these rows in docs/benchmarks.md. ``BENCH_PDF_RUNS`` sets the runs per document [3].
"""

from __future__ import annotations

import datetime as dt
import os
import statistics
import sys
import time
from pathlib import Path

Row = tuple[str, str, str]
PAGES = 200
BLANK_TARGET, FILLED_TARGET = 3.0, 5.0


def _setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def trivial_pdf() -> bytes:
    from weasyprint import HTML

    pages = "".join(
        f'<p style="page-break-after: always">Page {number}</p>' for number in range(1, PAGES)
    )
    html = f"<style>@page {{ size: A4; margin: 12mm }}</style>{pages}<p>Page {PAGES}</p>"
    return HTML(string=html).write_pdf()


def _seats(event):
    """Unsaved players, tables and seats of a round of 50 tables of 4."""
    from tournament.models import Player, Round, Seat, Table

    round_ = Round(event=event, number=1)
    for index in range(PAGES):
        table = Table(round=round_, number=index // 4 + 1)
        player = Player(
            pk=index + 1,
            first_name=f"Player{index + 1:03d}",
            last_name="Benchmark",
            alias=f"Token {index + 1}",
        )
        yield player, Seat(round=round_, table=table, player=player, position=index % 4 + 1)


def blank_pdf(event) -> bytes:
    from gameplay.edition import load_edition
    from printouts.render import score_sheets_pdf
    from printouts.sheets import blank_page

    edition = load_edition(event.edition)
    sheets = [
        blank_page(edition, player=player, seat=seat, table=seat.table, round=seat.round)
        for player, seat in _seats(event)
    ]
    return score_sheets_pdf(event=event, sheets=sheets, footer="Round 1 score sheets")


def filled_sheets(event) -> list:
    from gameplay.edition import load_edition
    from gameplay.simulate import simulate_game
    from printouts.sheets import filled_page

    edition = load_edition(event.edition)
    approved = dt.datetime(2030, 4, 20, 15, 0, tzinfo=dt.UTC)
    sheets = []
    for player, seat in _seats(event):
        game = seat.table.number
        data = simulate_game(edition=edition, players=4, seed=game, max_turns=300).sheet
        page = filled_page(
            edition,
            data,
            f"P{seat.position}",
            player=player,
            seat=seat,
            table=seat.table,
            round=seat.round,
        )
        page.signature, page.banker_signature = f"P{player.pk}", "BNK"
        page.extras = {"approved": approved, "approved_by": "headjudge"}
        sheets.append(page)
    return sheets


def bench_pdfs() -> list[Row]:
    """200 blank and 200 filled score sheets against a trivial 200-page document."""
    _setup()
    from printouts.render import score_sheets_pdf
    from tournament.models import Event

    event = Event(name="Benchmark Open", edition="classic-us", paper_size="A4")
    sheets = filled_sheets(event)
    runs = int(os.environ.get("BENCH_PDF_RUNS", "3"))
    builds = {
        "trivial": trivial_pdf,
        "blank": lambda: blank_pdf(event),
        "filled": lambda: score_sheets_pdf(event=event, sheets=sheets, footer="Round 1"),
    }
    times: dict[str, list[float]] = {name: [] for name in builds}
    cpu: dict[str, list[float]] = {name: [] for name in builds}
    sizes: dict[str, int] = {}
    for _ in range(runs):
        for name, build in builds.items():
            start, start_cpu = time.perf_counter(), time.process_time()
            sizes[name] = len(build())
            times[name].append(time.perf_counter() - start)
            cpu[name].append(time.process_time() - start_cpu)
    median = {name: statistics.median(values) for name, values in times.items()}
    median_cpu = {name: statistics.median(values) for name, values in cpu.items()}
    when = f"{dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC"
    how = f"median of {runs} interleaved runs, {when}"

    def row(name: str, label: str, target: float | None) -> Row:
        ratio = median[name] / median["trivial"]
        result = (
            f"{median[name]:.2f} s ({median[name] / PAGES * 1e3:.1f} ms a page, "
            f"{sizes[name] / 1024:,.0f} KiB)"
        )
        if target is None:
            return (label, result, f"the baseline; {how}")
        verdict = "met" if ratio <= target else "NOT met"
        # Wall time judges the target; CPU time shows the part other work on the machine took.
        cpu_ratio = median_cpu[name] / median_cpu["trivial"]
        verdict = f"target ≤ {target:g} x: {verdict} ({cpu_ratio:.2f} x in CPU time); {how}"
        return (label, f"{result}; {ratio:.2f} x trivial", verdict)

    return [
        row("trivial", f"PDF: trivial WeasyPrint document, {PAGES} pages", None),
        row("blank", f"PDF: blank score sheets, {PAGES} pages (a round's batch)", BLANK_TARGET),
        row("filled", f"PDF: filled score sheets, {PAGES} pages (simulated games)", FILLED_TARGET),
    ]


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    for name, result, how in bench_pdfs():
        print(f"| {name} | {result} | {how} |")
