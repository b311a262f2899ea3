"""``companion check``: the JSON contract, exit codes 0 and 2, never a traceback."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.commands.check import check_record
from companion.referee import RecordError

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
    assert result["outcome"] == {"termination": "sequences", "winner": "blue"}
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


# ---------------------------------------------------------------- fuzzing: never a traceback


WORDS = ["Ann", "Bo", "blue", "green", "red", "B9", "A1", "K1", "7S", "JH", "JC", "ZZ", "3+4", ""]
KEYS = ["player", "color", "card", "place", "remove", "dead", "draw", "drew", "table_talk",
        "discards", "choose", "pass", "discard"]  # fmt: skip
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 12), st.sampled_from(WORDS), st.text(max_size=4)
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.sampled_from(WORDS), inner, max_size=3)
    ),
    max_leaves=8,
)
names, cells, cards = st.sampled_from(["Ann", "Bo"]), st.sampled_from(["B9", "A1", "E5", "G1", "B1"]), st.sampled_from(["7S", "JH", "JC", "2S", "4C"])  # fmt: skip
plausible = st.one_of(
    st.fixed_dictionaries({"player": names, "card": cards, "place": cells}),
    st.fixed_dictionaries({"player": names, "card": cards, "remove": cells}),
    st.fixed_dictionaries({"color": st.sampled_from(["blue", "green", "red"]), "place": cells}),
    st.fixed_dictionaries({"color": st.sampled_from(["blue", "green"]), "remove": cells}),
    st.fixed_dictionaries({"player": names, "dead": cards}),
    st.fixed_dictionaries({"player": names, "draw": st.just(True)}),
    st.fixed_dictionaries({"player": names, "discard": cards}),
)
junk = st.dictionaries(st.sampled_from(KEYS), values, max_size=4)
moves = st.lists(st.one_of(*[plausible] * 7, junk), max_size=12)
TWO = [{"name": "Ann", "team": "blue"}, {"name": "Bo", "team": "green"}]
THREE = [*TWO, {"name": "Cy", "team": "red"}]
players = st.sampled_from([TWO, TWO, TWO, THREE, [TWO[0]], [{"name": "Ann"}], "nobody"])
options = st.one_of(
    st.just({}),
    st.just({}),
    st.dictionaries(
        st.sampled_from(
            ["overlap", "sequences_needed", "dead_card_limit", "hand_sizes", "layout", "x"]
        ),
        values,
        max_size=2,
    ),
)


@settings(max_examples=150, deadline=None)
@given(
    players=players,
    moves=moves,
    options=options,
    variant=st.sampled_from(["classic", "classic", "set5", "numbers", "chess", 3]),
    seed=st.one_of(st.none(), st.integers(0, 5), st.sampled_from(["x", True])),
)
def test_any_record_gives_rulings_or_a_record_error(players, moves, options, variant, seed):
    record = {"players": players, "moves": moves, "options": options, "variant": variant}
    if seed is not None:
        record["seed"] = seed
    try:
        result = check_record(record)
    except RecordError as exc:
        assert exc.code and exc.message
        return
    assert len(result["rulings"]) == len(moves)
    json.dumps(result)


def test_an_internal_error_is_reported_without_a_traceback(capsys, monkeypatch):
    from companion.commands import check as check_module

    def broken(data, board=False):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(check_module, "check_record", broken)
    code, result = check(capsys, str(EXAMPLE))
    assert code == 1 and result["error"]["code"] == "internal_error"
    assert "ZeroDivisionError: boom" in result["error"]["message"]


def test_a_record_saved_with_a_byte_order_mark_is_read(capsys, tmp_path, monkeypatch):
    # Windows editors (Notepad) save UTF-8 with a BOM; the record is still a record.
    text = EXAMPLE.read_text(encoding="utf-8")
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    code, result = check(capsys, str(path))
    assert code == 0 and len(result["rulings"]) == 4
    monkeypatch.setattr(sys, "stdin", io.StringIO("\ufeff" + text))
    code, result = check(capsys, "-")
    assert code == 0 and len(result["rulings"]) == 4
