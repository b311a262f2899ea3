"""Game records: round trips, replay of the shipped full games, and clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.referee import Game, Move, RecordError, load_record
from companion.referee.randomplay import play_random_game

RECORDS = Path(__file__).resolve().parent.parent / "sample_images" / "records"


def test_round_trip_keeps_every_pushed_move_and_ruling():
    game = Game([("Ann", "blue"), ("Bo", "green")], options={"overlap": "crossing_only"})
    game.push(Move.play("Ann", "7S", "B9"))
    game.push(Move.play("Ann", "7S", "G1"))  # out of turn: kept in the record
    game.push(Move.jack_remove("Bo", "JH", "B9"))
    game.push(Move.board_place("blue", "E5"))
    record = json.loads(json.dumps(game.to_record()))
    again, rulings = Game.from_record(record)
    assert [r.to_json() for r in rulings] == [r.to_json() for r in game.rulings]
    assert again.board_strings() == game.board_strings()
    assert again.rules.overlap == "crossing_only"
    assert record["moves"][1] == {"player": "Ann", "card": "7S", "place": "G1"}


def test_move_json_forms_round_trip():
    forms = [
        {"player": "Ann", "card": "7S", "place": "B9"},
        {"player": "Bo", "card": "JH", "remove": "B9", "drew": False},
        {"player": "Ann", "dead": "4C"},
        {"color": "blue", "place": "E5"},
        {"color": "green", "remove": "E5"},
        {"player": "Ann", "draw": True},
        {"table_talk": "blue", "discards": {"Ann": "7S"}},
        {"color": "blue", "choose": ["B1", "C1", "D1", "E1", "F1"]},
        {"player": "Ann", "discard": "7S"},
        {"player": "Ann", "pass": True},
    ]
    for form in forms:
        assert Move.from_json(form).to_json() == form
    assert Move.from_json({"player": "Ann", "card": "7S", "place": [8, 1]}).place == (8, 1)


def test_seeded_full_information_game_round_trips():
    game = play_random_game(5)
    again, rulings = Game.from_record(game.to_record())
    assert again.winner == game.winner and all(r.legal for r in rulings)
    assert again.piles.hands == game.piles.hands


@pytest.mark.parametrize(
    ("name", "winner", "counts"),
    [
        ("classic_full_game.json", "blue", {"blue": 2, "green": 1}),
        ("classic_three_player_game.json", "green", {"blue": 0, "green": 1, "red": 0}),
        ("set5_full_game.json", "blue", {"blue": 2, "green": 0}),
        ("numbers_full_game.json", "blue", {"blue": 1, "green": 0}),
    ],
)
def test_shipped_full_games_replay_to_their_result(name, winner, counts):
    game, rulings = Game.from_record(load_record(RECORDS / name))
    assert game.winner == winner and game.sequence_counts() == counts
    assert [r.code for r in rulings if not r.legal] == ["out_of_turn", "cell_mismatch"]
    assert [r.move_number for r in rulings if not r.legal] == [5, 6]
    assert rulings[-1].rule == "win.sequences" and game.is_over


def good_record() -> dict:
    return {
        "players": [{"name": "Ann", "team": "blue"}, {"name": "Bo", "team": "green"}],
        "moves": [{"player": "Ann", "card": "7S", "place": "B9"}] * 7,
    }


def broken(change) -> dict:
    record = good_record()
    change(record)
    return record


@pytest.mark.parametrize(
    ("record", "code", "hint"),
    [
        ([], "bad_record", "JSON object"),
        ({"moves": []}, "bad_record", "'players'"),
        (broken(lambda r: r.update(colour="x")), "bad_record", "unknown record field"),
        (broken(lambda r: r.update(options=[1])), "bad_record", "'options'"),
        (broken(lambda r: r.update(variant="chess")), "option", "unknown variant"),
        (broken(lambda r: r["players"].pop()), "player_count", "bad setup"),
        (broken(lambda r: r["players"][1].update(team="red")), "team_color", "red"),
        (broken(lambda r: r.update(moves={})), "bad_record", "'moves'"),
        (
            broken(lambda r: r["moves"].append({"player": "Ann", "card": "1X", "place": "B9"})),
            "unknown_card",
            "move 8",
        ),  # fmt: skip
        (
            broken(
                lambda r: r["moves"].__setitem__(6, {"player": "Zed", "card": "7S", "place": "B9"})
            ),
            "unknown_player",
            "move 7",
        ),  # fmt: skip
        (
            broken(
                lambda r: r["moves"].__setitem__(6, {"player": "Ann", "card": "7S", "place": "K1"})
            ),
            "bad_move",
            "move 7",
        ),  # fmt: skip
        (
            broken(
                lambda r: r["moves"].__setitem__(
                    6, {"player": "Ann", "place": "B9", "remove": "B9"}
                )
            ),
            "bad_move",
            "exactly one",
        ),  # fmt: skip
        (
            broken(lambda r: r["moves"].__setitem__(6, {"card": "7S", "place": "B9"})),
            "bad_move",
            "'player' or a 'color'",
        ),  # fmt: skip
        (
            broken(lambda r: r["moves"].__setitem__(6, {"color": "red", "place": "B9"})),
            "unknown_color",
            "no side plays red",
        ),  # fmt: skip
        (broken(lambda r: r.update(seed="x")), "bad_record", "'seed'"),
        (broken(lambda r: r.update(deck=["2S"])), "deck", "104"),
    ],
)
def test_bad_records_raise_record_error_with_a_code(record, code, hint):
    with pytest.raises(RecordError) as info:
        Game.from_record(record)
    assert info.value.code == code
    assert hint in info.value.message


def test_unknown_card_names_the_move_and_the_card():
    record = good_record()
    record["moves"][6] = {"player": "Ann", "card": "ZZ", "place": "B9"}
    with pytest.raises(RecordError, match=r"move 7: unknown card 'ZZ'"):
        Game.from_record(record)


def test_load_record_errors(tmp_path):
    with pytest.raises(RecordError) as info:
        load_record(tmp_path / "missing.json")
    assert info.value.code == "not_found"
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(RecordError) as info:
        load_record(bad)
    assert info.value.code == "bad_json" and "line 1" in info.value.message
    with pytest.raises(RecordError) as info:
        load_record(tmp_path)
    assert info.value.code == "not_found"
