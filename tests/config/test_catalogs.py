"""Every shipped catalog is complete: "kept complete by a test that fails on an
untranslated or fuzzy string in a shipped catalog".

A shipped catalog is ``locale/<locale>/LC_MESSAGES/django.po`` for every language in
``settings.LANGUAGES`` but English (the msgids are English). Each must:

- exist, and translate every entry (every plural form) without a ``fuzzy`` flag;
- keep every ``%(name)s`` placeholder of its msgid (a missing one loses a number, an extra
  one raises at run time);
- hold every msgid the code and templates have now: a fresh ``makemessages`` run (into a
  temporary folder, so nothing in ``locale/`` changes) extracts the current msgids, and a
  catalog missing any of them fails with the list;
- be compiled: the committed ``django.mo`` says what the ``.po`` says.

When it fails after you add or change text: ``make messages`` (README, "Adding a
language") refreshes every catalog; translate the new entries, and commit the ``.po`` and
``.mo`` files.
"""

from __future__ import annotations

import gettext
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings
from django.utils.translation import to_locale

# Not part of the site's text: the test suite, benchmarks and build output.
EXTRACTION_IGNORES = [".venv", "tests", "benchmarks", "staticfiles", "artifacts", "var", "locale"]
PLACEHOLDER = re.compile(r"%\((\w+)\)[0-9]*[sd]")
SHIPPED = [code for code, _name in settings.LANGUAGES if code != "en"]


def _unquote(text: str) -> str:
    return bytes(text, "utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8")


def read_po(path: Path) -> list[dict]:
    """The entries of a .po file: msgctxt, msgid, msgid_plural, msgstr (a list) and flags."""
    entries = []
    for block in path.read_text(encoding="utf-8").strip().split("\n\n"):
        entry: dict = {"flags": set(), "msgstr": {}}
        field = None
        for line in block.splitlines():
            if line.startswith("#,"):
                entry["flags"].update(flag.strip() for flag in line[2:].split(","))
                continue
            if line.startswith("#"):
                continue
            match = re.match(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?) "(.*)"$', line)
            if match:
                name, index, text = match.groups()
                field = ("msgstr", int(index or 0)) if name.startswith("msgstr") else name
                value = _unquote(text)
            else:
                value = _unquote(line.strip()[1:-1])
            if isinstance(field, tuple):
                entry["msgstr"][field[1]] = entry["msgstr"].get(field[1], "") + value
            elif match:
                entry[field] = value
            else:
                entry[field] += value
        if "msgid" in entry:
            entries.append(entry)
    return entries


def _key(entry: dict) -> tuple:
    return (entry.get("msgctxt"), entry["msgid"])


def _catalog(code: str) -> Path:
    return Path(settings.BASE_DIR) / "locale" / to_locale(code) / "LC_MESSAGES" / "django.po"


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> set[tuple]:
    """The msgids of the code and templates as they are now: a fresh makemessages run.

    It runs in a temporary folder that links to the project's sources but not to
    ``locale/``, so makemessages writes its template there and never touches a catalog.
    """
    if shutil.which("xgettext") is None:
        pytest.fail("xgettext (GNU gettext) extracts the messages: apt-get install gettext")
    root = tmp_path_factory.mktemp("extract")
    for source in Path(settings.BASE_DIR).iterdir():
        if source.name not in EXTRACTION_IGNORES and not source.name.startswith("."):
            (root / source.name).symlink_to(source)
    out = root / "out"
    out.mkdir()
    here = os.getcwd()
    os.chdir(root)
    try:
        with override_settings(LOCALE_PATHS=[out]):
            call_command(
                "makemessages",
                locale=["xx"],
                ignore_patterns=EXTRACTION_IGNORES,
                symlinks=True,
                keep_pot=True,
                verbosity=0,
            )
    finally:
        os.chdir(here)
    return {_key(e) for e in read_po(out / "django.pot") if e["msgid"]}


