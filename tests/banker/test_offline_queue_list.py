"""The tablet's offline queue and the server's idempotent writes are one list.

Every write the queue replays (static/js/tablet.js, its service worker tablet-sw.js, and
the sheet that sheet.js hands to it) must be idempotent on the server, or a write sent
again after a lost answer is applied twice; and every idempotent banker view must be in
the queue, or a tap made offline is lost instead of kept. Both lists are read from where
they live, the URL conf and the scripts, never written out here.
"""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings
from django.urls import URLPattern, URLResolver, get_resolver, reverse

JS = Path(settings.BASE_DIR) / "static" / "js"
TEMPLATES = Path(settings.BASE_DIR) / "templates"
TABLE = "bank/tables/<int:table_pk>/"


def _routes(patterns, prefix: str = ""):
    for entry in patterns:
        if isinstance(entry, URLResolver):
            yield from _routes(entry.url_patterns, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            yield prefix + str(entry.pattern), entry.callback


def idempotent_routes() -> dict[str, str]:
    """Route under the table (``last-turn/``, ``sheet/sign/``) → view, for each view the
    ``idempotent`` decorator wraps (it marks them "table"; the other decorators keep the
    mark). The officials' forms are marked "official": not the tablet's queue."""
    found = {}
    for route, view in _routes(get_resolver().url_patterns):
        if getattr(view, "idempotent", False) == "table":
            assert route.startswith(TABLE), f"an idempotent write outside a table: {route}"
            found[route.removeprefix(TABLE)] = view.__name__
    return found


def queued_routes(script: str) -> set[str]:
    """The alternatives of the script's WRITES pattern, as routes under the table."""
    source = (JS / script).read_text()
    (pattern,) = re.findall(r"WRITES = /(.+)/;", source)
    (alternatives,) = re.findall(r"\(((?:[a-z-]+(?:\\/[a-z-]+)?\|?)+)\)\\/\$$", pattern)
    return {alternative.replace("\\/", "/") + "/" for alternative in alternatives.split("|")}


def sheet_route() -> str:
    """sheet.js hands the sheet form's own action to the queue: the form's url name."""
    assert re.search(
        r'url: form\.action,\s*body: body\.toString\(\),\s*kind: "sheet"',
        (JS / "sheet.js").read_text(),
    )
    template = (TEMPLATES / "banker" / "sheet.html").read_text()
    (name,) = re.findall(r'<form id="sheet-form"[^>]*?action="\{% url \'([\w:]+)\'', template)
    path = reverse(name, kwargs={"table_pk": 7})
    return path.removeprefix("/bank/tables/7/")


def test_the_page_and_its_service_worker_queue_the_same_writes():
    assert queued_routes("tablet.js") == queued_routes("tablet-sw.js")


def test_every_queued_write_is_idempotent_and_every_idempotent_write_is_queued():
    queued = queued_routes("tablet.js") | {sheet_route()}
    idempotent = idempotent_routes()
    assert queued == set(idempotent), (
        f"queued, not idempotent: {sorted(queued - set(idempotent))}; "
        f"idempotent, never queued: {sorted(set(idempotent) - queued)}"
    )
    # The lists are the real ones: the table's writes a banker taps during a game.
    assert {"last-turn/", "game-over/", "sheet/submit/", "sheet/sign/"} <= queued


def test_every_kind_the_queue_shows_has_a_label():
    source = (JS / "tablet.js").read_text()
    (kinds,) = re.findall(r"var KINDS = \{(.*?)\};", source, re.S)
    names = re.findall(r':\s*"(\w+)"', kinds) + ["sheet"]
    labels = (TEMPLATES / "banker" / "_tablet.html").read_text()
    for name in names:
        attribute = "data-label-" + re.sub(r"([A-Z])", lambda m: "-" + m[1].lower(), name)
        assert f'{attribute}="' in labels, name
