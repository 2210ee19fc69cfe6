"""A digest of the data a job's result is built from, to reuse the result until it changes.

The parts are whatever the builder reads: model instances (every concrete field), frozen
dataclasses, lists, dicts and plain values. A change to any field of any of them changes the
digest; so does a change to the code that builds it, when the caller passes its files.
"""

from __future__ import annotations

import dataclasses
import datetime
import decimal
import enum
import functools
import hashlib
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from django.db import models


def digest(*parts: Any) -> str:
    """The SHA-256 of the parts, written out field by field."""
    plain = _Plain()
    text = json.dumps([plain(part) for part in parts], separators=(",", ":"), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


class _Plain:
    """Turns a value into JSON-able data. An object met again is written as a reference to
    its first appearance: a round's pages all share one edition, written once."""

    def __init__(self) -> None:
        self.seen: dict[int, int] = {}
        self.keep: list[Any] = []  # holds what ``seen`` counts, so no id is reused

    def __call__(self, value: Any) -> Any:
        if value is None or isinstance(value, bool | int | float | str):
            return value
        if isinstance(value, enum.Enum):
            return self(value.value)
        if isinstance(value, datetime.date | datetime.time | decimal.Decimal):
            return str(value)
        if isinstance(value, models.Model) or dataclasses.is_dataclass(value):
            return self._object(value)
        if isinstance(value, dict):
            return {str(key): self(item) for key, item in value.items()}
        if isinstance(value, set | frozenset):
            return sorted((self(item) for item in value), key=repr)
        if isinstance(value, Iterable) and not isinstance(value, bytes):
            return [self(item) for item in value]
        raise TypeError(f"cannot fingerprint {type(value).__name__}")

    def _object(self, value: Any) -> Any:
        if id(value) in self.seen:
            return {"@ref": self.seen[id(value)]}
        self.seen[id(value)] = len(self.seen)
        self.keep.append(value)
        if isinstance(value, models.Model):
            fields = {f.attname: getattr(value, f.attname) for f in value._meta.concrete_fields}
            return {"@model": value._meta.label, **{k: self(v) for k, v in fields.items()}}
        return {
            "@type": type(value).__qualname__,
            **{f.name: self(getattr(value, f.name)) for f in dataclasses.fields(value)},
        }


@functools.cache
def files_digest(paths: tuple[Path, ...]) -> str:
    """The digest of some source files, read once a process: a deploy that changes how a
    result is drawn must not serve results drawn the old way."""
    sha = hashlib.sha256()
    for path in sorted(paths):
        # Contents only: servers with the project in different folders agree.
        sha.update(hashlib.sha256(path.read_bytes()).digest())
    return sha.hexdigest()
