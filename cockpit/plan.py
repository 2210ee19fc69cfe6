"""The event cockpit's plan: where the day stands and the one thing to do next.

Pure functions of ``EventFacts`` (read from the database by ``cockpit_selectors``), so
every state of the day is tested without a database. The day is a sequence:
registration, check-in, seating, each round (clock, sheets in, signed, posted), the
final, the winner, the forms. The next action is always a page to open, never an action
taken from the cockpit: the page it opens asks for any confirmation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

DONE, CURRENT, TODO = "done", "current", "todo"


@dataclass(frozen=True)
class RoundFacts:
    number: int
    final: bool
    tables: int
    published: bool
    clock_started: bool
    # Every started wave's clock has ended (time called everywhere).
    clock_ended: bool
    tables_playing: int
    sheets_in: int
    sheets_signed: int
    sheets_approved: int
    open_ties: int
    posted: bool
    # Tables with no banker assigned, and the first of them by number (a final's banker is
    # the organizer's to choose; preliminary tables may run on the table card's link).
    bankers_missing: int = 0
    first_without_banker: int | None = None
    # The event posts only sheets a judge approved (Event.judge_approves_sheets).
    approval_needed: bool = False
    # Seats of players who left (no-shows, withdrawals, ejections) the head judge has not
    # decided on yet: the round cannot start before (Championship Rules, ALTERNATES).
    vacancies: int = 0


@dataclass(frozen=True)
class EventFacts:
    knockout: bool
    has_final: bool
    planned_rounds: int
    minimum_players: int
    # Seated players (status player), and how many of them have checked in.
    players: int
    checked_in: int
    alternates: int
    # The official start has passed: no-shows can be marked.
    started: bool
    bracket_confirmed: bool
    rounds: tuple[RoundFacts, ...] = ()
    winner: tuple[str, ...] = ()
    # The public site (tournament.public_site): whether the event home is released, and
    # whether the organizer holds the site (nothing follows publishing and posting).
    public_home: bool = False
    public_held: bool = False


@dataclass(frozen=True)
class Action:
    """A page to open: ``url_name`` reversed with the event's pk (and ``round_number``)."""

    label: str
    url_name: str
    round_number: int | None = None
    anchor: str = ""
    why: str = ""
    # Other pages that may be the right one now, shown beside the primary button.
    also: tuple[Action, ...] = ()
    # The URL name of the form the page posts to take this step, when taking it needs more
    # than opening the page (a judge opens a round's results; the head judge posts it).
    act: str = ""


@dataclass(frozen=True)
class Step:
    key: str
    label: str
    state: str
    detail: str = ""
    substeps: tuple[Step, ...] = field(default_factory=tuple)
    # The page of this step, so every step of the day is one click from the cockpit.
    page: Action | None = None


@dataclass(frozen=True)
class Count:
    label: str
    value: str


@dataclass(frozen=True)
class Cockpit:
    steps: tuple[Step, ...]
    next_action: Action | None
    counts: tuple[Count, ...]
    stage: str


def _current_round(facts: EventFacts) -> RoundFacts | None:
    """The first round not posted yet, in order."""
    for round_ in facts.rounds:
        if not round_.posted:
            return round_
    return None


