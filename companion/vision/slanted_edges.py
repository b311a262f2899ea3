"""Straight edges at a slant to the grid: the sides of a loose card lying on the board.

Everything the board prints runs along its grid (the boundaries between cells) or stays inside
one cell (pips, ranks, a card's picture); a chip is round. A playing card put down on the board
lies askew, and its sides are straight lines longer than a cell at an angle to the grid; so are
a ruler's, a phone's, a sleeve's. The cells such an edge runs through are partly under the
thing it bounds: a chip there may show only in part, or not at all (a white card over a chip
reads as an empty card, a red-backed one as a red chip), so a reading there is no reading.

The edges are found by OpenCV's line segment detector (LSD) on the straightened grid image,
whose grid lines run exactly horizontal and vertical whatever the cells' aspect (angles are
taken in cells, lengths in the cells' shorter side, a chip's scale). A white card's side shows
only where it passes over something darker than itself (a gap, a chip, printing, or its own
thin shadow) and LSD finds it in pieces; so pieces at a slant are joined when they lie on one
line, and a line counts when it runs at least ``LONG``, its pieces cover most of it and one of
them is ``LONGEST_PIECE`` long. A chip's outline gives short chords only (two chips side by
side a line along both, in two chords; with the chip's shadow, a side of up to 0.92): no piece
of such a line is that long. Motion blur draws straight sides on every chip, so a grid image
smeared one way is not looked at. Measured on 1,200 never-seen renderer frames: of 5 whose
loose card hid chips read wrong (a white card read as the empty card beneath, a red-backed
one as a red chip), 2 are found, all their hidden chips then `?`; of the others, one card
lies nearly along the grid, two show sides too short or too faint.
"""

from __future__ import annotations

import threading

import cv2
import numpy as np

# lengths in cells' shorter sides (a chip's scale: a chip is 0.78 of it wide)
LONG = 1.2  # an edge this long is longer than anything printed inside a cell
SLANT = 12.0  # degrees off both grid axes, in cells (a lens bends the grid's own lines less)
PIECE = 0.4  # the shortest piece of an edge looked at
LONGEST_PIECE = 1.0  # an edge has one piece this long at least: longer than a chip is wide
# with its shadow (its outline gives chords of 0.3-0.5, and one with its shadow a side of up
# to 0.92; two chips side by side a line along both, in such pieces)
ON_LINE_PX = 1.5  # pixels: pieces of one edge have both ends this close to the longest's line
PIECE_GAP = 1.2  # ... and follow each other along it with gaps no longer than this
COVERED = 0.6  # an edge's pieces cover this much of its length at least
SAMPLES_PER_CELL = 8  # points looked at along an edge, per cell of its length
# a grid image whose gradients run this much more one way than across (1 - the structure
# tensor's smaller eigenvalue over its larger, gradients in cells) is smeared by motion: each
# chip a capsule with straight sides, two side by side a slanted line (sharp boards: <= 0.64,
# Jax-like grey gaps and wide cards the most; 9-13 pixels of motion blur: 0.79-0.83)
SMEARED = 0.72


_local = threading.local()


def _detector() -> cv2.LineSegmentDetector:
    """This thread's line segment detector: one detector object must not detect in two
    threads at once (the web server reads a live camera in one thread while another
    calibrates; sharing one aborted the process)."""
    detector = getattr(_local, "detector", None)
    if detector is None:
        detector = _local.detector = cv2.createLineSegmentDetector(cv2.LSD_REFINE_STD)
    return detector


def _pieces(grey: np.ndarray, cell_w: float, cell_h: float) -> np.ndarray:
    """LSD's segments at a slant and at least ``PIECE`` long: N x 4 (x1, y1, x2, y2), in
    pixels, longest first."""
    lines = _detector().detect(grey)[0]
    if lines is None:
        return np.zeros((0, 4), np.float32)
    seg = lines.reshape(-1, 4)
    dx, dy = seg[:, 2] - seg[:, 0], seg[:, 3] - seg[:, 1]
    angle = np.degrees(np.arctan2(np.abs(dy / cell_h), np.abs(dx / cell_w)))
    length = np.hypot(dx, dy) / min(cell_w, cell_h)
    keep = (length >= PIECE) & (angle >= SLANT) & (angle <= 90.0 - SLANT)
    return seg[keep][np.argsort(-length[keep])]


