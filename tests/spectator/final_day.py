"""A small championship played to its final: round 1 at two tables of four, posted, the
final seated from it, published and played; the final posted or left for the head judge."""

from __future__ import annotations

from scoring.services.advancement import advance_to_final
from scoring.services.posting import round_post
from spectator.services import release_set
from tests.builders import players_with_aliases
from tests.scoring.scoring_helpers import make_round, play, table_of
from tournament.models import Player, Round, Table

EVERYTHING = dict.fromkeys(("home", "tables", "results", "standings", "final", "winner"), True)


def play_to_the_final(
    event, *, round_1: dict[str, int], final: dict[str, int], post_final: bool
) -> tuple[dict[str, Player], Round]:
    """Players by alias (eight: ``round_1``'s cash by alias, tables A-D and E-H) and the
    final, played with ``final``'s cash; every public page released."""
    p = players_with_aliases(event, aliases=list(round_1))
    round_ = make_round(event, 1, [[p[a] for a in "ABCD"], [p[a] for a in "EFGH"]])
    for number, aliases in ((1, "ABCD"), (2, "EFGH")):
        play(table_of(round_, number), {p[a]: round_1[a] for a in aliases})
    round_.assignments_published = True
    round_.save(update_fields=["assignments_published"])
    round_post(round_=round_, by=None)
    final_round = advance_to_final(event=event, by=None, time_limit=1)
    final_round.assignments_published = True
    final_round.save(update_fields=["assignments_published"])
    table = table_of(final_round, 1)
    table.status = Table.Status.FINISHED
    table.save(update_fields=["status"])
    play(table, {p[a]: final[a] for a in final})
    if post_final:
        round_post(round_=final_round, by=None)
    release_set(event=event, pages=EVERYTHING, by=None)
    return p, final_round
