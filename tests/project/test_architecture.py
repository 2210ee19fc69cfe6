"""The layers of docs/architecture.md, read from the source: no import runs up the house.

Every ``import`` and ``from ... import`` statement of the apps is read with ``ast`` (those
inside functions too, such as an ``AppConfig.ready``), relative ones resolved against the
file's package, and nothing is imported, so a module that would fail to load still gets
checked. Imports built from strings (``importlib``, ``include("app.urls")``) are not seen.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# The records and the concepts above them, from the bottom up: each may import only what
# stands before it here (and the engines, jobs and mail below them all).
STACK = (
    "tournament",
    "accounts",
    "players",
    "seating",
    "knockout",
    "clock",
    "scoring",
    "series",
    "cockpit",
    "banker",
)
# The pages that read everything, side by side, then the site and the demo.
TOP = ("spectator", "printouts", "config", "demo")
PROJECT = ("gameplay", "jobs", "mail", *STACK, *TOP)
SEATING = "seating.engine"


def _above(app: str) -> tuple[str, ...]:
    return (*STACK[STACK.index(app) + 1 :], *TOP)


# What each part may not import (a prefix forbids the package and everything below it).
# The seating engine is matched before the rest of seating. Tests and benchmarks stand
# outside the layers and may import anything.
FORBIDDEN: dict[str, tuple[str, ...]] = {
    "gameplay": ("django", *(p for p in PROJECT if p != "gameplay")),
    SEATING: ("django", *(p for p in PROJECT if p != "seating")),
    # Background jobs know Django and its tasks framework, nothing of tournaments.
    "jobs": tuple(p for p in PROJECT if p != "jobs"),
    # Emails: rendered from the templates a caller names, sent as jobs; nothing of tournaments.
    "mail": tuple(p for p in PROJECT if p not in ("mail", "jobs")),
    **{app: _above(app) for app in STACK},
    "spectator": ("config", "printouts", "demo"),
    "printouts": ("config", "spectator", "demo"),
    "config": ("demo",),
    "demo": ("config",),
}
# Within seating, the engine may use only itself.
SEATING_MAY_USE = (SEATING,)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(source: str, module: str, *, is_package: bool) -> list[tuple[int, str]]:
    """Every module ``source`` imports, with its line: absolute names, relatives resolved.

    ``from pkg import name`` counts as importing ``pkg.name`` too, since ``name`` may be a
    module (``from scoring import services``).
    """
    package = module if is_package else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            found.append((node.lineno, target))
            found.extend((node.lineno, f"{target}.{alias.name}") for alias in node.names)
    return found


def part_of(module: str) -> str | None:
    if module == SEATING or module.startswith(SEATING + "."):
        return SEATING
    top = module.split(".")[0]
    return top if top in FORBIDDEN else None


def within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def breaches(source: str, module: str, *, is_package: bool = False) -> list[str]:
    part = part_of(module)
    if part is None:
        return []
    found: dict[int, str] = {}
    for line, name in imports_of(source, module, is_package=is_package):
        bad = next((p for p in FORBIDDEN[part] if within(name, p)), None)
        if bad is None and part == SEATING and within(name, "seating"):
            bad = None if any(within(name, ok) for ok in SEATING_MAY_USE) else "seating"
        if bad is not None:
            # One line per statement: ``from a import b`` also names ``a.b``.
            found.setdefault(
                line, f"{module} (line {line}) imports {name}: {part} may not use {bad}"
            )
    return list(found.values())


def app_files() -> list[Path]:
    return sorted(path for part in PROJECT for path in (ROOT / part).rglob("*.py"))


def test_every_app_is_read():
    names = {module_name(path) for path in app_files()}
    assert {"gameplay.rules", "seating.engine.engine", "scoring.apps", "demo.event"} <= names


@pytest.mark.parametrize("path", app_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_import_runs_up_the_layers(path):
    source = path.read_text(encoding="utf-8")
    module = module_name(path)
    assert breaches(source, module, is_package=path.name == "__init__.py") == []


# --- The checker itself: each rule catches what it is there for ---------------------------


@pytest.mark.parametrize(
    ("module", "source"),
    [
        ("gameplay.rules", "import django.db"),
        ("gameplay.rules", "from tournament.models import Event"),
        ("seating.engine.engine", "from django.db import transaction"),
        ("seating.engine.engine", "from ..models import Event"),
        ("seating.engine.engine", "from tournament import access"),
        ("tournament.services", "def f():\n    from scoring.models import ResultLine\n"),
        ("tournament.services", "from scoring import services"),
        ("tournament.demo", "import spectator.services"),
        ("scoring.services.sheets", "from ...spectator import selectors"),
        ("scoring.apps", "def ready(self):\n    from demo import event\n"),
        ("spectator.views", "from printouts.views import sheet_pdf"),
        ("printouts.views", "from demo.simulation import event_simulate"),
        ("config.urls", "from demo import event"),
        ("mail.services", "from tournament.models import Player"),
        ("jobs.services", "from mail.services import mail_queue"),
        ("players.views", "from seating.services import preseat_event"),
        ("seating.services", "from clock.services import clock_start"),
        ("clock.services", "from scoring.services import posting"),
        ("cockpit.views", "from banker import views"),
        ("tournament.selectors", "from players.aliases import automatic_alias"),
    ],
)
def test_the_checker_catches_an_import_up_the_layers(module, source):
    assert len(breaches(source, module)) == 1


@pytest.mark.parametrize(
    ("module", "source"),
    [
        ("gameplay.rules", "from .edition import Edition\nimport json"),
        ("seating.engine.engine", "from .model import SeatingProblem"),
        ("seating.engine.cli", "from seating.engine import seat"),
        ("tournament.services", "from gameplay import load_edition\nfrom .models import Event"),
        ("scoring.services.sheets", "from tournament.models import Table\nfrom ..models import X"),
        ("spectator.selectors", "from scoring.selectors import standings"),
        ("printouts.views", "from scoring.models import TableSheet"),
        ("demo.event", "from spectator.services import release_set\nimport scoring.services"),
        ("mail.tasks", "from jobs.tasks import task"),
        ("series.invitation_mail", "from mail.services import mail_queue"),
        ("clock.services", "from seating.services import seating_roster"),
        ("banker.table_views", "from cockpit import judge_call_services"),
        ("banker.views", "from scoring.services import sheets"),
    ],
)
def test_the_checker_lets_downward_imports_through(module, source):
    assert breaches(source, module) == []


# --- Size: no module over 600 lines, no function over 80 ------------------------------------

MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80
# The size rule covers every Python file of the checkout, tests and benchmarks included
# (no Python file outside migrations over 600 lines).
SIZED = (*PROJECT, "tests", "benchmarks")


def sized_files() -> list[Path]:
    return sorted(path for part in SIZED for path in (ROOT / part).rglob("*.py"))


def sizes() -> tuple[list[str], list[str]]:
    long_modules, long_functions = [], []
    for path in sized_files():
        if "migrations" in path.parts:
            continue
        source = path.read_text(encoding="utf-8")
        where = str(path.relative_to(ROOT))
        if len(source.splitlines()) > MAX_MODULE_LINES:
            long_modules.append(where)
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                if node.end_lineno - start + 1 > MAX_FUNCTION_LINES:
                    long_functions.append(f"{where}:{node.name}")
    return long_modules, long_functions


def test_no_module_or_function_is_too_long():
    long_modules, long_functions = sizes()
    assert long_modules == []
    assert long_functions == []


# --- Colours: one place ---------------------------------------------------------------------

COLOUR = re.compile(r"#[0-9a-fA-F]{3,8}\b|\brgba?\(|\bhsla?\(")


def test_every_colour_of_the_site_is_a_token():
    """Colours are custom properties in static/css/tokens.css, used by name everywhere else:
    a new shade is added there once, not typed into a rule."""
    stray = [
        f"{path.name}:{number}: {line.strip()}"
        for path in sorted((ROOT / "static" / "css").glob("*.css"))
        if path.name != "tokens.css"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if COLOUR.search(line)
    ]
    assert stray == []
