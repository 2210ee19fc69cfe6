"""Score sheets written the way a banker would fill them in, for the engine's tests."""

import pytest


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
