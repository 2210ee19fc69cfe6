"""`pip install .` (README, Production) takes every app of the source.

The package list in pyproject.toml is written by hand; an app added to the source but not
to it is missing from an installed site, which then fails to start (``No module named``).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_app_of_the_source_is_in_the_installed_package():
    find = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    included = set(find["find"]["include"])
    apps = {p.parent.name for p in ROOT.glob("*/__init__.py")} - {"tests"}
    assert apps <= included
    assert {f"{app}.*" for app in apps} <= included
