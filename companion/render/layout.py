"""The classic Jax board layout (RULES.md §1.3), as the renderer prints it.

The renderer keeps its own copy so that it depends on nothing but ``companion.cells`` (it knows
no rules code); tests check that every non-jack card appears exactly twice and that the grid is
the referee's ``classic_layout()``. ``W`` marks the four free corners.
"""

from __future__ import annotations

from companion.cells import CORNERS, SIZE

CLASSIC_GRID = """
W  2S 3S 4S 5S 6S 7S 8S 9S W
6C 5C 4C 3C 2C AH KH QH TH TS
7C AS 2D 3D 4D 5D 6D 7D 9H QS
8C KS 6C 5C 4C 3C 2C 8D 8H KS
9C QS 7C 6H 5H 4H AH 9D 7H AS
TC TS 8C 7H 2H 3H KH TD 6H 2D
QC 9S 9C 8H 9H TH QH QD 5H 3D
KC 8S TC QC KC AC AD KD 4H 4D
AC 7S 6S 5S 4S 3S 2S 2H 3H 5D
W  AD KD QD TD 9D 8D 7D 6D W
"""

FREE = "W"
RED_SUITS = frozenset("HD")
SUITS = "SCHD"
RANK_LABELS = {"T": "10"}


def _parse(text: str) -> tuple[tuple[str, ...], ...]:
    rows = tuple(tuple(line.split()) for line in text.strip().splitlines())
    if len(rows) != SIZE or any(len(row) != SIZE for row in rows):
        raise ValueError("a board layout needs 10 rows of 10 cards")
    return rows


CLASSIC_LAYOUT: tuple[tuple[str, ...], ...] = _parse(CLASSIC_GRID)


def card_at(row: int, col: int) -> str:
    """Card code such as ``"7S"`` printed in canonical cell ``(row, col)``; ``"W"`` on corners."""
    return CLASSIC_LAYOUT[row][col]


def is_free(row: int, col: int) -> bool:
    return (row, col) in CORNERS


def rank_label(card: str) -> str:
    """``"TD"`` -> ``"10"``, ``"7S"`` -> ``"7"``."""
    return RANK_LABELS.get(card[0], card[0])


def is_red(card: str) -> bool:
    return card[-1] in RED_SUITS
