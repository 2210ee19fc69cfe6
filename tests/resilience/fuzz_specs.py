"""What the form fuzzer posts: nasty values, and for every POST route the fields it takes.

``FUZZED`` maps each route's name to a ``Spec``: the values its form reads (hypothesis
strategies built against the fuzzing world, ``fuzz_world.World``), the URL's arguments and
how many examples it deserves. ``test_fuzz_forms.py`` walks the URL conf and posts them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django import forms
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone
from hypothesis import strategies as st

from banker.bankruptcy_views import BankruptcyForm
from clock.views import AdjustForm, AnnouncementForm, ReasonForm
from gameplay import load_edition
from jobs.models import Job
from knockout.services import bracket_confirm
from knockout.views import OverrideForm
from players.csv_columns import EXPORT_COLUMNS, IMPORT_COLUMNS
from players.csv_io import MAX_IMPORT_BYTES
from players.registration_forms import OnTheDayForm, RegistrationForm
from scoring.results_forms import OrderForm, SheetCorrectionForm, TieBreakerOrderForm
from scoring.selectors import banker_table_players
from scoring.sheet_forms import SheetForm
from scoring.tie_breakers import tie_breakers_for
from seating.change_views import SeatChangeForm
from seating.search_views import SearchForm
from seating.selectors import round_seating
from seating.views import PreseatForm
from series.forms import (
    AddEventForm,
    DeadlineForm,
    FinalsForm,
    InviteForm,
    PlacesForm,
    ReasonlessConfirmForm,
    ReleaseForm,
    SeriesForm,
)
from series.invitation_mail import invitation_token
from series.models import Invitation
from tests.builders import an_event, registered_players
from tests.resilience.fuzz_world import FUZZ_PEOPLE, World
from tournament.models import JudgeCall
from tournament.organizer_forms import AliasForm, EventForm
from tournament.organizer_forms import ReasonForm as EjectReasonForm

# --- Values ------------------------------------------------------------------------------

NASTY = [
    "",
    " ",
    "\x00",
    "a\x00b",
    "0",
    "-1",
    "1e309",
    "NaN",
    "inf",
    "on",
    "true",
    "None",
    "null",
    "²",
    "١٢",
    "𝟗",
    "٣",
    "1_000",
    "0x10",
    "9" * 30,
    "-" + "9" * 30,
    "[]",
    "{}",
    '{"a": 1}',
    "<script>alert(1)</script>",
    "{{ 7|add:1 }}",
    "'; DROP TABLE x; --",
    "\u202e\ufeff",
    "a,b",
    "\r\n",
    "%00",
    "//evil.example/",
    "javascript:alert(1)",
    "2030-02-30",
    "2030-13-01",
    "99:99",
]

texts = st.one_of(
    st.sampled_from(NASTY),
    st.text(max_size=40),
    st.integers(min_value=-(10**40), max_value=10**40).map(str),
    st.floats().map(str),
    st.builds(
        lambda piece, count: piece * count,
        st.sampled_from(["x", "9", "é", "\x00", "𝟗", "a b"]),
        st.integers(min_value=201, max_value=100_000),
    ),
)


def _flat_choices(choices) -> list[str]:
    values = []
    for key, label in choices:
        if isinstance(label, (list, tuple)):
            values.extend(str(k) for k, _ in label)
        else:
            values.append(str(key))
    return values or [""]


def plausible(form_field: forms.Field) -> st.SearchStrategy[str]:
    """A value of the field's own kind, valid or just out of range."""
    if isinstance(form_field, forms.BooleanField):
        return st.sampled_from(["on", "", "true", "false", "0", "1"])
    if isinstance(form_field, forms.ChoiceField):
        return st.sampled_from(_flat_choices(form_field.choices))
    if isinstance(form_field, forms.IntegerField):
        low = form_field.min_value if form_field.min_value is not None else -5
        high = form_field.max_value if form_field.max_value is not None else 10**7
        return st.integers(min_value=low - 3, max_value=high + 3).map(str)
    if isinstance(form_field, forms.DecimalField):
        return st.decimals(allow_nan=False, allow_infinity=False).map(str)
    if isinstance(form_field, forms.DateTimeField):
        return st.datetimes().map(lambda d: d.strftime("%Y-%m-%dT%H:%M"))
    if isinstance(form_field, forms.DateField):
        return st.dates().map(lambda d: d.isoformat())
    if isinstance(form_field, forms.TimeField):
        return st.times().map(lambda t: t.strftime("%H:%M"))
    if isinstance(form_field, forms.EmailField):
        return st.emails()
    if isinstance(form_field, forms.UUIDField):
        return st.uuids().map(str)
    return st.text(max_size=30)


