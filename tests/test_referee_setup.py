"""Setup validation, presets and options, cards and the classic layout."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.cells import parse_cell
from companion.referee import PRESETS, Card, CardError, Game, Player, SetupError, classic_layout
from companion.referee.cards import parse_classic_card


def seats(*colors: str) -> list[Player]:
    return [Player(f"P{i + 1}", color) for i, color in enumerate(colors)]


# ---------------------------------------------------------------- players and teams
@pytest.mark.parametrize(
    "colors",
    [
        ("blue", "green"),
        ("blue", "green", "red"),
        ("green", "blue"),  # either colour may start
        ("blue", "green") * 2,
        ("blue", "green", "red") * 2,
        ("blue", "green") * 4,
        ("blue", "green", "red") * 3,
        ("blue", "green") * 5,  # 10 players: two teams of five (Seed B's team limit is not used)
        ("blue", "green") * 6,
        ("red", "blue", "green") * 4,
    ],
)
def test_allowed_setups(colors):
    game = Game(seats(*colors))
    assert game.sides == list(dict.fromkeys(colors))
    assert game.to_move.name == "P1"


@pytest.mark.parametrize(
    ("colors", "code", "hint"),
    [
        (("blue",), "player_count", "2, 3, 4, 6, 8, 9, 10, 12"),
        (("blue", "green", "blue", "green", "blue"), "player_count", "5 players"),
        (("blue", "green") * 3 + ("blue",), "player_count", "7 players"),
        (("blue", "blue"), "team_count", "1 side"),
        (("blue", "green", "green"), "team_count", "plays alone"),
        (("blue", "red"), "team_color", "red is only for a third side"),
        (("blue", "purple"), "team_color", "purple"),
        (("blue", "blue", "green", "green"), "seating", "alternate"),
        (("blue", "green", "red", "blue", "red", "green"), "seating", "seat 5"),
        (("blue", "green", "blue", "green", "blue", "red"), "team_sizes", "equal"),
    ],
)
def test_bad_setups_say_what_is_wrong(colors, code, hint):
    with pytest.raises(SetupError) as info:
        Game(seats(*colors))
    assert info.value.code == code
    assert hint in info.value.message
    assert info.value.to_json() == {"code": code, "message": info.value.message}


def test_duplicate_and_empty_names():
    with pytest.raises(SetupError, match="repeated: Ann"):
        Game([("Ann", "blue"), ("Ann", "green")])
    with pytest.raises(SetupError, match="non-empty name"):
        Game([("", "blue"), ("Bo", "green")])


def test_players_from_dicts_and_default_game():
    game = Game([{"name": "Ann", "team": "blue"}, {"name": "Bo", "color": "green"}])
    assert game.players == [Player("Ann", "blue"), Player("Bo", "green")]
    assert game.players[0].team == "blue"
    default = Game.default()
    assert [p.color for p in default.players] == ["blue", "green"]
    assert default.color_to_move == "blue" and default.variant == "classic"


# ---------------------------------------------------------------- presets and options
def test_presets():
    assert set(PRESETS) == {"classic", "set5", "numbers"}
    assert PRESETS["classic"].overlap == "one_shared" and PRESETS["classic"].dead_card_limit == 1
    assert PRESETS["set5"].overlap == "crossing_only" and PRESETS["set5"].dead_card_limit is None
    assert PRESETS["numbers"].needed_for(sides=2, players=2) == 1
    assert PRESETS["numbers"].needed_for(sides=3, players=6) == 2
    assert PRESETS["classic"].needed_for(sides=3, players=6) == 1
    assert PRESETS["classic"].hand_sizes == {2: 7, 3: 6, 4: 6, 6: 5, 8: 4, 9: 4, 10: 3, 12: 3}
    assert PRESETS["numbers"].hand_sizes[4] == 4 and PRESETS["numbers"].hand_sizes[3] == 5


def test_every_preset_value_can_be_overridden():
    game = Game(seats("blue", "green"), "set5", {"overlap": "one_shared", "dead_card_limit": 2,
                                                "sequences_needed": 1, "hand_sizes": {"2": 6}})  # fmt: skip
    assert game.rules.overlap == "one_shared" and game.rules.dead_card_limit == 2
    assert game.sequences_needed == 1 and game.rules.hand_sizes == {2: 6}
    unlimited = Game(options={"dead_card_limit": "unlimited"})
    assert unlimited.rules.dead_card_limit is None


@pytest.mark.parametrize(
    ("variant", "options", "hint"),
    [
        ("chess", {}, "unknown variant"),
        ("classic", {"overlap": "two_shared"}, "one_shared, crossing_only, none"),
        ("classic", {"colour": "blue"}, "unknown option"),
        ("classic", {"sequences_needed": 0}, "whole number"),
        ("classic", {"corners_free": "yes"}, "true or false"),
        ("classic", {"hand_sizes": [7]}, "maps player count"),
    ],
)
def test_bad_options(variant, options, hint):
    with pytest.raises(SetupError) as info:
        Game(seats("blue", "green"), variant, options)
    assert info.value.code == "option" and hint in info.value.message


# ---------------------------------------------------------------- cards
@pytest.mark.parametrize(
    ("text", "canonical", "kind"),
    [
        ("7S", "7S", "plain"),
        ("7s", "7S", "plain"),
        ("10H", "TH", "plain"),
        ("t♥", "TH", "plain"),
        ("10♥", "TH", "plain"),
        ("a♣", "AC", "plain"),
        (" qd ", "QD", "plain"),
        ("JC", "JC", "two_eyed"),
        ("J♦", "JD", "two_eyed"),
        ("jh", "JH", "one_eyed"),
        ("J♠", "JS", "one_eyed"),
    ],
)
def test_card_notation(text, canonical, kind):
    card = parse_classic_card(text)
    assert (card.text, card.kind) == (canonical, kind)
    assert card == Game.default().parse_card(text)


@pytest.mark.parametrize("text", ["", "7", "1S", "11H", "7X", "JJ", "joker", "S7"])
def test_bad_cards(text):
    with pytest.raises(CardError):
        parse_classic_card(text)


def test_card_symbols_and_repr():
    assert parse_classic_card("TH").symbol == "10♥"
    assert parse_classic_card("JH").describe() == "one-eyed jack J♥"
    assert repr(parse_classic_card("7s")) == "Card('7S')"
    assert isinstance(parse_classic_card("7s"), Card)


# ---------------------------------------------------------------- classic layout
def test_classic_layout_matches_the_printed_board():
    layout = classic_layout()
    assert layout.label_at(parse_cell("B1")) == "2S"
    assert layout.label_at(parse_cell("A2")) == "6C"
    assert layout.label_at(parse_cell("J2")) == "TS"
    assert layout.label_at(parse_cell("B10")) == "AD"
    assert layout.label_at(parse_cell("A1")) == "W"
    assert len(layout.cells_by_face) == 48
    assert all(len(cells) == 2 for cells in layout.cells_by_face.values())
    assert not any(face.startswith("J") for face in layout.cells_by_face)


def test_full_deck_is_two_52_card_decks():
    deck = classic_layout().full_deck()
    assert len(deck) == 104
    counts = Counter(card.text for card in deck)
    assert set(counts.values()) == {2} and len(counts) == 52
    assert sum(card.is_wild for card in deck) == 4 and sum(card.is_remove for card in deck) == 4


def test_card_cells():
    game = Game.default()
    assert game.card_cells("2S") == [parse_cell("B1"), parse_cell("G9")]
    assert len(game.card_cells("JC")) == 96
    assert game.card_cells("JH") == []  # nothing to remove yet


def test_str_and_repr_are_readable():
    game = Game.default()
    text = str(game)
    assert text.splitlines()[0].split() == list("ABCDEFGHIJ")
    assert text.splitlines()[1].split() == ["1", "*", *"........", "*"]
    assert "Blue (blue) to move" in text
    assert repr(game).startswith("<Game classic [Blue:blue, Green:green]")


def test_every_rule_id_and_code_in_the_referee_source_has_a_text():
    import re
    from pathlib import Path

    from companion.referee import CODE_TEXTS, RULE_TEXTS, game, judging

    source = "".join(Path(m.__file__).read_text(encoding="utf-8") for m in (game, judging))
    rule_ids = set(re.findall(r'"([a-z_]+\.[a-z_.]+)"', source)) - {"options.layout"}
    assert rule_ids and rule_ids <= set(RULE_TEXTS)
    codes = set(re.findall(r'_refuse\(\s*move, "([a-z_]+)"', source))
    assert {"out_of_turn", "corner", "remove_locked"} <= codes <= set(CODE_TEXTS)


def test_colour_errors_with_odd_values():
    with pytest.raises(SetupError) as info:
        Game([("A", None), ("B", "purple")])
    assert info.value.code == "team_color"
