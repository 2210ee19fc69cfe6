"""Score sheets written the way a banker would fill them in, for the engine's tests."""

import pytest

from gameplay import load_edition


def _sheet(*players, properties=(), edition="classic-us"):
    return {"edition": edition, "players": list(players), "properties": list(properties)}


def _player(player_id, cash=0, **extra):
    return {"id": player_id, "bankrupt": False, "cash": cash, **extra}


def _deed(position, owner, *, mortgaged=False, houses=0, hotel=False):
    return {
        "position": position,
        "owner": owner,
        "mortgaged": mortgaged,
        "houses": houses,
        "hotel": hotel,
    }


@pytest.fixture
def sheet():
    return _sheet


@pytest.fixture
def player():
    return _player


@pytest.fixture
def deed():
    return _deed


@pytest.fixture(autouse=True)
def editions_loaded_afresh():
    """Each test loads the editions it uses from their files, through the loading and its
    checks, instead of an edition a test before it left in ``load_edition``'s cache. The
    engine's tests are the loading code's tests too, and a mutation run (make mutation)
    forks every mutant from a process whose cache was filled by the unmutated code."""
    load_edition.cache_clear()
    yield
    load_edition.cache_clear()
