"""Same-language tables (the Championship Rules speak of "same-language games"): the seating
engine seats each language group at tables of its own when the organizer asks, and numbers the
tables together. The groups are plain data: the engine knows nothing of languages."""

from collections import Counter

import pytest

from seating.engine import SeatingProblem, seat_by_group
from seating.engine.groups import partition


def _players(counts: dict[str, int]) -> tuple[tuple[str, ...], dict[str, str]]:
    players, groups = [], {}
    for language, count in counts.items():
        for i in range(count):
            player = f"{language}{i}"
            players.append(player)
            groups[player] = language
    return tuple(players), groups


def test_every_table_speaks_one_language_in_every_round():
    players, groups = _players({"fr": 12, "en": 9, "hi": 4})
    problem = SeatingProblem(players=players, rounds=3, seed=3, stall_iterations=2_000)
    result = seat_by_group(problem, groups=groups)
    for tables in result.seating.rounds:
        seated = [p for table in tables for p in table]
        assert sorted(seated) == sorted(players)
        for number, table in enumerate(tables):
            assert 4 <= len(table) <= 5
            assert {groups[p] for p in table} == {result.table_groups[number]}
    # Largest group first, its tables numbered first: 12 French at 3 tables of 4, 9 English
    # at 4+5, 4 Hindi at one table.
    assert result.table_groups == ("fr", "fr", "fr", "en", "en", "hi")
    assert result.seating.report.players == 25
    assert result.joined == ()


def test_a_group_too_small_for_a_table_of_its_own_plays_with_the_largest():
    players, groups = _players({"fr": 8, "en": 5, "de": 2})
    parts, joined = partition(players, groups, (4, 5))
    assert joined == [("de", "fr")]
    assert Counter(groups[p] for p in parts["fr"]) == {"fr": 8, "de": 2}
    result = seat_by_group(SeatingProblem(players=players, rounds=1), groups=groups)
    assert result.joined == (("de", "fr"),)
    assert result.table_groups == ("fr", "fr", "en")


def test_families_and_history_still_count_inside_each_group():
    players, groups = _players({"fr": 8, "en": 8})
    families = {"fr0": "Martin", "fr1": "Martin"}
    history = (("en0", "en1"),)
    problem = SeatingProblem(players=players, rounds=1, families=families, history=history, seed=1)
    result = seat_by_group(problem, groups=groups)
    for table in result.seating.rounds[0]:
        assert not {"fr0", "fr1"} <= set(table)
        assert not {"en0", "en1"} <= set(table)
    assert result.seating.report.family_conflicts == 0


def test_pinned_seats_are_refused():
    players, groups = _players({"fr": 8})
    with pytest.raises(ValueError):
        seat_by_group(
            SeatingProblem(players=players, rounds=1, pinned={(0, "fr0"): 1}), groups=groups
        )
