"""Production's environment file reads the same through a shell and through systemd.

The README loads it with ``set -a; . FILE; set +a`` before the commands, and systemd loads
it with ``EnvironmentFile=`` for gunicorn and the workers. The shell here is the real one
(Debian's dash as /bin/sh, and bash). systemd cannot run in the test machine, so its reader
is ``systemd_env``, a line-by-line port of ``parse_env_file_internal`` in systemd's
src/basic/env-file.c (a comment line ending in a backslash aside); it is checked on its own
against the examples systemd's documentation and test suite give, so a mistake in it cannot
hide one in the writer.
"""

from __future__ import annotations

import shutil
import stat
import subprocess

import pytest
from django.core.management import CommandError, call_command
from django.core.management.utils import get_random_secret_key
from hypothesis import given, settings
from hypothesis import strategies as st

from config.envfile import env_file_text, env_quote

from .test_settings import run_django

SHELLS = [shell for shell in ("sh", "bash") if shutil.which(shell)]

# Any text an environment can hold: no line break, no NUL, no lone surrogate (not UTF-8).
VALUES = st.text(
    alphabet=st.characters(blacklist_characters="\n\r\0", blacklist_categories=("Cs",)),
    max_size=60,
)


def shell_reads(text: str, name: str, tmp_path, shell: str = "sh") -> str:
    """What ``set -a; . FILE; set +a`` leaves in ``name``, as the README runs it."""
    path = tmp_path / "env"
    path.write_text(text, encoding="utf-8")
    result = subprocess.run(
        [shell, "-c", f'set -a; . "$1"; set +a; printf %s "${name}"', shell, str(path)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=10,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.decode("utf-8")


def systemd_env(text: str) -> dict[str, str]:
    """systemd's EnvironmentFile= reader: parse_env_file_internal's states, in order."""
    values: dict[str, str] = {}
    state, key, value = "PRE_KEY", "", None
    key_end = value_end = None  # where trailing whitespace began, as last_*_whitespace

    def push() -> None:
        nonlocal key, value
        name = key if key_end is None else key[:key_end]
        values[name] = value or ""
        key, value = "", None

    for char in text:
        if state == "PRE_KEY":
            if char in "#;":
                state = "COMMENT"
            elif char not in " \t\n\r":
                state, key, key_end = "KEY", char, None
        elif state == "KEY":
            if char in "\n\r":
                state, key = "PRE_KEY", ""
            elif char == "=":
                state, value_end = "PRE_VALUE", None
            else:
                if char not in " \t\n\r":
                    key_end = None
                elif key_end is None:
                    key_end = len(key)
                key += char
        elif state == "PRE_VALUE":
            if char in "\n\r":
                state = "PRE_KEY"
                push()
            elif char == "'":
                state = "SINGLE"
            elif char == '"':
                state = "DOUBLE"
            elif char == "\\":
                state = "VALUE_ESCAPE"
            elif char not in " \t\n\r":
                state, value = "VALUE", (value or "") + char
        elif state == "VALUE":
            if char in "\n\r":
                if value_end is not None:
                    value = value[:value_end]
                state = "PRE_KEY"
                push()
            elif char == "\\":
                state, value_end = "VALUE_ESCAPE", None
            else:
                if char not in " \t\n\r":
                    value_end = None
                elif value_end is None:
                    value_end = len(value or "")
                value = (value or "") + char
        elif state == "VALUE_ESCAPE":
            state = "VALUE"
            if char not in "\n\r":
                value = (value or "") + char
        elif state == "SINGLE":
            if char == "'":
                state = "PRE_VALUE"
            else:
                value = (value or "") + char
        elif state == "DOUBLE":
            if char == '"':
                state = "PRE_VALUE"
            elif char == "\\":
                state = "DOUBLE_ESCAPE"
            else:
                value = (value or "") + char
        elif state == "DOUBLE_ESCAPE":
            state = "DOUBLE"
            if char in '"\\`$':  # SHELL_NEED_ESCAPE
                value = (value or "") + char
            elif char != "\n":
                value = (value or "") + "\\" + char
        elif state == "COMMENT" and char in "\n\r":
            state = "PRE_KEY"
    if state in ("PRE_VALUE", "VALUE", "VALUE_ESCAPE", "SINGLE", "DOUBLE", "DOUBLE_ESCAPE"):
        if state == "VALUE" and value_end is not None:
            value = value[:value_end]
        push()
    return values


# --- The systemd reader itself, against systemd's own examples ----------------------------


def test_the_systemd_reader_follows_systemds_examples():
    # systemd.exec(5) and test-env-file.c: whitespace around values is dropped unless
    # quoted, a backslash escapes the next character, $ means nothing, # starts a comment
    # only at the start of a line, and quoted pieces side by side join.
    text = (
        "# comment\n"
        "; also a comment\n"
        "a=a\n"
        "b = b  \n"
        'c="  c  "\n'
        "d='d$HOME \\n'\n"
        'e="e\\"e\\$x\\q"\n'
        "f=f\\ g\n"
        "g='one'\"two\"'three'\n"
        "h=x#y\n"
        "i="
    )
    assert systemd_env(text) == {
        "a": "a",
        "b": "b",
        "c": "  c  ",
        "d": "d$HOME \\n",
        "e": 'e"e$x\\q',
        "f": "f g",
        "g": "onetwothree",
        "h": "x#y",
        "i": "",
    }


@pytest.mark.parametrize("key", ["x9$ab-c+d#q", "w#2)k=p!o8", "t%u^v*y(z"])
def test_unquoted_a_key_of_get_random_secret_keys_characters_breaks_the_shell(tmp_path, key):
    """The README's old line, `DJANGO_SECRET_KEY=<50 random characters>`, with characters
    get_random_secret_key() draws ($, parentheses): the shell must read it wrong or stop,
    or a pass below would prove nothing. (Fixed keys: a random one could hold `&yes`.)"""
    try:
        read = shell_reads(f"DJANGO_SECRET_KEY={key}\n", "DJANGO_SECRET_KEY", tmp_path)
    except AssertionError:  # the shell stopped on the line
        read = None
    assert read != key


# --- The writer ---------------------------------------------------------------------------


@pytest.mark.parametrize("shell", SHELLS)
def test_generated_secret_keys_survive_both_readers(tmp_path, shell):
    for _ in range(5):
        key = get_random_secret_key()
        text = env_file_text({"DJANGO_SECRET_KEY": key})
        assert shell_reads(text, "DJANGO_SECRET_KEY", tmp_path, shell) == key
        assert systemd_env(text) == {"DJANGO_SECRET_KEY": key}


@pytest.mark.parametrize(
    "value",
    [
        "it's",
        "'",
        "''",
        "",
        "  spaced  ",
        "$HOME `id` $(id) \\n \\' \"",
        "Boardwalk <boardwalk@example.org>",
        "#not a comment; & | > <",
        "Évènement ₹1,50,000",
    ],
)
def test_awkward_values_survive_both_readers(tmp_path, value):
    text = env_file_text({"V": value}, comments=["a comment"])
    for shell in SHELLS:
        assert shell_reads(text, "V", tmp_path, shell) == value
    assert systemd_env(text) == {"V": value}


@settings(max_examples=60, deadline=None)
@given(value=VALUES)
def test_any_value_survives_both_readers(tmp_path_factory, value):
    tmp_path = tmp_path_factory.mktemp("env")
    text = env_file_text({"V": value})
    assert shell_reads(text, "V", tmp_path) == value
    assert systemd_env(text) == {"V": value}


@pytest.mark.parametrize("value", ["two\nlines", "cr\r", "nul\0"])
def test_a_value_that_would_end_the_line_is_refused(value):
    with pytest.raises(ValueError, match="line break or a NUL"):
        env_quote(value)


# --- write_env ------------------------------------------------------------------------------


def write_env(path, *extra: str) -> None:
    call_command(
        "write_env",
        str(path),
        "--host=boardwalk.example.org",
        "--host=www.boardwalk.example.org",
        "--database-url=postgres://boardwalk:pw@127.0.0.1:5432/boardwalk",
        *extra,
        stdout=open("/dev/null", "w"),  # noqa: SIM115 - the command's own messages
    )


def test_write_env_writes_a_production_environment_for_its_owner_only(tmp_path):
    path = tmp_path / "env"
    write_env(path, "--set=EMAIL_HOST=smtp.example.org", "--set=REDIS_URL=redis://r:6379/1")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    values = systemd_env(path.read_text(encoding="utf-8"))
    assert values["DJANGO_DEBUG"] == "0"
    assert len(values["DJANGO_SECRET_KEY"]) == 50
    assert values["DJANGO_ALLOWED_HOSTS"] == "boardwalk.example.org,www.boardwalk.example.org"
    assert values["DJANGO_CSRF_TRUSTED_ORIGINS"] == (
        "https://boardwalk.example.org,https://www.boardwalk.example.org"
    )
    assert values["DATABASE_URL"] == "postgres://boardwalk:pw@127.0.0.1:5432/boardwalk"
    assert values["REDIS_URL"] == "redis://r:6379/1"  # --set replaces the default
    assert values["EMAIL_HOST"] == "smtp.example.org"
    assert values["DJANGO_STATIC_ROOT"] == str(tmp_path / "static")
    assert values["BOARDWALK_FILES_DIR"] == str(tmp_path / "files")
    assert (values["DJANGO_CLIENT_IP_HEADER"], values["DJANGO_TRUSTED_PROXIES"]) == (
        "HTTP_X_REAL_IP",
        "127.0.0.1",
    )
    for name, value in values.items():
        assert shell_reads(path.read_text(encoding="utf-8"), name, tmp_path) == value


def test_write_env_never_replaces_a_key_unless_told(tmp_path):
    path = tmp_path / "env"
    write_env(path)
    first = path.read_text(encoding="utf-8")
    with pytest.raises(CommandError, match="exists"):
        write_env(path)
    assert path.read_text(encoding="utf-8") == first
    write_env(path, "--force")
    assert (
        systemd_env(path.read_text())["DJANGO_SECRET_KEY"]
        != systemd_env(first)["DJANGO_SECRET_KEY"]
    )
    assert [p.name for p in tmp_path.iterdir()] == ["env"]  # no temporary file left


def test_what_write_env_writes_passes_the_deploy_check(tmp_path):
    """The file alone (and a mail server) is a production configuration `check --deploy
    --fail-level WARNING` accepts: read as systemd reads it, handed to a fresh process."""
    path = tmp_path / "env"
    write_env(path, "--set=EMAIL_HOST=smtp.example.org")
    env = systemd_env(path.read_text(encoding="utf-8"))
    env["DATABASE_URL"] = "sqlite://:memory:"  # the check reads the accounts: an empty db
    result = run_django(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **env)
    assert result.returncode == 0, result.stdout + result.stderr
