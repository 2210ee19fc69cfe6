"""The rules at the table: the game's rules with the tournament's clarifications, per format.

Championship Rules, BANKERS: each table's banker "will also have a copy of the rules". The banker's
tablet opens them (``tablet_rules_views``): the long-game rules every format plays (Tournament Kit:
"abide strictly by the rules for the long, full game"), with the event edition's own amounts (its
salary, jail fine, houses to a hotel, mortgage interest, in its currency), then the
clarifications of the event's rule book: the championship's "MONOPOLY GAME RULES WITH
TOURNAMENT CLARIFICATIONS" and "TOURNAMENT POINTS TO REMEMBER" (Championship Rules), or the club
kit's answers to the questions that "arise more frequently than others" and its end of round
(Tournament Kit).

The texts are the rule books' own sentences, lightly trimmed, with the amounts written in;
they are translated like every other page (the reader's language is the event's, or the
table's game language), so a language without a translation reads them in English.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from gameplay import Edition
from tournament.money import money


@dataclass(frozen=True)
class RuleSection:
    key: str
    heading: str
    paragraphs: tuple[str, ...]
    # "game" (the long-game rules) or "tournament" (the rule book's clarifications).
    kind: str


# (key, heading, paragraphs): the long-game rules, every format. %(salary)s and the like are
# the edition's amounts (``_amounts``).
GAME_RULES = (
    (
        "object",
        _("Object"),
        (
            _(
                "The object of the game is to become the wealthiest player through buying, "
                "renting and selling property. The game is over at the end of the allotted "
                "time or when only one player remains in the game."
            ),
        ),
    ),
    (
        "go",
        _("GO"),
        (
            _(
                "Each time a player's token lands on or passes over GO, whether by throwing "
                "the dice or by drawing a card, the Banker pays them a %(salary)s salary, only "
                "once each time around the board."
            ),
        ),
    ),
    (
        "buying",
        _("Buying property"),
        (
            _(
                "Whenever you land on an unowned property, you may buy it from the Bank at its "
                "printed price. If you do not wish to buy it, the Banker sells it at auction to "
                "the highest bidder; any player, including the one who declined, may bid, and "
                "bidding may start at any price."
            ),
        ),
    ),
    (
        "rent",
        _("Paying rent"),
        (
            _(
                "When you land on property owned by another player, the owner collects rent as "
                "printed on its Title Deed card. No rent can be collected on a mortgaged "
                "property. An owner of a whole colour group charges double rent on its "
                "unimproved properties, even if another property of the group is mortgaged."
            ),
            _(
                "The owner may not collect the rent if they fail to ask for it before the "
                "second player following throws the dice."
            ),
        ),
    ),
    (
        "jail",
        _("Jail"),
        (
            _(
                "You land in Jail when your token lands on “Go to Jail”, you draw a "
                "card marked “Go to Jail”, or you throw doubles three times in "
                "succession. You get out by throwing doubles on any of your next three turns, "
                "using a “Get Out of Jail Free” card, or paying a %(jail_fine)s fine "
                "before you roll; after a third turn without doubles you pay the fine."
            ),
        ),
    ),
    (
        "houses",
        _("Houses and hotels"),
        (
            _(
                "When you own all the properties of a colour group you may buy houses from the "
                "Bank for them, building evenly. With %(houses_per_hotel)s houses on each "
                "property of the group you may buy a hotel, returning those houses to the Bank."
            ),
            _(
                "When the Bank has no houses to sell, players must wait; when two or more "
                "players wish to buy more than the Bank has, the houses or hotels are sold at "
                "auction to the highest bidder."
            ),
        ),
    ),
    (
        "mortgages",
        _("Mortgages"),
        (
            _(
                "Unimproved properties can be mortgaged through the Bank at any time; the "
                "buildings of the group are sold back at half price first. To lift a mortgage, "
                "pay the Bank the mortgage plus %(interest)s%% interest. A player who buys a "
                "mortgaged property pays the interest at once, and again when lifting it later."
            ),
        ),
    ),
    (
        "bankruptcy",
        _("Bankruptcy"),
        (
            _(
                "You are bankrupt if you owe more than you can pay. To another player, you turn "
                "over all you have of value (buildings go back to the Bank at half price, the "
                "cash to the creditor). To the Bank, it takes everything and auctions the "
                "property. The last player left in the game wins."
            ),
            _(
                "Money can only be loaned to a player by the Bank, by mortgaging property: no "
                "player may borrow from or lend money to another player."
            ),
        ),
    ),
)

# Championship Rules, MONOPOLY GAME RULES WITH TOURNAMENT CLARIFICATIONS and TOURNAMENT POINTS TO
# REMEMBER.
CHAMPIONSHIP_CLARIFICATIONS = (
    (
        "banker",
        _("The banker and the judges"),
        (
            _(
                "There will be an independent Banker on each table. Any issue with the "
                "preparation of the game must be taken up with the judge prior to the first "
                "roll of play."
            ),
            _(
                "If a judge is required the contestant must flag this to the Banker who will "
                "raise their arm to signify a Judge is required."
            ),
        ),
    ),
    (
        "points-to-remember",
        _("Tournament points to remember"),
        (
            _(
                "To raise money to pay debts, only houses and hotels can be sold back to the "
                "bank (at half price), never properties. If a debt is owed to another player, "
                "properties may be sold to a third player only if sufficient money is raised to "
                "cover the debt."
            ),
            _(
                "Player A lands on your property. Player B has his turn. You must collect your "
                "rent before Player C throws the dice. Pointing out other players' rent "
                "obligations is unacceptable and may be penalized."
            ),
            _(
                "If you throw doubles to get out of Jail, you move forward that number of spaces "
                "as your turn. You do not throw again. However, if you pay to get out of Jail "
                "prior to rolling, and you throw doubles, you may throw again as usual."
            ),
            _(
                "Though you need not disclose how much money you have, you must keep your money "
                "on the table in plain view at all times."
            ),
            _(
                "All trades are based on assets owned at the time of the trade. No options or "
                "immunity from paying future rents may be granted, nor may partnerships be "
                "formed. Trading is permitted during a player's turn or in between other "
                "players' turns, but not during an opposing player's turn."
            ),
            _(
                "Players cannot sell Chance or Community Chest cards prior to revealing them. "
                "Players may not sell or trade a Get Out of Jail Free Card for more than "
                "%(card_limit)s cash value."
            ),
            _(
                "Players may not consult or seek advice from friends or game observers while "
                "the game is in progress."
            ),
            _(
                "While a Building Shortage exists, players desiring to buy the houses remaining "
                "in the bank have priority over those wishing to break down hotels."
            ),
        ),
    ),
    (
        "time",
        _("Time and the end of the game"),
        (
            _(
                "The game is over at the end of the allotted time or when only one player "
                "remains. The Banker announces “last turn”: each player will get an "
                "equal number of turns. When players are bankrupt, they should promptly sign "
                "their score sheet and leave the table."
            ),
            _(
                "In the event of a tie of assets, the higher point total will be awarded to the "
                "player who has the highest value of unmortgaged property."
            ),
        ),
    ),
)

# Tournament Kit, the kit's frequent questions ("we suggest that the referee read them aloud") and
# its END OF ROUND.
CLUB_CLARIFICATIONS = (
    (
        "utility-rent",
        _("Paying rent on a utility"),
        (
            _(
                "If you land on a utility another player owns, don't touch the dice. See what "
                "the total is. Multiply that number by 4 if your opponent owns one utility, or "
                "by 10 if they own both."
            ),
        ),
    ),
    (
        "double-go",
        _("Advance to GO after passing GO"),
        (
            _(
                "A player passing GO on the throw of the dice who lands on Community Chest or "
                "Chance and draws the Advance to GO card collects %(salary)s for passing GO "
                "and another %(salary)s for reaching it."
            ),
        ),
    ),
    (
        "end-of-round",
        _("End of the round"),
        (
            _(
                "When time is called, the game must stop. Any player who has thrown the dice "
                "completes that move and any transaction that may result. Players check off "
                "assets on the score sheets and tally; the Banker counter-checks. The player "
                "signs, the Banker or the referee counter-signs."
            ),
            _(
                "In a rules dispute the referee defers to the Official Judge, whose decision "
                "is final."
            ),
        ),
    ),
)


def _amounts(edition: Edition) -> dict[str, str]:
    return {
        "salary": money(edition.go_salary, edition=edition),
        "jail_fine": money(edition.jail_fine, edition=edition),
        # Championship Rules: "no more than $50 cash value", the classic board's jail fine (the
        # card's worth): another market's board says it in its own fine.
        "card_limit": money(edition.jail_fine, edition=edition),
        "houses_per_hotel": str(edition.houses_per_hotel),
        "interest": str(edition.mortgage_interest_percent),
    }


def _sections(rules, kind: str, amounts: dict[str, str]) -> list[RuleSection]:
    return [
        RuleSection(
            key=key,
            heading=str(heading),
            paragraphs=tuple(str(text) % amounts for text in texts),
            kind=kind,
        )
        for key, heading, texts in rules
    ]


def table_rules(*, edition: Edition, knockout: bool) -> list[RuleSection]:
    """The rules for a table of ``edition``: the game's, then the format's clarifications
    (the club kit's for a knockout, the championship's otherwise). Call it in the reader's
    language (``translation.override``)."""
    amounts = _amounts(edition)
    clarifications = CLUB_CLARIFICATIONS if knockout else CHAMPIONSHIP_CLARIFICATIONS
    return [
        *_sections(clarifications, "tournament", amounts),
        *_sections(GAME_RULES, "game", amounts),
    ]