def _round_action(round_: RoundFacts) -> Action:
    """What a seated, unposted round needs next."""
    n = round_.number
    name = _("the final") if round_.final else _("round %(n)s") % {"n": n}
    if not round_.final and not round_.published and not round_.clock_started:
        return Action(
            _("Publish the tables of %(name)s") % {"name": name},
            "seating:seating",
            anchor=f"round-{n}",
        )
    start = Action(_("Start the clock of %(name)s") % {"name": name}, "clock:clock_control")
    if round_.final and not round_.clock_started and round_.bankers_missing:
        return _final_banker_action(round_, start)
    if not round_.clock_started and round_.vacancies:
        return Action(
            ngettext(
                "Decide %(count)s empty seat of %(name)s",
                "Decide %(count)s empty seats of %(name)s",
                round_.vacancies,
            )
            % {"count": round_.vacancies, "name": name},
            "seating:seating_vacancies",
            round_number=n,
            why=_(
                "Use of alternates is at the discretion of the Head Judge: fill the seats "
                "with alternates, leave the tables short or rebalance them, then start."
            ),
            act="seating:seating_vacancies_decide",
        )
    if not round_.clock_started:
        return start
    if not round_.clock_ended and round_.tables_playing:
        return Action(
            ngettext(
                "Follow the clock: %(count)s table still playing",
                "Follow the clock: %(count)s tables still playing",
                round_.tables_playing,
            )
            % {"count": round_.tables_playing},
            "clock:clock_control",
        )
    if round_.sheets_signed < round_.tables:
        return Action(
            _("Collect the score sheets: %(done)s of %(all)s signed")
            % {"done": round_.sheets_signed, "all": round_.tables},
            "scoring:results_round",
            round_number=n,
        )
    if round_.open_ties:
        return Action(
            ngettext("Decide %(count)s tie", "Decide %(count)s ties", round_.open_ties)
            % {"count": round_.open_ties},
            "scoring:results_round",
            round_number=n,
            act="scoring:results_tie",
        )
    if round_.approval_needed and round_.sheets_approved < round_.tables:
        return Action(
            _("Approve the score sheets: %(done)s of %(all)s approved")
            % {"done": round_.sheets_approved, "all": round_.tables},
            "scoring:results_round",
            round_number=n,
        )
    # Championship Rules, POSTING SCORES: a round is posted once every sheet is signed (and approved
    # by a judge, unless the event turned that off for the club kit) and its ties are decided.
    return Action(
        _("Post the results of %(name)s") % {"name": name},
        "scoring:results_round",
        round_number=n,
        anchor="post",
        act="scoring:results_post",
    )


def _final_banker_action(round_: RoundFacts, start: Action) -> Action:
    """Tournament Kit, BANKERS RESPONSIBILITIES: "The Banker in the Final Round must not be a
    player."

    The organizer chooses the final's banker on the seating page; the action opens that
    page at the first table without one. Starting the clock stays one tap away beside it.
    """
    return Action(
        ngettext(
            "Assign the final's banker",
            "Assign the final's bankers: %(count)s tables without one",
            round_.bankers_missing,
        )
        % {"count": round_.bankers_missing},
        "seating:seating",
        anchor=f"round-{round_.number}-table-{round_.first_without_banker}",
        why=_(
            "The final needs a banker who is not playing in it. Choose one on the seating "
            "page; the banker then finds the table under My tables."
        ),
        also=(start,),
    )


def _before_play(facts: EventFacts) -> tuple[str, Action]:
    if facts.players < facts.minimum_players:
        return "registration", Action(
            _("Register players: %(count)s of at least %(min)s")
            % {"count": facts.players, "min": facts.minimum_players},
            "players:player_list",
        )
    # Until the desk has checked anyone in, the start passing changes nothing: check in.
    if facts.checked_in < facts.players and (not facts.started or not facts.checked_in):
        return "check_in", Action(
            _("Check players in: %(done)s of %(all)s here")
            % {"done": facts.checked_in, "all": facts.players},
            "players:check_in",
        )
    if facts.checked_in < facts.players:
        missing = facts.players - facts.checked_in
        return "check_in", Action(
            ngettext(
                "Mark the no-shows: %(count)s player not checked in",
                "Mark the no-shows: %(count)s players not checked in",
                missing,
            )
            % {"count": missing},
            "players:check_in",
            anchor="not-here",
            why=_("The start time has passed; an alternate takes each no-show's seat."),
            act="players:player_no_show",
        )
    if facts.knockout and not facts.bracket_confirmed:
        return "seating", Action(_("Confirm the bracket"), "seating:seating")
    if facts.knockout:
        return "seating", Action(_("Seat round 1"), "seating:seating")
    return "seating", Action(_("Seat the rounds"), "seating:seating")


