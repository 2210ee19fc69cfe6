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
from tests.config.test_settings import run_django

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


class SystemdEnv:
    """systemd's EnvironmentFile= reader: parse_env_file_internal's states, one method each
    (PRE_KEY, KEY, PRE_VALUE, VALUE, VALUE_ESCAPE, SINGLE_QUOTE_VALUE, DOUBLE_QUOTE_VALUE,
    DOUBLE_QUOTE_VALUE_ESCAPE, COMMENT)."""

    WHITESPACE, NEWLINE = " \t\n\r", "\n\r"

    def __init__(self) -> None:
        self.values: dict[str, str] = {}
        self.state, self.key, self.value = self.pre_key, "", None
        self.key_end = self.value_end = None  # where trailing whitespace began

    def push(self) -> None:
        name = self.key if self.key_end is None else self.key[: self.key_end]
        self.values[name] = self.value or ""
        self.key, self.value = "", None

    def add(self, char: str) -> None:
        self.value = (self.value or "") + char

    def pre_key(self, c: str) -> None:
        if c in "#;":
            self.state = self.comment
        elif c not in self.WHITESPACE:
            self.state, self.key, self.key_end = self.in_key, c, None

    def in_key(self, c: str) -> None:
        if c in self.NEWLINE:
            self.state, self.key = self.pre_key, ""
        elif c == "=":
            self.state, self.value_end = self.pre_value, None
        else:
            if c not in self.WHITESPACE:
                self.key_end = None
            elif self.key_end is None:
                self.key_end = len(self.key)
            self.key += c

    def pre_value(self, c: str) -> None:
        if c in self.NEWLINE:
            self.state = self.pre_key
            self.push()
        elif c in "'\"\\":
            self.state = {"'": self.single, '"': self.double, "\\": self.value_escape}[c]
        elif c not in self.WHITESPACE:
            self.state = self.in_value
            self.add(c)

    def in_value(self, c: str) -> None:
        if c in self.NEWLINE:
            self.chomp()
            self.state = self.pre_key
            self.push()
        elif c == "\\":
            self.state, self.value_end = self.value_escape, None
        else:
            if c not in self.WHITESPACE:
                self.value_end = None
            elif self.value_end is None:
                self.value_end = len(self.value or "")
            self.add(c)

    def chomp(self) -> None:
        if self.value_end is not None:
            self.value = self.value[: self.value_end]

    def value_escape(self, c: str) -> None:
        self.state = self.in_value
        if c not in self.NEWLINE:
            self.add(c)

    def single(self, c: str) -> None:
        if c == "'":
            self.state = self.pre_value
        else:
            self.add(c)

    def double(self, c: str) -> None:
        if c == '"':
            self.state = self.pre_value
        elif c == "\\":
            self.state = self.double_escape
        else:
            self.add(c)

    def double_escape(self, c: str) -> None:
        self.state = self.double
        if c in '"\\`$':  # SHELL_NEED_ESCAPE
            self.add(c)
        elif c != "\n":
            self.add("\\" + c)

    def comment(self, c: str) -> None:
        if c in self.NEWLINE:
            self.state = self.pre_key

    def read(self, text: str) -> dict[str, str]:
        for char in text:
            self.state(char)
        if self.state not in (self.pre_key, self.in_key, self.comment):
            if self.state == self.in_value:
                self.chomp()
            self.push()
        return self.values


def systemd_env(text: str) -> dict[str, str]:
    return SystemdEnv().read(text)


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
        stdout=open("/dev/null", "w"),
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
