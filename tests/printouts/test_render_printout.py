"""``manage.py render_printout``: any printout to a file, built as the jobs build it."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from printouts.catalog import FORMS
from tests.printouts.pdf_helpers import *  # noqa: F403 (the fixtures)
from tests.printouts.pdf_helpers import PEOPLE, pdf_pages, post_final, squash

SITE = "https://boardwalk.example.org"


def render(event, tmp_path, *options) -> list[str]:
    out = tmp_path / "out.pdf"
    call_command(
        "render_printout", str(event.pk), *options, "--out", str(out), stderr=io.StringIO()
    )
    assert out.read_bytes().startswith(b"%PDF-")
    assert [p.name for p in tmp_path.iterdir()] == ["out.pdf"]  # no partial file left
    return [squash(page) for page in pdf_pages(out.read_bytes())]


def test_a_rounds_score_sheets_hold_every_table_and_seat(event, seated, tmp_path):
    pages = render(event, tmp_path, "--form", "score-sheets", "--round", "1")
    assert len(pages) == len(PEOPLE)
    for index, (_, _, alias) in enumerate(PEOPLE):
        table, seat = index // 4 + 1, index % 4 + 1
        assert f"Table {table}" in pages[index] and f"Seat {seat}" in pages[index]
        assert alias in pages[index]


@pytest.mark.parametrize(
    ("form", "options", "expected"),
    [
        ("table-cards", ["--round", "1", "--base-url", SITE], "Table 2"),
        ("assignments", ["--round", "1"], "Lovelace"),
        ("assignments", ["--round", "1", "--public"], "Lucky Thimble"),
        ("event-registration", [], "Event Registration Form"),
        ("participant-registration", [], "Holbrook"),
        ("poster", ["--base-url", SITE], "boardwalk.example.org"),
    ],
)
def test_every_form_renders(event, seated, tmp_path, form, options, expected):
    pages = render(event, tmp_path, "--form", form, *options)
    assert expected in " ".join(pages)
    if "--public" in options:
        assert "Lovelace" not in " ".join(pages)  # the copy to post: aliases only


def test_the_winner_pack_is_the_winners_alone(event, seated, tmp_path):
    """As on the printouts page: no form before the final is posted, none for a loser."""
    _, _, players = seated
    ada, ed = players[0], players[4]
    with pytest.raises(CommandError, match="has no winner yet"):
        render(event, tmp_path, "--form", "winner")
    post_final(event, {ada: 2500, ed: 900})
    pages = render(event, tmp_path, "--form", "winner")
    assert "Ada Lovelace" in pages[0]
    assert render(event, tmp_path, "--form", "winner", "--player", str(ada.pk)) == pages
    with pytest.raises(CommandError, match=f"Player {ed.pk} did not win"):
        render(event, tmp_path, "--form", "winner", "--player", str(ed.pk))


def test_the_command_prints_what_the_job_serves(organizer_client, event, seated, tmp_path):
    url = reverse("printouts:round_score_sheets", kwargs={"pk": event.pk, "number": 1})
    served = [squash(page) for page in pdf_pages(organizer_client.get(url).content)]
    assert render(event, tmp_path, "--form", "score-sheets", "--round", "1") == served


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--form", "score-sheets"], "--round is required"),
        (["--form", "score-sheets", "--round", "9"], "has no round 9"),
        (["--form", "poster"], "--base-url"),
    ],
)
def test_what_cannot_be_printed_is_said_plainly(event, seated, tmp_path, options, message):
    with pytest.raises(CommandError, match=message):
        render(event, tmp_path, *options)


def test_an_unknown_event_or_form_is_refused(event, tmp_path):
    with pytest.raises(CommandError, match="No event with id 0"):
        call_command("render_printout", "0", "--form", "poster", "--out", str(tmp_path / "x"))
    with pytest.raises(CommandError, match="invalid choice"):
        call_command("render_printout", str(event.pk), "--form", "menu", "--out", "x.pdf")
    assert sorted(FORMS) == sorted(
        [
            "score-sheets",
            "table-cards",
            "assignments",
            "event-registration",
            "participant-registration",
            "winner",
            "poster",
        ]
    )
