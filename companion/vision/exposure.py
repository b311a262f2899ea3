"""Exposure: a copy of an over- or underexposed frame with the board's tones spread again.

A camera that meters a dark table lets the board, the brightest thing in view, run into its
highlights: the white cards and the pale gaps between them end a few grey levels apart, the
board's edge against a pale cloth fades, and the locators (edges thresholded by the frame's
brightness, line profiles above the noise) find no grid, although a person sees the board at
once. Spreading the highlights with a gamma curve (a 4-level step near white becomes about
8) gives them back. The copy is only for a frame where no board was found as it is. (The
same for a dim frame's shadows, gamma 0.5, found none of the boards a dim set lost, and was
left out.)"""

from __future__ import annotations

import dataclasses
import functools

import cv2
import numpy as np

from companion.cells import cell_name
from companion.vision.causes import CAUSE_KIND
from companion.vision.locate import downscale
from companion.vision.reading import BoardReading
from companion.vision.stats import percentile_u8

# the 90th percentile of a frame's grey: the board's cards are among its brightest tones
BRIGHT_FRAME = 200  # at or above this, the highlights are spread (gamma BRIGHT_GAMMA)
BRIGHT_GAMMA = 2.0
_SAMPLE_SIDE = 320  # the percentile is taken on a copy this wide


@functools.cache
def _gamma_table(gamma: float) -> np.ndarray:
    x = np.arange(256, dtype=np.float64) / 255.0
    return np.clip(np.round(255.0 * x**gamma), 0, 255).astype(np.uint8)


def light_tone(bgr: np.ndarray) -> float:
    """The 90th percentile of the frame's grey (0-255), on a small copy."""
    small, _ = downscale(bgr, _SAMPLE_SIDE)
    return percentile_u8(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), 90)


def exposure_gamma(bgr: np.ndarray) -> float | None:
    """The gamma that spreads the highlights an overexposed frame crowds (None: no need)."""
    return BRIGHT_GAMMA if light_tone(bgr) >= BRIGHT_FRAME else None


def retoned(bgr: np.ndarray, gamma: float) -> np.ndarray:
    """A copy of the frame through the gamma curve ``gamma`` (above 1 spreads highlights)."""
    return cv2.LUT(bgr, _gamma_table(gamma))


DISAGREES = "exposure_disagrees"  # the cause code of a cell the two readings differ on

# causes of a `?` that are about the picture's tones (glare, a washed-out or pale chip, a cell
# neither clearly chip nor printing), which the retoned copy may settle; a cover's or a hand's
# signs are not, and keep the cell `?`
TONE_DOUBTS = frozenset(code for code, kind in CAUSE_KIND.items() if kind in ("glare", "unclear"))
TONE_DOUBTS |= {"pattern"}  # a chip washed to thin rings of its colour looks like a card back


def agreed_reading(own: BoardReading, toned: BoardReading) -> BoardReading:
    """``own`` (the frame read as it is) with each cell that ``toned`` (the same grid read on
    the retoned copy) reads otherwise made ``?``: the curve changes the chips' colours as well
    as the board's (a washed-out red chip reads red only on a gamma-2 copy, a green chip in
    shade only on the frame itself), and where the two exposures disagree neither is sure.
    A cell ``own`` leaves ``?`` only for its tones (:data:`TONE_DOUBTS`: a chip washed out in
    the frame's clipped highlights) takes what ``toned`` reads there."""
    if own.cells is None or toned.cells is None or own.orientation != toned.orientation:
        return own
    cells = [list(row) for row in own.cells]
    confidence = np.array(own.confidence, np.float32, copy=True)
    reasons = dict(own.unknown_reasons)
    for r, (mine, theirs) in enumerate(zip(own.cells, toned.cells, strict=True)):
        for c, (a, b) in enumerate(zip(mine, theirs, strict=True)):
            name = cell_name((r, c))
            if a == "?" and b != "?" and name in reasons and set(reasons[name]) <= TONE_DOUBTS:
                cells[r][c] = b
                confidence[r, c] = toned.confidence[r][c]
                del reasons[name]
            elif a != b and "?" not in (a, b):
                cells[r][c] = "?"
                confidence[r, c] = 0.0
                reasons[name] = (DISAGREES,)
    return dataclasses.replace(
        own, cells=["".join(row) for row in cells], confidence=confidence, unknown_reasons=reasons
    )
