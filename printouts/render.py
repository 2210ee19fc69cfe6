"""Every printout as PDF bytes: what the views serve, and what a job or command will run.

Each function takes the event (and the round, table or player it prints) and returns the
whole PDF. The score sheet ones take ``on_page(done, total)``, called as their pages are
laid out, since a round's batch is the one printout that takes a while.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import segno
from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext as _

from printouts import selectors
from printouts.layers import SheetLayout, measure, sheet_stamps
from printouts.pdf import FOOTER_PROBE, Renderer, page_size, render_pdf
from printouts.sheets import SheetPage, blank_page
from printouts.stamps import Composed, Palette, Stamp, compose
from scoring.models import BankerLink
from seating.selectors import table_seating
from series.selectors import qualification_of
from tournament.formats import event_edition
from tournament.models import Event, Player, Round, Table
from tournament.money import money

# A page's absolute URL from its path, e.g. request.build_absolute_uri.
AbsoluteUrl = Callable[[str], str]
# Told (pages laid out, pages in all) as a score sheet PDF is built.
ProgressCallback = Callable[[int, int], None]
CHUNK = 25  # sheets whose stamps are laid out together, between two progress reports


def in_event_language(render: Callable[..., bytes]) -> Callable[..., bytes]:
    """Every printout speaks its event's language (``Event.language``), whoever prints it:
    the forms are handed round the whole hall."""

    @functools.wraps(render)
    def rendered(*args, event: Event, **kwargs) -> bytes:
        with translation.override(event.language or settings.LANGUAGE_CODE):
            return render(*args, event=event, **kwargs)

    return rendered


def _context(event: Event, footer: str, **extra) -> dict:
    return {"event": event, "page_size": page_size(event), "footer": footer, **extra}


# --- score sheets ----------------------------------------------------------------------------


def score_sheets_pdf(
    *,
    event: Event,
    sheets: list[SheetPage],
    footer: str,
    lead: tuple[str, dict] | None = None,
    on_page: ProgressCallback | None = None,
) -> bytes:
    """``sheets`` one a page, each the event's score sheet body with its own stamps.

    ``lead``: a template and its context, printed before the sheets (the winner notification
    form), numbered with them.
    """
    renderer = Renderer(size=page_size(event))
    lead_pages = []
    if lead is not None:
        template, context = lead
        html = render_to_string(template, _context(event, footer, **context))
        lead_pages = renderer.document(html, footer=None).pages
    if not sheets and not lead_pages:
        return render_pdf("printouts/base.html", _context(event, footer))
    edition = sheets[0].edition if sheets else event_edition(event=event)
    layout = sheet_body(renderer, event=event, edition=edition)
    palette = Palette(renderer, styles=layout.styles)
    total = len(lead_pages) + len(sheets)
    pages = []
    for number, page in enumerate(lead_pages, start=1):
        text = escape(_page_footer(footer, number=number, total=total))
        stamp = Stamp(text, layout.classes["footer"], line=True)
        pages.append(Composed([(palette.add(stamp), layout.target("footer"))], page=page))
    done = len(lead_pages)
    numbered = list(enumerate(sheets, start=done + 1))
    for part in [numbered[i : i + CHUNK] for i in range(0, len(numbered), CHUNK)] or [[]]:
        for number, sheet in part:
            page_footer = _page_footer(footer, number=number, total=total)
            placed = sheet_stamps(sheet, layout, event=event, footer=page_footer)
            pages.append(Composed([(palette.add(stamp), target) for stamp, target in placed]))
        palette.lay_out()
        done += len(part)
        if on_page:
            on_page(done, total)
    return compose(body=layout.document.pages[0], pages=pages, palette=palette)


def sheet_body(renderer: Renderer, *, event: Event, edition) -> SheetLayout:
    """The blank sheet every page of the PDF shares, laid out once and measured."""
    context = _context(event, "", sheet=blank_page(edition))
    html = render_to_string("printouts/score_sheet_body.html", context)
    return measure(renderer.document(html, footer=FOOTER_PROBE))


def _page_footer(footer: str, *, number: int, total: int) -> str:
    return f"{footer} · {number} / {total}" if footer else f"{number} / {total}"


@in_event_language
def blank_score_sheet_pdf(*, event: Event) -> bytes:
    """One blank sheet with an empty header, to photocopy."""
    sheets = [blank_page(event_edition(event=event))]
    return score_sheets_pdf(event=event, sheets=sheets, footer=_("Score Sheet"))


@in_event_language
def round_score_sheets_pdf(
    *, event: Event, round_: Round, on_page: ProgressCallback | None = None
) -> bytes:
    """Every blank sheet of a round, one per seat, in table and seat order."""
    return score_sheets_pdf(
        event=event,
        sheets=selectors.blank_round_pages(event=event, round_=round_),
        footer=_("Round %(number)d score sheets") % {"number": round_.number},
        on_page=on_page,
    )


@in_event_language
def table_score_sheets_pdf(
    *, event: Event, table: Table, on_page: ProgressCallback | None = None
) -> bytes:
    """The table's filled sheets: what the banker entered, with totals and signatures."""
    return score_sheets_pdf(
        event=event,
        sheets=selectors.filled_table_pages(event=event, table=table),
        footer=_("Round %(round)d table %(table)d")
        % {"round": table.round.number, "table": table.number},
        on_page=on_page,
    )


