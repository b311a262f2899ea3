"""A chip left unknown for signs of a cover that turned out to be none reads what it shows.

Hands and cards are big, so ``chips.classify`` leaves a chip unknown when it lies beside a
covered cell, or beside a veil of glare, and shows weak signs of the same cover (its disc over
the boundary line, colour on its border): the signs a chip placed off-centre shows too. When no
cell around it is unknown any more (the twin rules read the covered cell as an empty card like
its twin, the rule below reads it as a chip that hid its own lines, or there was only glare,
which pales a chip but never turns it into another), the doubt had no cover behind it, and the
chip read before the doubt stands. Only a cell doubted for that reason alone is read.

A chip itself may hide the lines around its cell (pushed off-centre over one, blurred, on a
board printing faint lines): those boundaries gone are the one sign of a cover on a cell that
shows a chip. A hand or a loose card lying there hides its neighbours' lines too and leaves them
unknown: with at most one unknown cell around it (chips doubted only for lying beside it left
aside: they are lifted as above once it is read), such a chip reads what it shows.

Measured on 42 seen sets (5,500 frames; hands or loose cards on many): of the chips doubted only
for boundaries gone, every one with at most one unknown cell around it (those chips aside) held
the chip it showed (15 cells, 2 of them hidden), and each of the 41 that held another (under a
hand or a card) had 3 or more; of the chips doubted only beside a cover with no unknown cell around, all 10 held
the chip they showed (1 hidden), while each of the 77 that held another had one or more (2 of
them one). Reading both kinds back changed no cell to a wrong value on those sets.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.causes import held_only_by
from companion.vision.chips import AROUND, CORNERS, _beside
from companion.vision.colour import CHIP_SYMBOLS

# the doubts (``chips.classify`` causes) that may be lifted
BESIDE_COVER = "next_to_cover"
# ... and a chip beside one colour over a whole cell, in that colour (a card back, a sleeve):
# when that cell turns out to hold a chip as big as its cell (``filling_chips``), no cover
COVER_COLOUR = "cover_colour"
LINES_GONE = "boundaries_gone"
LINES_ALONE_MAX = 1  # unknown cells around a chip whose lines are gone (a cover leaves >= 3)


def _doubted_only(
    causes: frozenset[str], symbols: np.ndarray, why: dict[str, np.ndarray], empty: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """The unknown cells of ``symbols`` (10x10 bool), and those doubted for some of ``causes``
    alone that were read as a chip before their doubts (with ``empty``, or as an empty card)."""
    unknown = np.asarray(symbols) == "?"
    if "_read" not in why or not unknown.any():
        return unknown, np.zeros_like(unknown)
    read = np.asarray(why["_read"])
    # (a chip's symbol, by one comparison per colour: np.isin sorts strings, at several
    # times the cost on a reading's 100 cells)
    chips = unknown & np.logical_or.reduce(
        [read == sym for sym in CHIP_SYMBOLS + ((".",) if empty else ())]
    )
    if not chips.any():
        return unknown, chips  # (the causes are asked about only for such cells)
    return unknown, chips & held_only_by(why, causes)


def chips_hiding_lines(symbols: np.ndarray, why: dict[str, np.ndarray]) -> np.ndarray:
    """The unknown cells (10x10 bool, screen order) of ``symbols`` to read as ``why["_read"]``
    (the reading before its doubts; ``why``: ``chips.classify``'s cause masks): doubted only
    for their boundaries gone, read as a chip before that, with at most ``LINES_ALONE_MAX``
    unknown cells around them (the free corners' emblems and chips doubted only for lying
    beside a cover are none)."""
    unknown, only = _doubted_only(frozenset({LINES_GONE}), symbols, why)
    if not only.any():
        return only
    # (a chip doubted only for lying beside it is no sign of a cover: it is lifted below)
    counted = (
        unknown & ~_doubted_only(frozenset({BESIDE_COVER}), symbols, why)[1] & ~CORNERS
    ).astype(np.float32)
    around = cv2.filter2D(counted, -1, AROUND, borderType=cv2.BORDER_CONSTANT)  # (its 8)
    return only & (around <= LINES_ALONE_MAX + 0.5)


def doubted_beside_cover(symbols: np.ndarray, why: dict[str, np.ndarray]) -> np.ndarray:
    """The unknown cells (10x10 bool, screen order) doubted only for lying beside a cover and
    read as a chip or empty before that."""
    return _doubted_only(frozenset({BESIDE_COVER}), symbols, why, empty=True)[1]


def chips_beside_no_cover(symbols: np.ndarray, why: dict[str, np.ndarray]) -> np.ndarray:
    """The unknown cells (10x10 bool, screen order) of ``symbols`` to read as ``why["_read"]``:
    doubted only for lying beside a cover or for its colour (``COVER_COLOUR``), read as a chip
    before that, with no unknown cell around them but others doubted the same way (and the
    free corners)."""
    unknown, only = _doubted_only(frozenset({BESIDE_COVER, COVER_COLOUR}), symbols, why)
    if not only.any():
        return only
    return only & ~_beside(unknown & ~only & ~CORNERS)