def value_of(kind: st.SearchStrategy) -> st.SearchStrategy:
    """The field's own kind, anything at all, or the field sent twice."""
    return st.one_of(kind, kind, texts, st.lists(st.one_of(kind, texts), min_size=2, max_size=3))


def form_values(form: forms.Form) -> dict[str, st.SearchStrategy]:
    return {name: plausible(f) for name, f in form.fields.items()}


def pick(*values: object) -> st.SearchStrategy:
    return st.sampled_from([str(v) for v in values])


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


# --- Routes --------------------------------------------------------------------------------


@dataclass
class Spec:
    """How to fill one route's form: its fields (name -> strategy) and URL overrides."""

    fields: Callable[[World], dict[str, st.SearchStrategy]] = lambda world: {}
    kwargs: Callable[[World], dict[str, object]] = lambda world: {}
    examples: int | None = None


def _failed_job(world: World, kind: str = "printouts:event-registration") -> Job:
    """A failed job of the world's event, whose retry builds a one-page form (or imports
    a two-line file)."""
    event = world.event.pk
    params = {
        "form": "event-registration",
        "request": {"event": event},
        "label": "Event Registration Form",
        "event": event,
        "text": "first_name,last_name,date_of_birth\nAda,Byron,1990-01-01\n",
        "pasted": True,
    }
    task = "printouts.tasks.build_printout"
    if kind == "tournament:import":
        task = "players.tasks.import_registrations_task"
    return Job.objects.create(
        kind=kind,
        scope=f"event-{event}",
        key="fuzz",
        params=params,
        task_path=task,
        token="fuzz",
        status=Job.Status.FAILED,
        error="Paper jam",
    )


def _next(world: World) -> dict[str, st.SearchStrategy]:
    return {"next": pick(f"/organizer/events/{world.event.pk}/check-in/?q=a", "/", "")}


def _reason(world: World) -> dict[str, st.SearchStrategy]:
    return form_values(ReasonForm())


def _sheet(world: World) -> dict[str, st.SearchStrategy]:
    table = world.open_table
    players = banker_table_players(table=table)
    form = SheetForm(players=players, edition=load_edition(world.event.edition))
    values = form_values(form)
    values["version_override"] = pick(0, 1, 2, -1)
    return values


def _sign(world: World) -> dict[str, st.SearchStrategy]:
    players = banker_table_players(table=world.open_table)
    values = {
        "player": pick("", *(p.pk for p in players), world.seated.pk),
        "initials": st.text(max_size=12),
        **{f"initials_{p.pk}": st.text(max_size=12) for p in players},
    }
    return {**values, **st_optional_sheet(world)}


def st_optional_sheet(world: World) -> dict[str, st.SearchStrategy]:
    # The sign button of a bankrupt player posts the whole sheet with it.
    return _sheet(world)


def _playing_table(world: World) -> dict[str, object]:
    return {"table_pk": world.playing_table.pk}


def _judge_call(world: World) -> dict[str, object]:
    """A call of the open table, waiting (a closed one is made again for each example)."""
    call = JudgeCall.objects.filter(table=world.open_table, closed_at__isnull=True).first()
    if call is None:
        call = JudgeCall.objects.create(table=world.open_table, called_at=timezone.now())
    return {"call_pk": call.pk}


def _bankruptcy(world: World) -> dict[str, st.SearchStrategy]:
    players = banker_table_players(table=world.playing_table)
    values = form_values(BankruptcyForm(players=players))
    values["creditor"] = pick("bank", "", *(p.pk for p in players), world.alternate.pk)
    return values


def _correct(world: World) -> dict[str, st.SearchStrategy]:
    sheet = world.signed_table.sheet
    seated = {str(s.player_id): s.player for s in world.signed_table.seats.all()}
    form = SheetCorrectionForm(
        sheet_data=sheet.data,
        report=sheet.report,
        players=seated,
        edition=load_edition(world.event.edition),
        version=sheet.version,
    )
    return form_values(form)


def _tie(world: World) -> dict[str, st.SearchStrategy]:
    ids = [str(p.pk) for p in world.tied]
    form = OrderForm(players=[(i, i) for i in ids], allow_share=True)
    values = form_values(form)
    values["place_3"] = pick(*ids)
    values["players"] = pick(",".join(ids), ",".join(reversed(ids)), ids[0], ",,", "x,y")
    return values


