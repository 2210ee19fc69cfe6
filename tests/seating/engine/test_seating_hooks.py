"""``seat``'s progress and stop hooks: what a background job will use for long searches."""

from seating.engine import SearchProgress, SeatingProblem, check_seating, seat


def roster(n):
    return tuple(f"p{i}" for i in range(n))


# 20 players over 6 rounds have no zero-repeat seating (the bound says 0), so the search
# runs until it is stopped or its budget ends.
LONG = {"players": roster(20), "rounds": 6, "time_limit": 8.0, "stall_iterations": None}


def test_stop_check_ends_the_search_and_keeps_a_valid_seating():
    calls = []

    def should_stop():
        calls.append(1)
        return len(calls) >= 3

    problem = SeatingProblem(seed=1, **LONG)
    seating = seat(problem, should_stop=should_stop)
    assert seating.report.stopped_by == "stopped"
    assert len(calls) == 3
    check = check_seating(problem, seating)
    assert check.valid, check.errors
    assert check.repeat_meetings == seating.report.repeat_meetings


def test_progress_reports_the_best_so_far_and_the_bound():
    seen: list[SearchProgress] = []
    problem = SeatingProblem(seed=2, **{**LONG, "max_iterations": 3_000})
    seating = seat(problem, progress=seen.append)
    assert seen, "at least the start and the end are reported"
    # The best so far never gets worse, and the last report is the seating returned.
    repeats = [p.repeat_meetings for p in seen]
    assert repeats == sorted(repeats, reverse=True)
    assert repeats[-1] == seating.report.repeat_meetings
    assert all(p.bound == seating.report.repeat_lower_bound for p in seen)
    assert all(p.family_conflicts == 0 for p in seen)
    elapsed = [p.elapsed for p in seen]
    assert elapsed == sorted(elapsed) and elapsed[0] >= 0


def test_hooks_do_not_change_a_seeded_result():
    problem = SeatingProblem(
        players=roster(30), rounds=4, seed=5, max_iterations=5_000, stall_iterations=2_000
    )
    plain = seat(problem)
    watched = seat(problem, progress=lambda _: None, should_stop=lambda: False)
    assert plain.rounds == watched.rounds
