"""A URL name with its app's namespace, for tests that loop over names of several apps."""

from __future__ import annotations

import functools

from django.urls import URLResolver, get_resolver

SHARED_NAMESPACES = ("spectator", "admin")


@functools.cache
def _namespaces() -> dict[str, str]:
    found: dict[str, str] = {}
    for entry in get_resolver().url_patterns:
        if isinstance(entry, URLResolver) and entry.namespace:
            for pattern in entry.url_patterns:
                name = getattr(pattern, "name", None)
                # The public pages share a few names with the officials' (``standings``):
                # a bare name means the officials' page, as it did before the split.
                if name and (name not in found or found[name] in SHARED_NAMESPACES):
                    found[name] = entry.namespace
    return found


def qualified(name: str) -> str:
    """``"check_in"`` -> ``"players:check_in"``: the namespace that routes ``name``."""
    return f"{_namespaces()[name]}:{name}"
