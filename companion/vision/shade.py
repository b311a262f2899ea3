"""A shadow cast across the board: the board's white pixel by pixel where one lies.

Someone standing between the lamp and the table, or the phone held over the board, casts a
shadow with a soft straight edge. ``colour.local_whites`` takes the white near each cell as
the median over the 5x5 cells around it, which follows smooth light (gradients, vignetting,
a colour cast) but not a step: for two cells either side of the edge the median speaks for
the other side, and a cell the edge crosses is divided by one white for both its halves.
Its shaded half then looks like something lying there (a border darker than any of the
board's, a card unlike its twin, a chip darker than its colour).

Where a cast shadow lies, the white is taken from the picture itself: a morphological
closing with a disc nearly a cell wide fills every chip, pip and gap between cards with the
card white around it and keeps a straight edge where it is (a closing returns any profile
that only rises or only falls across a line). Only a shadow is taken off this way, never a
cover: the closed white must be a shade of the board's own (darker by ``SHADE_MAX`` to
``SHADE_MIN``, channels in the same proportions give or take ``NEUTRAL``, no warmer), in one
solid region of ``SHADE_CELLS`` cells or more, ``SHADE_THICK`` cells thick, that reaches the
grid's edge (a cast shadow comes from beyond the board), with the board's printing showing
in it, where the light steps along one straight line. A hand is warmer than a shade, a
see-through one's outline is round; a sleeve or a loose card is plain (and what they hide,
their own colour divided out, still hides: no printing, no lines).

Pure functions; the reader calls :func:`shade_whites` when it measures the light.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.cell_boxes import cell_extremes
from companion.vision.colour import GREY_WEIGHTS

SCALE = 0.5  # the closing runs on a copy this size (a cell ~12 px): the light is smooth
CLOSE_CELLS = 0.9  # closing disc, in cells: wider than a chip (~0.7), narrower than a hand
SHADE_MAX = 0.88  # the closed white below this share of the white near it lies in a shade
SHADE_MIN = 0.3  # ... and above this one (darker is a dark cover, not light kept)
NEUTRAL = 1.35  # largest ratio between the channels' shares (a shade is a little bluer)
WARMTH_MAX = 1.05  # red over blue against the white near it: a shade is no warmer
SHADE_CELLS = 5.0  # a cast shadow covers at least this many cells' area ...
SHADE_THICK = 1.5  # ... is at least this many cells across both ways ...
SHADE_SOLID = 0.7  # ... fills this share of its convex hull (not a ring of margin) ...
# ... and shows the board in it: this share of its pixels darker than PRINTED of the white
# (gaps, pips, chips; a sleeve or a loose card is plain)
PRINTED, PRINTED_SHARE = 0.75, 0.05
# ... and the light steps along one straight line around it: this share of the strongest
# steps of the closed white within this many cells of a line fitted to them
EDGE_ON_LINE, EDGE_OFF = 0.8, 0.35
# ... and around it, up to this many cells away, the closed white is taken too (the lit
# side of the edge and the penumbra, which the median near the edge gets wrong), where it
# lies within these shares of the white near it
AROUND_CELLS = 0.5
AROUND_LEVELS = (SHADE_MIN, 1.6)
EDGE_STEP = 1.2  # a cell whose white changes by this factor inside it lies under the edge


def shade_whites(grid_bgr: np.ndarray, near: np.ndarray) -> np.ndarray | None:
    """The board's white at every pixel of the grid image (float BGR, its size) where a cast
    shadow lies on it, or None where none does. ``near``: the 10x10 whites near each cell
    (``colour.local_whites``), kept away from the shadow."""
    full_h, full_w = grid_bgr.shape[:2]
    small = cv2.resize(grid_bgr, None, fx=SCALE, fy=SCALE, interpolation=cv2.INTER_AREA)
    h, w = small.shape[:2]
    cell_h, cell_w = h / 10.0, w / 10.0
    size = max(3, int(round(CLOSE_CELLS * max(cell_h, cell_w))) | 1)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    closed = cv2.blur(cv2.morphologyEx(small, cv2.MORPH_CLOSE, disc), (3, 3))
    closed = closed.astype(np.float32) + 1.0
    coarse = cv2.resize(near, (w, h), interpolation=cv2.INTER_LINEAR)
    share = cv2.split(closed / coarse)
    most = np.maximum(np.maximum(share[0], share[1]), share[2])
    least = np.minimum(np.minimum(share[0], share[1]), share[2])
    neutral = most <= NEUTRAL * least
    closed_grey, coarse_grey = closed @ GREY_WEIGHTS, coarse @ GREY_WEIGHTS
    level = closed_grey / coarse_grey
    warmth = share[2] / share[0]
    shade = neutral & (level < SHADE_MAX) & (level > SHADE_MIN) & (warmth <= WARMTH_MAX)
    if np.count_nonzero(shade) < SHADE_CELLS * cell_h * cell_w:
        return None  # (most boards: no need to look for regions)
    printed = (small.astype(np.float32) @ GREY_WEIGHTS) < PRINTED * closed_grey
    grey = np.log(closed_grey)
    step = np.hypot(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1))
    shade = _cast_shadows(shade, printed, step, cell_h, cell_w)
    if shade is None:
        return None
    # where the closing left colour (a chip wider than the disc), the white around it
    closed = _filled(closed, neutral, coarse, (int(cell_w) | 1, int(cell_h) | 1))
    level = (closed @ GREY_WEIGHTS) / coarse_grey
    reach = (int(2 * AROUND_CELLS * cell_w) | 1, int(2 * AROUND_CELLS * cell_h) | 1)
    around = cv2.dilate(shade.astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, reach))
    low, high = AROUND_LEVELS
    take = shade | ((around > 0) & (level > low) & (level < high))
    weight = cv2.blur(take.astype(np.float32), (3, 3))[..., None]
    whites = closed * weight + coarse * (1.0 - weight)
    return cv2.resize(whites, (full_w, full_h), interpolation=cv2.INTER_LINEAR)


def _filled(closed, good, fallback, box) -> np.ndarray:
    """``closed`` where ``good``, elsewhere the mean of the good values in a box around (or
    ``fallback`` where none is near)."""
    weight = good.astype(np.float32)
    total = cv2.blur(closed * weight[..., None], box)
    count = cv2.blur(weight, box)[..., None]
    around = np.where(count > 0.05, total / np.maximum(count, 1e-3), fallback)
    return np.where(good[..., None], closed, around)


def _cast_shadows(
    shade: np.ndarray, printed: np.ndarray, step: np.ndarray, cell_h: float, cell_w: float
) -> np.ndarray | None:
    """The regions of ``shade`` (bool image) that a shadow cast from beyond the board leaves:
    big, thick, solid, reaching the image's edge, the board's gaps and printing showing in
    them (``printed``: darker than the closed white), the light (``step``) stepping along a
    straight line around them; None if there is none."""
    h, w = shade.shape
    count, labels, stats, _ = cv2.connectedComponentsWithStats(shade.astype(np.uint8))
    x, y, width, height, area = (stats[:, i] for i in range(5))
    at_edge = (x <= 1) | (y <= 1) | (x + width >= w - 1) | (y + height >= h - 1)
    thick = np.minimum(width / cell_w, height / cell_h) >= SHADE_THICK
    keep = (area >= SHADE_CELLS * cell_h * cell_w) & at_edge & thick
    keep[0] = False
    for i in np.flatnonzero(keep):
        hull = cv2.convexHull(cv2.findNonZero((labels == i).astype(np.uint8)))
        keep[i] = area[i] >= SHADE_SOLID * cv2.contourArea(hull)
        keep[i] &= np.count_nonzero(printed[labels == i]) >= PRINTED_SHARE * area[i]
        keep[i] &= _straight_edge(labels == i, step, min(cell_h, cell_w))
    if not keep.any():
        return None
    return keep[labels]


def _straight_edge(region: np.ndarray, step: np.ndarray, cell: float) -> bool:
    """Whether the light steps along one straight line around ``region`` (bool image):
    of the pixels near it where the closed white changes fastest (``step``: the gradient of
    its log), ``EDGE_ON_LINE`` within ``EDGE_OFF`` cells of the line fitted to them. A cast
    shadow's edge is straight across a board; a hand's or a sleeve's outline is not."""
    size = int(2 * cell) | 1
    near = cv2.dilate(
        region.astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    )
    values = step[near > 0]
    if values.size < 4 * cell:
        return False
    strong = (near > 0) & (step >= np.percentile(values, 80))
    ys, xs = np.nonzero(strong)
    points = np.stack([xs, ys], axis=1).astype(np.float32)
    vx, vy, x0, y0 = cv2.fitLine(points, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    off = np.abs((points[:, 0] - x0) * vy - (points[:, 1] - y0) * vx)
    return float(np.mean(off <= EDGE_OFF * cell)) >= EDGE_ON_LINE


def edge_cells(whites: np.ndarray) -> np.ndarray:
    """The cells (10x10 bool) a shadow's edge crosses: the white (:func:`shade_whites`)
    changes inside them by ``EDGE_STEP`` or more."""
    h, w = whites.shape[:2]
    grey = np.ascontiguousarray((whites @ GREY_WEIGHTS)[: h - h % 10, : w - w % 10])
    most = cell_extremes(grey, w // 10, h // 10, np.maximum)
    least = cell_extremes(grey, w // 10, h // 10, np.minimum)
    return most >= EDGE_STEP * least