@in_event_language
def winner_notification_pdf(
    *, event: Event, player: Player, on_page: ProgressCallback | None = None
) -> bytes:
    """The form filled for ``player``, then their filled score sheet of every round.

    Only the event's winner has one (``scoring.selectors.event_winner``); the view asks.
    """
    edition = event_edition(event=event)
    sheets = selectors.player_filled_pages(event=event, player=player)
    money_raised = ""
    if event.money_raised is not None:
        money_raised = money(event.money_raised, edition=edition, places=2)
    lead = {
        "player": player,
        "address": selectors.postal_address(player),
        "sheets": sheets,
        "money_raised": money_raised,
        "return_to": selectors.forms_return_to(event),
        # A regional of a series: the winner's place on the Finals' list.
        "qualification": qualification_of(player=player),
    }
    return score_sheets_pdf(
        event=event,
        sheets=sheets,
        footer=_("Winner Notification Form"),
        lead=("printouts/winner_notification.html", lead),
        on_page=on_page,
    )


# --- the other forms -------------------------------------------------------------------------


@in_event_language
def assignments_pdf(
    *, event: Event, round_: Round, public: bool, wave_number: int | None = None
) -> bytes:
    """The organizer's copy (real names and aliases) or the copy to post (aliases only)."""
    context = _context(
        event,
        _("Round %(number)d table assignments") % {"number": round_.number},
        round=round_,
        waves=selectors.assignment_waves(round_, wave_number),
        wave_count=round_.waves.count(),
        public=public,
    )
    return render_pdf("printouts/assignments.html", context)


@in_event_language
def event_registration_pdf(*, event: Event) -> bytes:
    context = _context(
        event,
        _("Event Registration Form"),
        edition=event_edition(event=event),
        return_to=selectors.forms_return_to(event),
    )
    return render_pdf("printouts/event_registration.html", context)


@in_event_language
def participant_registration_pdf(*, event: Event) -> bytes:
    """Every registered player (alternates too, not withdrawn ones) to sign on the day."""
    players = list(selectors.registered_players(event))
    context = _context(
        event,
        _("Participant Registration Form"),
        pages=selectors.participant_sheets(players),
        player_count=len(players),
        return_to=selectors.forms_return_to(event),
    )
    return render_pdf("printouts/participant_registration.html", context)


def qr_data_uri(url: str) -> str:
    """The URL as a QR code in an SVG data URI; WeasyPrint draws it as vectors."""
    return segno.make(url, error="m").svg_data_uri(scale=4, border=2)


@in_event_language
def table_cards_pdf(*, event: Event, round_: Round, absolute_url: AbsoluteUrl) -> bytes:
    """One card per table with its number and the QR code of its banker link in force.

    Printing never issues a link (a GET must not revoke a card already on a table): tables
    without a link get a card that says so.
    """
    cards = []
    for table in round_.tables.select_related("wave").order_by("number"):
        link = BankerLink.objects.filter(table=table, revoked_at__isnull=True).first()
        # Championship Rules, TOKEN ASSIGNMENT & GAME START: the order of play, once rolled.
        play_order = [entry.player.alias for entry in table_seating(table=table).play_order]
        card: dict[str, Any] = {"table": table, "url": "", "qr": "", "play_order": play_order}
        if link:
            card["url"] = absolute_url(reverse("banker:banker_link_open", kwargs={"key": link.key}))
            card["qr"] = qr_data_uri(card["url"])
        cards.append(card)
    context = _context(
        event,
        _("Round %(number)d table cards") % {"number": round_.number},
        round=round_,
        cards=cards,
        wave_count=round_.waves.count(),
    )
    return render_pdf("printouts/table_cards.html", context)


@in_event_language
def poster_pdf(*, event: Event, absolute_url: AbsoluteUrl) -> bytes:
    """A poster for the hall with a QR code to the event's public page."""
    url = absolute_url(event.get_absolute_url())
    return render_pdf("printouts/poster.html", _context(event, "", url=url, qr=qr_data_uri(url)))
