"""The red team's reproductions (deploy/redteam.py), each over HTTPS through nginx.

Each case returns ``{"name", "expected", "observed", "ok"}``: ``expected`` is what a
secure site does (the rules and issue's words), ``observed`` what the deployed one did.
Races start their requests together: every thread waits at one barrier, then sends.
"""

from __future__ import annotations

import re
import threading
import uuid
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import smoke
from machine import HOST

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
ALTERNATE_ROW = re.compile(r'<tr id="player-(\d+)" class="alternate">\s*<td class="num">(\d+)</td>')


class Browser(smoke.Client):
    """One browser through nginx; every answer's status is kept by its site."""

    site: Site | None = None

    def request(self, base, path, *, method="GET", form=None):  # type: ignore[override]
        answer = super().request(base, path, method=method, form=form)
        self.site.seen(method, path, answer.status)
        return answer

    def get(self, path: str) -> smoke.Answer:  # type: ignore[override]
        return self.request(self.site.base, path)

    def post(self, path: str, form: dict) -> smoke.Answer:  # type: ignore[override]
        return self.request(self.site.base, path, method="POST", form=form)

    def token(self, path: str = "/accounts/login/") -> str:
        match = TOKEN.search(self.get(path).text)
        assert match, f"no CSRF token on {path}"
        return match[1]


