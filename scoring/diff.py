"""What differs between two score sheets, in the words a banker or judge would use.

Used twice: a version conflict shows the tablet which entries another device changed, and
every revision stores what changed. Players are matched by id and title deeds by board
position, so reordering a list is not a change.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from gameplay import Edition
from tournament.money import money

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


def deed_name(edition: Edition | None, position: Any) -> str:
    """The title deed at ``position`` by its edition's name ("space 41" if there is none)."""
    try:
        deed = edition.deed(int(position)) if edition else None
    except (TypeError, ValueError):
        deed = None
    return deed.name if deed else _("space %(position)s") % {"position": position}


def describe_changes(
    changes: list[dict[str, Any]], *, aliases: Mapping[str, str], edition: Edition | None
) -> list[dict[str, str]]:
    """:func:`sheet_changes` in words: what changed, which entry, and its value before and after.

    The banker's conflict screen and the judges' revision history both show these lines:
    deeds by name and players by alias (never an id), entries and yes/no translated, bills
    in the edition's money. ``edition`` may be None where it no longer loads.
    """
    words = _Words(aliases=aliases, edition=edition)
    lines = []
    for change in changes:
        key, name = str(change["key"]), change.get("field")
        if change["kind"] == "property":
            what = deed_name(edition, key)
        elif change["kind"] == "player":
            what = aliases.get(key, key)
        else:
            what = key
        lines.append(
            {
                "what": what,
                "field": words.label(name),
                "before": words.value(name, change["before"]),
                "after": words.value(name, change["after"]),
            }
        )
    return lines


def conflict_screen(
    conflict: Any,
    *,
    aliases: Mapping[str, str],
    edition: Edition | None,
    form_id: str,
    save_url: str,
    reload_url: str,
    by_judge: bool = False,
) -> dict[str, Any]:
    """What ``banker/_conflict.html`` shows for a ``services.sheets.SheetConflict``.

    The one conflict screen, for the banker's tablet and the judges' correction alike:
    what differs between the saved sheet and this screen (:func:`describe_changes`), and
    the two ways on. "Keep my entries" submits the form ``form_id`` to ``save_url`` with
    the saved version; "show the saved sheet" opens ``reload_url``. ``by_judge`` words it
    for judges, whose sheet another judge changed.
    """
    return {
        "form_id": form_id,
        "save_url": save_url,
        "reload_url": reload_url,
        "by_judge": by_judge,
        "version": conflict.current_version,
        "status": conflict.current_status,
        "changes": describe_changes(conflict.changes, aliases=aliases, edition=edition),
        "message": conflict.messages[0],
    }


class _Words:
    NOTHING = "—"

    def __init__(self, *, aliases: Mapping[str, str], edition: Edition | None) -> None:
        self.aliases = aliases
        self.edition = edition

    def label(self, name: str | None) -> str:
        if name == "houses":
            return self.edition.word("house", 2) if self.edition else _("houses")
        if name == "hotel":
            return self.edition.word("hotel") if self.edition else _("hotel")
        labels = {
            "owner": _("owner"),
            "mortgaged": _("mortgaged"),
            "bankrupt": _("bankrupt"),
            "cash": _("counted cash"),
            "bills": _("bills"),
            "out_order": _("went out"),
        }
        return labels.get(name or "", name or "")

    def money(self, amount: int) -> str:
        return money(amount, edition=self.edition) if self.edition else str(amount)

    def value(self, name: str | None, value: Any) -> str:
        if name == "owner":
            return _("Bank") if value is None else self.aliases.get(str(value), str(value))
        if value is None:
            return self.NOTHING
        if isinstance(value, bool):
            return _("yes") if value else _("no")
        if name == "bills" and isinstance(value, dict):
            bills = [
                f"{count} × {self.money(int(bill))}"
                for bill, count in value.items()
                if str(bill).isdigit() and count
            ]
            return ", ".join(bills) or self.NOTHING
        if isinstance(value, dict):
            # A whole player or deed listed on one side only: its entries, in these words.
            return ", ".join(
                f"{self.label(key)}: {self.value(key, item)}"
                for key, item in value.items()
                if key not in ("id", "position")
            )
        return str(value)
