"""Rules and the edge cases of RULES.md section 2, ported as cases from the public engines
(sequence-for-friends rules.test.ts, jbfp BoardExtensionTest / dead-card / PlayCard tests,
COMP90054 edge boards) plus our own."""

from __future__ import annotations

import pytest
from test_referee_support import build, three_player, two_player

from companion.cells import CORNERS, parse_cell
from companion.referee import CODE_TEXTS, RULE_TEXTS, Game, Move, Ruling, SetupError


def cells(*names: str) -> tuple:
    return tuple(parse_cell(n) for n in names)


# ---------------------------------------------------------------- plain plays and turn order
def test_plain_card_on_either_matching_space_then_turn_passes():
    game = two_player()
    assert game.to_move.name == "Ann"  # first listed player starts (edge 21)
    ruling = game.push(Move.play("Ann", "2S", "G9"))  # 2S is printed on B1 and G9
    assert (ruling.legal, ruling.code, ruling.move_number) == (True, "ok", 1)
    assert game.chip_at("G9") == "blue"
    assert game.to_move.name == "Bo"
    assert game.push(Move.play("Bo", "2S", "B1")).legal


def test_card_not_printed_on_cell_is_cell_mismatch_and_not_applied():
    game = two_player()
    ruling = game.push(Move.play("Ann", "7S", "C1"))
    assert (ruling.legal, ruling.code, ruling.rule) == (
        False,
        "cell_mismatch",
        "play.matching_cell",
    )
    assert "B9" in ruling.message and "G1" in ruling.message
    assert game.chip_at("C1") is None
    assert game.to_move.name == "Ann"  # the same player is still to move
    assert game.rulings[-1] is ruling and game.moves == []


def test_out_of_turn_by_name_and_by_colour():
    game = two_player()
    assert game.push(Move.play("Bo", "2S", "B1")).code == "out_of_turn"
    assert game.push(Move.board_place("green", "B1")).code == "out_of_turn"
    assert game.chip_at("B1") is None


def test_occupied_cell():
    game = build(two_player(), blue=["B1"])
    assert game.push(Move.play("Bo", "2S", "B1")).code == "cell_occupied"
    assert game.push(Move.play("Bo", "JC", "B1")).code == "cell_occupied"  # wild too


def test_unknown_player_and_colour_get_rulings():
    game = two_player()
    assert game.push(Move.play("Zed", "2S", "B1")).code == "unknown_player"
    assert game.push(Move.board_place("red", "B1")).code == "unknown_player"


def test_unknown_card_is_a_ruling_in_live_play():
    game = two_player()
    ruling = game.push(Move.play("Ann", "XS", "B1"))
    assert ruling.code == "unknown_card" and not ruling.legal


# ---------------------------------------------------------------- corners (edges 4, 5, 12)
@pytest.mark.parametrize(
    "move",
    [
        Move.play("Ann", "JC", "A1"),  # two-eyed jack on a corner (edge 4)
        Move.play("Ann", "JD", "J10"),
        Move.jack_remove("Ann", "JH", "A10"),  # one-eyed on a corner (edge 5)
        Move.board_place("blue", "J1"),
        Move.play("Ann", "2S", "A1"),  # a plain card aimed at a corner: still "corner"
    ],
)
def test_any_move_aimed_at_a_corner(move):
    ruling = two_player().push(move)
    assert (ruling.legal, ruling.code, ruling.rule) == (False, "corner", "corners.free")


def test_corner_counts_for_every_side():
    # several sides may use the same corner: A1 + four chips is a Sequence for blue and green
    game = build(two_player(), blue=["B1", "C1", "D1", "E1"], green=["A2", "A3", "A4", "A5"])
    assert game.sequences["blue"] == [cells("A1", "B1", "C1", "D1", "E1")]
    assert game.sequences["green"] == [cells("A1", "A2", "A3", "A4", "A5")]
    assert parse_cell("A1") not in game.locked_cells  # a corner is never a locked chip


def test_corners_not_free_option():
    game = build(two_player(corners_free=False), blue=["B1", "C1", "D1", "E1"])
    assert game.sequence_counts()["blue"] == 0


