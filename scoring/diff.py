"""What differs between two score sheets, in the words a banker or judge would use.

Used twice: a version conflict shows the tablet which entries another device changed, and
every revision stores what changed. Players are matched by id and title deeds by board
position, so reordering a list is not a change.
"""

from __future__ import annotations

from typing import Any

_PLAYER_KEYS = ("bankrupt", "cash", "bills", "out_order")
_DEED_KEYS = ("owner", "mortgaged", "houses", "hotel")


def _by(items: Any, key: str) -> dict[str, dict]:
    if not isinstance(items, list):
        return {}
    return {str(item.get(key)): item for item in items if isinstance(item, dict)}


def sheet_changes(before: Any, after: Any) -> list[dict[str, Any]]:
    """Each difference as ``{"kind", "key", "field", "before", "after"}``.

    ``kind`` is "sheet" (a top-level entry such as the edition), "player" (``key`` is the
    player id) or "property" (``key`` is the board position). A player or deed present on
    one side only has ``field`` None and the whole entry on the other side.
    """
    before = before if isinstance(before, dict) else {}
    after = after if isinstance(after, dict) else {}
    changes: list[dict[str, Any]] = []
    for key in sorted((set(before) | set(after)) - {"players", "properties"}):
        if before.get(key) != after.get(key):
            changes.append(_change("sheet", key, None, before.get(key), after.get(key)))
    for kind, list_key, id_key, fields in (
        ("player", "players", "id", _PLAYER_KEYS),
        ("property", "properties", "position", _DEED_KEYS),
    ):
        old, new = _by(before.get(list_key), id_key), _by(after.get(list_key), id_key)
        for key in sorted(set(old) | set(new), key=_natural):
            if key not in new or key not in old:
                changes.append(_change(kind, key, None, old.get(key), new.get(key)))
                continue
            names = sorted(set(old[key]) | set(new[key]) - {id_key}, key=_field_order(fields))
            for name in names:
                if name != id_key and old[key].get(name) != new[key].get(name):
                    changes.append(_change(kind, key, name, old[key].get(name), new[key].get(name)))
    return changes


def _change(kind: str, key: str, field: str | None, before: Any, after: Any) -> dict[str, Any]:
    return {"kind": kind, "key": key, "field": field, "before": before, "after": after}


def _natural(key: str) -> tuple[int, int | str]:
    return (0, int(key)) if key.isdigit() else (1, key)


def _field_order(fields: tuple[str, ...]):
    return lambda name: (fields.index(name), "") if name in fields else (len(fields), name)
