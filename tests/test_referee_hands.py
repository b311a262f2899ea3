"""Full-information play: deal, hands, draw, forgotten draw, reshuffle, table-talk penalty."""

from __future__ import annotations

import random

import pytest

from companion.referee import Game, Move, SetupError, classic_layout
from companion.referee.hands import CardPiles
from companion.referee.randomplay import play_random_game, random_move


def stacked_deck(*top: str) -> list[str]:
    """A full classic deck with ``top`` cards first (top card first), the rest in fixed order."""
    rest = [card.text for card in classic_layout().full_deck()]
    for text in top:
        rest.remove(text)
    return [*top, *rest]


def game_with(top: list[str], **options) -> Game:
    return Game([("Ann", "blue"), ("Bo", "green")], options=options, deck=stacked_deck(*top))


# Ann gets cards 1, 3, 5, ...; Bo gets 2, 4, 6, ... (dealt one at a time around the table)
ANN = ["2S", "3S", "JH", "JC", "5S", "6S", "7S"]
BO = ["2H", "3H", "JS", "JD", "5H", "6H", "7H"]
DEAL = [card for pair in zip(ANN, BO, strict=True) for card in pair]


def test_deal_follows_the_hand_size_table():
    for count, size in [(2, 7), (3, 6), (4, 6), (6, 5), (8, 4), (9, 4), (10, 3), (12, 3)]:
        colors = ["blue", "green", "red"] * 4 if count % 3 == 0 else ["blue", "green"] * 6
        game = Game([(f"P{i}", colors[i]) for i in range(count)], seed=1)
        assert {len(hand) for hand in game.piles.hands.values()} == {size}
        assert len(game.piles.deck) == 104 - count * size


def test_dealt_hands_are_the_top_cards_in_seat_order():
    game = game_with(DEAL)
    assert [c.text for c in game.piles.hands["Ann"]] == ANN
    assert [c.text for c in game.piles.hands["Bo"]] == BO


def test_only_held_cards_may_be_played_and_play_draws_the_next_card():
    game = game_with(DEAL)
    ruling = game.push(Move.play("Ann", "4S", "D1"))
    assert (ruling.code, ruling.rule) == ("not_in_hand", "hand.card_in_hand")
    top = game.piles.deck[-1]
    assert game.push(Move.play("Ann", "2S", "B1")).legal
    hand = [c.text for c in game.piles.hands["Ann"]]
    assert "2S" not in hand and hand[-1] == top.text and len(hand) == 7
    assert [c.text for c in game.piles.discards["Ann"]] == ["2S"]


def test_forgotten_draw_can_be_made_up_until_the_next_player_plays_and_draws():
    game = game_with(DEAL)
    assert game.push(Move.play("Ann", "2S", "B1", drew=False)).legal
    assert len(game.piles.hands["Ann"]) == 6 and game.pending_draws == {"Ann"}
    ruling = game.push(Move.late_draw("Ann"))  # in time: Bo has not played yet
    assert ruling.legal and ruling.rule == "draw.forgotten"
    assert len(game.piles.hands["Ann"]) == 7
    assert game.push(Move.late_draw("Ann")).code == "nothing_to_draw"


def test_forgotten_draw_is_lost_once_the_next_player_has_played_and_drawn():
    game = game_with(DEAL)
    game.push(Move.play("Ann", "2S", "B1", drew=False))
    game.push(Move.play("Bo", "2H", "H9"))
    ruling = game.push(Move.late_draw("Ann"))
    assert (ruling.legal, ruling.code) == (False, "draw_lost")
    assert len(game.piles.hands["Ann"]) == 6  # she plays on with fewer cards


def test_forgotten_draw_never_lost_option():
    game = game_with(DEAL, forgotten_draw="never_lost")
    game.push(Move.play("Ann", "2S", "B1", drew=False))
    game.push(Move.play("Bo", "2H", "H9"))
    assert game.push(Move.late_draw("Ann")).legal


def test_dead_card_exchange_takes_a_replacement():
    game = game_with(DEAL)
    game.push(Move.play("Ann", "2S", "B1"))
    game.push(Move.play("Bo", "JD", "G9"))  # both 2S spaces now covered
    game.push(Move.play("Ann", "3S", "C1"))
    game.push(Move.play("Bo", "2H", "H9"))
    game.piles.hands["Ann"].append(classic_layout().parse_card("2S"))  # as if drawn
    assert [c.text for c in game.dead_cards("Ann")] == ["2S"]
    size = len(game.piles.hands["Ann"])
    assert game.push(Move.dead_card("Ann", "2S")).legal
    assert len(game.piles.hands["Ann"]) == size and game.to_move.name == "Ann"


