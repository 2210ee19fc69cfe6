"""Hypothesis rosters (N 4..120, families, keep-apart pairs, pins, 1..5 rounds): every
seating must pass the independent checker and agree with its own report."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from seating.engine import SeatingProblem, check_seating, seat, table_pattern

# A small work budget: the properties are about validity and honest reporting, not about
# how good the search gets, and the whole suite must stay fast on a shared machine.
BUDGET = {"max_iterations": 400, "stall_iterations": 200, "time_limit": 30.0}


@st.composite
def problems(draw):
    n = draw(st.integers(4, 120))
    players = tuple(f"p{i}" for i in range(n))
    rounds = draw(st.integers(1, 5))
    rule = draw(st.sampled_from([(4, 5), (3, 5)]))
    sizes = table_pattern(n, *rule).sizes
    # Families of 2..4 covering about a tenth of the roster, like a real event.
    families = {}
    cursor = 0
    for group in range(draw(st.integers(0, max(1, n // 20)))):
        size = draw(st.integers(2, 4))
        for player in players[cursor : cursor + size]:
            families[player] = f"f{group}"
        cursor += size
    avoid_count = draw(st.integers(0, 3))
    avoid = tuple(
        (players[a], players[b])
        for a, b in draw(
            st.lists(
                st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(
                    lambda ab: ab[0] != ab[1]
                ),
                max_size=avoid_count,
            )
        )
    )
    pinned = {}
    for _ in range(draw(st.integers(0, 3))):
        r = draw(st.integers(0, rounds - 1))
        table = draw(st.integers(0, len(sizes) - 1))
        player = players[draw(st.integers(0, n - 1))]
        load = sum(1 for (rr, _), t in pinned.items() if rr == r and t == table)
        if (r, player) not in pinned and load < sizes[table]:
            pinned[(r, player)] = table
    history = tuple(
        (players[a], players[b])
        for a, b in draw(
            st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=6)
        )
        if a != b
    )
    seed = draw(st.integers(0, 2**16))
    return SeatingProblem(
        players=players,
        rounds=rounds,
        table_sizes=rule,
        families=families,
        avoid=avoid,
        pinned=pinned,
        history=history,
        seed=seed,
        **BUDGET,
    )


def conflicts_surely_avoidable(problem):
    """A hand-checkable sufficient condition: families of ≤ 4 with at least 4 tables, at
    most 3 keep-apart pairs, no pins, and few players linked at all (≤ 1 in 6), so each
    round can deal every family over distinct tables with plenty of room to spare."""
    tables = len(table_pattern(len(problem.players), *problem.table_sizes).sizes)
    linked = {p for p, g in problem.families.items() if g is not None}
    linked |= {p for pair in problem.avoid for p in pair}
    return tables >= 4 and not problem.pinned and 6 * len(linked) <= len(problem.players)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems())
def test_every_seating_is_valid_and_honestly_reported(problem):
    seating = seat(problem)
    check = check_seating(problem, seating)
    assert check.valid, check.errors
    report = seating.report
    assert report.repeat_meetings == check.repeat_meetings
    assert report.family_conflicts == check.family_conflicts
    assert report.pairs_met_three_plus == check.pairs_met_three_plus
    # Fewest 5-tables: the checker re-derives the pattern by brute force.
    assert check.big_tables_per_round == sum(1 for s in report.table_sizes if s > 4)
    # The bound is a bound: never above what was achieved.
    assert report.repeat_lower_bound <= check.repeat_meetings
    for (r, player), table in problem.pinned.items():
        assert player in seating.rounds[r][table]
    if conflicts_surely_avoidable(problem):
        assert check.family_conflicts == 0


@settings(max_examples=15, deadline=None)
@given(problems())
def test_same_seed_same_seating(problem):
    first, second = seat(problem), seat(problem)
    assert first.report.stopped_by != "time"
    assert first.rounds == second.rounds
    assert first.report.repeat_pairs == second.report.repeat_pairs