@dataclass
class Site:
    base: str
    password: str
    ids: dict
    answers: list[tuple[str, str, int]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def seen(self, method: str, path: str, status: int) -> None:
        with self.lock:
            self.answers.append((method, path, status))

    def five_hundreds(self) -> list[tuple[str, str, int]]:
        return [a for a in self.answers if a[2] >= 500]

    def browser(self, username: str | None = None) -> Browser:
        browser = Browser(HOST)
        browser.site = self
        if username:
            page = browser.get("/accounts/login/")
            fields = smoke.page_form(page, "/accounts/login/")
            fields.update(username=[username], password=[self.password])
            answer = browser.post("/accounts/login/", fields)
            assert answer.status == 302, f"{username} could not sign in: {answer.status}"
        return browser


def together(calls: list) -> list:
    """Run the calls in threads released at once by a barrier; their results in order."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = calls[i]()
        except Exception as error:  # a refused connection is an observation too
            results[i] = error

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    return results


def key() -> str:
    return str(uuid.uuid4())


def result(name: str, expected: str, observed: dict, ok: bool) -> dict:
    return {"name": name, "expected": expected, "observed": observed, "ok": bool(ok)}


def statuses(answers: list) -> list:
    return [a.status if isinstance(a, smoke.Answer) else repr(a) for a in answers]


def said(browser: Browser, answer: smoke.Answer) -> list[str]:
    """The messages of the page a redirect leads to."""
    if not answer.location:
        return []
    page = browser.get(urlsplit(answer.location).path)
    found = re.findall(r'<li class="message[^"]*"[^>]*>(.*?)</li>', page.text, re.S)
    return [re.sub(r"<[^>]+>|\s+", " ", m).strip() for m in found]


# --- The cases ------------------------------------------------------------------------------


def alternates_race(site: Site, *, trials: int) -> dict:
    """Two organizers on the alternates: withdraw alternate 1 while another moves them."""
    event = site.ids["alternates"]
    one, two = site.browser("rt-org1"), site.browser("rt-org2")
    players = f"/organizer/events/{event}/players/"
    token1, token2 = one.token(players), two.token(players)
    broken, codes = [], set()
    for trial in range(trials):
        rows = {int(pos): int(pk) for pk, pos in ALTERNATE_ROW.findall(one.get(players).text)}
        first = rows[1]
        # Vary what the second organizer does: alternate 1 down, 2 up (into 1), 3 up.
        mover, direction = [(rows[1], "down"), (rows[2], "up"), (rows[3], "up")][trial % 3]
        shown = next(pos for pos, pk in rows.items() if pk == mover)
        withdraw = {"csrfmiddlewaretoken": token1, "idempotency_key": key(), "reason": "race"}
        move = {"csrfmiddlewaretoken": token2, "idempotency_key": key()}
        move.update(direction=direction, **{"from": str(shown)})
        answers = together(
            [
                lambda first=first, form=withdraw: one.post(f"{players}{first}/withdraw/", form),
                lambda mover=mover, form=move: two.post(f"{players}{mover}/move/", form),
            ]
        )
        codes.update(statuses(answers))
        after = [int(p) for _pk, p in ALTERNATE_ROW.findall(one.get(players).text)]
        left = {int(pk) for pk, _p in ALTERNATE_ROW.findall(one.get(players).text)}
        if after != list(range(1, len(rows))) or first in left:
            broken.append({"trial": trial, "positions": after})
    start = next_round_starts(site, one, event)
    observed = {"trials": trials, "statuses": sorted(map(str, codes)), "broken_lists": broken}
    observed["next_round"] = start
    ok = not broken and codes <= {302} and start["started"]
    expected = (
        "every trial: 302s only, the withdrawn alternate off the list, the list 1..n with "
        "no gap or repeat; then round 1 pre-seats, publishes and starts"
    )
    return result(f"Alternates: withdraw #1 while moving (x{trials})", expected, observed, ok)


def next_round_starts(site: Site, browser: Browser, event: int, *, preseat: bool = True) -> dict:
    """Pre-seat (championship), publish and start round 1 from the seating page's forms."""
    seating = f"/organizer/events/{event}/seating/"
    steps = {}
    actions = [f"{seating}1/publish/", f"{seating}1/start/"]
    if preseat:
        actions.insert(0, f"{seating}preseat/")
    for action in actions:
        page = browser.get(seating)
        fields = smoke.page_form(page, action)
        if action.endswith("preseat/"):
            fields["include_unchecked"] = ["on"]
        answer = browser.post(action, fields)
        steps[action.removeprefix(seating)] = [answer.status, *said(browser, answer)[:1]]
    started = "has started" in " ".join(str(s) for s in steps.values()).lower() or any(
        "started" in str(v).lower() for v in steps.values()
    )
    return {"steps": steps, "started": started}


def clock_races(site: Site, *, trials: int) -> dict:
    """The clock: Add 5 minutes, 6 times with one key, then 6 keys at once; 3 removals."""
    ids = site.ids["clock"]
    page_url = f"/organizer/events/{ids['event']}/clock/"
    adjust = f"/organizer/events/{ids['event']}/waves/{ids['wave']}/clock/adjust/"

    def form(browser: Browser, **changes) -> dict:
        fields = smoke.page_form(browser.get(page_url), adjust)
        fields.update(reason=["red team"], **{k: [v] for k, v in changes.items()})
        return fields

    head = site.browser("rt-org1")
    same = form(head, minutes="5", direction="add")
    one_key = together([lambda: head.post(adjust, same) for _ in range(6)])
    replays = sum(1 for a in one_key if a.headers.get("Idempotent-Replay") == "true")
    # Six officials' pages drawn at one clock version, each its own key and session.
    six = [site.browser(f"rt-org{1 + i % 2}") for i in range(6)]
    forms = [form(b, minutes="5", direction="add") for b in six]
    six_keys = together([lambda i=i: six[i].post(adjust, forms[i]) for i in range(6)])
    six_say = [said(six[i], a)[:1] for i, a in enumerate(six_keys)]
    three = six[:3]
    asks = zip(three, ("60", "50", "40"), strict=True)
    forms = [form(b, minutes=m, direction="remove") for b, m in asks]
    removals = together([lambda i=i: three[i].post(adjust, forms[i]) for i in range(3)])
    observed = {
        "one_key": statuses(one_key),
        "one_key_replays": replays,
        "six_keys": statuses(six_keys),
        "six_keys_say": six_say,
        "removals_60_50_40": statuses(removals),
        "removals_say": [said(three[i], a)[:1] for i, a in enumerate(removals)],
    }
    ok = all(s == 302 for s in statuses(one_key) + statuses(six_keys) + statuses(removals))
    return result(
        "Clock: +5 x6 one key, +5 x6 keys, -60/-50/-40 at once",
        "302s only; one key adds 5 minutes once (5 replays); six keys drawn from one page add "
        "it once (the rest 'Already done'); removals stop at zero (checked in the database)",
        observed,
        ok and replays == 5,
    )


def seat_round_1_race(site: Site, *, trials: int) -> dict:
    """Eight "Seat round 1" at once on a confirmed knockout, then publish and start."""
    event = site.ids["seat_race"]
    # Eight pages open (two organizers, four tabs each, each its own session), so each
    # answer's message is its own.
    browsers = [site.browser(f"rt-org{1 + i % 2}") for i in range(8)]
    bracket = f"/organizer/events/{event}/seating/bracket/"
    seat = f"/organizer/events/{event}/seating/bracket/seat/"
    forms = [smoke.page_form(b.get(bracket), seat) for b in browsers]
    answers = together([lambda i=i: browsers[i].post(seat, forms[i]) for i in range(len(browsers))])
    messages = [said(browsers[i], a)[:1] for i, a in enumerate(answers)]
    start = next_round_starts(site, browsers[0], event, preseat=False)
    seated = sum(1 for m in messages if m and m[0].startswith("Round 1 is seated"))
    observed = {"statuses": statuses(answers), "messages": messages, "next_round": start}
    return result(
        "Knockout: 8 x Seat round 1 at once",
        "302s only; one seats round 1 at the plan's 6 tables, 7 say 'Already seated'; "
        "round 1 then publishes and starts",
        observed,
        set(statuses(answers)) == {302} and seated == 1 and start["started"],
    )


def confirm_races_seat(site: Site, *, trials: int) -> dict:
    """Confirm the bracket racing "Seat round 1" on an unconfirmed knockout."""
    event = site.ids["confirm_race"]
    one, two = site.browser("rt-org1"), site.browser("rt-org2")
    bracket = f"/organizer/events/{event}/seating/bracket/"
    confirm = f"{bracket}confirm/"
    fields = smoke.page_form(one.get(bracket), confirm)
    fields["method"] = ["table_winners"]
    seat_form = {"csrfmiddlewaretoken": two.token(bracket), "idempotency_key": key()}
    answers = together(
        [lambda: one.post(confirm, fields), lambda: two.post(f"{bracket}seat/", seat_form)]
    )
    messages = [said(one, answers[0])[:1], said(two, answers[1])[:1]]
    # Whatever the order, the organizer seats round 1 (again if needed), then starts it.
    page = one.get(bracket)
    seat = smoke.page_form(page, f"{bracket}seat/")
    reseat = one.post(f"{bracket}seat/", seat)
    start = next_round_starts(site, one, event, preseat=False)
    observed = {
        "statuses": statuses(answers),
        "messages": messages,
        "seat_after": [reseat.status, *said(one, reseat)[:1]],
        "next_round": start,
    }
    return result(
        "Knockout: confirm the bracket racing Seat round 1",
        "302s only; the seat either refused (no plan yet) or seated at the confirmed plan; "
        "round 1 then seats, publishes and starts",
        observed,
        set(statuses(answers)) == {302} and start["started"],
    )


def same_key_twice(site: Site, *, trials: int) -> dict:
    """The same form posted twice at once with one idempotency key (a withdrawal)."""
    event, player = site.ids["twice"], site.ids["twice_alternate"]
    org = site.browser("rt-org1")
    players = f"/organizer/events/{event}/players/"
    fields = smoke.page_form(org.get(players), f"{players}{player}/withdraw/")
    answers = together([lambda: org.post(f"{players}{player}/withdraw/", fields)] * 2)
    replays = sorted(a.headers.get("Idempotent-Replay", "") for a in answers)
    again = org.post(f"{players}{player}/withdraw/", fields)
    observed = {
        "statuses": statuses(answers),
        "replay_marks": replays,
        "locations_equal": answers[0].location == answers[1].location,
        "third_post": [again.status, again.headers.get("Idempotent-Replay", "")],
        "third_says": said(org, again)[:1],
    }
    ok = statuses(answers) == [302, 302] and replays == ["", "true"]
    return result(
        "One key, the same withdrawal posted twice at once",
        "both 302 to the same page; one applied, the other its replay (Idempotent-Replay); "
        "withdrawn once (the database), the list closes up",
        observed,
        ok and observed["locations_equal"] and again.status == 302,
    )


CASES = [alternates_race, clock_races, seat_round_1_race, confirm_races_seat, same_key_twice]
