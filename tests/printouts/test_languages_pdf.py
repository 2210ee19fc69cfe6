"""A French score sheet ("a French PDF score sheet (text read with pypdf)"): an event's
PDFs speak the event's language, whoever prints them, with the edition's money written the
French way."""

from __future__ import annotations

from django.urls import reverse
from django.utils import translation

from printouts.catalog import FORMS, PrintRequest
from tests.printouts.pdf_helpers import *  # noqa: F403 (the fixtures)
from tests.printouts.pdf_helpers import pdf_pages

NBSP = "\u00a0"


def _text(content: bytes) -> str:
    # pypdf may give the no-break spaces as spaces; compare words, not spacing.
    return " ".join(" ".join(pdf_pages(content)).replace(NBSP, " ").split())


def test_an_english_organizer_prints_a_french_events_score_sheets_in_french(event, seated):
    event.language = "fr"
    event.edition = "classic-uk"
    event.save()
    round_, _tables, _players = seated
    with translation.override("en"):
        content = FORMS["score-sheets"].build(PrintRequest(event=event, round=round_), None)
    text = _text(content)
    for french in (
        "Feuille de score",
        "Titre de propriété",
        "Hypothéquée",
        "Pleine propriété",
        "Total des propriétés (A)",
        "Total de l’argent (B)",
        "Total général (A+B)",
        "Signature du banquier",
        "Manche 1",
        # The edition's words as the French edition prints them.
        "Avec 1 maison",
        "Avec un hôtel",
    ):
        assert french in text, french
    assert "Score Sheet" not in text and "Banker's signature" not in text
    # The bills and the deeds' values in pounds, written as a French reader writes them.
    assert "500 £" in text
    assert "£500" not in text


def test_the_blank_sheet_from_the_printouts_page_follows_the_event_too(organizer_client, event):
    event.language = "fr"
    event.save()
    response = organizer_client.get(
        reverse("printouts:blank_score_sheet", kwargs={"pk": event.pk}),
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200
    text = _text(response.content)
    assert "Feuille de score" in text and "Signature du joueur" in text
    assert "1 500 $" in text or "500 $" in text


def test_the_same_sheet_prints_in_english_for_an_english_event(event, seated):
    round_, _tables, _players = seated
    with translation.override("fr"):
        content = FORMS["score-sheets"].build(PrintRequest(event=event, round=round_), None)
    text = _text(content)
    assert "Score Sheet" in text and "Feuille de score" not in text
    assert "$500" in text
