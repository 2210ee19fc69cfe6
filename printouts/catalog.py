"""The printouts by name, as the jobs, the views and ``render_printout`` build them.

One ``Form`` per printout: how to build it (printouts.render), what data it reads (its
fingerprint: a finished file is reused until that data changes), and its file name. A job
carries a ``PrintRequest`` as plain parameters and reads it back in the worker.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import override

from jobs.fingerprint import digest, files_digest
from jobs.services import JobError
from printouts import selectors
from scoring.models import BankerLink
from series.selectors import qualification_of
from tournament.models import Event, Player, Round, Seat

if TYPE_CHECKING:
    from printouts.render import ProgressCallback

ROOT = Path(__file__).resolve().parent.parent
# What draws a printout besides its data: a deploy that changes any of these is a change.
CODE = (
    *sorted((ROOT / "printouts").glob("*.py")),
    *sorted((ROOT / "templates" / "printouts").glob("*.html")),
    *sorted((ROOT / "static" / "printouts").glob("*.css")),
)


@dataclass(frozen=True)
class PrintRequest:
    """One printout of one event: the round, player, copy and wave it is for, and the
    address its QR codes point to."""

    event: Event
    round: Round | None = None
    player: Player | None = None
    public: bool = False
    wave: int | None = None
    base_url: str = ""

    @property
    def named_round(self) -> Round:
        """The round, for a round's printouts (their requests always name one)."""
        if self.round is None:
            raise ValueError("this printout is a round's: the request names no round")
        return self.round

    @property
    def named_player(self) -> Player:
        """The player, for a player's printouts (their requests always name one)."""
        if self.player is None:
            raise ValueError("this printout is a player's: the request names no player")
        return self.player

    def absolute_url(self, path: str) -> str:
        return self.base_url.rstrip("/") + path

    def params(self) -> dict:
        return {
            "event": self.event.pk,
            "round": self.round.number if self.round else None,
            "player": self.player.pk if self.player else None,
            "public": self.public,
            "wave": self.wave,
            "base_url": self.base_url,
        }

    @classmethod
    def from_params(cls, params: dict) -> PrintRequest:
        """The request again, in the worker; a JobError if what it prints is gone."""
        event = Event.objects.filter(pk=params["event"]).first()
        if event is None:
            raise JobError(_("This event no longer exists."))
        round_ = player = None
        if params.get("round") is not None:
            round_ = event.rounds.filter(number=params["round"]).first()
            if round_ is None:
                message = _("Round %(number)s no longer exists.")
                raise JobError(message % {"number": params["round"]})
        if params.get("player") is not None:
            player = event.players.filter(pk=params["player"]).first()
            if player is None:
                raise JobError(_("This player is no longer registered for the event."))
        return cls(
            event=event,
            round=round_,
            player=player,
            public=bool(params.get("public")),
            wave=params.get("wave"),
            base_url=params.get("base_url", ""),
        )


@dataclass(frozen=True)
class Form:
    name: str
    build: Callable[[PrintRequest, ProgressCallback | None], bytes]
    # The data the printout reads, digested into its fingerprint.
    reads: Callable[[PrintRequest], list]
    filename: Callable[[PrintRequest], str]
    label: Callable[[PrintRequest], str]
    needs_round: bool = False
    needs_player: bool = False
    needs_base_url: bool = False

    def __post_init__(self) -> None:
        # A printout speaks its event's language (Event.language), whoever asked for it:
        # the job, the command line and a one-page form built in the request alike.
        build = self.build

        def in_event_language(request: PrintRequest, on_page: ProgressCallback | None) -> bytes:
            with override(request.event.language or settings.LANGUAGE_CODE):
                return build(request, on_page)

        object.__setattr__(self, "build", in_event_language)

    def key(self, request: PrintRequest) -> str:
        """Which one of this form: a newer file of the same key replaces an older one."""
        parts = [self.name]
        if request.round is not None:
            parts.append(f"round-{request.round.number}")
        if request.player is not None:
            parts.append(f"player-{request.player.pk}")
        if request.wave is not None:
            parts.append(f"wave-{request.wave}")
        if request.public:
            parts.append("public")
        return ":".join(parts)

    def fingerprint(self, request: PrintRequest) -> str:
        return digest(
            self.name,
            request.event.language,
            files_digest(CODE),
            request.event,
            request.params(),
            self.reads(request),
        )


