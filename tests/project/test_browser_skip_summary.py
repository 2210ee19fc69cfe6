"""A machine without chromium: `make test` ends by saying how many browser tests it skipped.

Runs the browser tests in a child pytest (through pytest-xdist, as `make test` does, so
the skips travel from a worker to the process that prints) with BOARDWALK_CHROMIUM naming
a file that does not exist, and compares the line with pytest's own count of skips. The
browser fixture skips before any database is built, so this takes seconds.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_missing_chromium_is_counted_in_one_line_with_how_to_install_it(tmp_path):
    env = {
        name: value
        for name, value in os.environ.items()
        # CI turns the skip into a failure; the child never touches the parent's database.
        if name not in ("CI", "DATABASE_URL") and not name.startswith("PYTEST_")
    }
    env["BOARDWALK_CHROMIUM"] = str(tmp_path / "no-chromium")
    child = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "1", "tests/browser"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    lines = child.stdout.strip().splitlines()
    assert child.returncode == 0, child.stdout[-3000:] + child.stderr[-3000:]
    # pytest's own count, and nothing but skips (xdist does not report the deselected e2e test).
    counted = re.fullmatch(r"=+ (\d+) skipped(?:, \d+ warnings?)? in .+ =+", lines[-1])
    assert counted, lines[-1]
    skipped = int(counted.group(1))
    assert skipped > 0
    assert lines[-2] == (
        f"{skipped} browser tests skipped: chromium not found; "
        "install it with: apt-get install chromium"
    )