@pytest.mark.parametrize("overlap", ["one_shared", "crossing_only", "none"])
def test_corner_never_counts_as_the_shared_chip(overlap):
    # edge 12: row 1 and column A both through corner A1 -> two sequences under every option
    game = build(two_player(overlap=overlap), blue=["B1", "C1", "D1", "E1", "A2", "A3", "A4", "A5"])
    assert game.sequence_counts()["blue"] == 2
    assert game.winner == "blue"


# ---------------------------------------------------------------- jacks (edges 1, 2, 5, 6)
def test_two_eyed_jack_places_anywhere_open():
    game = two_player()
    ruling = game.push(Move.play("Ann", "JC", "E5"))
    assert ruling.legal and ruling.rule == "jacks.two_eyed"
    ruling = game.push(Move.play("Bo", "J♦", "F5"))
    assert ruling.legal and game.chip_at("F5") == "green"


def test_one_eyed_jack_removes_an_opponent_chip_and_ends_the_turn():
    game = build(two_player(), blue=["B9"])
    ruling = game.push(Move.jack_remove("Bo", "JH", "B9"))
    assert ruling.legal and ruling.rule == "jacks.one_eyed"
    assert game.chip_at("B9") is None
    # edge 6: Bo may not place on the cleared cell this turn: his turn has ended
    assert game.push(Move.play("Bo", "7S", "B9")).code == "out_of_turn"
    assert game.push(Move.play("Ann", "7S", "B9")).legal


@pytest.mark.parametrize(
    ("move", "code"),
    [
        (Move.play("Bo", "JH", "C5"), "wrong_jack"),  # one-eyed cannot place
        (Move.jack_remove("Bo", "JC", "B9"), "wrong_jack"),  # two-eyed cannot remove
        (Move.jack_remove("Bo", "7S", "B9"), "wrong_jack"),  # a plain card cannot remove
        (Move.jack_remove("Bo", "JS", "C5"), "remove_empty"),
        (Move.jack_remove("Bo", "JS", "J2"), "remove_own"),
    ],
)
def test_jack_misuse(move, code):
    game = build(two_player(), blue=["B9", "C3"], green=["J2"])
    ruling = game.push(move)
    assert (ruling.legal, ruling.code) == (False, code)
    assert game.chip_at("B9") == "blue"


def test_remove_own_applies_to_teammates_chips_too():
    game = Game([("A", "blue"), ("B", "green"), ("C", "blue"), ("D", "green")])
    game.push(Move.play("A", "2S", "B1"))
    game.push(Move.play("B", "3S", "C1"))
    assert game.push(Move.jack_remove("C", "JH", "B1")).code == "remove_own"


def test_three_sides_may_remove_either_opponent():
    game = build(three_player(), blue=["B3"], green=["C3"], red=["D3"])
    assert game.push(Move.jack_remove("Ann", "JS", "D3")).legal
    game = build(three_player(), blue=["B3"], green=["C3"], red=["D3"])
    assert game.push(Move.jack_remove("Ann", "JS", "C3")).legal


def test_chip_of_a_completed_sequence_cannot_be_removed():  # edge 1
    game = build(two_player(), blue=["B3", "C3", "D3", "E3", "F3"])
    assert game.sequence_counts()["blue"] == 1
    ruling = game.push(Move.jack_remove("Bo", "JH", "D3"))
    assert (ruling.code, ruling.rule) == ("remove_locked", "sequence.locked")
    assert game.push(Move.board_remove("green", "F3")).code == "remove_locked"


def test_house_rule_one_eyed_can_break_sequences():
    game = build(two_player(one_eyed_can_break_sequences=True), blue=["B3", "C3", "D3", "E3", "F3"])
    ruling = game.push(Move.jack_remove("Bo", "JH", "D3"))
    assert ruling.legal and ruling.rule == "sequence.broken_by_house_rule"
    assert game.sequence_counts()["blue"] == 0 and not game.locked_cells


def test_sixth_chip_of_a_six_run_is_removable():  # edge 2
    game = build(two_player(), blue=["B3", "C3", "D3", "E3", "F3", "G3"])
    assert game.sequences["blue"] == [cells("B3", "C3", "D3", "E3", "F3")]
    assert parse_cell("G3") not in game.locked_cells
    assert game.push(Move.jack_remove("Bo", "JH", "G3")).legal


