"""Shared helpers for the referee tests (no tests here): build positions with camera moves."""

from __future__ import annotations

from companion.referee import Game, Move

# Filler chips far from the test lines; no five of one colour in a line among them.
FILLERS = {
    "blue": ["C10", "E10", "G10", "I10", "B8", "D8", "F8", "H8", "J8"],
    "green": ["B10", "D10", "F10", "H10", "C8", "E8", "G8", "I8", "A8"],
    "red": ["J2", "J4", "J6", "H2"],
}


def build(game: Game, finish_round: bool = False, **chips: list[str]) -> Game:
    """Place chips in turn order: each side's i-th chip in round i, fillers when a list ends.

    Stops after the last listed chip of any side, so the last chip of the longest list is the
    last one placed. ``finish_round`` lets the remaining sides of that round place fillers, so
    the first side is to move afterwards.
    """
    sides = game.sides
    queues = {color: list(chips.get(color, [])) for color in sides}
    fillers = {color: list(FILLERS[color]) for color in sides}
    rounds = max(len(q) for q in queues.values())
    for r in range(rounds):
        for color in sides:
            if not finish_round and all(not queues[c] for c in sides):
                return game
            cell = queues[color].pop(0) if queues[color] else fillers[color].pop(0)
            ruling = game.push(Move.board_place(color, cell))
            assert ruling.legal, (r, color, cell, ruling)
    return game


def two_player(variant: str = "classic", **options) -> Game:
    return Game([("Ann", "blue"), ("Bo", "green")], variant, options)


def three_player(**options) -> Game:
    return Game([("Ann", "blue"), ("Bo", "green"), ("Cy", "red")], "classic", options)