def test_table_talk_penalty_each_team_member_discards():
    game = Game([("Ann", "blue"), ("Bo", "green"), ("Cy", "blue"), ("Di", "green")], seed=3)
    ann, cy = game.piles.hands["Ann"][0].text, game.piles.hands["Cy"][0].text
    ruling = game.push(Move.table_talk("blue", {"Ann": ann}))
    assert (ruling.code, ruling.rule) == ("penalty_discards", "table_talk.penalty")
    assert "Cy" in ruling.message
    ruling = game.push(Move.table_talk("blue", {"Ann": ann, "Cy": cy}))
    assert ruling.legal and game.to_move.name == "Ann"  # no turn is used up
    assert len(game.piles.hands["Ann"]) == 5 and len(game.piles.hands["Cy"]) == 5
    assert game.push(Move.table_talk("blue", {"Bo": ann})).code == "penalty_discards"
    off = Game(options={"table_talk_penalty": False})
    assert off.push(Move.table_talk("blue")).code == "option_off"


def test_without_hands_table_talk_is_only_logged():
    game = Game.default()
    ruling = game.push(Move.table_talk("green"))
    assert ruling.legal and game.piles is None


def test_empty_deck_is_rebuilt_from_all_discard_piles():
    layout = classic_layout()
    cards = [layout.parse_card(t) for t in ["2S", "3S", "4S", "5S"]]
    piles = CardPiles.deal(cards, ["Ann", "Bo"], 2, seed=5)
    assert piles.deck == []
    piles.discard("Ann", cards[0])
    piles.discard("Bo", cards[1])
    drawn = piles.draw("Ann")
    assert drawn in (cards[0], cards[1]) and piles.reshuffles == 1
    assert all(not pile for pile in piles.discards.values())
    assert piles.draw("Bo") is not None and piles.draw("Bo") is None  # nothing left at all


def test_deck_exhaustion_end_draw_option_ends_without_winner():
    for seed in range(40):
        game = play_random_game(seed, options={"deck_exhaustion": "end_draw"})
        if game.is_over and game.winner is None:
            assert (
                game.push(Move.board_place(game.color_to_move, game.open_cells()[0])).code
                == "game_over"
            )
            assert "no winner" in game.status()
            return
    pytest.fail("no random game ran out of cards")


def test_random_games_conserve_cards_and_reshuffle():
    reshuffled = False
    for seed in range(15):
        game = play_random_game(seed)
        piles = game.piles
        total = (
            len(piles.deck)
            + sum(map(len, piles.hands.values()))
            + sum(map(len, piles.discards.values()))
        )
        assert total == 104
        reshuffled |= piles.reshuffles > 0
    assert reshuffled


def test_seeded_games_are_reproducible_and_undo_restores_hands():
    a, b = play_random_game(11), play_random_game(11)
    assert a.to_record() == b.to_record() and a.winner == b.winner
    game = Game(seed=4)
    hands = {k: list(v) for k, v in game.piles.hands.items()}
    move = random.Random(0).choice(game.legal_moves())
    assert game.push(move).legal
    game.pop()
    assert game.piles.hands == hands


def test_bad_decks_are_setup_errors():
    with pytest.raises(SetupError) as info:
        Game(deck=["2S", "3S"])
    assert info.value.code == "deck" and "104" in info.value.message
    with pytest.raises(SetupError, match="deck card 1"):
        Game(deck=["ZZ", *stacked_deck()[1:]])


def test_camera_moves_in_a_card_game_leave_the_hands_alone():
    game = game_with(DEAL)
    before = {k: list(v) for k, v in game.piles.hands.items()}
    assert game.push(Move.board_place("blue", "E5")).legal
    assert game.push(Move(kind="place", player="Bo", cell=(4, 5))).legal  # player known, card not
    assert game.piles.hands == before and len(game.piles.deck) == 104 - 14


