"""The day bench's own parts that decide its verdict (benchmarks/day.py runs in `make bench`,
not here): how it reads an official's form, and the recount it holds the standings to.

The recount's expected points are the seeds' table (shared/seeds/002, SCORING: "4 Players
19 10 5 3", "3 Players 22 12 6"; TIE BREAKERS: "the highest value of unmortgaged property"),
worked by hand for the tables below.
"""

from __future__ import annotations

from benchmarks.bankers import expected_points, percentile
from benchmarks.officials import form_on

PAGE = b"""
<form action="/accounts/logout/" method="post"><input name="csrfmiddlewaretoken" value="t0"></form>
<form action="/organizer/events/7/seating/preseat/" method="post">
  <input type="hidden" name="csrfmiddlewaretoken" value="t1">
  <input type="hidden" name="seen" value="abc">
  <input type="checkbox" name="include_unchecked">
  <input type="checkbox" name="keep" value="yes" checked>
  <input type="radio" name="mode" value="order" checked>
  <input type="radio" name="mode" value="share">
  <input type="number" name="seed">
  <select name="rounds"><option value="2">2</option><option value="3" selected>3</option></select>
  <textarea name="reason"></textarea>
  <button type="submit" name="go" value="1">Pre-seat</button>
</form>
"""


def test_a_form_is_read_as_a_browser_would_send_it():
    assert form_on(PAGE, "seating/preseat/") == {
        "csrfmiddlewaretoken": "t1",
        "seen": "abc",
        "keep": "yes",
        "mode": "order",
        "seed": "",
        "rounds": "3",
        "reason": "",
    }
    assert form_on(PAGE, "seating/1/start/") is None


def _table(net_worth: dict[str, int], *, bankrupt=(), properties=()) -> dict:
    players = [{"id": int(p), "bankrupt": p in bankrupt} for p in net_worth]
    return {"sheet": {"players": players, "properties": list(properties)}, "net_worth": net_worth}


def test_the_recount_follows_the_points_table_and_its_tie_breaker():
    four = _table({"11": 900, "12": 2500, "13": 1200, "14": 300})
    # 21 is bankrupt; 22 and 23 are level on net worth, 23 holds Baltic Avenue ($60)
    # unmortgaged and 22 a mortgaged Boardwalk: 23 is second.
    three = _table(
        {"21": 0, "22": 1500, "23": 1500, "24": 2000},
        bankrupt={"21"},
        properties=[
            {"position": 39, "owner": 22, "mortgaged": True},
            {"position": 3, "owner": 23, "mortgaged": False},
        ],
    )
    assert expected_points([four, three]) == {
        "12": 19, "13": 10, "11": 5, "14": 3,
        "24": 22, "23": 12, "22": 6, "21": 0,
    }  # fmt: skip


def test_percentile_is_the_value_below_which_the_share_lies():
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 0.95) == 96.0
    assert percentile([3.0], 0.95) == 3.0
    assert percentile([], 0.95) == 0.0