def smeared(grey: np.ndarray, cell_w: float, cell_h: float) -> bool:
    """Whether the grid image is smeared by motion (see ``SMEARED``): its gradients, per cell
    (so that wide cards weigh as square ones), run mostly one way."""
    g = grey.astype(np.float32)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3) * cell_w
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3) * cell_h
    xx, xy, yy = float(np.vdot(gx, gx)), float(np.vdot(gx, gy)), float(np.vdot(gy, gy))
    low, high = np.linalg.eigvalsh(np.array([[xx, xy], [xy, yy]]))
    return high > 0 and 1.0 - low / high >= SMEARED


def _edge_along(seed: np.ndarray, pieces: np.ndarray, free: np.ndarray, unit: float):
    """The pieces (indices into ``pieces``, among the ``free`` ones) that continue ``seed``'s
    line (both ends within ``ON_LINE_PX`` of it) without a gap over ``PIECE_GAP`` (``unit``
    pixels each), and the edge's two ends (pixels)."""
    start, end = seed[:2], seed[2:]
    d = (end - start) / max(float(np.hypot(*(end - start))), 1e-6)
    normal = np.float32([-d[1], d[0]])
    ends = pieces.reshape(-1, 2, 2) - start
    on_line = free & (np.abs(ends @ normal) <= ON_LINE_PX).all(axis=1)
    along = np.sort(ends @ d, axis=1)  # each piece's extent along the line, pixels
    gap = PIECE_GAP * unit
    lo, hi = float(along[0, 0]), float(along[0, 1])  # (the seed is pieces[0])
    taken = np.zeros(len(pieces), bool)
    grown = True
    while grown:
        grown = False
        for i in np.flatnonzero(on_line & ~taken):
            if along[i, 0] <= hi + gap and along[i, 1] >= lo - gap:
                lo, hi = min(lo, float(along[i, 0])), max(hi, float(along[i, 1]))
                taken[i] = grown = True
    return taken, start + lo * d, start + hi * d


def slanted_segments(grey: np.ndarray, cell_w: float, cell_h: float) -> np.ndarray:
    """The straight edges in a grid image (``grey``, 10x10 cells of ``cell_w`` x ``cell_h``
    pixels) that run at a slant to the grid, at least ``LONG`` long, with one piece of
    ``LONGEST_PIECE`` and their pieces covering ``COVERED`` of them: N x 4 (x1, y1, x2, y2),
    in cells."""
    if smeared(grey, cell_w, cell_h):
        return np.zeros((0, 4), np.float32)
    unit = float(min(cell_w, cell_h))
    pieces = _pieces(grey, cell_w, cell_h)
    lengths = np.hypot(pieces[:, 2] - pieces[:, 0], pieces[:, 3] - pieces[:, 1]) / unit
    free = np.ones(len(pieces), bool)
    edges = []
    for i in range(len(pieces)):  # longest first
        if not free[i] or lengths[i] < LONGEST_PIECE:
            continue
        order = np.r_[i, np.flatnonzero(np.arange(len(pieces)) != i)]
        taken, first, last = _edge_along(pieces[i], pieces[order], free[order], unit)
        free[order[taken]] = False  # (the seed among them)
        span = float(np.hypot(*(last - first))) / unit
        if span >= LONG and lengths[order[taken]].sum() >= COVERED * span:
            cell = np.float32([cell_w, cell_h])
            edges.append(np.concatenate([first / cell, last / cell]))
    return np.float32(edges).reshape(-1, 4)


def cells_crossed(segments: np.ndarray) -> np.ndarray:
    """Per cell (10x10), the length of the ``segments`` (N x 4, in cells, as from
    :func:`slanted_segments`) that runs through it, in cells."""
    crossed = np.zeros((10, 10), np.float32)
    for x1, y1, x2, y2 in segments:
        length = float(np.hypot(x2 - x1, y2 - y1))
        n = max(2, int(np.ceil(length * SAMPLES_PER_CELL)))
        t = (np.arange(n) + 0.5) / n
        cols = np.floor(x1 + t * (x2 - x1)).astype(int)
        rows = np.floor(y1 + t * (y2 - y1)).astype(int)
        inside = (cols >= 0) & (cols < 10) & (rows >= 0) & (rows < 10)
        np.add.at(crossed, (rows[inside], cols[inside]), length / n)
    return crossed


def slanted_edge_cells(grey: np.ndarray, cell_w: float, cell_h: float) -> np.ndarray:
    """Per cell (10x10), how far (in cells) straight edges at a slant to the grid run through
    it (see the module's docstring)."""
    return cells_crossed(slanted_segments(grey, cell_w, cell_h))
