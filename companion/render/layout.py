"""The classic Jax board layout (RULES.md §1.3), as the renderer prints it.

The grid itself lives in ``companion.classic`` (shared with vision; the renderer knows no rules
code); tests check that every non-jack card appears exactly twice and that the grid is
the referee's ``classic_layout()``. ``W`` marks the four free corners.
"""

from __future__ import annotations

from companion.cells import CORNERS
from companion.classic import CLASSIC_LAYOUT

FREE = "W"
RED_SUITS = frozenset("HD")
SUITS = "SCHD"
RANK_LABELS = {"T": "10"}


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