# ---------------------------------------------------------------- sequences (edges 3, 7-13)
@pytest.mark.parametrize(
    "line",
    [
        ["B3", "C3", "D3", "E3", "F3"],  # horizontal
        ["C2", "C3", "C4", "C5", "C6"],  # vertical
        ["C2", "D3", "E4", "F5", "G6"],  # diagonal down-right
        ["B7", "C6", "D5", "E4", "F3"],  # diagonal up-right
    ],
)
def test_sequences_in_all_four_directions(line):
    game = build(two_player(), blue=line)
    assert game.sequence_counts()["blue"] == 1
    assert set(game.sequences["blue"][0]) == set(cells(*line))
    assert game.rulings[-1].new_sequences == [sorted(line, key=lambda n: (n[0], int(n[1:])))]


def test_four_in_a_row_is_nothing_and_a_gap_breaks_a_line():
    game = build(two_player(), blue=["B3", "C3", "D3", "E3", "G3"])
    assert game.sequence_counts()["blue"] == 0


def test_long_run_completed_in_the_middle_locks_earliest_window_through_the_chip():  # edge 3
    game = build(two_player(), blue=["B5", "C5", "D5", "F5", "G5", "E5"])
    assert game.sequences["blue"] == [cells("B5", "C5", "D5", "E5", "F5")]
    assert game.rulings[-1].rule == "sequence.five"


def test_comp90054_six_run_completed_at_the_end_locks_the_window_with_the_last_chip():
    # C90054 edge board: a 6-run at cols 1-6 with the last chip at col 6 locks cols 2-6
    game = build(two_player(), blue=["B5", "C5", "D5", "E5", "G5", "F5"])
    assert game.sequences["blue"] == [cells("B5", "C5", "D5", "E5", "F5")]
    game = build(two_player(), blue=["A6", "B6", "C6", "D6", "F6", "E6"])
    assert game.sequences["blue"] == [cells("A6", "B6", "C6", "D6", "E6")]


def test_table_may_declare_which_five_lock():
    game = build(two_player(), blue=["B5", "C5", "D5", "F5", "G5", "E5"])
    ruling = game.choose_sequence("blue", ["G5", "F5", "E5", "D5", "C5"])
    assert ruling.legal and ruling.rule == "sequence.lock_choice"
    assert game.sequences["blue"] == [cells("C5", "D5", "E5", "F5", "G5")]
    assert parse_cell("B5") not in game.locked_cells
    assert game.to_move.name == "Bo"  # a declaration does not use up a turn
    game.pop()
    assert game.sequences["blue"] == [cells("B5", "C5", "D5", "E5", "F5")]


@pytest.mark.parametrize(
    "declared",
    [
        ["B5", "C5", "D5", "E5", "G5"],  # not contiguous
        ["C5", "D5", "E5", "F5", "G5", "B5"],  # six cells
        ["B6", "C6", "D6", "E6", "F6"],  # not blue chips
    ],
)
def test_bad_declarations(declared):
    game = build(two_player(), blue=["B5", "C5", "D5", "F5", "G5", "E5"])
    assert game.choose_sequence("blue", declared).code == "bad_choice"


def test_six_in_a_row_is_one_sequence():  # edge 9
    game = build(two_player(sequences_needed=3), blue=["B4", "C4", "D4", "E4", "F4", "G4"])
    assert game.sequence_counts()["blue"] == 1


def test_eight_in_a_row_is_one_sequence_two_shared_chips_not_allowed():  # edge 13
    game = build(two_player(), blue=["B4", "C4", "D4", "E4", "F4", "G4", "H4", "I4"])
    assert game.sequence_counts()["blue"] == 1


def test_nine_in_a_row_is_two_when_one_chip_may_be_shared():  # edge 10 (JBFP TwoInOneSequence)
    game = build(two_player(), blue=["B4", "C4", "D4", "E4", "F4", "G4", "H4", "I4", "J4"])
    assert game.sequences["blue"] == [
        cells("B4", "C4", "D4", "E4", "F4"),
        cells("F4", "G4", "H4", "I4", "J4"),
    ]
    assert game.winner == "blue"


def test_middle_chip_of_nine_makes_two_sequences_at_once():  # C90054 edge board, counted once each
    game = build(two_player(), blue=["B4", "C4", "D4", "E4", "G4", "H4", "I4", "J4", "F4"])
    assert game.rulings[-1].new_sequences == [
        ["B4", "C4", "D4", "E4", "F4"],
        ["F4", "G4", "H4", "I4", "J4"],
    ]
    assert game.winner == "blue" and "wins" in game.rulings[-1].message


