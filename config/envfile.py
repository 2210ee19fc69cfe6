"""Production's environment file, written so that systemd and a shell read the same values.

The file is read twice over: by systemd (``EnvironmentFile=``) for gunicorn and the workers,
and by a shell (``set -a; . FILE; set +a``) before ``boardwalk migrate`` and the other
commands. The two parse different languages: a shell expands ``$``, runs ``&``, ``(`` and
``;`` and stops a word at a space, while systemd does none of that. Unquoted, a key from
Django's ``get_random_secret_key()`` broke the shell five times out of five. Both read
single quotes the same way, every character between them literally (systemd's
``src/basic/env-file.c``, POSIX sh 2.2.2), and both join quoted pieces written side by side
into one value. A single quote is the one character single quotes cannot hold: it is written
inside double quotes, which both also read literally for that character, between the
single-quoted pieces around it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
# Line ends would end the assignment for both readers (a shell's \r stays in the value);
# NUL cannot be in the environment at all.
FORBIDDEN = ("\n", "\r", "\0")


def env_quote(value: str) -> str:
    """``value`` as both systemd and a POSIX shell read it back, character for character."""
    if any(char in value for char in FORBIDDEN):
        raise ValueError("an environment value cannot hold a line break or a NUL character")
    return '"\'"'.join(f"'{piece}'" for piece in value.split("'"))


def env_line(name: str, value: str) -> str:
    if not NAME.match(name):
        raise ValueError(f"{name!r} is not a variable name (letters, digits and _)")
    return f"{name}={env_quote(value)}"


def env_file_text(values: dict[str, str], *, comments: Sequence[str] = ()) -> str:
    """The whole file: ``comments`` (one ``#`` line each), then one assignment a line."""
    lines = [f"# {comment}" for comment in comments]
    lines += [env_line(name, value) for name, value in values.items()]
    return "\n".join(lines) + "\n"