def stuck_game(**options) -> Game:
    """Ann holds only dead spades (2S-5S, both spaces of each covered) and the next card is 5S."""
    ann = ["2S", "3S", "4S", "5S", "2S", "3S", "4S"]
    bo = ["2H", "3H", "4H", "5H", "6H", "7H", "8H"]
    deal = [card for pair in zip(ann, bo, strict=True) for card in pair]
    game = game_with([*deal, "5S"], **options)
    for blue, green in zip(["B1", "C1", "D1", "E1"], ["G9", "F9", "E9", "D9"], strict=True):
        game.push(Move.board_place("blue", blue))  # camera moves: the hands stay as dealt
        game.push(Move.board_place("green", green))
    return game


def test_a_player_with_no_legal_move_may_discard_any_card_and_draw():  # edge 16
    game = stuck_game()
    early = game.push(Move.discard("Ann", "3S"))
    assert (early.code, early.rule) == ("has_legal_move", "turn.no_legal_move")
    assert "for example Ann dead 2S" in early.message
    assert game.push(Move.dead_card("Ann", "2S")).legal  # draws the (dead) 5S
    assert game.legal_moves() == [Move.discard("Ann", t) for t in ["3S", "4S", "5S", "2S"]]
    assert game.push(Move.discard("Ann", "7S")).code == "not_in_hand"
    assert game.push(Move.pass_turn("Ann")).code == "option_off"
    ruling = game.push(Move.discard("Ann", "3S"))
    assert ruling.legal and ruling.rule == "turn.no_legal_move"
    assert len(game.piles.hands["Ann"]) == 7 and game.to_move.name == "Bo"


def test_no_move_policy_pass_and_none():
    game = stuck_game(no_move_policy="pass")
    game.push(Move.dead_card("Ann", "2S"))
    assert game.legal_moves() == [Move.pass_turn("Ann")]
    assert game.push(Move.pass_turn("Ann")).legal and game.to_move.name == "Bo"
    game = stuck_game(no_move_policy="none")
    game.push(Move.dead_card("Ann", "2S"))
    assert game.legal_moves() == []
    assert game.push(Move.discard("Ann", "3S")).code == "option_off"


def test_without_hands_a_discard_is_taken_on_the_tables_word():
    ruling = Game.default().push(Move.discard("Blue", "7S"))
    assert ruling.legal and "cannot see the hand" in ruling.message


def snapshot(game: Game) -> tuple:
    piles = game.piles
    return (
        game.board_strings(),
        game.sequences,
        game.to_move,
        game.winner,
        {k: [c.text for c in v] for k, v in piles.hands.items()},
        [c.text for c in piles.deck],
        {k: [c.text for c in v] for k, v in piles.discards.items()},
        len(game.rulings),
    )


@pytest.mark.parametrize("seed", [3, 8])
def test_popping_a_whole_random_game_retraces_every_state(seed):
    rng = random.Random(seed)
    game = Game([("Ann", "blue"), ("Bo", "green"), ("Cy", "red")], seed=seed)
    states = [snapshot(game)]
    while not game.is_over:
        assert game.push(random_move(game, rng)).legal
        states.append(snapshot(game))
    assert game.winner and len(states) > 20
    while game.moves:
        states.pop()
        game.pop()
        assert snapshot(game) == states[-1]


def test_copy_is_independent():
    game = Game(seed=9)
    twin = game.copy()
    move = game.legal_moves()[0]
    assert twin.push(move).legal
    assert game.moves == [] and game.rulings == [] and game.board_strings() != twin.board_strings()
    assert game.piles.hands != twin.piles.hands
    twin.pop()
    assert twin.board_strings() == game.board_strings() and twin.piles.hands == game.piles.hands


def test_a_game_and_its_copy_can_both_undo_the_same_move():
    game = build_sequence_game()
    twin = game.copy()
    game.pop()
    twin.pop()
    game.push(Move.board_place("blue", "F3"))
    assert twin.sequence_counts()["blue"] == 0 and game.sequence_counts()["blue"] == 1


def build_sequence_game() -> Game:
    game = Game.default()
    for blue, green in zip(["B3", "C3", "D3", "E3"], ["B7", "C7", "D7", "E7"], strict=True):
        game.push(Move.board_place("blue", blue))
        game.push(Move.board_place("green", green))
    game.push(Move.board_place("blue", "F3"))
    assert game.sequence_counts()["blue"] == 1
    return game
