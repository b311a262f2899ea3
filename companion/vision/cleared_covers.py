"""A chip left unknown for signs of a cover that turned out to be none reads what it shows.

Hands and cards are big, so ``chips.classify`` leaves a chip unknown when it lies beside a
covered cell and shows weak signs of the same cover (its disc over the boundary line, colour on
its border): the signs a chip placed off-centre shows too. When every covered cell beside it
is read after all (the twin rules find an empty card like its twin, or the rule below a chip),
that doubt had no cover behind it, and the chip read before the doubt stands. Only a cell
doubted for that reason alone, with no cell around it still unknown and no glare beside it
(``next_to_cover`` also grows from a veil of glare, which nothing clears), is read.

A chip itself may hide the lines around its cell (pushed off-centre over one, blurred, on a
board printing faint lines): those boundaries gone are the one sign of a cover on a cell that
shows a chip. A hand or a loose card lying there hides its neighbours' lines too and leaves them
unknown: with at most one unknown cell around it (the neighbour doubted beside it), such a chip
reads what it shows, and that neighbour is then lifted as above.

Measured on 42 seen sets (5,500 frames; hands or loose cards on many): of the chips doubted only
for boundaries gone, every one with at most one unknown cell around it held the chip it showed
(12 cells, 2 of them hidden), and each of the 41 that held another (under a hand or a card) had
3 or more. Reading both kinds back changed no hidden cell to a wrong value on those sets.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.colour import CHIP_SYMBOLS

AROUND = np.ones((3, 3), np.uint8)  # a cell and its 8 neighbours (``chips._beside``)
BESIDE_COVER = "next_to_cover"  # the doubts (``chips.classify`` causes) that may be lifted
LINES_GONE = "boundaries_gone"
LINES_ALONE_MAX = 1  # unknown cells around a chip whose lines are gone (a cover leaves >= 3)


def _around(cells: np.ndarray) -> np.ndarray:
    return cv2.dilate(np.asarray(cells, np.uint8), AROUND) > 0


def _only(cause: str, unknown: np.ndarray, why: dict[str, np.ndarray]) -> np.ndarray:
    """The unknown cells doubted for ``cause`` alone, read as a chip before their doubts."""
    only = unknown & np.asarray(why[cause], bool)
    for code, mask in why.items():
        if code != cause and not code.startswith("_") and np.ndim(mask) == 2:
            only &= ~np.asarray(mask, bool)
    return only & np.isin(why["_read"], CHIP_SYMBOLS)


def chips_hiding_lines(
    symbols: np.ndarray, before: np.ndarray, why: dict[str, np.ndarray]
) -> np.ndarray:
    """The unknown cells (10x10 bool, screen order) of ``symbols`` to read as ``why["_read"]``:
    doubted only for their boundaries gone, read as a chip before that, with at most
    ``LINES_ALONE_MAX`` unknown cells around them (``before``, the reading before the twin
    rules, is not needed: the same call as :func:`chips_beside_cleared`)."""
    unknown = np.asarray(symbols) == "?"
    if LINES_GONE not in why or "_read" not in why or not unknown.any():
        return np.zeros_like(unknown)
    only = _only(LINES_GONE, unknown, why)
    if not only.any():
        return only
    counted = unknown.astype(np.float32)
    counted[[0, 0, 9, 9], [0, 9, 0, 9]] = 0  # (the free corners' emblems are no cover)
    around = cv2.filter2D(counted, -1, AROUND.astype(np.float32), borderType=cv2.BORDER_CONSTANT)
    around = around - counted  # (the cell itself)
    return only & (around <= LINES_ALONE_MAX + 0.5)


def chips_beside_cleared(
    symbols: np.ndarray, before: np.ndarray, why: dict[str, np.ndarray]
) -> np.ndarray:
    """The unknown cells (10x10 bool, screen order) of ``symbols`` to read as
    ``why["_read"]`` (the reading before its doubts): doubted only for lying beside a cover
    (``why``: ``chips.classify``'s cause masks), read as a chip before that, next to a cell
    that was unknown in ``before`` (the reading before the twin rules) and is read now, and
    with no other unknown cell and no glare around it."""
    unknown = np.asarray(symbols) == "?"
    if BESIDE_COVER not in why or "_read" not in why or not unknown.any():
        return np.zeros_like(unknown)
    only = _only(BESIDE_COVER, unknown, why)
    if not only.any():
        return only
    cleared = (np.asarray(before) == "?") & ~unknown
    still = unknown & ~only
    glare = np.asarray(why.get("_veil_signs", np.zeros_like(unknown)), bool)
    return only & _around(cleared) & ~_around(still) & ~_around(glare)