def next_action(facts: EventFacts) -> tuple[str, Action | None]:
    """The stage of the day and the one next action (None once nothing is left to do)."""
    if not facts.rounds:
        return _before_play(facts)
    current = _current_round(facts)
    if current is not None:
        return f"round-{current.number}", _round_action(current)
    if facts.winner:
        return "forms", Action(_("Print the winner's forms"), "printouts:index")
    last = facts.rounds[-1]
    if facts.knockout and not last.final and last.number < facts.planned_rounds:
        return "seating", Action(
            _("Seat round %(n)s") % {"n": last.number + 1},
            "scoring:standings",
            act="scoring:final_seat",
        )
    if facts.has_final and not any(r.final for r in facts.rounds):
        return "final", Action(_("Seat the final"), "scoring:standings", act="scoring:final_seat")
    if not facts.knockout and len(facts.rounds) < facts.planned_rounds:
        return "seating", Action(_("Seat the rounds"), "seating:seating")
    return "winner", Action(
        _("Decide the tie for first place"), "scoring:standings", act="scoring:standings_tie"
    )


def _round_step(round_: RoundFacts, current: RoundFacts | None) -> Step:
    is_current = current is not None and current.number == round_.number
    state = DONE if round_.posted else (CURRENT if is_current else TODO)
    tables = round_.tables

    def part(key: str, label: str, done: bool, detail: str = "") -> Step:
        return Step(key, label, DONE if done else (CURRENT if is_current else TODO), detail)

    clock_detail = (
        _("time called")
        if round_.clock_ended
        else _("running")
        if round_.clock_started
        else _("not started")
    )
    label = _("Final") if round_.final else _("Round %(n)s") % {"n": round_.number}
    page = Action(label, "scoring:results_round", round_number=round_.number)
    banker = (
        (
            part(
                "banker",
                _("Banker"),
                not round_.bankers_missing,
                f"{tables - round_.bankers_missing}/{tables}",
            ),
        )
        if round_.final
        else ()
    )
    return Step(
        "final" if round_.final else f"round-{round_.number}",
        label,
        state,
        ngettext("%(tables)s table", "%(tables)s tables", tables) % {"tables": tables},
        (
            *banker,
            part("clock", _("Clock"), round_.clock_ended, clock_detail),
            part(
                "sheets",
                _("Sheets in"),
                tables > 0 and round_.sheets_in >= tables,
                f"{round_.sheets_in}/{tables}",
            ),
            part(
                "signed",
                _("Signed"),
                tables > 0 and round_.sheets_signed >= tables,
                f"{round_.sheets_signed}/{tables}",
            ),
            part("posted", _("Posted"), round_.posted),
        ),
        page,
    )


def _state(done: bool, current: bool) -> str:
    return DONE if done else CURRENT if current else TODO


def _opening_steps(facts: EventFacts, stage: str) -> list[Step]:
    seated = bool(facts.rounds)
    return [
        Step(
            "registration",
            _("Registration"),
            _state(facts.players >= facts.minimum_players, stage == "registration"),
            ", ".join(
                (
                    ngettext("%(count)s player", "%(count)s players", facts.players)
                    % {"count": facts.players},
                    ngettext("%(count)s alternate", "%(count)s alternates", facts.alternates)
                    % {"count": facts.alternates},
                )
            ),
            page=Action(_("Players"), "players:player_list"),
        ),
        Step(
            "check_in",
            _("Check-in"),
            _state(seated or 0 < facts.players <= facts.checked_in, stage == "check_in"),
            f"{facts.checked_in}/{facts.players}",
            page=Action(_("Check-in"), "players:check_in"),
        ),
        Step(
            "seating",
            _("Seating"),
            _state(seated and stage != "seating", stage == "seating"),
            page=Action(_("Seating"), "seating:seating"),
        ),
        _public_step(facts),
    ]


