"""``companion check``: the JSON contract, exit codes 0 and 2, never a traceback."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main

EXAMPLE = Path(__file__).resolve().parent.parent / "sample_images" / "records" / "example.json"


def check(capsys, *args: str) -> tuple[int, dict]:
    code = main(["check", *args])
    out = capsys.readouterr().out
    return code, json.loads(out)


def test_example_record_matches_the_contract(capsys):
    code, result = check(capsys, str(EXAMPLE))
    assert code == 0
    assert [r["move"] for r in result["rulings"]] == [1, 2, 3, 4]
    assert [r["code"] for r in result["rulings"]] == ["ok", "ok", "not_dead", "ok"]
    first = result["rulings"][0]
    assert set(first) >= {"move", "legal", "code", "message", "new_sequences", "rule"}
    assert first["message"] == "Ann plays 7♠ on B9."
    assert result["sequences"] == {"blue": 0, "green": 0}
    assert result["winner"] is None


def test_sequences_and_winner_in_output(capsys, tmp_path):
    # three sides need one Sequence each: blue completes B3-F3 on move 13
    record = {
        "players": [{"name": "Ann", "team": "blue"}, {"name": "Bo", "team": "green"},
                    {"name": "Cy", "team": "red"}],
        "moves": [],
    }  # fmt: skip
    columns = "BCDEF"
    for col in columns:
        record["moves"] += [{"color": "blue", "place": f"{col}3"},
                            {"color": "green", "place": f"{col}7"},
                            {"color": "red", "place": f"{col}9"}]  # fmt: skip
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    code, result = check(capsys, str(path), "--board")
    assert code == 0
    assert result["winner"] == "blue" and result["sequences"] == {"blue": 1, "green": 0, "red": 0}
    winning = result["rulings"][12]
    assert winning["new_sequences"] == [["B3", "C3", "D3", "E3", "F3"]]
    assert [r["code"] for r in result["rulings"][13:]] == ["game_over", "game_over"]
    assert result["board"][2] == ".BBBBB...."


@pytest.mark.parametrize(
    ("content", "code"),
    [
        ("{not json", "bad_json"),
        ('{"players": [{"name": "A", "team": "blue"}], "moves": []}', "player_count"),
        (
            '{"players": [{"name": "A", "team": "blue"}, {"name": "B", "team": "green"}],'
            ' "moves": [{"player": "A", "card": "7S", "place": "B9"}, {"player": "B", "card": "QQ", "place": "B2"}]}',
            "unknown_card",
        ),  # fmt: skip
    ],
)
def test_unreadable_records_exit_2_with_an_error_object(capsys, tmp_path, content, code):
    path = tmp_path / "r.json"
    path.write_text(content)
    exit_code, result = check(capsys, str(path))
    assert exit_code == 2
    assert set(result) == {"error"} and result["error"]["code"] == code
    assert result["error"]["message"]


def test_missing_file_and_stdin(capsys, monkeypatch):
    code, result = check(capsys, "/no/such/record.json")
    assert code == 2 and result["error"]["code"] == "not_found"
    monkeypatch.setattr(sys, "stdin", io.StringIO(EXAMPLE.read_text()))
    code, result = check(capsys, "-")
    assert code == 0 and len(result["rulings"]) == 4


def test_real_process_exit_codes_and_no_traceback(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"players": "nobody"}')
    for path, expected in [(EXAMPLE, 0), (bad, 2)]:
        proc = subprocess.run(
            [sys.executable, "-m", "companion.cli", "check", str(path)],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert proc.returncode == expected
        assert "Traceback" not in proc.stderr
        json.loads(proc.stdout)


def test_text_output_for_people(capsys, tmp_path):
    assert main(["check", str(EXAMPLE), "--text"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "move 1: legal [ok] Ann plays 7♠ on B9."
    assert out[2].startswith("move 3: ILLEGAL [not_dead] 4♣ is not dead")
    assert out[5].split() == list("ABCDEFGHIJ")
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    assert main(["check", str(bad), "--text"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("error [bad_record]: ")