def test_nine_in_a_row_is_one_under_crossing_only():  # Seed B
    game = build(
        two_player(overlap="crossing_only"),
        blue=["B4", "C4", "D4", "E4", "G4", "H4", "I4", "J4", "F4"],
    )
    assert game.sequence_counts()["blue"] == 1
    assert game.winner is None


def test_ten_in_a_row_is_two_even_without_sharing():  # edge 11 (one_shared wins at nine)
    for overlap in ("crossing_only", "none"):
        game = build(
            two_player(overlap=overlap),
            blue=["A4", "B4", "C4", "D4", "E4", "F4", "G4", "H4", "I4", "J4"],
        )
        assert game.sequence_counts()["blue"] == 2, overlap


def test_set5_preset_is_crossing_only():
    game = build(two_player("set5"), blue=["B4", "C4", "D4", "E4", "F4", "G4", "H4", "I4", "J4"])
    assert game.sequence_counts()["blue"] == 1


def test_cross_through_the_new_chip_makes_two_and_wins_at_once():  # edge 8 (SFF)
    blue = ["C5", "D5", "F5", "G5", "E3", "E4", "E6", "E7", "E5"]
    game = build(two_player(overlap="crossing_only"), blue=blue)
    ruling = game.rulings[-1]
    assert len(ruling.new_sequences) == 2 and game.winner == "blue"
    assert game.sequence_counts() == {"blue": 2, "green": 0}


def test_second_sequence_may_cross_the_first_on_one_chip():
    game = build(two_player(), blue=["C5", "D5", "E5", "F5", "G5", "E2", "E3", "E4", "E6"])
    assert game.sequence_counts()["blue"] == 2


def test_overlap_none_forbids_a_shared_chip():
    game = build(
        two_player(overlap="none"), blue=["C5", "D5", "E5", "F5", "G5", "E2", "E3", "E4", "E6"]
    )
    assert game.sequence_counts()["blue"] == 1


def test_collinear_shared_chip_allowed_only_under_one_shared():
    # first B4-F4, then G4..J4: the second line shares F4 with the first
    chips = ["B4", "C4", "D4", "E4", "F4", "G4", "H4", "I4", "J4"]
    assert build(two_player(), blue=chips).sequence_counts()["blue"] == 2
    assert build(two_player(overlap="crossing_only"), blue=chips).sequence_counts()["blue"] == 1


# ---------------------------------------------------------------- winning (edge 7)
def test_two_sides_need_two_three_sides_need_one():
    assert two_player().sequences_needed == 2
    assert three_player().sequences_needed == 1
    assert (
        Game(
            [(n, c) for n, c in zip("ABCDEF", ["blue", "green", "red"] * 2, strict=True)]
        ).sequences_needed
        == 1
    )
    assert two_player(sequences_needed=3).sequences_needed == 3


def test_jack_that_completes_the_winning_sequence_wins_at_once_and_game_is_over():
    game = build(three_player(), finish_round=True, blue=["B3", "C3", "D3", "E3"])
    ruling = game.push(Move.play("Ann", "JD", "F3"))
    assert ruling.legal and ruling.rule == "win.sequences"
    assert game.winner == "blue" and game.is_over
    after = game.push(Move.play("Bo", "2S", "B1"))
    assert (after.legal, after.code, after.rule) == (False, "game_over", "game.over")
    assert game.legal_moves() == []


# ---------------------------------------------------------------- dead cards (edges 14, 15)
def test_dead_card_exchange_and_limit_one_per_turn():
    game = build(two_player(), blue=["B1", "C1"], green=["G9", "F9"])  # 2S and 3S both covered
    assert {c.text for c in game.dead_cards()} == {"2S", "3S"}
    assert game.push(Move.dead_card("Ann", "2S")).legal
    assert game.to_move.name == "Ann"  # the exchange does not end the turn
    ruling = game.push(Move.dead_card("Ann", "3S"))
    assert (ruling.code, ruling.rule) == ("dead_limit", "dead_card.limit")
    assert game.push(Move.play("Ann", "4S", "D1")).legal
    assert game.push(Move.dead_card("Bo", "3S")).legal  # a new turn, a new exchange