def _public_step(facts: EventFacts) -> Step:
    """Before round 1: the hall display on the projector and the spectators' address (the
    cockpit shows both and a QR code). Done once the event home is public, which publishing
    round 1's tables does unless the organizer holds the public site."""
    if facts.public_home:
        detail = _("the event home is public")
    elif facts.public_held:
        detail = _("the public site is held: release the event home when you are ready")
    else:
        detail = _("the event home opens when round 1's tables are published")
    return Step(
        "public",
        _("Open the public site and the hall display"),
        _state(facts.public_home, bool(facts.rounds)),
        detail,
        page=Action(_("Public event page"), "spectator:event_home"),
    )


def day_steps(facts: EventFacts, stage: str) -> tuple[Step, ...]:
    current = _current_round(facts)
    steps = _opening_steps(facts, stage)
    prelims = [r for r in facts.rounds if not r.final]
    steps += [_round_step(r, current) for r in prelims]
    for number in range(len(prelims) + 1, facts.planned_rounds + 1):
        steps.append(Step(f"round-{number}", _("Round %(n)s") % {"n": number}, TODO))
    standings = Action(_("Standings"), "scoring:standings")
    if facts.has_final:
        final = next((r for r in facts.rounds if r.final), None)
        steps.append(
            _round_step(final, current)
            if final
            else Step("final", _("Final"), _state(False, stage == "final"), page=standings)
        )
    winner = _state(bool(facts.winner), stage == "winner")
    steps.append(Step("winner", _("Winner"), winner, ", ".join(facts.winner), page=standings))
    printouts = Action(_("Printouts"), "printouts:index")
    steps.append(Step("forms", _("Forms"), _state(False, stage == "forms"), page=printouts))
    return tuple(steps)


def now_counts(facts: EventFacts) -> tuple[Count, ...]:
    """The numbers that matter at this moment of the day."""
    current = _current_round(facts)
    if current is None and facts.rounds:
        return ()
    if current is None:
        return (
            Count(_("Checked in"), f"{facts.checked_in}/{facts.players}"),
            Count(_("Alternates"), str(facts.alternates)),
        )
    return (
        Count(_("Checked in"), f"{facts.checked_in}/{facts.players}"),
        Count(_("Tables still playing"), str(current.tables_playing)),
        Count(_("Sheets missing"), str(max(current.tables - current.sheets_signed, 0))),
        Count(_("Ties to decide"), str(current.open_ties)),
    )


def cockpit_plan(facts: EventFacts) -> Cockpit:
    stage, action = next_action(facts)
    return Cockpit(
        steps=day_steps(facts, stage), next_action=action, counts=now_counts(facts), stage=stage
    )


# --- What the day needs ----------------------------------------------------------------

# Tournament Kit, WHO WILL HELP?: "We recommend one director for every eight players."
PLAYERS_PER_DIRECTOR = 8
# Championship Rules: "tables of four players (five where needed)"; Tournament Kit: "Ideally, tables
# should be set up for four players."
PREFERRED_TABLE = 4


@dataclass(frozen=True)
class Need:
    label: str
    needed: int
    assigned: int | None = None
    note: str = ""

    @property
    def short(self) -> int | None:
        """How many are missing, or None when nobody assigns this (materials)."""
        if self.assigned is None:
            return None
        return max(self.needed - self.assigned, 0)


def tables_for(*, players: int, table_min: int, table_max: int) -> int:
    """Tables for ``players`` at the preferred four, within the event's table sizes."""
    if players <= 0:
        return 0
    most = max(players // max(table_min, 1), 1)
    fewest = math.ceil(players / max(table_max, 1))
    return max(min(math.ceil(players / PREFERRED_TABLE), most), fewest)


def directors_needed(*, players: int) -> int:
    return math.ceil(players / PLAYERS_PER_DIRECTOR)


def score_sheets_needed(*, players: int, rounds: int, finalists: int) -> int:
    """Tournament Kit, MATERIALS NEEDED: "Allow one score sheet per player for each preliminary
    round and one for each player in the final game." """
    return players * rounds + finalists