def _seats(round_: Round) -> list:
    seats = (
        Seat.objects.filter(round=round_)
        .select_related("table__wave", "player")
        .order_by("table__number", "position")
    )
    return [(seat, seat.table, seat.table.wave, seat.player) for seat in seats]


def _table_cards_reads(request: PrintRequest) -> list:
    links = BankerLink.objects.filter(table__round=request.named_round, revoked_at__isnull=True)
    tables = request.named_round.tables.select_related("wave").order_by("number")
    return [
        [(t, t.wave) for t in tables],
        list(links.order_by("pk")),
        request.named_round.waves.count(),
    ]


def _round_name(request: PrintRequest, what: str) -> str:
    return f"round-{request.named_round.number}-{what}.pdf"


def renderers() -> ModuleType:
    """The PDF renderers, imported when a printout is built: WeasyPrint takes a second or
    more to import, which every process (the web server, each command, each test worker)
    would otherwise pay at start, since the app's ``ready`` imports this catalog."""
    from printouts import render

    return render


FORMS: dict[str, Form] = {
    form.name: form
    for form in (
        Form(
            name="score-sheets",
            build=lambda r, on_page: renderers().round_score_sheets_pdf(
                event=r.event, round_=r.named_round, on_page=on_page
            ),
            reads=lambda r: [r.named_round, _seats(r.named_round)],
            filename=lambda r: _round_name(r, "score-sheets"),
            label=lambda r: _("Round %(number)s score sheets") % {"number": r.named_round.number},
            needs_round=True,
        ),
        Form(
            name="table-cards",
            build=lambda r, on_page: renderers().table_cards_pdf(
                event=r.event, round_=r.named_round, absolute_url=r.absolute_url
            ),
            reads=_table_cards_reads,
            filename=lambda r: _round_name(r, "table-cards"),
            label=lambda r: _("Round %(number)s table cards") % {"number": r.named_round.number},
            needs_round=True,
            needs_base_url=True,
        ),
        Form(
            name="assignments",
            build=lambda r, on_page: renderers().assignments_pdf(
                event=r.event, round_=r.named_round, public=r.public, wave_number=r.wave
            ),
            reads=lambda r: [
                r.named_round,
                list(r.named_round.waves.order_by("number")),
                _seats(r.named_round),
            ],
            filename=lambda r: _round_name(
                r,
                ("" if r.wave is None else f"wave-{r.wave}-")
                + ("assignments-public" if r.public else "assignments-organizer"),
            ),
            label=lambda r: (
                (
                    _("Round %(number)s table assignments to post")
                    if r.public
                    else _("Round %(number)s table assignments (organizer's copy)")
                )
                % {"number": r.named_round.number}
            ),
            needs_round=True,
        ),
        Form(
            name="event-registration",
            build=lambda r, on_page: renderers().event_registration_pdf(event=r.event),
            reads=lambda r: [],
            filename=lambda r: f"event-{r.event.pk}-event-registration.pdf",
            label=lambda r: _("Event Registration Form"),
        ),
        Form(
            name="participant-registration",
            build=lambda r, on_page: renderers().participant_registration_pdf(event=r.event),
            reads=lambda r: list(selectors.registered_players(r.event)),
            filename=lambda r: f"event-{r.event.pk}-participant-registration.pdf",
            label=lambda r: _("Participant Registration Form"),
        ),
        Form(
            name="winner",
            build=lambda r, on_page: renderers().winner_notification_pdf(
                event=r.event, player=r.named_player, on_page=on_page
            ),
            reads=lambda r: [
                r.named_player,
                selectors.player_filled_pages(event=r.event, player=r.named_player),
                qualification_of(player=r.named_player),
            ],
            filename=lambda r: f"event-{r.event.pk}-winner-{r.named_player.pk}.pdf",
            label=lambda r: (
                _("Winner Notification Form for %(name)s") % {"name": r.named_player.full_name}
            ),
            needs_player=True,
        ),
        Form(
            name="poster",
            build=lambda r, on_page: renderers().poster_pdf(
                event=r.event, absolute_url=r.absolute_url
            ),
            reads=lambda r: [],
            filename=lambda r: f"event-{r.event.pk}-poster.pdf",
            label=lambda r: _("Poster"),
            needs_base_url=True,
        ),
    )
}
