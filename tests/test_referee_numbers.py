"""Sequence Numbers (Seed C) on a layout made for the tests: the real board is not public."""

from __future__ import annotations

import copy

import pytest

from companion.cells import cell_name
from companion.referee import Game, Move, SetupError
from companion.referee.cards import CardError, parse_numbers_card
from companion.referee.madeup import made_up_numbers_layout

LAYOUT = made_up_numbers_layout()


def numbers_game(count: int = 2, **kwargs) -> Game:
    colors = ["blue", "green", "red"] if count in (3, 6) else ["blue", "green"]
    players = [(f"P{i + 1}", colors[i % len(colors)]) for i in range(count)]
    return Game(players, "numbers", {"layout": LAYOUT}, **kwargs)


def cells_of(game: Game, number: int) -> list[str]:
    return [cell_name(c) for c in game.layout.cells_by_face[str(number)]]


def test_the_shipped_template_refuses_to_play_and_says_why():
    with pytest.raises(SetupError) as info:
        Game(variant="numbers")
    assert info.value.code == "layout"
    assert "not public" in info.value.message and "real board" in info.value.message


@pytest.mark.parametrize(("count", "needed", "hand"), [(2, 1, 5), (3, 1, 5), (4, 2, 4), (6, 2, 4)])
def test_sequences_needed_and_deal_by_player_count(count, needed, hand):
    game = numbers_game(count, seed=2)
    assert game.sequences_needed == needed
    assert {len(h) for h in game.piles.hands.values()} == {hand}
    assert len(game.layout.full_deck()) == 100  # 96 equations + 2 PLUS + 2 MINUS


@pytest.mark.parametrize("count", [5, 8])
def test_numbers_player_counts(count):
    with pytest.raises(SetupError) as info:
        Game(
            [(f"P{i}", ["blue", "green"][i % 2]) for i in range(count)],
            "numbers",
            {"layout": LAYOUT},
        )
    assert info.value.code in ("player_count", "team_sizes")


@pytest.mark.parametrize(
    ("text", "face"), [("3+4", "7"), ("12-5", "7"), ("7", "7"), (" 6 + 1 ", "7")]
)
def test_equation_cards_place_on_their_answer(text, face):
    game = numbers_game()
    seven = cells_of(game, 7)
    ruling = game.push(Move.play("P1", text, seven[1]))
    assert ruling.legal and ruling.rule == "play.matching_cell"
    assert game.parse_card(text).face == face


def test_equation_on_another_number_is_cell_mismatch():
    game = numbers_game()
    ruling = game.push(Move.play("P1", "3+4", cells_of(game, 8)[0]))
    assert ruling.code == "cell_mismatch" and all(c in ruling.message for c in cells_of(game, 7))


def test_equation_whose_answer_is_not_on_the_board():
    with pytest.raises(CardError):
        numbers_game().parse_card("40+40")
    assert numbers_game().push(Move.play("P1", "40+40", "B2")).code == "unknown_card"


def test_plus_is_wild_and_minus_removes_but_not_from_a_sequence():
    game = numbers_game()
    ruling = game.push(Move.play("P1", "PLUS", "E5"))
    assert ruling.legal and ruling.rule == "numbers.plus"
    ruling = game.push(Move.jack_remove("P2", "MINUS", "E5"))
    assert ruling.legal and ruling.rule == "numbers.minus"
    assert game.push(Move.play("P1", "MINUS", "E6")).code == "wrong_jack"
    wrong = game.push(Move.jack_remove("P1", "PLUS", "E5"))
    assert wrong.code == "wrong_jack" and "MINUS" in wrong.message


def test_one_sequence_wins_a_two_player_numbers_game_and_is_locked():
    game = numbers_game()
    row = ["B3", "C3", "D3", "E3", "F3"]
    for i, cell in enumerate(row):
        game.push(Move.play("P1", "PLUS", cell))
        if i < 4:
            game.push(Move.play("P2", "PLUS", f"{'BCDE'[i]}7"))
    assert game.winner == "blue" and game.sequence_counts()["blue"] == 1
    assert game.push(Move.jack_remove("P2", "MINUS", "B3")).code == "game_over"


def test_special_cards_notation():
    assert parse_numbers_card("plus").kind == "two_eyed"
    assert parse_numbers_card("-").kind == "one_eyed"
    with pytest.raises(CardError):
        parse_numbers_card("3*4")


@pytest.mark.parametrize(
    ("change", "hint"),
    [
        (lambda d: d["rows"].pop(), "has 9 rows"),
        (lambda d: d["rows"].__setitem__(0, d["rows"][0].replace("W", "5", 1)), "must be 'W'"),
        (lambda d: d["rows"].__setitem__(1, d["rows"][1].replace("16", "9", 1)), "exactly twice"),
        (lambda d: d["deck"].append("99+1"), "deck card"),
        (lambda d: d.__setitem__("special_cards", {"PLUS": 2, "MINUS": [10, 0]}), "copies"),
        (lambda d: d.__setitem__("special_cards", ["PLUS"]), "copies"),
        (lambda d: d.__setitem__("special_cards", {"ZZZ": 2}), "'ZZZ'"),
    ],
)
def test_bad_layouts_are_setup_errors(change, hint):
    data = copy.deepcopy(LAYOUT)
    change(data)
    with pytest.raises(SetupError) as info:
        Game(variant="numbers", options={"layout": data})
    assert info.value.code == "layout" and hint in info.value.message