def _standings_tie(world: World) -> dict[str, st.SearchStrategy]:
    values = _tie(world)
    values.pop("mode", None)
    return values


def _tie_breakers(world: World) -> dict[str, st.SearchStrategy]:
    first, *others = tie_breakers_for(event=world.event).keys
    form = TieBreakerOrderForm(first=(first, first), others=[(k, k) for k in others], current=[])
    values = form_values(form)
    values["default"] = pick("1", "")
    return values


def _seat_change(world: World) -> dict[str, st.SearchStrategy]:
    form = SeatChangeForm(tables=round_seating(round_=world.round_2).tables)
    values = form_values(form)
    values["confirm"] = pick("1", "0")
    return values


def _rolls(world: World) -> dict[str, st.SearchStrategy]:
    ids = list(world.signed_table.seats.values_list("player_id", flat=True))
    places = st.integers(min_value=0, max_value=6).map(str)
    return {f"{kind}_{pid}": places for kind in ("token", "play") for pid in ids}


def _invitation_link(world: World) -> str:
    invitation, _ = Invitation.objects.get_or_create(
        entrant=world.entrant, defaults={"nonce": "fuzz"}
    )
    return invitation_token(invitation)


def _club(world: World) -> dict[str, object]:
    """A club knockout of 24 checked-in players with its bracket confirmed (the fuzz world's
    event is a championship, where the knockout's routes only refuse)."""
    club = an_event(
        name="Fuzz Charity Night",
        fmt="club",
        date=world.event.date,
        start_time=world.event.start_time,
    )
    registered_players(club, count=24, **FUZZ_PEOPLE)
    bracket_confirm(event=club, method="table_winners", by=None)
    return {"pk": club.pk}


def _csv_text(header, rows, delimiter) -> str:
    lines = [delimiter.join(header)] + [delimiter.join(row) for row in rows]
    return "\r\n".join(lines)


csv_cells = st.one_of(
    texts,
    st.sampled_from(["Ada", "1990-01-01", "01/02/1990", "yes", "no", "maybe", '"', '""', "'=1+1"]),
)
csv_texts = st.builds(
    _csv_text,
    st.one_of(
        st.just(list(IMPORT_COLUMNS)),
        st.lists(st.sampled_from([*EXPORT_COLUMNS, "First Name", "junk", ""]), max_size=20),
    ),
    st.lists(st.lists(csv_cells, max_size=20), max_size=5),
    st.sampled_from([",", ";", "\t"]),
)
csv_bytes = st.one_of(
    csv_texts.map(lambda text: text.encode("utf-8", "surrogatepass")),
    csv_texts.map(lambda text: b"\xef\xbb\xbf" + text.encode("utf-8", "surrogatepass")),
    csv_texts.map(lambda text: text.encode("utf-16")),
    st.binary(max_size=3000),
    # One byte over the upload limit.
    st.just(b"first_name,last_name,date_of_birth\r\n".ljust(MAX_IMPORT_BYTES + 1, b"a")),
)


def _import(world: World) -> dict[str, st.SearchStrategy]:
    return {
        "text": st.one_of(csv_texts, texts),
        "file": csv_bytes.map(lambda data: SimpleUploadedFile("players.csv", data, "text/csv")),
    }


def _release_form() -> forms.Form:
    from spectator.forms import ReleaseForm

    return ReleaseForm()


