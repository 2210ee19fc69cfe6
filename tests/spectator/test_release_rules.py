"""Two privacy rules of the public site that a red-team copy broke unseen.

- The winner is public once the final is posted, not once its sheets are signed: the head
  judge may still correct them or decide a tie at the final table.
- Following an alias reveals nobody new: the chooser lists only aliases already on a
  released page, never a player seated only in a round whose tables are not published.

Both are checked on the pages a visitor opens (and their live fragments), not on a
selector, so they hold however the pages read the database.
"""

from __future__ import annotations

from django.urls import reverse

from scoring.services.advancement import advance_to_final
from scoring.services.posting import round_post
from spectator.services import release_set
from tests.builders import players_with_aliases
from tests.scoring.scoring_helpers import make_round, play, table_of
from tournament.models import Player, Table

NOT_YET = "Nothing is posted here yet."
EVERYTHING = dict.fromkeys(("home", "tables", "results", "standings", "final", "winner"), True)


def url(name: str, event, **kwargs) -> str:
    return reverse(f"spectator:{name}", kwargs={"pk": event.pk, **kwargs})


def test_the_winner_waits_for_the_final_to_be_posted_not_just_signed(
    client, event, players, round1
):
    p = players
    release_set(event=event, pages=EVERYTHING, by=None)
    round_post(round_=round1, by=None)
    event.advancing = 4
    event.save(update_fields=["advancing"])
    final = advance_to_final(event=event, by=None, time_limit=1)
    final_table = table_of(final, 1)
    final_table.status = Table.Status.FINISHED
    final_table.save(update_fields=["status"])
    # Every sheet of the final is signed by its table: Hat wins with 9000.
    play(final_table, {p["Hat"]: 9000, p["Boot"]: 100, p["Car"]: 50, p["Dog"]: 10})

    for page in ("winner", "winner_live"):
        body = client.get(url(page, event)).content.decode()
        assert NOT_YET in body, page
        assert "Hat" not in body and "9000" not in body, page
    home = client.get(url("event_home", event)).content.decode()
    assert url("winner", event) not in home

    round_post(round_=final, by=None)
    body = client.get(url("winner", event)).content.decode()
    # A championship posts places and points, never net worth (Championship Rules), so no 9000 here
    # either.
    assert NOT_YET not in body and "Hat" in body


def test_the_follow_chooser_lists_nobody_seated_only_in_an_unpublished_round(
    client, event, players, round1
):
    p = players
    release_set(event=event, pages={"tables": True, "standings": True}, by=None)
    round_post(round_=round1, by=None)
    # An alternate steps in for Dog in round 2, seated but not published yet.
    stand_in = players_with_aliases(event, aliases=["Iron"])["Iron"]
    Player.objects.filter(pk=stand_in.pk).update(first_name="Ottoline", last_name="Quarrington")
    round2 = make_round(event, 2, [[p["Boot"], p["Car"], p["Hat"], stand_in]])
    assert not round2.assignments_published

    chooser = client.get(url("follow", event)).content.decode()
    assert 'value="Car"' in chooser  # round 1's players are there to choose
    assert "Iron" not in chooser and "Ottoline" not in chooser
    typed = client.get(url("follow", event), {"alias": "Iron"}).content.decode()
    assert "No player with that alias" in typed
    for page in ("follow", "follow_live"):
        body = client.get(url(page, event), {"alias": "Iron"}).content.decode()
        assert "Round 2" not in body and "Ottoline" not in body, page

    # Published, round 2 puts Iron on a public page: now they may be followed.
    round2.assignments_published = True
    round2.save(update_fields=["assignments_published"])
    body = client.get(url("follow", event), {"alias": "Iron"}).content.decode()
    assert "Round 2 · Table 1 · Seat 4" in body and "Ottoline" not in body
