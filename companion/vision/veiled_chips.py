"""A blue or green chip under a veil of glare is still that chip.

A veil of glare lifts everything on the board by the same light: the lines between the cards
fade (the cell's boundaries seem gone, as under a loose card) and a chip's colour pales, so
little of it survives the erosion that tells a chip's solid disc from printed strokes. The
reading then sees neither clearly a chip nor clearly printing, and a cover besides, and leaves
the cell unknown. But printing is never blue or green, and a hand or a card lying on the cell
would not leave the cell's darkest part lifted (a card keeps its black print, a hand its
shadows): where that darkest part is lifted to a veil's level (``chips.VEIL_BLACK`` of the
white), one of blue and green covers a chip's share of the cell, a pale disc of its hue is as
broad as a chip's (``pale_bg``), and the only doubts are those the veil explains, the cell
holds that chip.

Measured before choosing, on the stored readings of 62 seen sets (8,748 in-range frames, hands
and loose cards on many): every one of the 81 cells unknown for these doubts alone with these
signs held that chip (46 of them hidden in part, under a see-through hand or a card's edge);
the nearest cells that did not (a hidden green chip showing 0.42 blue, empty cards) had their
darkest part below the veil's level or no broad pale disc.
"""

from __future__ import annotations

import numpy as np

from companion.vision.causes import held_only_by
from companion.vision.chips import VEIL_BLACK

VEILED_DOUBTS = frozenset({"boundaries_gone", "undecided", "glare"})
VEILED_COLOUR = 0.25  # of the cell in the chip's colour, however pale (before the erosion) ...
VEILED_OTHER = 0.05  # ... the other of blue and green at most
VEILED_RED = 0.15  # ... and red at most (printing under the veil, a red chip beside it)
VEILED_DISC = 0.2  # a pale disc of its hue left after the erosion, at least
VEILED_CONF = 0.6  # what such a reading claims: less than a chip seen clearly


def veiled_chips(
    symbols: np.ndarray,
    why: dict[str, np.ndarray],
    raw: dict[str, np.ndarray],
    pale_disc: np.ndarray | None,
    black: np.ndarray | None,
) -> np.ndarray:
    """Per cell (10x10 str, screen order): ``"B"`` or ``"G"`` where an unknown cell, left
    ``undecided`` and held by nothing but ``VEILED_DOUBTS`` (``why``), shows that colour
    (``raw``: each chip colour's share of the cell), a pale disc of it (``pale_disc``:
    ``CellFeatures.pale_bg``) and its darkest part lifted by a veil (``black``:
    ``CellFeatures.black``); ``""`` elsewhere (and everywhere when those two were not
    measured)."""
    out = np.full((10, 10), "", dtype="<U1")
    if pale_disc is None or black is None or "undecided" not in why:
        return out
    doubted = (
        (np.asarray(symbols) == "?")
        & why["undecided"]
        & (black >= VEIL_BLACK)
        & (pale_disc >= VEILED_DISC)
        & (raw["R"] <= VEILED_RED)
    )
    if doubted.any():  # (the causes are asked about only for such cells)
        doubted &= held_only_by(why, VEILED_DOUBTS)
    for colour, other in (("B", "G"), ("G", "B")):
        shows = (raw[colour] >= VEILED_COLOUR) & (raw[other] < VEILED_OTHER)
        out[doubted & shows] = colour
    return out