FUZZED: dict[str, Spec] = {
    # Public and Django's own forms that the project serves.
    "players:register": Spec(lambda w: form_values(RegistrationForm(event=w.event))),
    "login": Spec(lambda w: {"username": st.text(), "password": st.text()}),
    "password_reset": Spec(lambda w: {"email": st.text()}),
    "password_change": Spec(
        lambda w: {
            "old_password": st.text(),
            "new_password1": st.text(),
            "new_password2": st.text(),
        }
    ),
    "logout": Spec(lambda w: {}),
    "set_language": Spec(lambda w: {"language": pick("en", "fr", "xx"), **_next(w)}),
    # Registration, events and the player list.
    "players:player_add": Spec(lambda w: form_values(OnTheDayForm(event=w.event))),
    "players:player_import": Spec(_import),
    "tournament:event_create": Spec(lambda w: form_values(EventForm())),
    "tournament:event_edit": Spec(lambda w: form_values(EventForm())),
    "players:player_alias": Spec(lambda w: form_values(AliasForm())),
    "players:player_eject": Spec(lambda w: {**form_values(EjectReasonForm()), **_next(w)}),
    "players:alternate_fill_seat": Spec(_next),
    "players:alternate_move": Spec(
        lambda w: {"direction": pick("up", "down"), "from": texts, **_next(w)},
        kwargs=lambda w: {"player_pk": w.alternate.pk},
    ),
    "players:player_no_show": Spec(_next),
    # The cockpit: undoing a no-show.
    "players:player_no_show_undo": Spec(_next),
    # The cockpit: undoing a withdrawal or an ejection.
    "players:player_leave_undo": Spec(_next),
    "players:player_withdraw": Spec(lambda w: {"reason": texts, **_next(w)}),
    # The waiting list: promoting an alternate and returning a seated player are refused.
    "players:waiting_promote": Spec(kwargs=lambda w: {"player_pk": w.alternate.pk}),
    "players:waiting_return": Spec(kwargs=lambda w: {"player_pk": w.seated.pk}),
    "players:player_check_in": Spec(_next),
    "players:player_undo_check_in": Spec(_next),
    # Seating.
    "seating:seating_change": Spec(_seat_change, kwargs=lambda w: {"round_number": 2}),
    "seating:seating_preseat": Spec(lambda w: form_values(PreseatForm()), examples=10),
    "seating:seating_reseat_undo": Spec(),
    "seating:seating_publish": Spec(lambda w: {"published": pick("1", "0")}),
    # Round 1's draw again: refused for a later round or once published.
    "seating:seating_redraw": Spec(kwargs=lambda w: {"round_number": 1}),
    "seating:seating_start": Spec(kwargs=lambda w: {"round_number": 2}),
    "seating:seating_fill_vacancies": Spec(kwargs=lambda w: {"round_number": 2}),
    # A round's start: the head judge's choice on its empty seats, the start they call.
    "seating:seating_vacancies_decide": Spec(
        lambda w: {"choice": pick("fill", "leave", "rebalance", "", "x")},
        kwargs=lambda w: {"round_number": 2},
    ),
    "seating:seating_call_start": Spec(
        lambda w: {"wave": pick("1", "2", "", "x", "99999", "²")},
        kwargs=lambda w: {"round_number": 2},
    ),
    "seating:seating_roll": Spec(),
    "seating:seating_banker": Spec(
        lambda w: {"banker": pick("", w.users["Banker"].pk, w.users["Organizer"].pk)}
    ),
    # Tournament Kit: where no volunteer banks, one of the table's players banks it.
    "seating:seating_player_banker": Spec(
        lambda w: {"player": pick("", "0", "x", "99999999", w.seated.pk, w.alternate.pk)}
    ),
    "seating:seating_record_rolls": Spec(_rolls),
    # --- languages: the language switch and a table's game language ---
    "accounts:language": Spec(lambda w: {"language": pick("en", "fr", "hi", "xx", ""), **_next(w)}),
    "seating:seating_table_language": Spec(lambda w: {"language": pick("", "fr", "hi", "xx")}),
    # The club knockout's bracket, on a club event.
    "knockout:knockout_confirm": Spec(
        lambda w: {"method": pick("table_winners", "highest_assets", "")}, kwargs=_club
    ),
    "knockout:knockout_seat": Spec(kwargs=_club, examples=5),
    "knockout:knockout_override": Spec(lambda w: form_values(OverrideForm()), kwargs=_club),
    "knockout:knockout_override_withdraw": Spec(kwargs=_club),
    # The clock and the banker's table page.
    "clock:clock_start": Spec(_reason),
    "clock:clock_pause": Spec(_reason),
    "clock:clock_resume": Spec(_reason),
    "clock:clock_adjust": Spec(lambda w: form_values(AdjustForm())),
    "clock:clock_end": Spec(_reason),
    "clock:announcement_add": Spec(lambda w: form_values(AnnouncementForm())),
    "clock:announcement_delete": Spec(),
    "banker:table_last_turn": Spec(),
    "banker:table_finished": Spec(),
    "banker:table_reopen": Spec(),
    # Championship Rules, JUDGING: "Judge, please", taken and closed by a judge (a ruling, or
    # nonsense).
    "banker:table_judge_please": Spec(),
    "cockpit:judge_call_take": Spec(lambda w: _next(w), kwargs=_judge_call),
    "cockpit:judge_call_close": Spec(
        lambda w: {"ruling": st.text(max_size=3000), **_next(w)}, kwargs=_judge_call
    ),
    "banker:bankruptcy_record": Spec(_bankruptcy, kwargs=_playing_table),
    "banker:bankruptcy_undo": Spec(
        lambda w: {"bankruptcy": pick("", "0", "1", "999999", "x")}, kwargs=_playing_table
    ),
    # The tablet's heartbeat: device, queue length, offline since.
    "banker:tablet_heartbeat": Spec(
        lambda w: {
            "device": st.text(max_size=80),
            "queued": st.one_of(st.text(max_size=8), pick("0", "3", "999999", "-1")),
            "offline_since": st.one_of(st.text(max_size=40), pick("2031-03-01T10:05:00Z")),
            "idempotency_key": st.one_of(st.text(max_size=40), pick("not-a-uuid")),
        }
    ),
    # The long seating search: starting one runs it at once here (the immediate
    # task backend), so few examples; stopping reads nothing but the event.
    "seating:seating_search_start": Spec(lambda w: form_values(SearchForm()), examples=5),
    "seating:seating_search_stop": Spec(),
    # --- series: the organizer's series pages ------------------------------------
    "series:list": Spec(lambda w: form_values(SeriesForm())),
    "series:add_event": Spec(lambda w: form_values(AddEventForm(series=w.series))),
    "series:places": Spec(lambda w: form_values(PlacesForm())),
    "series:qualify": Spec(),
    "series:accept": Spec(),
    "series:decline": Spec(),
    "series:invite": Spec(lambda w: form_values(InviteForm())),
    "series:alternates": Spec(
        lambda w: {f"position-{w.seated.pk}": st.text(max_size=8), "position-x": texts}
    ),
    "series:confirm": Spec(lambda w: form_values(ReasonlessConfirmForm())),
    "series:finals": Spec(lambda w: form_values(FinalsForm(series=w.series, division="senior"))),
    "series:release": Spec(lambda w: form_values(ReleaseForm())),
    "series:merge": Spec(lambda w: {"keep": st.text(max_size=22), "other": st.text(max_size=22)}),
    "series:split": Spec(lambda w: {"player": pick(w.seated.pk, "", "²", "9" * 30)}),
    # Finals invitations: the deadline, a link sent again, and the qualifier's own answer
    # through a real link (a forged one only gets the page that says the link is unknown).
    "series:deadline": Spec(lambda w: form_values(DeadlineForm())),
    "series:resend": Spec(),
    "series:answer": Spec(
        lambda w: {"answer": pick("accept", "decline", "", "x"), "sure": pick("yes", "", "no")},
        kwargs=lambda w: {"token": _invitation_link(w)},
    ),
    # The score sheet on the tablet.
    "banker:sheet_validate": Spec(_sheet),
    "banker:sheet_draft": Spec(_sheet),
    "banker:sheet_submit": Spec(_sheet),
    "banker:sheet_sign": Spec(_sign),
    "banker:banker_link_issue": Spec(),
    "banker:banker_link_revoke": Spec(),
    # Results and standings.
    "scoring:results_correct": Spec(_correct),
    "scoring:results_approve": Spec(),
    "scoring:results_tie": Spec(_tie),
    "scoring:results_post": Spec(),
    "scoring:results_unpost": Spec(),
    "scoring:standings_tie": Spec(_standings_tie),
    "scoring:standings_tie_breakers": Spec(_tie_breakers),
    "scoring:final_seat": Spec(),
    # The organizer's switches for the public pages.
    "spectator:release": Spec(lambda w: form_values(_release_form())),
    # The one-tap release or undo a message carries: pages, which way, and where back to.
    "spectator:release_pages": Spec(
        lambda w: {
            "pages": st.one_of(
                pick("home", "tables", "results", "standings", "final", "winner"), texts
            ),
            "released": st.one_of(pick("1", "0"), texts),
            "back": st.one_of(
                pick("/organizer/", "/x\r\nSet-Cookie: a=b", "https://evil.example/", "a\x00b"),
                texts,
            ),
        }
    ),
    # Running a failed background job again.
    # It reads no field (only the job in its path), and each retry lays out a PDF: a few
    # examples of posted noise say all there is to say.
    "printouts:job_retry": Spec(kwargs=lambda w: {"job_pk": _failed_job(w).pk}, examples=5),
    "players:player_import_retry": Spec(
        lambda w: {"job": st.one_of(pick(_failed_job(w, kind="tournament:import").pk), texts)}
    ),
}
