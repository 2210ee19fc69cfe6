"""``python -m gameplay`` as an organizer would run it from a shell.

The command's ``main`` runs in this process (as ``python -m gameplay`` calls it, with its
arguments, standard input and output), so a mutation run sees which tests reach it; the
real command runs as its own process in ``test_the_command_runs_as_python_dash_m``.
"""

import io
import json
import re
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

import pytest

from gameplay.cli import main

VALID = {
    "edition": "classic-us",
    "players": [
        {"id": "P1", "bankrupt": False, "bills": {"500": 2, "100": 2, "20": 6}},
        {"id": "P2", "bankrupt": False, "cash": 1340},
    ],
    "properties": [
        {"position": 39, "owner": "P1", "mortgaged": False, "houses": 0, "hotel": True},
        {"position": 37, "owner": "P1", "mortgaged": False, "houses": 4, "hotel": False},
    ],
}


@dataclass(frozen=True)
class Ran:
    returncode: int
    stdout: str
    stderr: str


def run(*args, stdin=None) -> Ran:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err), mock.patch("sys.stdin", io.StringIO(stdin)):
        code = main(list(args))
    return Ran(code, out.getvalue(), err.getvalue())


def test_the_command_runs_as_python_dash_m(tmp_path):
    path = tmp_path / "table7.json"
    path.write_text(json.dumps(VALID))
    result = subprocess.run(
        [sys.executable, "-m", "gameplay", "check", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["valid"] is True


def test_the_report_is_indented_json_ending_with_a_new_line_and_keeps_names_as_written():
    sheet = json.loads(json.dumps(VALID))
    sheet["players"][1]["id"] = "Zoë"
    result = run("check", "-", stdin=json.dumps(sheet))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith('{\n  "')
    assert result.stdout.endswith("}\n")
    assert '"id": "Zoë"' in result.stdout


def test_valid_sheet_from_a_file(tmp_path):
    path = tmp_path / "table7.json"
    path.write_text(json.dumps(VALID))
    result = run("check", str(path))
    assert result.returncode == 0, result.stderr
    output = json.loads(result.stdout)
    assert output["valid"] is True and output["errors"] == []
    p1, p2 = output["players"]
    # 1320 cash + Boardwalk with hotel 1400 + Park Place with four houses 350 + 800.
    assert p1["net_worth"] == 1320 + 1400 + 1150
    assert (p1["place"], p1["points"], p2["place"], p2["points"]) == (1, 25, 2, 14)
    assert set(p1) == {
        "id",
        "bankrupt",
        "cash",
        "deed_value",
        "building_value",
        "net_worth",
        "unmortgaged_property_value",
        "place",
        "points",
    }
    assert output["unresolved_ties"] == []


def test_invalid_sheet_from_stdin_exits_1_with_every_error():
    sheet = json.loads(json.dumps(VALID))
    sheet["properties"][1]["owner"] = "P2"  # now P1's hotel stands without the monopoly
    sheet["players"][1]["bills"] = {"3": 1}
    result = run("check", "-", stdin=json.dumps(sheet))
    assert result.returncode == 1
    output = json.loads(result.stdout)
    assert output["valid"] is False
    assert {e["code"] for e in output["errors"]} == {
        "building-without-monopoly",
        "unknown-denomination",
        "cash-total-mismatch",
    }
    for error in output["errors"]:
        assert set(error) == {"code", "message", "player", "positions", "params"}
    mismatch = next(e for e in output["errors"] if e["code"] == "cash-total-mismatch")
    assert mismatch["params"] == {"player": "P2", "bills_total": 0, "cash": 1340}


@pytest.mark.parametrize(
    ("stdin", "reason"),
    [
        ("{not json", "not JSON"),
        ("[1, 2]", "not a score sheet"),
        ('{"edition": "monopoly-mars", "players": [{"id": "A"}]}', "no edition"),
        ('{"edition": "classic-us", "players": []}', "players"),
        ('{"edition": "classic-us", "players": [{"id": "A", "bankrupt": "no"}]}', "bankrupt"),
        (
            '{"edition": "classic-us", "players": [{"id": "A", "bankrupt": true, "out_order": 1},'
            ' {"id": "B", "bankrupt": true, "out_order": 1}]}',
            "same 'out_order'",
        ),
        ('{"edition": "classic-us", "players": [{"id": "A", "out_order": 2}]}', "only for"),
    ],
)
def test_unreadable_input_exits_2_with_one_line_on_stderr(stdin, reason):
    result = run("check", "-", stdin=stdin)
    assert result.returncode == 2
    assert result.stdout == ""
    assert reason in result.stderr
    assert result.stderr.startswith("error: - is not ")
    assert len(result.stderr.strip().splitlines()) == 1


def test_missing_file_exits_2(tmp_path):
    result = run("check", str(tmp_path / "nowhere.json"))
    assert result.returncode == 2
    assert result.stderr.startswith(f"error: cannot read {tmp_path / 'nowhere.json'}: ")
    assert result.stdout == ""


def test_a_file_that_is_not_text_exits_2(tmp_path):
    path = tmp_path / "photo.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    result = run("check", str(path))
    assert result.returncode == 2
    assert result.stderr.startswith(f"error: cannot read {path}: ")


def test_help_names_the_command_and_what_each_part_does():
    out = io.StringIO()
    with redirect_stdout(out), pytest.raises(SystemExit) as exit:
        main(["--help"])
    assert exit.value.code == 0
    text = out.getvalue()
    assert text.startswith("usage: python -m gameplay [-h] {check,editions}")
    assert "check a score sheet or list the editions from a shell" in text
    # One line a command, its words exactly.
    assert re.search(r"^ +check +check and value an end-of-game score sheet$", text, re.M)
    assert re.search(r"^ +editions +list the editions$", text, re.M)
    out = io.StringIO()
    with redirect_stdout(out), pytest.raises(SystemExit):
        main(["check", "--help"])
    assert re.search(r"^ +file +a JSON score sheet, or - for standard input$", out.getvalue(), re.M)


def test_no_command_is_a_usage_error_naming_what_is_missing():
    err = io.StringIO()
    with redirect_stderr(err), pytest.raises(SystemExit) as exit:
        main([])
    assert exit.value.code == 2
    assert "the following arguments are required: command" in err.getvalue()


def test_editions_lists_every_shipped_edition():
    result = run("editions")
    assert result.returncode == 0
    rows = [line.split("\t") for line in result.stdout.splitlines()]
    assert {"classic-us", "classic-uk", "boutique", "india-rupee"} <= {row[0] for row in rows}
    # Slug, currency, name: one edition a line.
    assert ["classic-us", "USD", "Classic (US, Atlantic City)"] in rows


def test_the_engine_runs_without_django():
    code = "import sys, gameplay, gameplay.cli; sys.exit('django' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


EXAMPLES = Path(__file__).parents[2] / "fixtures" / "score-sheets"


def test_the_shipped_valid_example_adds_up_by_hand():
    result = run("check", str(EXAMPLES / "valid-four-players.json"))
    assert result.returncode == 0, result.stdout
    players = {p["id"]: p for p in json.loads(result.stdout)["players"]}
    # Bills 1500 + 400 + 50 + 60 + 20 + 5 + 4; Park Place 350 + hotel 1000;
    # Boardwalk 400 + 4 houses 800; Reading Railroad 200.
    assert players["Lucky Thimble"]["net_worth"] == 2039 + 1350 + 1200 + 200
    # 2210 cash; the oranges 180 + 180 + 200 with 2 + 2 + 3 houses at 100; Electric Co. at 75.
    assert players["Golden Top Hat"]["net_worth"] == 2210 + 560 + 700 + 75
    # 415 cash; Mediterranean mortgaged 30; Illinois 240.
    assert players["Swift Racing Car"]["net_worth"] == 415 + 30 + 240
    assert [players[p]["points"] for p in players] == [22, 12, 6, 0]


def test_the_shipped_invalid_example_lists_each_mistake():
    result = run("check", str(EXAMPLES / "invalid-several-mistakes.json"))
    assert result.returncode == 1
    assert sorted(e["code"] for e in json.loads(result.stdout)["errors"]) == [
        "bankrupt-player-has-assets",
        "building-on-railroad-or-utility",
        "uneven-building",
        "unknown-denomination",
    ]
