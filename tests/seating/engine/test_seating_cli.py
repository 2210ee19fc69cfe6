"""``python -m seating.engine`` as an organizer would run it from a shell."""

import json
import subprocess
import sys

ROSTER = {
    "players": [{"id": f"p{i}", "family": "f1" if i < 3 else None} for i in range(13)],
    "avoid": [["p5", "p9"]],
    "history": [["p3", "p4"]],
}


def run(*args):
    return subprocess.run(
        [sys.executable, "-m", "seating.engine", *args],
        capture_output=True,
        text=True,
        check=False,
    )


def test_valid_roster(tmp_path):
    path = tmp_path / "players.json"
    path.write_text(json.dumps(ROSTER))
    result = run(str(path), "--rounds", "3", "--seed", "4", "--time-limit", "5")
    assert result.returncode == 0, result.stderr
    output = json.loads(result.stdout)
    assert len(output["rounds"]) == 3
    for tables in output["rounds"]:
        assert sorted(len(t) for t in tables) == [4, 4, 5]
        assert sorted(p for t in tables for p in t) == sorted(f"p{i}" for i in range(13))
    report = output["report"]
    assert report["family_conflicts"] == 0
    assert report["repeat_meetings"] >= report["repeat_lower_bound"]
    assert report["seed"] == 4


def test_not_json_exits_2(tmp_path):
    path = tmp_path / "players.json"
    path.write_text("{not json")
    result = run(str(path), "--rounds", "3")
    assert result.returncode == 2
    assert result.stderr.startswith("error:") and result.stderr.count("\n") == 1


def test_wrong_shape_exits_2(tmp_path):
    path = tmp_path / "players.json"
    path.write_text(json.dumps({"players": [{"name": "no id"}]}))
    result = run(str(path), "--rounds", "3")
    assert result.returncode == 2
    assert "id" in result.stderr


def test_missing_file_exits_2(tmp_path):
    result = run(str(tmp_path / "absent.json"), "--rounds", "3")
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
