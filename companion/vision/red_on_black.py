"""Red on a card that prints no red is a chip.

The reading's doubts between red printing and a red chip (a red chip turned pink or pale by
glare, a blurred disc no bolder than the board's own hearts) leave a cell unknown. On a card of
a black suit no red is printed: where those doubts are the only ones and red covers a good part
of the cell, the red is a chip's. Other red things (a hand's skin, a red card back or sleeve)
bring signs of a cover, and those cells stay unknown; so does a cell showing a hand's skin
colour over ``RED_ON_BLACK_SKIN`` of it (fingers whose skin reads red where it meets the card
raise no other sign there). On the stored features of 4,032 seen
frames (28 sets, three arts) every cell of a black suit left unknown for these doubts alone,
with red over >= 0.25 of it, held a red chip (8 cells, 3 of them hidden in part).

The look at red read as ink (``red_print.chips_read_as_ink``) leaves such a cell unknown too
(``red_on_black``) where its red is no round disc as wide as a chip: a rust-brown chip whose
disc joins the card's black pips, a pink one whose rim is lost. On the independent renderer's
76 sets every cell left unknown for that doubt alone held a red chip (23 cells, 3 of them
under an arm).

Two of those doubts only a red chip's disc raises: a disc of pink tint under glare
(``pink_disc``) and a veiled chip's red rim with its broad pale tint (``washed_red``). A cell
left unknown for these alone, with as much red, holds a red chip on any card: of the cells
the independent renderer's 67 seen sets left unknown with either as the first cause, every
one held a red chip (27 and 9), and printed hearts and diamonds never raised them; read so,
9 cells went from unknown to right and no other cell changed.
"""

from __future__ import annotations

import numpy as np

from companion.vision.causes import held_only_by
from companion.vision.layout import black_suit_cells

# the doubts between red ink and a red chip (``chips.classify`` causes; ``red_on_black``: the
# reading's look at red read as ink on a card that prints none found no chip's round disc)
RED_DOUBTS = frozenset(
    {"undecided", "pink_disc", "glare", "washed_red", "washed_taken", "red_on_black"}
)
# ... and those only a red chip's disc raises, on any card
RED_DISC_DOUBTS = frozenset({"pink_disc", "washed_red"})
RED_ON_BLACK_MIN = 0.25  # of the cell in red (before the erosion): a chip's, not a fringe
RED_ON_BLACK_CONF = 0.6  # what such a reading claims: less than a chip seen whole
# a cell with more of a hand's skin colour than this is no such chip: fingers on a black
# suit's card, their skin reading red where it meets the card, raised no cover (never-seen
# renderer frames: skin 0.18-0.31 on the cells so read wrong, a chip under a hand and empty
# cards). Red chips read so showed <= 0.009 on 1,500 never-seen frames, but under warm light
# up to 0.11 and more (independent jax12 frame 102: at 0.1, 4 of its red chips were left `?`,
# at 0.15 one), an orange-red chip 0.196 (wood22 frame 67): those are `?` now, no red chip
# read where a hand may be
RED_ON_BLACK_SKIN = 0.15
# a board whose cells' borders are mostly this much red shows its own red around the cards
# (a maroon board's cells measured 0.57 in the median, a white-gapped board's near 0)
RED_BOARD_RING = 0.25


def red_board(ring_red: np.ndarray | None) -> bool:
    """Whether a board shows its own red around its cards: per cell the share of its border
    in red (``ring_red``; None: not measured) over ``RED_BOARD_RING`` on most cells (a maroon
    board). Its red then joins any red inside a cell near the border."""
    return ring_red is not None and bool(np.median(ring_red) >= RED_BOARD_RING)


def red_chips_on_black(
    symbols: np.ndarray,
    why: dict[str, np.ndarray],
    red: np.ndarray,
    red_top: np.ndarray,
    orientation: int,
    ring_red: np.ndarray | None = None,
    skin: np.ndarray | None = None,
) -> np.ndarray:
    """The unknown cells (10x10 bool, screen order) with red over ``RED_ON_BLACK_MIN`` of the
    cell (``red``) and red their strongest chip colour (``red_top``) that hold a red chip: on
    a black suit's card those whose only causes (``why``: the reading's cause masks) are
    doubts about red (``RED_DOUBTS``), on any card those whose only causes are doubts only a
    red chip's disc raises (``RED_DISC_DOUBTS``). None on a board whose own red shows around
    its cards (``ring_red``: per cell, the share of its border in red, over ``RED_BOARD_RING``
    on most cells): a red board seen inside the cells of a grid a little off fills a quarter
    of a black card with red. Nor on a cell showing a hand's skin over ``RED_ON_BLACK_SKIN``
    of it (``skin``: per cell; None: not measured)."""
    found = (np.asarray(symbols) == "?") & (red >= RED_ON_BLACK_MIN) & red_top
    if skin is not None:
        found &= skin <= RED_ON_BLACK_SKIN
    if not found.any():
        return found  # (the causes are asked about only for such cells: most frames have none)
    if red_board(ring_red):
        return np.zeros_like(found)
    black = black_suit_cells(orientation=orientation)
    return found & ((black & held_only_by(why, RED_DOUBTS)) | held_only_by(why, RED_DISC_DOUBTS))