def test_set5_allows_repeated_dead_card_exchanges():
    game = build(two_player("set5"), blue=["B1", "C1"], green=["G9", "F9"])
    assert game.push(Move.dead_card("Ann", "2S")).legal
    assert game.push(Move.dead_card("Ann", "3S")).legal


def test_not_dead_while_a_space_is_open_and_jacks_are_never_dead():
    game = build(two_player(), blue=["B1"])
    ruling = game.push(Move.dead_card("Bo", "2S"))
    assert ruling.code == "not_dead" and "G9" in ruling.message
    assert game.push(Move.dead_card("Bo", "JH")).code == "not_dead"
    assert game.push(Move.dead_card("Bo", "JC")).code == "not_dead"


def test_dead_card_resurrection_after_a_removal():  # JBFP DeadCardResurrection
    game = build(two_player(), blue=["B1"], green=["G9"])
    assert [c.text for c in game.dead_cards()] == ["2S"]
    game.push(Move.jack_remove("Ann", "JH", "G9"))
    assert game.dead_cards() == []
    assert game.card_cells("2S") == [parse_cell("G9")]


# ---------------------------------------------------------------- camera moves
def test_camera_moves_accept_any_open_cell_and_any_legal_removal():
    game = two_player()
    ruling = game.push(Move.board_place("blue", "E5"))
    assert ruling.legal and ruling.rule == "board.camera_move" and ruling.player is None
    assert game.push(Move.board_remove("green", "E5")).legal
    assert game.push(Move.board_remove("blue", "E5")).code == "remove_empty"


# ---------------------------------------------------------------- undo
def test_pop_restores_board_turn_sequences_and_rulings():
    game = build(two_player(), blue=["B3", "C3", "D3", "E3"])
    before = (game.board_strings(), game.to_move, len(game.rulings))
    game.push(Move.play("Bo", "XX", "C9"))  # an illegal attempt (unknown card)
    game.push(Move.play("Bo", "7S", "B9"))
    assert game.push(Move.play("Ann", "8S", "F3")).code == "cell_mismatch"
    game.push(Move.play("Ann", "JC", "F3"))
    assert game.sequence_counts()["blue"] == 1
    assert game.pop().card == "JC"
    assert game.sequence_counts()["blue"] == 0 and not game.locked_cells
    assert game.pop().card == "7S"
    board, to_move, count = before
    assert (game.board_strings(), game.to_move) == (board, to_move)
    assert len(game.rulings) == count + 1  # the illegal attempt before 7S keeps its ruling
    assert game.rulings[-1].code == "unknown_card"
    with pytest.raises(IndexError):
        Game.default().pop()


def test_judge_does_not_change_the_game():
    game = two_player()
    assert game.judge(Move.play("Ann", "2S", "B1")).legal
    assert game.chip_at("B1") is None and game.rulings == []


# ---------------------------------------------------------------- texts
def test_every_ruling_cites_a_rule_with_a_text_and_every_code_is_explained():
    game = build(two_player(), finish_round=True, blue=["B1", "C1", "D1", "E1"], green=["G9", "F9"])
    attempts = [
        Move.play("Bo", "2S", "B1"),
        Move.play("Ann", "7S", "C1"),
        Move.play("Ann", "JH", "C5"),
        Move.jack_remove("Ann", "JS", "C5"),
        Move.jack_remove("Ann", "JS", "B1"),
        Move.dead_card("Ann", "7S"),
        Move.play("Ann", "JC", "A1"),
        Move.play("Ann", "JC", "B1"),
        Move.play("Ann", "ZZ", "B1"),
        Move.play("Nobody", "2S", "B1"),
        Move.choose("blue", ["B1", "C1", "D1", "E1", "F1"]),
    ]
    for move in attempts:
        game.push(move)
    codes = {r.code for r in game.rulings}
    assert {"out_of_turn", "cell_mismatch", "wrong_jack", "remove_empty", "remove_own", "not_dead",
            "corner", "cell_occupied", "unknown_card", "unknown_player", "bad_choice"} <= codes  # fmt: skip
    for ruling in game.rulings:
        assert ruling.rule in RULE_TEXTS, ruling
        assert ruling.code in CODE_TEXTS, ruling
        assert ruling.message.endswith(".")