@pytest.mark.parametrize("code", SHIPPED)
def test_the_catalog_translates_everything_and_nothing_is_fuzzy(code):
    path = _catalog(code)
    assert path.exists(), f"{code}: no catalog at {path.relative_to(settings.BASE_DIR)}"
    problems = []
    for entry in read_po(path):
        if not entry["msgid"]:
            assert "fuzzy" not in entry["flags"], f"{code}: the header is marked fuzzy"
            continue
        label = repr(entry["msgid"][:70])
        if "fuzzy" in entry["flags"]:
            problems.append(f"fuzzy: {label}")
        if not entry["msgstr"] or any(not text for text in entry["msgstr"].values()):
            problems.append(f"untranslated: {label}")
            continue
        wanted = set(PLACEHOLDER.findall(entry["msgid"] + entry.get("msgid_plural", "")))
        for text in entry["msgstr"].values():
            # A plural form may leave out the count ("one table"), never add a name.
            have = set(PLACEHOLDER.findall(text))
            if have - wanted or (wanted - have - {"count", "n"} and "msgid_plural" not in entry):
                problems.append(f"placeholders {sorted(have)} for {sorted(wanted)}: {label}")
    assert not problems, f"{code}: {len(problems)} problem(s):\n" + "\n".join(problems[:40])


@pytest.mark.parametrize("code", SHIPPED)
def test_the_catalog_holds_every_message_of_the_code(code, extracted):
    path = _catalog(code)
    assert path.exists(), f"{code}: no catalog at {path.relative_to(settings.BASE_DIR)}"
    have = {_key(entry) for entry in read_po(path)}
    missing = sorted(extracted - have, key=str)
    assert not missing, (
        f"{code}: {len(missing)} message(s) of the code are not in the catalog "
        "(run `make messages`, translate, commit):\n"
        + "\n".join(repr(msgid[:70]) for _ctx, msgid in missing[:40])
    )


# In a msgid, a backslash the .po file spells ``\\`` followed by u, U, N or x.
KEPT_ESCAPE = re.compile(r"\\\\[uUNx]")


@pytest.mark.parametrize("code", SHIPPED)
def test_no_msgid_holds_an_escape_the_code_never_asks_for(code):
    """xgettext keeps a Python escape such as ``\\u201c`` as written, while the running code
    asks gettext for the character itself: such an entry is never looked up, and the page
    stays in English. Write the character itself in the source (“ ” ’ …)."""
    path = _catalog(code)
    assert path.exists(), f"{code}: no catalog at {path.relative_to(settings.BASE_DIR)}"
    kept = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        source = block.split("\nmsgstr", 1)[0]
        lines = [line for line in source.splitlines() if not line.startswith("#")]
        if any(KEPT_ESCAPE.search(line) for line in lines):
            kept.append(" ".join(lines)[:90])
    assert not kept, f"{code}: {len(kept)} msgid(s) hold an escape:\n" + "\n".join(kept)


@pytest.mark.parametrize("code", SHIPPED)
def test_the_committed_mo_file_is_the_compiled_catalog(code, tmp_path):
    path = _catalog(code)
    assert path.exists(), f"{code}: no catalog at {path.relative_to(settings.BASE_DIR)}"
    if shutil.which("msgfmt") is None:
        pytest.fail(
            "msgfmt (GNU gettext) is needed to compile the catalogs: apt-get install gettext"
        )
    fresh = tmp_path / "django.mo"
    subprocess.run(["msgfmt", "--check-format", "-o", fresh, path], check=True)
    committed = path.with_suffix(".mo")
    assert committed.exists(), f"{code}: {committed.name} is not compiled (make messages)"
    with fresh.open("rb") as a, committed.open("rb") as b:
        assert gettext.GNUTranslations(a)._catalog == gettext.GNUTranslations(b)._catalog, (
            f"{code}: django.mo is older than django.po; run `make messages` and commit both"
        )


def test_the_extraction_finds_the_sites_text(extracted):
    """The comparison above means something only if the extraction sees the site."""
    msgids = {msgid for _ctx, msgid in extracted}
    assert {"Score Sheet", "Standings", "Change language", "Net worth: %(amount)s"} <= msgids
    assert ("money", "%(symbol)s%(amount)s") in extracted