# ---------------------------------------------------------------- odds and ends
def test_forgotten_draw_is_tracked_without_a_card_model_too():
    game = two_player()
    game.push(Move.play("Ann", "2S", "B1", drew=False))
    assert game.pending_draws == {"Ann"}
    game.push(Move.play("Bo", "3S", "C1"))
    assert game.push(Move.late_draw("Ann")).code == "draw_lost"
    assert game.push(Move.late_draw("Bo")).code == "nothing_to_draw"


def test_legal_camera_moves_without_a_card_model():
    game = build(two_player(), True, blue=["B3", "C3", "D3", "E3", "F3"], green=["B7", "C7"])
    assert game.color_to_move == "blue"  # green filled the round with fillers B10, D10, F10
    moves = game.legal_moves()
    places = [m for m in moves if m.kind == "place"]
    removes = sorted(str(m) for m in moves if m.kind == "remove")
    assert len(places) == 96 - 10
    assert removes == [f"blue remove {c}" for c in ["B10", "B7", "C7", "D10", "F10"]]
    assert all(game.judge(m).legal for m in moves)
    game.push(Move.board_place("blue", "J5"))
    locked = {f"green remove {c}" for c in ["B3", "C3", "D3", "E3", "F3"]}
    assert not locked & {str(m) for m in game.legal_moves()}  # locked chips are never targets


def test_move_text_forms():
    assert str(Move.play("Ann", "7S", "B9")) == "Ann 7S place B9"
    assert repr(Move.board_remove("green", "E5")) == "<Move green remove E5>"
    assert str(Move.dead_card("Ann", "4C")) == "Ann dead 4C"


def test_layout_from_a_file_path_and_a_missing_file(tmp_path):
    from companion.referee.layout import _packaged

    game = Game(options={"layout": str(_packaged("classic_layout.json"))})
    assert game.card_cells("2S") == [parse_cell("B1"), parse_cell("G9")]
    with pytest.raises(SetupError) as info:
        Game(options={"layout": str(tmp_path / "nope.json")})
    assert info.value.code == "layout" and "not found" in info.value.message


def test_push_needs_a_move_object():
    with pytest.raises(TypeError, match="Move.from_json"):
        Game.default().push({"color": "blue", "place": "B1"})


def fill_board_without_a_winner(game: Game) -> Ruling:
    """Cover all 96 spaces in a pattern with no five in a row for anyone; return the last ruling."""
    pattern = {}  # pairs of a colour, shifted by one every row: no line of five, even diagonally
    for r in range(10):
        for c in range(10):
            pattern[(r, c)] = "blue" if ((c + 2 * r) // 2) % 2 == 0 else "green"
    blue = [cell for cell, color in pattern.items() if color == "blue" and cell not in CORNERS]
    green = [cell for cell, color in pattern.items() if color == "green" and cell not in CORNERS]
    assert len(blue) == len(green) == 48
    ruling = None
    for b, g in zip(blue, green, strict=True):
        assert game.push(Move.board_place("blue", b)).legal
        ruling = game.push(Move.board_place("green", g))
    return ruling


def test_full_board_without_a_winner_plays_on_by_default_and_ends_by_option():  # edge 17
    game = Game.default()
    last = fill_board_without_a_winner(game)
    assert last.legal and game.sequence_counts() == {"blue": 0, "green": 0}
    assert not game.is_over and game.open_cells() == []
    assert game.push(Move.board_remove("blue", "A2")).legal  # a one-eyed jack opens a space
    game = Game(options={"full_board": "draw"})
    last = fill_board_without_a_winner(game)
    assert last.legal and last.rule == "board.full_no_winner" and "the game ends" in last.message
    assert game.is_over and game.winner is None and "board is full" in game.status()
    after = game.push(Move.board_remove("blue", "A2"))
    assert (after.code, after.rule) == ("game_over", "board.full_no_winner")
    game.pop()
    assert not game.is_over


def test_outcome_like_python_chess():
    game = build(three_player(), finish_round=True, blue=["B3", "C3", "D3", "E3"])
    assert game.outcome() is None
    game.push(Move.play("Ann", "JD", "F3"))
    outcome = game.outcome()
    assert (outcome.termination, outcome.winner, outcome.result) == (
        "sequences",
        "blue",
        "blue wins",
    )
    game = Game(options={"full_board": "draw"})
    fill_board_without_a_winner(game)
    assert game.outcome().termination == "board_full" and game.outcome().result == "no winner"
