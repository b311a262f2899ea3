"""From a BGR frame to a :class:`BoardReading`: locate, straighten, orient, read.

``analyze_image`` works from scratch on one picture. ``BoardReader`` keeps the located geometry
between video frames: while the grid is still where it was, a frame costs one small warp and a
few array operations; when the board moved or vanished, it locates it again.
"""

from __future__ import annotations

import dataclasses
import functools
import time
from collections.abc import Iterator
from typing import NamedTuple

import cv2
import numpy as np

from companion.vision import chips
from companion.vision.causes import GLARE_CAUSES, held_by, held_only_by, unknown_reasons
from companion.vision.chip_aspect import STRETCH_BLOBS, chip_stretch, round_chip_shape
from companion.vision.chip_shapes import (
    ROUND_DISC,
    WIDE,
    WIDE_DISC,
    blob_circle,
    board_chip_width,
    chip_disc,
    kept,
    roundness,
)
from companion.vision.cleared_covers import (
    BESIDE_COVER,
    chips_beside_no_cover,
    chips_hiding_lines,
    doubted_beside_cover,
)
from companion.vision.colour import (
    CHIP_SYMBOLS,
    ColourProfile,
    class_mask,
    colourless,
    hue_mask,
)
from companion.vision.denoise import NOISY_FRAME, denoised, frame_noise
from companion.vision.exposure import agreed_reading, exposure_gamma, retoned
from companion.vision.filling_chips import FILLING_CONF, filling_chips
from companion.vision.geometry import (
    canonical_corners,
    is_convex,
    order_quad,
    quad_area,
    rect_points,
    screen_quad,
    to_canonical_grid,
)
from companion.vision.glare import board_haze, estimate_veil
from companion.vision.grid import LINES
from companion.vision.layout import black_suit_cells, face_cells, no_red_cells, red_ace_cells
from companion.vision.lens import bent_outline, shifted, warp_lensed
from companion.vision.locate import (
    from_sheet,
    lens_is_clear,
    locate_candidates,
    refine_grid,
    refine_lens,
)
from companion.vision.off_centre import OFF_CENTRE_CONF, off_centre_chips
from companion.vision.orient import OrientationVote, ink_redness, vote_orientation
from companion.vision.placement import fitted_to_chips, placement_in_mask, small_discs
from companion.vision.reading import CORNER, NO_COLOUR, BoardReading
from companion.vision.red_on_black import RED_ON_BLACK_CONF, red_board, red_chips_on_black
from companion.vision.red_print import (
    INK_CHIP_CONF,
    INK_CHIP_RED_MIN,
    PRINT_SKIN_MAX,
    RED_PRINT_CONF,
    chips_read_as_ink,
    red_print,
)
from companion.vision.small_chips import DOUBTS as SMALL_DOUBTS
from companion.vision.small_chips import (
    PALE_LOOK,
    SMALL_CHIP_CONF,
    SOLID_SOME,
    WASHED_CONF,
    WASHED_SIGNS,
    pale_discs,
    plain_art_colours,
    small_chips,
    washed_colour,
    washed_discs,
)
from companion.vision.stats import median, percentile_u8
from companion.vision.twins import (
    LOOSE_UNLIKE,
    RED_MORE,
    Likenesses,
    empty_like_cousins,
    empty_like_twins,
    empty_pairs,
    empty_twins_alike,
    loose_likeness,
    pairs_alike,
    twin_cells,
    unlike_empty_twins,
    unlike_pairs,
    unlike_red_cousins,
)
from companion.vision.veiled_chips import VEILED_CONF, veiled_chips

STILL_THERE_MIN = 0.35  # boundary contrast at the known grid positions, else re-locate
STILL_THERE_RATIO = 0.6  # ... and at least this share of the contrast when it was located
# ... or, fainter than STILL_THERE_MIN (a Jax-like board's grey gaps measure 0.18-0.35: a
# minimum above the board's own contrast located it afresh on every frame), this share of
# the contrast it was located with and a grid image like the one read there last
STILL_THERE_CLOSE = 0.8
STILL_LIKE = 0.6  # (see grid_likeness)
LIKENESS_SIDE = 40  # grid images are compared as grey thumbnails this many pixels a side
MOVED_UNKNOWN = 0.5  # a fast-path reading suddenly this unreadable ...
MOVED_CONTRAST = 0.8  # ... with the grid lines this much fainter: perhaps the board moved
REORIENT_MARGIN = 0.3
LOCATE_CANDIDATES = 3
# a trial's note: the outline's smaller discs line up on a lattice its chips do not
SMALL_LATTICE = "lattice of smaller discs"
BLANK_CONTENT = chips.BLANK_CONTENT  # a cell with less ink or colour than this shows no printing
BLANK_WEIGHT = 3.0
CORNER_WEIGHT = 1.0
WASHED_CLIPPED = 0.05  # a cell this much clipped white may hold a chip the glare washed out
PLAUSIBLE_MIN = 0.45  # a board read from scratch less plausible than this is not reported
# ... unless its ink pattern alone is clear: matches the layout this well, in one orientation
# by this margin, with at most this share of the cells unknown (glare, blur: many `?` cells
# pull the plausibility down although the grid is right)
CLEAR_INK_MATCH = 0.55
CLEAR_INK_MARGIN = 0.35
CLEAR_INK_UNKNOWN_MAX = 0.5
CLEAR_INK_CORNERS_MIN = 0.0  # ... and the free corners look more alike than their neighbours
# ... unless it is a located grid (not one moved by a cell) whose lines one homography explains
# this well: glare, a hand or chips beside a corner can make the corners differ on the real grid
STRONG_LINES = 0.85
# a located grid whose lines one homography explains less than this share of (half of them: an
# outline taken partly from the table beside the board) is weakly located: it is reported only
# when it reads this plausibly (on 2,152 in-range frames of seen sets two boards came with
# such a grid: one read exactly at 1.16, one 88 px off at 0.49 with 40 cells wrong; the other
# boards' grids explain >= 0.61 of their lines)
WEAK_LINES = 0.6
WEAK_GRID_PLAUSIBLE = 0.6
SHIFT_MARGIN = 0.15  # how much more plausible a grid moved by one cell must read
# a located grid whose empty twin cards look less alike than this (median likeness) is not on
# the cards (see ``twins.empty_twins_alike``): on 4,360 boards found in 79 seen sets (ours and
# the independent renderer's), those read with at most one cell wrong measured 0.34 and more
# (0.92-0.99 as a rule; 0.34-0.55 on grids a part of a cell off on one side that still read
# right), the two grids bent off the cards 0.16 and 0.18 (22 and 6 cells wrong)
TWINS_ALIKE_MIN = 0.25
# ... and one whose empty twins look this alike over at least this many pairs lies on the cards,
# no cell off: its ink pattern alone says board even where its four free corners do not look
# alike (an arm over one of them; a paper board's corners print three different emblems)
TWINS_CLEAR = 0.9
TWINS_CLEAR_PAIRS = 8
# ... and a grid moved by a cell that leaves an edge line unreadable lies on the cards only if
# they look this alike: on a bold-suit board, whose cards of a suit print the same big symbol,
# a grid a cell off read its twins 0.92 alike over 26 pairs (the grid on the cards: 0.99)
MOVED_TWINS_CLEAR = 0.97
# a card read empty showing this much more of the dark class than its twin has something dark
# on it (fingers), not a red chip (``BoardReader._chips_unlike_twins``)
DARK_ADDED = 0.03
# ... and as few pairs as the twins are measured on at all (``twins.TWIN_PAIRS_MIN``) say so
# when a board is to be reported: under an arm few empty cards show, yet each pair alike is
# a card beside its own twin (turned or a cell off, no pair of the layout is one)
TWINS_CLEAR_REPORT_PAIRS = 4
# ... and a first grid read plausibly whose twins look less alike than this over as many pairs
# may be a part of a cell off: its alternatives are tried rather than taking it at once (an
# independently drawn board's outline read 1.13 with its twins 0.30 alike over 10 pairs and
# 7 chips straddling its boundaries; the grid moved by their offset read 1.55, twins 0.92)
TWINS_SURE = 0.6
# the moves tried: along each axis, then along both (a paper board's margins, each a cell
# wide, fooled the fit by a cell along both axes: the moves along one axis ran off the frame
# or still read a margin line; 42 of 100 cells read wrong on an independently drawn frame)
ONE_CELL_MOVES = ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (1, -1), (-1, 1), (1, 1))
# a felt margin a cell wide beside a striped table fooled the fit by two cells (its lines
# 0.94 explained, the chips inside its cells): where the best grid read so far is still
# implausible once the one-cell moves are read, the grid moved by two cells is read too
TWO_CELL_MOVES = (
    (-2, 0), (2, 0), (0, -2), (0, 2),
    (-2, -1), (-2, 1), (2, -1), (2, 1), (-1, -2), (1, -2), (-1, 2), (1, 2),
)  # fmt: skip
CONFIDENT_PLAUSIBILITY = 0.9  # the fitted grid reads this well: alternatives are not tried
PLAIN_FALLBACK_UNKNOWN = 0.1  # a lensed grid's plain twin must read this share more cells
# a board read on the first look with more of its empty cells showing no printing than
# this is left to the closer look (right grids of 1,102 frames, glare on many: <= 0.19)
FIRST_LOOK_UNPRINTED_MAX = 0.25
WASHED_OUT_MAX = 0.5  # a board found on the closer look: at most this share of unprinted '.'
# a board found only on a copy of the frame with its tones spread (exposure.py) must read at
# least this plausibly: such a copy was the fourth look, and a grid a cell off read 0.55 there
# with 34 cells wrong (right ones on 53 overexposed frames: 0.47-1.67, most above 0.8)
TONED_PLAUSIBLE = 0.6
# ... and read in the frame itself with at most this share of its cells unknown (a grid beside
# an arm found there read 70 cells `?` and 7 chips that were not there)
TONED_UNKNOWN_MAX = 0.35
# a blue chip read from a pale remnant (at most this confident) under glare is checked
# against its hue in the picture as it is (``BoardReader._pale_hues_agreed``): tinted pixels
# (this saturation at least, of 255) over this share of the cell say which colour it leans to
PALE_HUE_CONF = 0.6
RAW_TINT_SAT = 25
RAW_TINT_PIXELS = 0.1
# a cell of the board's outer ring read red with this much skin (of the cell) and no red disc
# as wide as a chip is fingers reaching in over the edge (``BoardReader._fingers_at_edge``)
EDGE_SKIN = 0.03
FINGERS_ROUND = 1.65  # ... whose blob is at least this many times its inner circle
OUTER_RING = np.ones((10, 10), bool)
OUTER_RING[1:-1, 1:-1] = False
VOTE_EVERY = 3  # on the fast path, the ink vote for a turned board runs every 3rd frame
ORIENT_MARGIN_MIN = 0.08  # below this the ink pattern does not decide the orientation
# ... nor on fewer cells than this (cards showing, or chips with printing beside them): a
# late-game text board's 5 and 7 cards voted a wrong turn 0.43-0.48 ahead, and every cell
# read wrong; a board turned later in a game keeps the turn it was found in)
ORIENT_CELLS_MIN = 10
VOTE_RING_MAX = 0.2  # the ink vote takes cells whose border is less foreign than this
SPARSE_INK_CELLS = 50  # an ink vote on fewer empty cards also looks beside the chips
BESIDE_CHIP_INK = 0.01  # ... at those showing printing over this share of the cell at least
INK_MATCH_MIN = 0.4  # a board read from scratch must match the layout's ink at least this well
CORNER_CELLS = ((0, 0), (0, 9), (9, 0), (9, 9))
CORNER_CHIP_RANK = 0.2  # a grid reading a chip on a free corner ranks this much lower
# ... and one leaving a whole edge line unreadable this much lower: it has taken in a strip of
# margin (a paper board's title) a cell off, and a grid moved by a cell that reads every edge
# line wins at a clearly better ink match (a grid one cell off on a paper board on gingham
# read 0.60, its edge row the title strip, its corners by chance more alike than the right
# grid's three different emblems; the right grid 0.45 after the moved copy's handicap, 0.70
# ink match against 0.42, 51 cells wrong)
EDGE_UNKNOWN_RANK = 0.25
# ... and one whose empty twins look less alike ranks lower by this times their unlikeness: a
# grid on the cards ties a grid a part of a cell off (a board's outline with its margin strip
# inside, taken as the grid itself, read 0.966 with its twins 0.39 alike over 30 pairs; the
# cards' own outline 0.963, twins 0.97)
TWINS_UNLIKE_RANK = 0.1
CORNER_CHIPS_MAX = 2  # a reading with this many free corners read as chips is no board's
EMBLEM_LIKENESS = 0.3  # ... unless its four corners look at least this alike (corner_likeness)


class Judgement(NamedTuple):
    """How a located grid's reading looks, the parts of its plausibility (``BoardReader``)."""

    match: float  # the ink pattern's correlation with the classic layout, best orientation
    margin: float  # ... over the next best orientation
    unknown: float  # share of cells `?` (cover signs left out)
    blank: float  # share of cells that show no printing, or lie on an edge line of margin
    corners_alike: float = CLEAR_INK_CORNERS_MIN  # how much the free corners look alike
    unprinted: float = 0.0  # share of the cells read empty that show no printing
    corner_chips: int = 0  # free corners read as chips (``_corner_chips``)
    # a whole edge line `?` as read with every cell's whole border (``_unreadable_edge``)
    edge_unknown: bool = False
    # how alike the empty twin cards look (``twins.empty_twins_alike``; 1.0: too few to say)
    twins_alike: float = 1.0
    twin_pairs: int = 0  # ... over this many pairs


class TrialReading(NamedTuple):
    """A located grid tried and read (``BoardReader``): how plausible its reading is, the
    reading, the reader's located state and the grid image it was read from, its notes, the
    parts of its plausibility and the share of its lines one homography explains."""

    plausibility: float
    reading: BoardReading
    state: tuple  # BoardReader._located_state() after reading it
    grid: np.ndarray
    notes: list[str]
    parts: Judgement
    lines: float
    masks: dict[str, np.ndarray] | None = None  # its class masks (for ``_chip_stretch``)

    @property
    def lens(self) -> float:
        return self.state[BoardReader._LOCATED.index("lens")]

    @property
    def source(self) -> str:
        return self.state[BoardReader._LOCATED.index("located_by")]


PLACED_AREA = 400.0  # square pixels: given corners closer than this are a slip of the hand
PLACED_SNAP = 0.35  # of a cell: given corners are moved onto grid lines at most this far
PLACED_LINES = 0.5  # ... that explain at least this share of the grid's lines


def snapped_corners(bgr: np.ndarray, quad: np.ndarray) -> tuple[np.ndarray, float]:
    """Corners a user marked (screen quad TL, TR, BR, BL) moved onto the board's grid lines
    when those lie within ``PLACED_SNAP`` of a cell of every corner and one homography
    explains ``PLACED_LINES`` of them (``locate.refine_grid``); else as given. Also returns
    how far the farthest corner moved, in cells."""
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    refined, explained = refine_grid(grey, quad)
    cell = min(np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1)) / 10
    moved = float(np.linalg.norm(refined - quad, axis=1).max() / cell)
    if explained < PLACED_LINES or not moved <= PLACED_SNAP:
        return quad, 0.0
    return refined, moved


def warp_grid(
    bgr: np.ndarray, quad: np.ndarray, shape: chips.CellShape | None = None, lens: float = 0.0
) -> np.ndarray:
    """The playing area (screen quad TL, TR, BR, BL) warped to 10x10 cells of ``shape``;
    with ``lens`` (:mod:`companion.vision.lens`), ``quad`` holds the grid's real corners and
    the grid between them is bent by that lens."""
    corners = np.asarray(quad, np.float64)
    plan = _warp_plan(corners.tobytes(), shape)
    w, h = plan.shape.size
    if lens:
        return warp_lensed(bgr, corners, lens, (w, h))
    return plan.warp(bgr)


class _WarpPlan:
    """How a quad is warped to its grid image: the grid's cell shape and the homography onto
    it, and from the quad's second warp on (a fixed camera warps the same quad every frame;
    locating tries many quads once each) the per-pixel maps of that homography, which
    ``cv2.remap`` samples without working them out again for every frame as
    ``cv2.warpPerspective`` does (0.4-0.5 ms against 0.5-0.9 ms for a 1080p frame's grid)."""

    def __init__(self, shape: chips.CellShape, hom: np.ndarray):
        self.shape, self.hom, self.maps = shape, hom, None
        self.warps = 0

    def warp(self, bgr: np.ndarray) -> np.ndarray:
        w, h = self.shape.size
        self.warps += 1
        if self.maps is None and self.warps >= 2:
            xs, ys = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
            grid = np.stack([xs, ys], axis=-1).reshape(-1, 1, 2)
            src = cv2.perspectiveTransform(grid, np.linalg.inv(self.hom)).reshape(h, w, 2)
            self.maps = cv2.convertMaps(src, None, cv2.CV_16SC2)
        if self.maps is None:
            return cv2.warpPerspective(bgr, self.hom, (w, h), flags=cv2.INTER_LINEAR)
        return cv2.remap(bgr, *self.maps, cv2.INTER_LINEAR)


@functools.lru_cache(maxsize=64)
def _warp_plan(quad: bytes, shape: chips.CellShape | None) -> _WarpPlan:
    """The grid image's cell shape (``shape``, else :func:`grid_shape`) and the homography
    onto it of a quad (its 4 corners as float64 bytes): computed once per located grid, as a
    fixed camera warps the same quad every frame."""
    corners = np.frombuffer(quad, np.float64).reshape(4, 2)
    shape = shape or grid_shape(corners)
    w, h = shape.size
    hom = cv2.getPerspectiveTransform(
        corners.astype(np.float32), rect_points(w, h).astype(np.float32)
    )
    return _WarpPlan(shape, hom)


def warp_grid_smooth(
    bgr: np.ndarray, quad: np.ndarray, shape: chips.CellShape | None = None, lens: float = 0.0
) -> np.ndarray | None:
    """Like :func:`warp_grid`, but every grid-image pixel the average of the frame pixels it
    covers; None when the plain warp already samples the frame densely enough.

    A warp samples the frame at one point per grid-image pixel, which keeps thin ink strokes
    crisp and saturated, as the colour classes need. When a cell spans many more frame pixels
    than grid-image pixels (a big board in a 4K frame: ~8 to 1), thin printed grid lines fall
    between the samples and whole cell boundaries vanish, to read as hidden; averaging keeps
    every line, fainter. The reading asks for this view only to confirm boundaries it misses."""
    shape = shape or grid_shape(quad)
    w, h = shape.size
    quad = np.asarray(quad, np.float64).reshape(4, 2)
    factor = warp_reduction(quad, w, h)
    if factor == 1.0:
        return None
    fh, fw = bgr.shape[:2]
    if lens:
        # a crop around the bent grid's outline is shrunk (not the whole frame); the lens,
        # about the frame's centre, maps grid points to frame pixels, then into the crop
        outline = bent_outline(quad, lens, (fw, fh))
        small, origin, scale = _reduced_for_warp(bgr, outline, factor)
        return warp_lensed(
            small, quad, lens, (w, h), frame_size=(fw, fh), origin=origin, scale=scale
        )
    small, origin, scale = _reduced_for_warp(bgr, quad, factor)
    return warp_grid(small, (quad - origin + 0.5) * scale - 0.5, shape)


# frame pixels per grid-image pixel from which a plain warp skips detail (at 1.5-1.9, as on
# an 800x600 frame, the 1-px gaps between cards printed edge to edge on a sheet fell between
# the samples on every other boundary, and read as boundaries gone: 2.0 until this round)
ALIAS_SCALE = 1.5


def warp_reduction(quad: np.ndarray, w: int, h: int) -> float:
    """By how much the frame can be shrunk before warping ``quad`` to a ``w`` x ``h`` grid
    image without losing detail: the fewest frame pixels per grid-image pixel along any side
    of the quad (1.0 below ``ALIAS_SCALE``, where a plain warp samples densely enough)."""
    sides = np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1)  # top, right, bottom, left
    per_pixel = min(sides[0] / w, sides[2] / w, sides[1] / h, sides[3] / h)
    return float(per_pixel) if per_pixel >= ALIAS_SCALE else 1.0


def _reduced_for_warp(bgr: np.ndarray, points: np.ndarray, factor: float):
    """The part of the frame around ``points`` (a quad, a bent outline) area-averaged down by
    ``factor``: (the reduced crop, its origin in the frame, its scale (x, y)). Frame pixel
    ``p`` lies at ``(p - origin + 0.5) * scale - 0.5`` in it (pixel centres)."""
    fh, fw = bgr.shape[:2]
    x0, y0 = np.clip(np.floor(points.min(axis=0)).astype(int) - 2, 0, [fw - 1, fh - 1])
    # (past the far side, room for the pixels an exact halving below leaves out)
    far = 3 + int(factor)
    x1, y1 = np.clip(np.ceil(points.max(axis=0)).astype(int) + far, [x0 + 1, y0 + 1], [fw, fh])
    out_w = max(2, int(round((x1 - x0) / factor)))
    out_h = max(2, int(round((y1 - y0) / factor)))
    crop, step = bgr[y0:y1, x0:x1], 1
    # halved exactly while twice the size wanted or more (OpenCV averages 2x2 blocks ten
    # times faster than it averages a fractional area: a 1080p board took 2.3 ms at once);
    # an odd last row or column is left out, so the crop then spans a pixel or so less
    while crop.shape[1] >= 2 * out_w + 2 and crop.shape[0] >= 2 * out_h + 2:
        ch, cw = crop.shape[0] // 2 * 2, crop.shape[1] // 2 * 2
        crop = cv2.resize(crop[:ch, :cw], (cw // 2, ch // 2), interpolation=cv2.INTER_AREA)
        step *= 2
    small = cv2.resize(crop, (out_w, out_h), interpolation=cv2.INTER_AREA)
    scale = (out_w / (crop.shape[1] * step), out_h / (crop.shape[0] * step))
    return small, (float(x0), float(y0)), scale


def grid_shape(quad: np.ndarray) -> chips.CellShape:
    """Cell pixel shape following the quad's apparent width/height ratio (rounded to 0.1)."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    width = np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])
    height = np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])
    return chips.shape_for_aspect(round(width / max(height, 1e-6), 1))


_POOL5 = np.ones((1, 5), np.uint8)


def grid_thumbnail(grid: np.ndarray) -> np.ndarray:
    """A grid image (BGR) as a grey thumbnail ``LIKENESS_SIDE`` square, zero mean, unit norm:
    the dot product of two is their correlation (:func:`grid_likeness`)."""
    grey = cv2.cvtColor(grid, cv2.COLOR_BGR2GRAY)
    side = (LIKENESS_SIDE, LIKENESS_SIDE)
    thumb = cv2.resize(grey, side, interpolation=cv2.INTER_AREA).astype(np.float32)
    thumb -= float(thumb.mean())
    return thumb / (float(np.linalg.norm(thumb)) + 1e-6)


def grid_likeness(a: np.ndarray, b: np.ndarray) -> float:
    """How alike two grid images of one place are (BGR, the same size): the correlation of
    their grey thumbnails (:func:`grid_thumbnail`), 1.0 for the same picture.

    Measured on the independent renderer's jax, mixed and wood frames: the same frame under
    0.8 of the light with sensor noise 1.00; five chips more at once 0.81-0.96; the same place
    in another frame of the same size (the board moved off, another table) 0.06 in the
    median, 0.42 at most over 96 pairs."""
    return thumbnail_likeness(grid_thumbnail(a), grid_thumbnail(b))


def thumbnail_likeness(a: np.ndarray, b: np.ndarray) -> float:
    """The correlation of two :func:`grid_thumbnail` s (see :func:`grid_likeness`)."""
    return float(np.vdot(a, b))


def boundary_contrast(grid_bgr: np.ndarray) -> float:
    """How clearly the 11 expected boundaries show in a straightened grid (0 when they do not):
    the mean gradient on the 9 inner boundaries over the profile's median, worse axis of two."""
    g = cv2.cvtColor(grid_bgr, cv2.COLOR_BGR2GRAY)
    g = cv2.resize(g, (g.shape[1] // 2, g.shape[0] // 2), interpolation=cv2.INTER_AREA)
    score = []
    for prof in (_mean_steps(g, 1), _mean_steps(g, 0)):
        prof = prof / (prof.mean() + 1e-6)
        # the largest value within 2 samples: a boundary a pixel or two off still counts
        pooled = cv2.dilate(prof.reshape(1, -1), _POOL5).ravel()
        on = pooled[_inner_boundaries(len(prof))]
        # against the profile's median rather than the cell centres: a home-made board prints
        # its rank and suit in the middle of each cell, which outshines thin grid lines there
        score.append(float(on.mean() - median(prof)))
    return min(score)


def _mean_steps(grey: np.ndarray, axis: int) -> np.ndarray:
    """The mean absolute step between neighbouring columns (``axis`` 1) or rows (0) of a
    grey image, float32 (integer sums, so exactly what numpy's mean of the steps gives)."""
    if axis == 1:
        steps = cv2.absdiff(grey[:, 1:], grey[:, :-1])
    else:
        steps = cv2.absdiff(grey[1:], grey[:-1])
    sums = cv2.reduce(steps, 0 if axis == 1 else 1, cv2.REDUCE_SUM, dtype=cv2.CV_32S)
    return (sums.ravel() / grey.shape[1 - axis]).astype(np.float32)


@functools.lru_cache(maxsize=16)
def _inner_boundaries(n: int) -> np.ndarray:
    """Indexes of the 9 inner boundaries in a profile of ``n`` steps."""
    step = (n + 1) / 10
    return np.array([min(n - 1, int(round(k * step))) for k in range(1, LINES - 1)])


class BoardReader:
    """Stateful reader for video: keeps the located grid, orientation and the light measured on the board."""

    def __init__(self, calibration=None, profile: ColourProfile | None = None):
        self.calibration = calibration
        self.profile = profile or (calibration.profile if calibration else ColourProfile())
        self.quad: np.ndarray | None = None  # screen quad of the playing area
        self.lens = 0.0  # the lens bending the grid between its corners (vision.lens)
        # the grid image's cell shape when the quad's apparent ratio would not keep the
        # chips round (``chip_aspect``); None: that ratio's (``grid_shape``)
        self.shape: chips.CellShape | None = None
        self._stretch_known = False  # ... measured on enough chips (else looked at each frame)
        self.orientation: int | None = None
        self.located_by = ""
        self._calibrated_size: tuple[int, int] | None = None
        self._contrast0: float | None = None  # boundary contrast when the grid was located
        # the grid image last read at the known place, and its thumbnail once one was made
        # (see grid_thumbnail: made on a board with faint boundaries only, once a frame)
        self._seen: tuple[np.ndarray, np.ndarray | None] | None = None
        self._cache = chips.MeasureCache()
        self._last_plausibility = 0.0
        self._last_chip_mask: np.ndarray | None = None  # of the grid read last
        self._last_masks: dict[str, np.ndarray] | None = None  # ... its class masks
        self._last_unknown = 0.0  # share of '?' in the last reading
        self._last_vote = None
        self._frames_since_vote = 0
        self._orientation_fixed = calibration is not None  # no re-orienting by the ink vote
        # the boundary contrast below which the board is no longer at the known place; a place
        # the user gave (``place``, a calibration with ``placed``) is kept at any contrast
        # that does not fall far below its own first one
        self._still_there_min = STILL_THERE_MIN
        # (quad, lens, orientation, located_by) looked at again when locating anew finds
        # nothing: the calibrated or given place (a hand over the board hid its lines)
        self._home: tuple | None = None
        if calibration is not None:
            quad = screen_quad(calibration.corners, calibration.orientation)
            self._home = (quad, calibration.lens, calibration.orientation, "calibration")
            self._go_home()
            if calibration.image_size and min(calibration.image_size) > 0:
                self._calibrated_size = tuple(calibration.image_size)
            if calibration.placed:
                self._still_there_min = 0.0

    # -- public API ---------------------------------------------------------------------------
    def read(self, bgr: np.ndarray) -> BoardReading:
        t0 = time.perf_counter()
        _check_image(bgr)
        if self.quad is None and colourless(bgr):
            return _without_colour(t0)
        notes: list[str] = []
        reading = None
        h, w = bgr.shape[:2]
        if self._calibrated_size is not None and self._calibrated_size != (w, h):
            # same camera at another resolution: scale the calibrated corners
            cw, ch = self._calibrated_size
            scale = np.array([w / cw, h / ch])
            if self.quad is not None:
                self.quad = self.quad * scale
            if self._home is not None:
                quad, *rest = self._home
                self._home = (quad * scale, *rest)
            self._calibrated_size = (w, h)
        if self.quad is not None:
            grid = warp_grid(bgr, self.quad, self.shape, lens=self.lens)
            contrast = boundary_contrast(grid)
            if self._contrast0 is None:
                self._contrast0 = contrast
            thumb = None
            clear = contrast >= max(self._still_there_min, STILL_THERE_RATIO * self._contrast0)
            if not clear:
                thumb = self._faint_board_thumbnail(grid, contrast)
            if clear or thumb is not None:
                self._seen = (grid, thumb)
                reading = self._read_grid(grid, notes, frame=bgr)
                if not self._stretch_known:
                    reading = self._with_round_chips(bgr, grid, reading, notes)
                if (
                    _unknown_share(reading) > MOVED_UNKNOWN >= self._last_unknown
                    and contrast < MOVED_CONTRAST * self._contrast0
                ):
                    reading = self._relocate_if_better(bgr, reading, notes)
            else:
                notes.append("board moved or hidden: located again")
        if reading is None:
            reading = self._locate_and_read(bgr, notes)
            if not reading.board_found and self._home is not None:
                # the calibrated or given place is looked at again on the next frame
                self._go_home()
        if reading.board_found and not _any_chip(reading.cells) and colourless(bgr):
            # (a located board read without a chip: a camera switched to its night mode shows
            # every chip as grey)
            return _without_colour(t0)
        self._last_unknown = _unknown_share(reading)
        reading.elapsed_ms = (time.perf_counter() - t0) * 1000
        reading.notes = notes
        return reading

    def straighten(self, bgr: np.ndarray, width: int = 600) -> np.ndarray | None:
        """Top-down canonical image of the playing area (row 1 at the top), or None if no board."""
        if self.quad is None or self.orientation is None:
            self.read(bgr)
        if self.quad is None or self.orientation is None:
            return None
        canon = canonical_corners(self.quad, self.orientation)
        top = np.linalg.norm(canon[1] - canon[0]) + np.linalg.norm(canon[2] - canon[3])
        side = np.linalg.norm(canon[3] - canon[0]) + np.linalg.norm(canon[2] - canon[1])
        if self.shape is not None:  # (the ratio that keeps the chips round, turned)
            top, side = self.shape.w, self.shape.h
            if self.orientation % 180:
                top, side = side, top
        height = max(10, int(round(width * side / max(top, 1e-6))))
        if self.lens:
            # the screen grid straightened through its lens, then turned to canonical
            k = self.orientation // 90
            size = (width, height) if k % 2 == 0 else (height, width)
            screen = warp_lensed(bgr, np.asarray(self.quad, np.float64), self.lens, size)
            return np.ascontiguousarray(np.rot90(screen, k))
        hom = cv2.getPerspectiveTransform(
            canon.astype(np.float32), rect_points(width, height).astype(np.float32)
        )
        return cv2.warpPerspective(bgr, hom, (width, height), flags=cv2.INTER_LINEAR)

    def place(self, corners, bgr: np.ndarray | None = None) -> float:
        """Read the board at these four screen corners from now on: the outer corners of its
        10x10 cells, in any order, as a user marked them on a frame where the board is not
        found (a busy tablecloth around it, a hand over an edge). With ``bgr`` (a frame of that
        camera), corners that the board's grid lines nearby place within ``PLACED_SNAP`` of a
        cell are moved onto those lines. The board is read there at any boundary contrast
        that does not fall far below its first, and looked at there again whenever locating
        it anew finds nothing. Returns how far the farthest corner moved, in cells (0.0: as
        given). Raises ``ValueError`` for corners that make no convex quadrilateral."""
        quad = order_quad(np.asarray(corners, np.float64).reshape(4, 2))
        if not (np.all(np.isfinite(quad)) and is_convex(quad)) or quad_area(quad) < PLACED_AREA:
            raise ValueError(
                "the four corners must make a convex quadrilateral of at least "
                f"{PLACED_AREA:.0f} square pixels"
            )
        moved = 0.0
        if bgr is not None:
            quad, moved = snapped_corners(bgr, quad)
            # (frames of another size from this camera: the corners are scaled to them)
            self._calibrated_size = (bgr.shape[1], bgr.shape[0])
        orientation = self.orientation if self._orientation_fixed else None
        self._home = (quad, 0.0, orientation, "given corners")
        self._go_home()
        self._still_there_min = 0.0
        return moved

    def _go_home(self) -> None:
        """To the calibrated or given place (``_home``), the light measured afresh there and
        the chips' stretch not yet known."""
        self.quad, self.lens, self.orientation, self.located_by = self._home
        self.shape, self._stretch_known, self._contrast0, self._seen = None, False, None, None
        self._cache = chips.MeasureCache()

    def hold_orientation(self, orientation: int) -> None:
        """Use this orientation from now on, whatever the printed ink pattern says (a board
        without red/black suits, or a user who knows better)."""
        if orientation not in (0, 90, 180, 270):
            raise ValueError(f"orientation must be 0, 90, 180 or 270, not {orientation!r}")
        self.orientation = int(orientation)
        self._orientation_fixed = True

    # -- internals ----------------------------------------------------------------------------
    def _relocate_if_better(self, bgr: np.ndarray, reading: BoardReading, notes: list[str]):
        """Most cells turned unreadable at once and the grid lines faded: a board moved to
        overlap its old place still shows some lines there. Locate again (once per such
        change, not every frame of a hand over the board); keep the new place only if it reads
        better, else the board is just covered."""
        kept, kept_contrast, kept_seen = self._located_state(), self._contrast0, self._seen
        located = self._locate_and_read(bgr, [])
        if located.board_found and _unknown_share(located) < _unknown_share(reading):
            notes.append("most cells unreadable at the known place: located again")
            return located
        self._take_located_state(kept)
        self._contrast0, self._seen = kept_contrast, kept_seen
        return reading

    # what locating a grid sets, kept and put back together
    _LOCATED = (
        "quad",
        "lens",
        "shape",
        "_stretch_known",
        "located_by",
        "orientation",
        "_cache",
        "_last_vote",
    )

    def _located_at(self, grid: np.ndarray) -> None:
        """The grid image just located: its boundary contrast, and the picture the next frame
        at that place is compared with."""
        self._contrast0 = boundary_contrast(grid)
        self._seen = (grid, None)

    def _faint_board_thumbnail(self, grid: np.ndarray, contrast: float) -> np.ndarray | None:
        """This frame's ``grid`` thumbnail (:func:`grid_thumbnail`) when a board whose
        boundaries show fainter than ``STILL_THERE_MIN`` still lies at the known place, else
        None: their ``contrast`` nearly as clear as when it was located (``STILL_THERE_CLOSE``),
        and the grid image like the one read there last (``STILL_LIKE``). Faint boundaries
        alone do not tell a board from the table: at the place of a board moved off, 10 of 96
        rendered frames showed them as clear. (The thumbnail is kept with the grid: the next
        frame compares with it, not made again.)"""
        if self._seen is None or not (
            STILL_THERE_CLOSE * self._contrast0 <= contrast < self._still_there_min
        ):
            return None
        seen, seen_thumb = self._seen
        if seen.shape != grid.shape:
            return None
        if seen_thumb is None:
            seen_thumb = grid_thumbnail(seen)
        thumb = grid_thumbnail(grid)
        return thumb if thumbnail_likeness(thumb, seen_thumb) >= STILL_LIKE else None

    def _located_state(self) -> tuple:
        return tuple(getattr(self, name) for name in self._LOCATED)

    def _take_located_state(self, state: tuple) -> None:
        for name, value in zip(self._LOCATED, state, strict=True):
            setattr(self, name, value)

    def _locate_and_read(self, bgr: np.ndarray, notes: list[str]) -> BoardReading:
        """Locate and read; when that finds no readable board, look again more thoroughly
        (fainter grids, every candidate, a finer copy of the frame)."""
        self._trials = []
        reading = self._locate_and_read_once(bgr, notes, deep=False)
        if not reading.board_found:
            deep_notes: list[str] = []
            second = self._locate_and_read_once(bgr, deep_notes, deep=True)
            if second.board_found:
                notes.clear()
                notes.extend(deep_notes)
                notes.append("found on a second, closer look")
                return second
        if not reading.board_found and frame_noise(bgr) >= NOISY_FRAME:
            # grain (dim light, a phone's gain) hides the boundaries from the locators: a
            # look at a copy with the speckles taken out. Later frames are read as they are
            found = self._found_on_copy(denoised(bgr))
            if found is not None:
                third, calm_notes = found
                notes[:] = [*calm_notes, "found on a copy with the camera's noise taken out"]
                return third
        gamma = None if reading.board_found else exposure_gamma(bgr)
        if gamma is not None:
            # a board in the frame's crowded highlights is lost to the locators: a look at a
            # copy with those tones spread (see exposure.py)
            found = self._found_on_copy(retoned(bgr, gamma), TONED_PLAUSIBLE)
            if found is not None:
                fourth, toned_notes = found
                # ... read in the frame itself too: the curve changes the chips' colours, and
                # a cell the two read differently is `?`
                own = agreed_reading(self._read_in_place(bgr, toned_notes), fourth)
                if _unknown_share(own) <= TONED_UNKNOWN_MAX:
                    notes[:] = [*toned_notes, "found on a copy with the frame's highlights spread"]
                    return own
                self._forget_grid()
        if not reading.board_found and any(t[1] == SMALL_LATTICE for t in self._trials):
            # the last resort: the board's outline cut down to the lattice its chips and
            # smaller discs lie on (``placement.LATTICE_AREA_MIN``), where the chips' own do
            # not line up (tried before the copies above, it read an overexposed board with
            # 32 cells `?` where the copy with its highlights spread reads 6)
            last_notes: list[str] = []
            last = self._locate_and_read_once(bgr, last_notes, deep=True, small_lattice=True)
            if last.board_found:
                notes[:] = [*last_notes, "found on a second, closer look"]
                return last
        if not reading.board_found and any(t[1] == "misplaced" for t in self._trials):
            notes.append("a grid was found, but chips sit across its cell boundaries: not read")
        return reading

    def _found_on_copy(
        self, copy: np.ndarray, min_plausibility: float = -np.inf
    ) -> tuple[BoardReading, list[str]] | None:
        """The board found on a ``copy`` of the frame (its noise taken out, its tones spread),
        on the first look or else the closer one, with that look's notes; None when neither
        finds one reading at least ``min_plausibility`` plausibly."""
        for deep in (False, True):
            copy_notes: list[str] = []
            found = self._locate_and_read_once(copy, copy_notes, deep, min_plausibility)
            if found.board_found:
                return found, copy_notes
        return None

    def _forget_grid(self) -> None:
        """No grid located (a calibrated orientation is kept)."""
        self.quad, self.lens, self.shape = None, 0.0, None
        if not self._orientation_fixed:
            self.orientation = None

    def _read_in_place(self, bgr: np.ndarray, notes: list[str]) -> BoardReading:
        """Read ``bgr`` at the grid just located (in a copy of it), its light measured afresh."""
        grid = warp_grid(bgr, self.quad, self.shape, lens=self.lens)
        self._cache = chips.MeasureCache(veil=estimate_veil(grid))
        self._located_at(grid)
        return self._read_grid(grid, notes, frame=bgr)

    def _locate_and_read_once(
        self,
        bgr: np.ndarray,
        notes: list[str],
        deep: bool,
        min_plausibility: float = -np.inf,
        small_lattice: bool = False,
    ) -> BoardReading:
        """Try the best few located grids; keep the one whose reading is most plausible (the
        ink pattern matches the layout best, the fewest cells unknown); none reading less
        plausibly than ``min_plausibility``."""
        best: TrialReading | None = None
        calibrated = self.orientation if self._orientation_fixed else None
        # the runners-up are located only if the first grid's reading leaves doubt
        fits = locate_candidates(bgr, limit=LOCATE_CANDIDATES, deep=deep, lazily=True)
        top_match = 0.0
        # (quad, source, handicap, share of its lines one homography explains (0 = not
        # measured), lens)
        first = fits[0] if fits else None
        trials = [(first.quad, first.source, 0.0, first.lines, first.lens)] if first else []
        plain_trial = None
        if first is not None and first.plain is not None:
            # the same grid without its lens, in case the lens fitted to its lines is wrong: a
            # wrong lens can still read "plausibly" with most cells unknown
            plain_source = first.source.replace("+lens", "")
            plain_trial = (first.plain, plain_source, 0.0, first.lines, 0.0)
            trials.append(plain_trial)
        last_first = trials[-1] if trials else None  # the located grid's own trials end here
        h, w = bgr.shape[:2]

        def moves(steps: tuple[tuple[int, int], ...]) -> list[tuple]:
            # a margin or frame line can fool the fit by a cell (or two: TWO_CELL_MOVES); a
            # moved grid must read clearly better than the fitted one, and is read only when
            # the fitted one is not misplaced (its chips inside its cells)
            out = []
            for dx, dy in steps if first is not None else ():
                moved = shifted_quad(first.quad, dx, dy, first.lens, (w, h))
                if np.all((moved >= -2) & (moved <= [w + 1, h + 1])):
                    src = first.source + f"+shift({dx},{dy})"
                    out.append((moved, src, SHIFT_MARGIN, 0.0, first.lens))
            return out

        trials += moves(ONE_CELL_MOVES)

        def runners_up() -> list[tuple]:  # the other located grids, tried last
            further = []
            if (
                best is not None
                and best.plausibility < PLAUSIBLE_MIN
                and not _moved_copy(best.source)
            ):
                further = moves(TWO_CELL_MOVES)  # (see TWO_CELL_MOVES)
            return further + [(f.quad, f.source, 0.0, f.lines, f.lens) for f in fits[1:]]

        first_ok = False
        first_misplaced = False  # the located grid put its chips across its cells' boundaries
        plain_result = None
        lens_unfitted = False
        for i, trial in _enumerate_then(trials, runners_up):
            quad, source, handicap, lines, lens = trial
            if handicap and not first_ok:
                continue
            if (
                from_sheet(source)
                and best is not None
                and not from_sheet(best.source)
                and _acceptable(best, top_match, calibrated)
                and not _twins_doubtful(best.parts)
            ):
                # an outline taken as the grid itself is the last resort: fitting no lines
                # and no lens, it only stands in for grids fitted to the board's lines where
                # none of those reads as a board (unrefined, it read 0.98 plausibly beside a
                # lensed grid's 0.83 and left a cell of a text board `?` there)
                break
            if (
                trial is plain_trial
                and best is not None
                and best.parts.unknown < PLAIN_FALLBACK_UNKNOWN
            ):
                # its lensed twin leaves too few cells unknown for it to read clearly more
                if best.plausibility >= CONFIDENT_PLAUSIBILITY:
                    break
                continue
            self.quad, self.located_by, self.lens, self.shape = quad, source, lens, None
            self.orientation = calibrated
            grid = warp_grid(bgr, self.quad, lens=lens)
            self._cache = chips.MeasureCache()
            trial_notes: list[str] = []
            reading = self._read_grid(grid, trial_notes, judge=True, frame=bgr)
            if not reading.board_found:
                # the fitted grid's ink votes for no orientation: perhaps it is a cell off
                # (a frame line or the board's edge taken for a grid line), so its moved
                # copies are read too
                first_ok = first_ok or i == 0
                continue
            placement = placement_in_mask(self._last_chip_mask)
            if from_sheet(source) and not _moved_copy(source) and not lens:
                # an outline of the whole board taken as the grid: where no line between the
                # cards shows (an overexposed board's grey gaps clipped white), its margin is
                # taken for cells too. The chips lie on the board's own lattice: the part of
                # the outline its 10 pitches span is tried next (``placement.fitted_to_chips``)
                window = fitted_to_chips(placement)
                if window is None and deep:
                    # smaller discs too only as the last resort (``small_lattice``, see
                    # _locate_and_read); before it, the trials note that they would line up
                    small = fitted_to_chips(small_discs(self._last_chip_mask))
                    if small_lattice:
                        window = small
                    elif small is not None:
                        self._trials.append((source, SMALL_LATTICE))
                if window is not None and _window_moved(window):
                    fitted = window_quad(quad, window)
                    trials.insert(i + 1, (fitted, source + "+fitted", handicap, 0.0, lens))
            if placement.misplaced:
                # chips across the grid's boundaries: the grid is off, and each such chip would
                # be read in the wrong cell. Never report it; try once the grid moved by the
                # chips' common offset (a grid off by a part of a cell along one axis)
                self._trials.append((source, "misplaced", placement.straddling_count))
                first_misplaced = first_misplaced or i == 0
                dx, dy = placement.grid_offset()
                if not source.endswith("+moved") and max(abs(dx), abs(dy)) > 0.1:
                    moved = shifted_quad(quad, dx, dy, lens, (w, h))
                    trials.insert(i + 1, (moved, source + "+moved", handicap, 0.0, lens))
                continue
            first_ok = first_ok or i == 0
            if (
                _moved_copy(source)
                and self._last_parts.edge_unknown
                and not _many_twins_alike(
                    self._last_parts.twins_alike, self._last_parts.twin_pairs, MOVED_TWINS_CLEAR
                )
            ):
                # a grid moved from the located one (by a cell, or by the chips' offset) that
                # leaves a whole edge line unreadable has taken in table or margin there: a
                # located grid with the wrong pitch (motion blur smears the lines along one
                # axis), where every moved copy reads the cells a cell off somewhere; unless
                # many empty twins look very alike (``MOVED_TWINS_CLEAR``): it lies on the
                # cards, and an arm covers that line (an arm along a paper board's edge hid its
                # last column from the fit, whose grid a cell off both ways, moved back, read
                # twins 0.99 alike over 33 pairs)
                self._trials.append((source, "edge unreadable"))
                continue
            parts = self._last_parts
            if _moved_copy(source) and parts.corner_chips:
                # ... or reads a chip on a free corner, where nobody plays: that "corner" is an
                # ordinary card (moved along both axes, an arm's edge taken for the board's
                # read plausibly, 0.47, with a chip invented on an independently drawn frame)
                self._trials.append((source, "moved, a chip on a free corner"))
                continue
            if (
                trial is plain_trial
                and first_misplaced
                and parts.match < CLEAR_INK_MATCH
                and calibrated is None
            ):
                # the located grid without its lens is the same grid nearly, and with the lens
                # its chips sat across its cells' boundaries: its own ink must say it is right
                # (a grid at the wrong pitch, 10 columns over 7 of a board's, put 6 of 14 chips
                # across them with its lens and 4 or 5 without, at the threshold of 5, and read
                # 0.47 plausibly with 20 cells wrong, its ink matching 0.51)
                self._trials.append((source, "plain copy of a misplaced grid, ink unclear"))
                continue
            if source.endswith("+moved") and parts.match < CLEAR_INK_MATCH and calibrated is None:
                # a grid moved by the chips' common offset rests on the chips alone: the
                # board's own ink must say it is right (a lens and a wrinkled board scattered
                # the chips, and a grid 2.4 cells off, at a wrong pitch, read plausibly with
                # 24 cells wrong; of 8,051 in-range frames of seen sets, no other board was
                # read on such a grid)
                self._trials.append((source, "moved by the chips, ink unclear"))
                continue
            if (
                _moved_copy(source)
                and _twins_doubtful(parts)
                and self._last_plausibility - handicap < PLAUSIBLE_MIN
            ):
                # ... or reads implausibly with its empty twins unlike: a grid moved onto the
                # cards compares each card with its own twin; one moved off them is reported
                # by its ink alone, which a row off still matches (an overexposed board's
                # outline moved down a row read its twins 0.26 alike over 15 pairs, its ink
                # 0.59, and 0.32 plausibly after the move's handicap, with 30 cells wrong)
                self._trials.append((source, "moved, empty twins unlike", parts.twins_alike))
                continue
            if parts.twins_alike < TWINS_ALIKE_MIN:
                # its empty cards do not look like their empty twins: the grid does not lie on
                # the cards (a part of a cell off, or bent off them in one part), and each of
                # its cells shows parts of several cards and chips
                self._trials.append((source, "empty twins unlike", parts.twins_alike))
                continue
            if from_sheet(source) and (parts.edge_unknown or parts.corner_chips):
                # an outline taken as the grid itself reads every edge line and no chip on a
                # free corner, or it has taken in a margin strip (an outline inside a felt
                # border read 1.46 plausibly with a whole edge row `?`, a chip on a corner and
                # 12 cells wrong)
                self._trials.append((source, "sheet with a margin strip"))
                continue
            if parts.corner_chips >= CORNER_CHIPS_MAX and parts.corners_alike < EMBLEM_LIKENESS:
                # two or more free corners read as chips, and the four corners do not look
                # alike (an emblem printed in a chip's colour, blurred, reads as a chip on some
                # corners only): nobody plays there, so two of the "corners" are ordinary cells
                self._trials.append((source, "chips on free corners"))
                continue
            plausibility = self._last_plausibility - handicap
            self._trials.append((source, round(plausibility, 3), self._last_parts))
            # a grid a cell off whose ink matches better: the best reading is not clear
            top_match = max(top_match, self._last_parts.match)
            best_lens = best.lens if best is not None else 0.0
            if trial is plain_trial and best_lens != 0.0:
                # against its own lensed grid, the plain grid wins only by reading clearly
                # more cells (the plausibility's other parts, the corners' likeness above
                # all, vary more between the two than the right grid's gain)
                better = self._last_parts.unknown < best.parts.unknown - PLAIN_FALLBACK_UNKNOWN
            else:
                # (a chip read on a free corner, where nobody plays, counts against a grid
                # when grids are compared: its corner is an ordinary card somewhere)
                better = best is None or _ranked(plausibility, self._last_parts) > _ranked(
                    best.plausibility, best.parts
                )
                if best is not None and _verified_against(self._last_parts, best.parts):
                    better = True
                elif best is not None and _verified_against(best.parts, self._last_parts):
                    better = False
            if better or trial is plain_trial:
                result = self._trial(reading, grid, trial_notes, lines, plausibility)
                if trial is plain_trial:
                    plain_result = result  # kept in case the lensed grid is not reported
                if better:
                    best = result
                    # (a lens was fitted to the first located grid's own lines only)
                    lens_unfitted = i > 0 and trial is not plain_trial
            if (
                trial is last_first
                and best.plausibility >= CONFIDENT_PLAUSIBILITY
                and not _twins_doubtful(best.parts)
                and not best.parts.edge_unknown
            ):
                # a clear reading: no need to try the alternatives (but a whole edge line
                # unreadable may be a strip beside the cards: see ``_verified_against``)
                break
        if best is not None and lens_unfitted and best.lens == 0.0 and not deep:
            best = self._with_own_lens(best, bgr) or best
        if deep and best is not None and best.parts.unprinted > WASHED_OUT_MAX:
            # found only on the closer look and its empty cells show no printing: glare or
            # haze over the board, where a washed-out chip would read as an empty cell
            best = None
        first_look = not deep and calibrated is None
        if first_look and best is not None and best.parts.unprinted > FIRST_LOOK_UNPRINTED_MAX:
            # every card shows its printing: a grid whose empty cells show none on this many of
            # them straddles the cards (a text board's grid at half its pitch read plausibly,
            # 0.45, with 28 % of its empty cells blank); the closer look decides
            best = None
        if (
            best is not None
            and plain_result is not None
            and best is not plain_result
            and not _acceptable(best, top_match, calibrated)
            and _acceptable(plain_result, top_match, calibrated)
        ):
            # the same grid without its lens says board where the lensed one (a lens fitted to
            # a hand's or a chip's edges as much as to the lines) falls just short
            best = plain_result
        if best is not None and not _acceptable(best, top_match, calibrated):
            best = self._judged_without_glare(best, top_match, bgr) or best
        if best is not None and best.plausibility < min_plausibility and calibrated is None:
            best = None
        if best is None or not _acceptable(best, top_match, calibrated):
            self._forget_grid()
            notes.append("no 10x10 grid with a readable board found")
            return BoardReading(board_found=False, notes=notes)
        reading, grid = best.reading, best.grid
        self._take_located_state(best.state)
        stretch = _chip_stretch(best.masks, chips.shape_of(grid))
        self._stretch_known = stretch is not None
        rounder = self._round_chips_grid(bgr, grid, stretch)
        if rounder is not None:
            grid = rounder
            self._cache = chips.MeasureCache()
        self._located_at(grid)
        notes.extend(best.notes)
        veil = estimate_veil(grid)
        hazy = board_haze(grid) > 0.0
        # (a shadow cast across it is looked for on the grid as judged, where no glare is
        # taken off to change its light, on a board under no haze; its light, measured so, is
        # read with)
        shaded = None if veil is not None or hazy else chips.cast_shadow_light(grid)
        if veil is not None or hazy or shaded is not None:
            # the grid judged right is read again with the glare (or a haze over the whole
            # board, or a cast shadow's light) taken off, the light measured afresh under it
            # (and kept with it for the frames that follow)
            self._cache = chips.MeasureCache(veil=veil, light=shaded)
        if veil is not None or rounder is not None or hazy or shaded is not None:
            reading = self._read_grid(grid, [], frame=bgr)
        return reading

    def _round_chips_grid(
        self, bgr: np.ndarray, grid: np.ndarray, stretch: float | None
    ) -> np.ndarray | None:
        """When the located ``grid`` stretches the chips into ellipses by ``stretch``
        (``chip_aspect``: a board seen at a tilt looks shorter along it than it is), the grid
        warped again to cells that keep them round (kept as ``shape``); else None."""
        round_shape = round_chip_shape(chips.shape_of(grid), stretch)
        if round_shape is None:
            return None
        self.shape = round_shape
        return warp_grid(bgr, self.quad, self.shape, lens=self.lens)

    def _with_round_chips(
        self, bgr: np.ndarray, grid: np.ndarray, reading: BoardReading, notes: list[str]
    ) -> BoardReading:
        """``reading`` of the located ``grid``, or, once it shows enough blue and green chips
        to say how the grid image stretches them (a calibrated quad, or a board located with
        too few on it), read again from a grid image that keeps them round."""
        shown = sum(row.count("B") + row.count("G") for row in reading.cells or ())
        if shown < STRETCH_BLOBS:  # (a count, not a look at the blobs, on most such frames)
            return reading
        stretch = _chip_stretch(self._last_masks, chips.shape_of(grid))
        if stretch is None:
            return reading
        self._stretch_known = True
        grid = self._round_chips_grid(bgr, grid, stretch)
        if grid is None:
            return reading
        self._located_at(grid)
        # (glare taken off as before: measured again on the new grid image)
        veil = estimate_veil(grid) if self._cache.veil is not None else None
        self._cache = chips.MeasureCache(veil=veil)
        return self._read_grid(grid, notes, frame=bgr)

    def _trial(
        self,
        reading: BoardReading,
        grid: np.ndarray,
        notes: list[str],
        lines: float,
        plausibility: float | None = None,
    ) -> TrialReading:
        """The grid just read (``reading``, judged) as a trial: the reader's located state
        and the judgement's parts, at its plausibility (by default the judgement's own)."""
        if plausibility is None:
            plausibility = self._last_plausibility
        return TrialReading(
            plausibility,
            reading,
            self._located_state(),
            grid,
            notes,
            self._last_parts,
            lines,
            self._last_masks,
        )

    def _with_own_lens(self, best: TrialReading, bgr: np.ndarray) -> TrialReading | None:
        """The best trial, a grid read without a lens that was never fitted one (a runner-up,
        or the first grid moved by a cell), read through the lens fitted to its own lines;
        None unless the lens is clear and the lensed grid reads as a board with no more cells
        unknown than the plain one (more by ``PLAIN_FALLBACK_UNKNOWN``, as the first grid's
        plain twin must read to win).

        On the first look a lens is fitted to the first located grid only: when that grid is
        a cell off, or read worse than a runner-up, the grid that wins has no lens, and a
        camera's barrel lens leaves its corner cells a fifth of a cell off without one."""
        self._take_located_state(best.state)
        bent = refine_lens(cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY), self.quad)
        if bent is None or not lens_is_clear(bent):
            return None
        self.quad, self.lens = bent.quad, bent.lam
        self.located_by = (self.located_by or "") + "+lens"
        if not self._orientation_fixed:
            self.orientation = None  # voted again, as for every located grid
        grid = warp_grid(bgr, self.quad, lens=self.lens)
        self._cache = chips.MeasureCache()
        notes: list[str] = []
        reading = self._read_grid(grid, notes, judge=True, frame=bgr)
        if not reading.board_found or placement_in_mask(self._last_chip_mask).misplaced:
            return None
        parts = self._last_parts
        if parts.unknown > best.parts.unknown + PLAIN_FALLBACK_UNKNOWN:
            return None
        self._trials.append((self.located_by, round(self._last_plausibility, 3), parts))
        return self._trial(reading, grid, best.notes + notes, best.lines)

    def _judged_without_glare(
        self, best: TrialReading, top_match: float, bgr: np.ndarray
    ) -> TrialReading | None:
        """The best trial judged again with the glare taken off, when judged on the picture as
        it is it falls short and glare lies on it; None unless that reads as a board.

        Strong glare clips many cells and their lines white: judged with it left on, a board
        read from scratch reads too many cells unknown to be plausible. Taken off, the glare
        could make a grid running past the board read plausibly (the table strip under its
        edge lines), so only the located grid itself is judged again (not a copy moved by a
        cell), and only a reading with no whole edge line unreadable, no chip on a free corner
        and free corners that look alike is taken."""
        self._take_located_state(best.state)
        if _moved_copy(self.located_by or "") or self.orientation is None:
            return None
        veil = estimate_veil(best.grid)
        if veil is None:
            return None
        self._cache = chips.MeasureCache(veil=veil)
        notes: list[str] = []
        reading = self._read_grid(best.grid, notes, judge=True, frame=bgr, glare=True)
        parts = self._last_parts
        if not reading.board_found or parts.edge_unknown or parts.corner_chips:
            return None
        if parts.corners_alike < CLEAR_INK_CORNERS_MIN:
            return None
        trial = self._trial(reading, best.grid, best.notes + notes, best.lines)
        if not _acceptable(trial, top_match, None):
            return None
        self._trials.append((self.located_by, "judged without the glare", parts))
        return trial

    def _read_grid(
        self,
        grid: np.ndarray,
        notes: list[str],
        judge: bool = False,
        frame: np.ndarray | None = None,
        glare: bool | None = None,
    ) -> BoardReading:
        """Read a grid image warped from ``frame`` at ``self.quad`` (``glare``: whether the
        glare is taken off first; by default when not ``judge``-ing it)."""
        smooth = None
        if frame is not None:
            quad, shape, lens = self.quad, chips.shape_of(grid), self.lens
            smooth = lambda: warp_grid_smooth(frame, quad, shape, lens)  # noqa: E731
        # a grid is judged on the picture as it is: glare taken off a grid that runs past the
        # board (table cells under its edge lines) can make it read plausibly
        glare = not judge if glare is None else glare
        feats = chips.measure(grid, self.profile, self._cache, smooth, glare=glare)
        self._last_chip_mask = feats.chip_mask  # for the chip-placement check of a located grid
        self._last_masks = feats.ink_masks  # ... and for how its grid image stretches the chips
        reference = None
        if self.calibration is not None and self.calibration.reference is not None:
            k_or = self.orientation or 0
            reference = {
                s: np.rot90(np.asarray(self.calibration.reference[s]), -(k_or // 90))
                for s in CHIP_SYMBOLS
            }
        why: dict = {}  # each ``?`` cell's causes, kept with the reading
        if self.orientation is not None:
            symbols, conf = chips.classify(
                feats, reference, why=why, faces=_faces(self.orientation)
            )
        # (without an orientation the picture cards are not known yet: read once it is voted)
        # judging a located grid or its orientation: the signs of a cover (boundaries gone, a
        # hand at a chip) say something lies on a cell, not whether the grid is right, so the
        # judgement uses the reading without them
        if judge or self.orientation is None:
            plain, _ = chips.classify(feats, reference, covers=False)
        else:
            plain = symbols
        # with the board known, a turned board is looked for every few frames only (cheaper
        # reading; a relocation after a move votes at once); never with a fixed orientation
        vote = None
        self._frames_since_vote += 1
        if (
            judge
            or self.orientation is None
            or (not self._orientation_fixed and self._frames_since_vote >= VOTE_EVERY)
        ):
            # cells whose border looks like the board's own, free corners aside
            clean = (feats.ring < VOTE_RING_MAX) & ~chips.CORNERS
            usable = (plain == ".") & clean
            redness = ink_redness(feats.red_ink, feats.dark)
            vote = vote_orientation(redness, usable)
            if usable.sum() < SPARSE_INK_CELLS and (judge or self.orientation is None):
                # a board late in the game shows few cards, perhaps too few to tell the four
                # turns apart: the printing still showing around its chips votes too where
                # that tells them apart more surely (``_surer``); deciding the turn only, not
                # on the fast path's look for a board turned in play
                beside_chips = np.isin(plain, CHIP_SYMBOLS) & clean
                beside = vote_orientation(*_with_ink_beside(feats, beside_chips, usable, redness))
                if _surer(beside, vote):
                    vote = beside
            self._frames_since_vote = 0
        if self.orientation is None:
            if (
                vote.margin < ORIENT_MARGIN_MIN
                or vote.scores[vote.orientation] < INK_MATCH_MIN
                or vote.cells_used < ORIENT_CELLS_MIN
            ):
                notes.append(
                    "the printed red/black pattern does not match the classic layout "
                    f"(match {vote.scores[vote.orientation]:.2f}, margin {vote.margin:.2f})"
                )
                return BoardReading(board_found=False, notes=notes)
            self.orientation = vote.orientation
            # the picture cards are known only now: read with their faces' skin as the board's
            # own (on locating)
            symbols, conf = chips.classify(
                feats, reference, why=why, faces=_faces(self.orientation)
            )
        elif (
            vote is not None
            and not self._orientation_fixed
            and vote.orientation != self.orientation
            and vote.margin >= REORIENT_MARGIN
        ):
            notes.append(f"board turned: orientation {self.orientation} -> {vote.orientation}")
            self.orientation = vote.orientation
        if vote is not None:
            self._last_vote = vote
        # a red chip on a card printed red: round as a chip, or a bold heart or diamond (the
        # doubtful ones then look like their empty twin, or not); then a chip small against its
        # cell (a board printed large for its chips): a round disc as wide as the board's chips
        # (a located grid's memo keeps the board's chip width and each cell's answer; a
        # judged grid's glare is left on: not kept)
        memo = {} if judge else self._cache.red_shapes
        # (the likeness of two cells, matched once a frame; kept with a located grid while the
        # two cells look the same)
        match = memo.setdefault("likenesses", Likenesses()).renew(grid)
        if feats.ink_masks is not None:
            symbols, conf = self._chip_shapes(symbols, conf, why, feats, grid, memo)
            # (and a red chip on a clipped white card: a round disc as wide as a chip)
            symbols, conf = self._glared_red_discs(symbols, conf, why, feats, grid, memo)
            # (and red read as printing that its twin, read empty, shows less of and unlike)
            symbols, conf = self._chips_unlike_twins(symbols, conf, why, feats, match)
        # an unknown cell showing the same picture as its twin card, read empty, is empty too
        # (or as another empty card of its rank or suit)
        # (or, both unknown, as its twin does where both show their printing)
        # (both look at unknown cells only: on a frame with none, not even set up)
        if (symbols == "?").any():
            symbols, conf, cleared = _empty_cards(
                grid, symbols, conf, why, feats, self.orientation, match
            )
            if cleared and feats.ink_masks is not None and (symbols == "?").any():
                # a chip small against its cell left `?` beside cells read empty only now,
                # which blocked the look at its disc as a cover would, is looked at again
                symbols, conf = self._small_chips(symbols, conf, why, feats, grid, memo, False)
            # a red ace left undecided, its red a disc as wide as a chip (a chip, or the ace's
            # one big pip: alike in shape), is a chip where it does not look like its twin ace
            # read empty
            symbols, conf = self._chips_on_red_aces(symbols, conf, why, feats, grid, memo, match)
        # ... and so does a chip whose own disc hid its lines; then a chip doubted only beside
        # a cover, with none left around it, reads what it showed;
        # ... and red that a black suit's card cannot print is a chip (only unknown cells are
        # looked at: most frames of a fixed camera have none)
        if (symbols == "?").any():
            looked_at = symbols
            # (a chip pushed off its cell's centre first: its cell then counts as read)
            # (each look's cells taken only when it found some: most frames' looks find none)
            off = off_centre_chips(symbols, why, feats.raw, feats.eroded_chips)
            symbols, conf = _taken(symbols, conf, off != "", off, OFF_CENTRE_CONF)
            # (and a blue or green chip paled by a veil of glare that faded its lines)
            pale = veiled_chips(symbols, why, feats.raw, feats.pale_bg, feats.black)
            symbols, conf = _taken(symbols, conf, pale != "", pale, VEILED_CONF)
            # (and one washed out by glare, its faint hue's disc that of one chip colour)
            symbols, conf = self._washed_colour(symbols, conf, why, feats, grid, memo)
            # (and a chip as big as its cell, its colour over the whole cell: no cover)
            if feats.ink_masks is not None:
                shape = chips.shape_of(grid)
                big = filling_chips(
                    symbols, why, feats.ink_masks, shape, _chip_width(feats, shape, memo)
                )
                symbols, conf = _taken(symbols, conf, big != "", big, FILLING_CONF)
            for lift in (chips_hiding_lines, chips_beside_no_cover):
                back = lift(symbols, why)
                symbols, conf = _taken(symbols, conf, back, why.get("_read"), why.get("_read_conf"))
            red = red_chips_on_black(
                symbols,
                why,
                feats.raw["R"],
                feats.red_strongest,
                self.orientation,
                ring_red=feats.ring_colour["R"] if feats.ring_colour else None,
                skin=feats.skin,
            )
            symbols, conf = _taken(symbols, conf, red, "R", RED_ON_BLACK_CONF)
            # cells these looks read were still unknown to the twin and cousin looks above,
            # which then compared too many cells to look at any: they look again
            if (symbols != looked_at).any() and (symbols == "?").any():
                symbols, conf, _ = _empty_cards(
                    grid, symbols, conf, why, feats, self.orientation, match
                )
        # a card and its twin both read empty that look unlike, on a board whose empty twins
        # look alike: something lies on one of them (the one that shows what another empty
        # card of its rank or suit shows is the card as printed)
        # (a card under a shadow's edge, half in the shade, is like no other: it is left out)
        # (a cell whose light was divided out pixel by pixel across the edge is compared:
        # a red chip there read as the card's red ink looks unlike its twin, and is doubted)
        pairs = empty_pairs(
            grid, _out_of_the_shade(symbols, why, edges=False), self.orientation, match
        )
        symbols, conf = self._unlike_pairs(symbols, conf, why, match, pairs)
        # a blue chip read from a pale remnant under glare: blue in the picture as it is too
        symbols, conf = self._pale_hues_agreed(symbols, conf, why, feats, grid)
        # ... and red at the board's edge that is fingers reaching in over it
        symbols, conf = self._fingers_at_edge(symbols, conf, why, feats, grid, memo)
        if judge:
            unknown = float((plain == "?").mean())
            # every real cell shows printing (rank, suit, pips, a picture) or a chip; a row of
            # blank cells is board margin, so the grid is off by a cell
            blank = (feats.content < BLANK_CONTENT) & (plain != "?") & ~chips.CORNERS
            # a whole edge row or column that shows no card (blank or unreadable) is margin too
            blank |= margin_lines(blank | (plain == "?"), np.isin(plain, CHIP_SYMBOLS))
            corners_alike = corner_likeness(grid)
            twins_alike, twin_pairs = pairs_alike(*pairs)
            twins_alike = 1.0 if twins_alike is None else twins_alike
            # a strip of table or margin along a whole edge line of a grid a cell off is no
            # line of the board's (a crease) that a cover's border may show: judged on every
            # cell's whole border
            strict = symbols
            if feats.ring_off_lines is not None:
                strict_feats = dataclasses.replace(feats, ring_off_lines=None)
                strict, _ = chips.classify(strict_feats, reference, faces=_faces(self.orientation))
            self._last_parts = Judgement(
                match=round(vote.scores[self.orientation], 3),
                margin=round(vote.margin, 3),
                unknown=round(unknown, 3),
                blank=round(float(blank.mean()), 3),
                corners_alike=round(corners_alike, 3),
                unprinted=round(_unprinted_share(plain, feats), 3),
                corner_chips=_corner_chips(plain),
                edge_unknown=_unreadable_edge(strict),
                twins_alike=round(twins_alike, 3),
                twin_pairs=twin_pairs,
            )
            self._last_plausibility = (
                vote.scores[self.orientation]
                - unknown
                - BLANK_WEIGHT * float(blank.mean())
                + CORNER_WEIGHT * corners_alike
            )
        canon_sym = to_canonical_grid(symbols, self.orientation)
        canon_conf = to_canonical_grid(conf, self.orientation).astype(np.float32)  # (a copy)
        rows = np.ascontiguousarray(canon_sym).view("<U10").ravel().tolist()  # 10 strings
        rows = [_mark_corners(i, row) for i, row in enumerate(rows)]
        for r, c in CORNER_CELLS:
            canon_conf[r, c] = 1.0
        return BoardReading(
            board_found=True,
            orientation=self.orientation,
            cells=rows,
            confidence=canon_conf,
            corners=canonical_corners(self.quad, self.orientation),
            lens=float(self.lens),
            unknown_reasons=unknown_reasons(rows, why, self.orientation),
        )

    def _chips_on_red_aces(self, symbols, conf, why, feats, grid, memo, match):
        """``symbols`` and ``conf`` with the red aces left `?` only as undecided, red their
        strongest chip colour over ``INK_CHIP_RED_MIN`` of them as a disc as wide as a chip
        (``chip_shapes.chip_disc``'s ``WIDE_DISC``, against this board's chip width), read
        red where they look unlike their twin ace read surely empty
        (``twins.unlike_empty_twins``). ``memo`` as in :meth:`_chip_shapes`."""
        look = (symbols == "?") & red_ace_cells(self.orientation)
        if not look.any() or feats.ink_masks is None:
            return symbols, conf
        look &= held_only_by(why, ("undecided",)) & ~_shaded(why)
        look &= (feats.raw["R"] >= INK_CHIP_RED_MIN) & feats.red_strongest
        look &= (self._red_discs(look, feats, grid, memo, "red_aces") & WIDE_DISC) > 0
        if look.any():
            red = unlike_empty_twins(
                grid,
                look,
                _out_of_the_shade(symbols, why),
                conf > RED_PRINT_CONF,
                self.orientation,
                match,
            )
            symbols, conf = _taken(symbols, conf, red, "R", INK_CHIP_CONF)
        return symbols, conf

    def _red_discs(self, look, feats, grid, memo, name):
        """10x10 ``chip_shapes.chip_disc`` bits of the red blob of each cell ``look`` marks,
        against this board's chip width (0 where not looked at, or no chip of the board's own
        to measure); kept in ``memo[name]`` with each cell's red share (a fixed camera)."""
        if not look.any():
            return np.zeros((10, 10), int)
        shape = chips.shape_of(grid)
        width = _chip_width(feats, shape, memo)
        if not width:
            return np.zeros((10, 10), int)
        red_mask = feats.ink_masks["R"]
        disc = kept(
            memo,
            name,
            look,
            feats.raw["R"],
            0,
            lambda r, c: chip_disc(red_mask, r, c, shape, width),
        )
        return np.where(look, disc, 0)

    def _unlike_pairs(self, symbols, conf, why, match, pairs):
        """``symbols`` and ``conf`` with the cards of the twin pairs both read empty
        (``pairs``: ``twins.empty_pairs``) that look unlike (``twins.unlike_pairs``) unknown,
        on a board whose empty twins look alike (``TWINS_CLEAR`` over ``TWINS_CLEAR_PAIRS``),
        but for a card that shows what another empty card of its rank or suit shows."""
        if not _many_twins_alike(*pairs_alike(*pairs)):
            return symbols, conf
        odd = match.answer(
            ("unlike_pairs", pairs[0].tobytes()),
            lambda: unlike_pairs(match.grid, *pairs, self.orientation),
        )
        if not odd.any():
            return symbols, conf
        printed = self._printed_cards(odd, symbols, conf > RED_PRINT_CONF, match)
        return _looked(symbols, conf, why, None, 0.0, odd & ~printed, "unlike_twin")

    def _printed_cards(self, cells, symbols, surely, match):
        """Of ``cells`` (10x10 bool), those that show what another card of their rank or suit
        read empty shows (``twins.empty_like_cousins``, the unknown cells of ``symbols`` left
        out; a cousin read empty not ``surely`` stands in only with a second one alike): the
        card as printed, nothing on it."""
        probe = np.where(symbols == "?", "", symbols)
        probe[cells] = "?"
        printed, _ = empty_like_cousins(match.grid, probe, self.orientation, surely, match=match)
        return printed

    def _chips_unlike_twins(self, symbols, conf, why, feats, match):
        """``symbols`` and ``conf`` with the cells read empty (as red printing, or outright: see
        :meth:`_red_unlike_twins`) or left unknown only as undecided, red their strongest chip
        colour over ``INK_CHIP_RED_MIN`` of them on a card printed red and no hand's skin on
        them, read red where their twin reads empty (surely, or with ``RED_MORE`` less red)
        and shows another picture (``twins.unlike_empty_twins``) or, their twin holding a chip,
        where every other card of their rank in a red suit read empty shows another picture
        and one of them less red (``twins.unlike_red_cousins``), on a board whose empty twins
        look alike (``TWINS_CLEAR`` over ``TWINS_CLEAR_PAIRS``): a red chip over a red ace's
        pip or a heart card's pips, holed by its highlight or small in the frame, keeps no
        more of its red through the erosions than printing does, and its shape merged with the
        pips is no disc (nor measured against a chip's width, on a board showing no blue or
        green chip).

        Measured on the 14 independent board sets and a new one (1,800 frames): of 3,091 cells
        read so, 8 were chips; 2 had their twin empty, 0.49 and 0.56 alike on boards whose
        twins were 0.96 alike, 4 more their twin holding a chip and cousins 0.13-0.27 alike
        (empty cards: >= 0.57). The 172 empty ones less than 0.7 alike with their empty twin
        lay on boards whose twins were at most 0.77 alike (text and felt arts: little to
        correlate). The undecided cells, added later and measured on the 22 independent board
        sets and 11 arm sets then kept (3,900 frames): 5 red chips more read, nothing else
        changed."""
        red = feats.raw["R"]
        # (a cell under a shadow's edge is like neither its twin nor its cousins: it neither
        # looks nor stands in for an empty card)
        symbols_seen = symbols
        symbols = _out_of_the_shade(symbols, why)
        some = symbols == "."
        undecided = symbols == "?"
        if undecided.any():
            # (and a cell left unknown only as neither clearly a chip nor clearly printing: a
            # red chip over a heart card's pips, on a board showing no other chip to measure
            # a chip's width by, keeps too little of its red through the erosion for a chip)
            undecided &= held_only_by(why, ("undecided",))
            some = some | undecided
        some &= (red >= INK_CHIP_RED_MIN) & ~_shaded(why)
        if not some.any():
            return symbols_seen, conf
        # (a fixed camera: the same cells read as in the last frame, none of them changed, get
        # the last frame's answer)
        ink = why.get("_ink")
        sure = conf > RED_PRINT_CONF
        # (such a cell showing a chip's share of solid red is no finger in shadow over a card)
        solid = undecided & (feats.chip["R"] >= chips.CHIP_MIN)
        key = [symbols, some, sure, solid] + ([] if ink is None else [ink])
        red_chips = match.answer(
            ("red_twins", *(a.tobytes() for a in key)),
            lambda: self._red_chips_unlike_twins(some, symbols, sure, ink, feats, match, solid),
        )
        return _taken(symbols_seen, conf, red_chips, "R", INK_CHIP_CONF)

    def _red_chips_unlike_twins(self, some, symbols, sure, ink, feats, match, solid):
        """:meth:`_chips_unlike_twins`'s cells (10x10 bool), of those ``some`` marks (read
        empty or left undecided, much red); ``sure``: the cells read surely (above a reading
        by shape alone); ``ink``: those read empty as printing (None: no such reading);
        ``solid``: those left undecided with a chip's share of solid red."""
        red = feats.raw["R"]
        look = (
            some
            & feats.red_strongest
            & ~no_red_cells(self.orientation)
            & ~chips.CORNERS
            # (a hand's brown fingers show red too, and no card under them is like its twin)
            & (feats.skin < chips.HAND_SKIN)
        )
        # (a cell read empty outright, not as printing, is looked at only with its border its
        # own: fingers in shadow over it show no skin)
        plain = look if ink is None else look & ~ink
        look &= ~(plain & (feats.ring >= chips.HAND_RING) & ~solid)
        twins = twin_cells(self.orientation).ravel()
        # (nor one showing more dark than its twin: a red chip adds no black, fingers in shadow
        # across a card's corner do, 0.14 of it on an unseen frame; red chips read empty: 0.0)
        look &= feats.dark <= _at_twins(feats.dark, twins, 0.0) + DARK_ADDED
        if not look.any():
            return look
        twin_sure = sure | (red <= _at_twins(red, twins, 1.0) - RED_MORE)
        return self._red_unlike_twins(look, plain, symbols, red, twin_sure, sure, match)

    def _red_unlike_twins(self, look, plain, symbols, red, sure, surely, match):
        """:meth:`_chips_unlike_twins`'s cells (10x10 bool) of those ``look`` marks; those
        ``plain`` marks (read empty outright, not as printing) must look unlike their twin
        loosely too (``twins.loose_likeness`` below ``twins.LOOSE_UNLIKE``: a grid a part of
        a cell off shifts the pips of cards read empty against their twin's, 0.59-0.68 alike,
        0.78-0.98 loosely; red chips 0.42-0.56 and 0.23-0.69), and a pair whose cards each look
        unlike the other says nothing of which one holds a chip. ``sure``: the twins that stand
        in for an empty card; ``surely``: the cells read empty surely (for the cousins)."""
        grid = match.grid
        twins = twin_cells(self.orientation).ravel()
        unlike = unlike_empty_twins(grid, look, symbols, sure, self.orientation, match)
        for cell in np.flatnonzero(unlike & plain):
            twin = int(twins[cell])
            if loose_likeness(grid, int(cell), twin) >= LOOSE_UNLIKE:
                unlike.ravel()[cell] = False
        both = unlike.ravel() & unlike.ravel()[np.maximum(twins, 0)] & (twins >= 0)
        unlike &= ~both.reshape(10, 10)
        # (or, the twin holding a chip, every other card of its rank in a red suit read empty)
        unlike |= unlike_red_cousins(grid, look & ~unlike, symbols, red, self.orientation, match)
        if not unlike.any():
            return unlike
        if not _many_twins_alike(*empty_twins_alike(grid, symbols, self.orientation, match)):
            return np.zeros_like(unlike)
        # ... unless the cell shows what another empty card of its rank or suit shows: then
        # its twin is the odd one (a loose card's corner or glare over it, read empty), and
        # the cell a card as printed (a mat's big heart); a cousin read empty only by its shape
        # stands in with a second one alike (two aces with chips on them look alike)
        return unlike & ~self._printed_cards(unlike, symbols, surely, match)

    def _glared_red_discs(self, symbols, conf, why, feats, grid, memo):
        """``symbols`` and ``conf`` with the cells left `?` only for glare or as undecided,
        red their strongest chip colour over ``INK_CHIP_RED_MIN`` of them, read red where their
        red is a round disc as wide as this board's chips (``chip_shapes.chip_disc``'s
        ``ROUND_DISC``): on an over-exposed board a red chip's highlight clips white and
        bites into its disc, so it keeps too little red through the erosion for a chip, and
        its clipped white card says glare; glare pales a chip, never turns it into another,
        and no printed symbol is such a disc (a bold heart is 1.3 times its inner circle or
        more). On 26 independent and seen sets: 21 of 43 such red chips (the others less
        round), none of the 70 empty cards so held (hearts 1.76-2.01 times their circle)."""
        unknown = symbols == "?"
        if not unknown.any():
            return symbols, conf
        look = (
            unknown
            & held_only_by(why, ("glare", "undecided"))
            & feats.red_strongest
            & (feats.raw["R"] >= INK_CHIP_RED_MIN)
            & (feats.skin < chips.HAND_SKIN)
        )
        round_ = (self._red_discs(look, feats, grid, memo, "glared_red") & ROUND_DISC) > 0
        return _taken(symbols, conf, round_, "R", INK_CHIP_CONF)

    def _chip_shapes(self, symbols, conf, why, feats, grid, memo):
        """``symbols`` and ``conf`` with the chips told by their shapes
        (``companion.vision.red_print``: bold printing, red read as ink that is a chip's disc;
        ``companion.vision.small_chips``: small, bitten and pale chips); ``memo`` (a located
        grid's) keeps the board's chip width and each cell's answer."""
        shape = chips.shape_of(grid)
        masks = feats.ink_masks  # the class masks as measured

        def width() -> float | None:
            return _chip_width(feats, shape, memo)

        # (a cell left unknown only as neither clearly a chip nor clearly printing may turn
        # out to be printing by its shape)
        unknown = symbols == "?"
        undecided = unknown & held_only_by(why, ("undecided",)) if unknown.any() else unknown
        # (and a cell read red before a doubt that may be lifted later, beside a cover that
        # turns out to be none: it is read back as it was read only if its red is a disc)
        before = why.get("_read")
        liftable = unknown & ~undecided
        if before is not None and liftable.any():
            liftable &= np.asarray(before) == "R"
        else:
            liftable = np.zeros_like(unknown)
        if ((symbols == "R") | undecided | liftable).any():
            red_cards = ~black_suit_cells(orientation=self.orientation)
            # (glare taken off a cell may have bitten into a chip's disc, and skin-coloured
            # pixels are a hand's bite, a loose card's edge or the orange part of a chip's red:
            # such a cell is at most doubtful; a white card clipped by the camera is no sign)
            bitten = feats.skin >= PRINT_SKIN_MAX
            if feats.glared is not None:
                bitten |= feats.glared
            looked = np.where(liftable, "R", symbols) if liftable.any() else symbols
            printed, doubtful = red_print(
                looked, masks["R"], width(), red_cards, shape, bitten, memo, feats.raw["R"],
                undecided,
            )  # fmt: skip
            no_disc = liftable & (printed | doubtful)
            if no_disc.any():
                why["_read"] = np.where(no_disc, "?", before)
            printed &= ~liftable
            doubtful &= ~liftable
            read = np.where(printed, ".", "")
            symbols, conf = _looked(symbols, conf, why, read, RED_PRINT_CONF, doubtful, "red_print")
        # red read as printing that is a chip's disc: a chip dark, brownish or holed by its
        # highlight, small in the frame (on a card that prints no red: a chip or unknown)
        ink = why.get("_ink")
        # (and a cell left unknown only as neither a chip nor printing: a red chip holed by its
        # highlight on a card printed red keeps too little red through the erosion; read as a
        # chip by its disc, else left as it is, for the looks below)
        # (or as that and beside a cover as well: a red disc whole, round and as wide as a chip
        # is no cover's sign)
        left = symbols == "?"
        if left.any():
            left &= held_only_by(why, ("undecided", BESIDE_COVER)) & held_by(why, ("undecided",))
        if ink is not None and left.any():
            ink = ink | left
        # (and red over a card that prints none, read empty outright: a chip whose highlight
        # holed its disc into a ring kept too little of its red through the erosion; a chip
        # when its red is a disc, else unknown unless a later look here reads it)
        black = (symbols == ".") & (feats.raw["R"] >= INK_CHIP_RED_MIN)
        if black.any():
            black &= no_red_cells(self.orientation)
            if ink is not None:
                black &= ~ink
            ink = black if ink is None else ink | black
        later = black
        if ink is not None and (ink & (feats.raw["R"] >= INK_CHIP_RED_MIN)).any():
            red, doubtful = chips_read_as_ink(
                ink,
                feats.raw["R"],
                feats.red_strongest,
                masks["R"],
                width(),
                no_red := no_red_cells(self.orientation),
                red_ace_cells(self.orientation),
                shape,
                memo,
                None
                if feats.hsv is None
                else lambda: hue_mask(feats.hsv, self.profile, "R", self.profile.min_saturation),
            )
            read = np.where(red, "R", "")
            doubtful &= ~left
            later = later & doubtful
            symbols, conf = _looked(
                symbols, conf, why, read, INK_CHIP_CONF, doubtful & no_red & ~later, "red_on_black"
            )
            # (red printed on the card, and a chip's disc in red's paler orange hues too)
            symbols, conf = _looked(symbols, conf, why, None, 0.0, doubtful & ~no_red, "rust_disc")
        # a chip small against its cell, or holed by its highlight
        symbols, conf = self._small_chips(symbols, conf, why, feats, grid, memo)
        # a chip too pale for its colour class (bright light, a light blue or mint chip) in a
        # cell read empty that prints no picture (a picture may hold pale blue or green)
        pale = (symbols == ".") & (feats.pale_bg >= PALE_LOOK)
        if pale.any() and feats.colour_code is not None and width():
            pale &= ~face_cells(orientation=self.orientation)
            found, doubtful = pale_discs(
                pale,
                feats.pale_bg,
                lambda: class_mask(feats.colour_code, "pale_bg"),
                feats.raw,
                width(),
                shape,
                memo,
            )
            symbols, conf = _looked(
                symbols, conf, why, found, chips.PALE_CONF, doubtful, "washed_chip"
            )
        # a chip washed out by glare (strong glare taken off, glare too close to clipping to
        # take off, or some of the cell clipped white), in a cell read empty: its faint hue
        # still fills a chip's disc
        if feats.hsv is not None and feats.glare_added is not None:
            glared = (feats.glare_added >= chips.WASHED_TAKEN) | (feats.glare >= WASHED_CLIPPED)
            if feats.glare_unmeasured is not None:
                glared |= feats.glare_unmeasured
            washed = (symbols == ".") & glared
            if washed.any() and width():
                doubtful = washed_discs(washed, feats.hsv, self.profile, width(), shape, memo)
                symbols, conf = _looked(symbols, conf, why, None, 0.0, doubtful, "washed_chip")
        # (red over a card that prints none, still read empty after these looks: unknown)
        if later.any():
            later &= symbols == "."
            symbols, conf = _looked(symbols, conf, why, None, 0.0, later, "red_on_black")
        return symbols, conf

    # the doubts besides glare's that a chip's faint disc settles: a chip blurred or paled,
    # too little of its colour in its class (``undecided``) or holed into thin strokes by its
    # highlights (``pattern``: a card's back over a cell shows no round disc), a chip beside
    # a cover, and a border of strange colour alone (a chip's own colour or glare's on it; a
    # hand, a card or a sleeve over a cell brings more signs, and hides any round disc). On
    # the independent renderer's 18 board sets, 8 arm sets and seeds 141-143: 357 cells more
    # read right (297 on arm frames), none wrong once a faint disc must lie near its cell's
    # middle (``small_chips.FAINT_OFF_MAX``); with the strange border, 22 more on those and seeds
    # 151-153, none wrong, our renderer's hand sets unchanged; with the pattern, 28 more (5
    # under an arm), none wrong, our renderer's hand sets and 240 frames with loose cards
    # (their backs' lattices) unchanged. Red only where glare was found, as before, or on a
    # cell doubted only as undecided against its twin read empty (3 red chips more), or as
    # showing no printing (``blank``: a pale red chip over a card's middle; 1 more, on a
    # black suit's 3).
    FAINT_DOUBTS = SMALL_DOUBTS | {BESIDE_COVER, "foreign_border"}

    def _washed_colour(self, symbols, conf, why, feats, grid, memo):
        """``symbols`` and ``conf`` with the chips washed out by glare read by their faint
        hue's disc (``small_chips.washed_colour``): cells left unknown for glare, for the
        signs a washed-out chip shows, for too little of a chip's colour (``undecided``: a
        chip blurred, or paled by light; or holed into a pattern), for lying beside a cover
        or for a strange border, alone (``FAINT_DOUBTS``), or with a dark blob too where glare
        was found (a washed-out chip's shaded rim). A picture card's art may show any colour:
        one is looked at against its twin read empty, or, the twin holding a chip, under glare
        or doubted only as showing none of its picture (``blank``), against the colours the
        board's other picture cards show no disc in. ``memo`` as in :meth:`_chip_shapes`."""
        washed = symbols == "?"
        if not washed.any() or feats.hsv is None or feats.ink_masks is None:
            return symbols, conf
        # (a dark blob too where glare was found: a washed-out chip's shaded rim, darker than
        # the card's white once the glare's light is taken off, not a sleeve's)
        glared = held_by(why, GLARE_CAUSES)
        doubts = GLARE_CAUSES | WASHED_SIGNS | self.FAINT_DOUBTS
        washed &= held_only_by(why, doubts) | (glared & held_only_by(why, doubts | {"dark_object"}))
        # (each card against its twin where that reads empty, which shows the card as printed;
        # a picture card only so)
        twin_of = twin_cells(self.orientation)
        faces = face_cells(orientation=self.orientation)
        twin_of = np.where((twin_of >= 0) & (symbols.ravel()[twin_of] == "."), twin_of, -1)
        # (a picture card under glare whose twin holds a chip or is unknown: against the
        # board's other picture cards read empty, in the colours their art shows no disc in;
        # or doubted only as showing none of its picture, a pale chip over it: blue or green)
        alone = washed & faces & (twin_of < 0) & (glared | held_only_by(why, ("blank",)))
        washed &= ~faces | (twin_of >= 0)
        if not (washed | alone).any():
            return symbols, conf
        shape = chips.shape_of(grid)
        width = _chip_width(feats, shape, memo)
        if not width:
            return symbols, conf
        if alone.any():
            plain = plain_art_colours(
                faces & (symbols == "."), feats.hsv, self.profile, width, shape, memo
            )
            if plain:
                red = alone & glared
                read = washed_colour(alone, feats.hsv, self.profile, width, shape, red, memo)
                read = np.where(np.isin(read, list(plain)), read, "")
                symbols, conf = _taken(symbols, conf, read != "", read, WASHED_CONF)
        if not washed.any():
            return symbols, conf
        # (red where glare was found: a hand's skin lies in red's faint hues; or on a cell
        # doubted only as undecided or as showing no printing, a chip over its middle, against
        # its twin read empty)
        red = glared | (held_only_by(why, ("undecided", "blank")) & (twin_of >= 0))
        red &= washed
        pips = red_ace_cells(self.orientation)
        read = washed_colour(
            washed, feats.hsv, self.profile, width, shape, red, memo, twin_of, feats.raw, pips
        )
        return _taken(symbols, conf, read != "", read, WASHED_CONF)

    def _pale_hues_agreed(self, symbols, conf, why, feats, grid):
        """``symbols`` and ``conf`` with each blue chip read from a pale remnant (confidence <=
        ``PALE_HUE_CONF``: a pale, washed-out or veiled chip's look) on a cell where glare was
        found made `?` (``washed_chip``) where the picture as it is, before the light is divided
        out, shows green (:func:`_raw_cool_colour`).

        Dividing by the board's own white takes a tinted light off every colour, but not off
        glare whose light is not the board's (a window's daylight over a lamp-lit board):
        such glare is neutral in the picture and turns bluish once a warm white is divided
        out, and a green chip it washes out then shows a blue hue (a never-seen independent
        set: a green chip under 63 levels of glare, hue 102 with the light divided out like
        the board's blue chips at 105-107, read blue; 58 in the picture, as its green
        neighbours' 54-55). Where the two disagree neither is sure. Only that way round: in the
        picture as it is a cool light turns green chips cyan (28 green chips read right from
        pale remnants on the seen sets showed blue's hue there), while no blue chip showed
        green's."""
        glared = feats.glared
        if glared is None:
            return symbols, conf
        weak = (conf <= PALE_HUE_CONF) & glared & (symbols == "B")
        if not weak.any():
            return symbols, conf
        shape = chips.shape_of(grid)
        green = np.zeros((10, 10), bool)
        for r, c in np.argwhere(weak):
            cell = grid[r * shape.h : (r + 1) * shape.h, c * shape.w : (c + 1) * shape.w]
            green[r, c] = _raw_cool_colour(cell, self.profile) == "G"
        return _looked(symbols, conf, why, None, 0.0, green, "washed_chip")

    def _fingers_at_edge(self, symbols, conf, why, feats, grid, memo):
        """``symbols`` and ``conf`` with each cell of the board's outer ring read red that shows
        skin (>= ``EDGE_SKIN``) and no disc as wide as a chip in red
        (``chip_shapes.chip_disc`` against this board's chip width) made `?`
        (``fingers_at_edge``) where its red blob is as wide as a chip's at least and less round
        than a chip bitten by its highlight or joined to a pip (``FINGERS_ROUND``); as they are
        where the chip width is not known.

        A hand reaching in over the board's edge lays its fingertips on the outer cells from
        outside, and a cell's side facing the margin is not looked at for a cover (a grid line
        a little off brings the margin in); warm skin in light divided by a cool white reads
        red over most of such a cell, solid enough for a chip. A chip is a disc on its cell;
        fingers come in from its edge. On the independent sets' arm frames, 6 outer cells under
        fingers where no chip lay read red this way (skin 0.036-0.18, no disc, blobs 1.7-3.3x
        their inner circle); 6 red chips on outer cells of the seen sets showed as much skin and
        no disc (a highlight's bite, a pip joined), their blobs 1.49-1.62x or narrower than a
        chip. A threshold between so few cells is thin: fitted on these 12.

        On a board whose own red shows around its cards (a maroon board:
        ``red_on_black.red_board``) a chip's disc joins the red gaps around its
        cell and looks as little round as fingers: only the cells' inner parts are looked at
        there. On 300 never-seen frames of the cards art (a maroon board), 11 red chips on the
        outer cells were made `?` so (blobs 2.0-2.1x their inner circle), 5 frames otherwise
        exact."""
        red = (symbols == "R") & OUTER_RING & (feats.skin >= EDGE_SKIN)
        if not red.any() or feats.ink_masks is None:
            return symbols, conf
        shape = chips.shape_of(grid)
        width = _chip_width(feats, shape, memo)
        if not width:
            return symbols, conf
        mask = feats.ink_masks["R"]
        if feats.ring_colour and red_board(feats.ring_colour["R"]):
            mask = np.where(shape.inner > 0, mask, 0).astype(np.uint8)
        fingers = np.zeros((10, 10), bool)
        for r, c in np.argwhere(red):
            if chip_disc(mask, r, c, shape, width):
                continue
            diameter, area, _ = blob_circle(mask, r, c, shape)
            fingers[r, c] = (
                diameter >= WIDE[0] * width and roundness(diameter, area) >= FINGERS_ROUND
            )
        return _looked(symbols, conf, why, None, 0.0, fingers, "fingers_at_edge")

    def _small_chips(self, symbols, conf, why, feats, grid, memo, empty=True):
        """``symbols`` and ``conf`` with the chips small against their cells, or holed by their
        highlights, read by their round discs (``companion.vision.small_chips``): in a cell read
        empty (unless not ``empty``), or left `?` as a pattern or undecided with no other doubt
        around it (a loose card or a sleeve lies over several cells and brings signs of a
        cover; its pattern may show round blobs too). ``memo`` as in :meth:`_chip_shapes`."""
        solid = np.maximum.reduce([feats.chip[s] for s in CHIP_SYMBOLS]) >= SOLID_SOME
        candidates = (symbols == ".") & solid if empty else np.zeros_like(solid)
        unknown = symbols == "?"
        if unknown.any():
            # (a doubt for lying beside such a doubt, the chip's colour on the border it
            # shares, only echoes the chip looked at: no other cover, unless beside one)
            lookable = unknown & held_only_by(why, SMALL_DOUBTS | {BESIDE_COVER})
            # (an echo alone is looked at as a cell read empty is: with some solid colour)
            doubts = lookable & (solid | ~held_only_by(why, (BESIDE_COVER,)))
            if doubts.any():
                # (glare pales a chip but never turns it into another, nor hides a chip beside
                # it: a cell doubted only for glare, or beside a doubt, blocks none; nor one
                # doubted for glare and for what a chip washed out by it shows besides: part
                # of its colour, its printing gone)
                glared = held_only_by(why, GLARE_CAUSES | {BESIDE_COVER})
                washed = held_only_by(why, GLARE_CAUSES | {BESIDE_COVER} | WASHED_SIGNS)
                if washed.any():
                    glared |= washed & held_by(why, GLARE_CAUSES)
                other = unknown & ~lookable & ~glared & ~chips.CORNERS
                echoes = why.get(BESIDE_COVER, False)
                blocking = other | (lookable & echoes & chips._beside(other))
                # (no blocking cell among its 8 neighbours: a dilation of them, which marks a
                # doubted cell itself only when it lies beside one, rather than a sum)
                candidates |= doubts & ~chips._beside(blocking)
        shape = chips.shape_of(grid)
        if candidates.any() and (width := _chip_width(feats, shape, memo)):
            aces = red_ace_cells(self.orientation)
            # (a blue or green blob bitten at its rim measured again closed: on the cells left
            # unknown only, and no picture card, whose art may show blobs of any colour)
            bitten = candidates & unknown & ~face_cells(orientation=self.orientation)
            found = small_chips(
                candidates, feats.raw, feats.ink_masks, width, shape, memo, aces, bitten
            )
            if found is not None:
                symbols, conf = _looked(symbols, conf, why, found, SMALL_CHIP_CONF)
        return symbols, conf


def _raw_cool_colour(cell: np.ndarray, profile: ColourProfile) -> str | None:
    """``"B"`` or ``"G"``: which of the two the tinted pixels of ``cell`` (a grid image's cell
    as the camera saw it, BGR) lean to, by their median hue against the middle of the gap
    between the ``profile``'s green and blue bands; None when fewer than ``RAW_TINT_PIXELS``
    pixels of the cell show a hue from green's band to blue's at saturation >= ``RAW_TINT_SAT``
    (a card's cream white and red ink lie outside it)."""
    green, blue = profile.chips["G"], profile.chips["B"]
    hsv = cv2.cvtColor(cell, cv2.COLOR_BGR2HSV)
    hue = hsv[..., 0][
        (hsv[..., 1] >= RAW_TINT_SAT) & (hsv[..., 0] >= green.lo) & (hsv[..., 0] <= blue.hi)
    ]
    if hue.size < RAW_TINT_PIXELS * cell.shape[0] * cell.shape[1]:
        return None
    return "B" if np.median(hue) >= (green.hi + blue.lo) / 2 else "G"


def _chip_stretch(masks: dict[str, np.ndarray] | None, shape: chips.CellShape) -> float | None:
    """How a grid image of ``shape`` whose class masks are ``masks`` stretches its blue and
    green chips (``chip_aspect.chip_stretch``); None when too few show."""
    if masks is None:
        return None
    return chip_stretch(cv2.bitwise_or(masks["B"], masks["G"]), shape)


def _chip_width(feats: chips.CellFeatures, shape: chips.CellShape, memo: dict) -> float | None:
    """This board's chip width in the grid image (``chip_shapes.board_chip_width`` of its blue
    and green chips, never printed), or None; measured once and kept in ``memo``."""
    if memo.get("chip_width") is None:
        masks = feats.ink_masks
        memo["chip_width"] = board_chip_width(
            cv2.bitwise_or(masks["B"], masks["G"]),
            np.maximum(feats.raw["B"], feats.raw["G"]),
            shape,
        )
    return memo["chip_width"]


def _out_of_the_shade(symbols: np.ndarray, why: dict, edges: bool = True) -> np.ndarray:
    """``symbols`` with the cells under a cast shadow's edge (:func:`_shaded`) unknown, for
    the looks that compare a cell's picture with its twin's: half in the shade, a card is like
    no other card."""
    shaded = _shaded(why, edges)
    return np.where(shaded, "?", symbols) if shaded.any() else symbols


def _shaded(why: dict, edges: bool = True) -> np.ndarray:
    """The cells (10x10 bool) under a cast shadow's edge: their border foreign but in the
    board's colours in the shade (``chips.classify``'s ``_shaded``), and with ``edges`` those
    whose light was divided out pixel by pixel across it (``_shade_edges``: what is left of
    the edge can still make a red card look unlike its twin, a red chip read there)."""
    shaded = why.get("_shaded")
    shaded = np.zeros((10, 10), bool) if shaded is None else shaded
    across = why.get("_shade_edges") if edges else None
    return shaded if across is None else shaded | across


def _taken(
    symbols: np.ndarray, conf: np.ndarray, cells: np.ndarray, read, read_conf
) -> tuple[np.ndarray, np.ndarray]:
    """``symbols`` and ``conf`` with the ``cells`` (10x10 bool) read as ``read`` with
    ``read_conf`` (each a value or a 10x10 array); as they are when no cell is marked."""
    if not cells.any():
        return symbols, conf
    return np.where(cells, read, symbols), np.where(cells, read_conf, conf)


def _looked(
    symbols: np.ndarray,
    conf: np.ndarray,
    why: dict,
    read: np.ndarray | None,
    read_conf: float,
    doubtful: np.ndarray | None = None,
    cause: str = "",
) -> tuple[np.ndarray, np.ndarray]:
    """``symbols`` and ``conf`` after a look at the chips' shapes: its readings (``read``, 10x10
    symbols, ``""`` where it has none; None: a look that only doubts) with ``read_conf``, and
    its ``doubtful`` cells unknown, held by ``cause`` in ``why`` (with any other cells that
    cause held already)."""
    if read is not None:
        symbols, conf = _taken(symbols, conf, read != "", read, read_conf)
    if doubtful is not None and doubtful.any():
        symbols, conf = _taken(symbols, conf, doubtful, "?", 0.0)
        why[cause] = why[cause] | doubtful if cause in why else doubtful
    return symbols, conf


def margin_lines(no_card: np.ndarray, chip: np.ndarray | None = None) -> np.ndarray:
    """The outermost rows and columns that show no cards (10x10 bool): all 8 inner cells
    blank or unknown, or (with ``chip``, cells read as chips) both end cells read as chips and
    no inner cell read empty.

    A grid located one cell off takes in a line of board margin or table, which reads blank or
    unknown from end to end, or as a row of "chips" where a coloured margin or table runs
    through the cells, free corners included (a free corner never holds a chip). On the real
    grid the edge lines are cards, and a hand or glare seldom hides a whole line of them.
    """
    out = np.zeros((10, 10), bool)
    inner = slice(1, 9)
    lines = (
        ((0, inner), ((0, 0), (0, 9))),
        ((9, inner), ((9, 0), (9, 9))),
        ((inner, 0), ((0, 0), (9, 0))),
        ((inner, 9), ((0, 9), (9, 9))),
    )
    for line, ends in lines:
        coloured_through = (
            chip is not None and all(chip[e] for e in ends) and (no_card[line] | chip[line]).all()
        )
        if no_card[line].all() or coloured_through:
            out[line] = True
            for e in ends:
                out[e] = True
    return out


def _ranked(plausibility: float, parts: Judgement) -> float:
    """A trial's plausibility as trials are compared: less ``CORNER_CHIP_RANK`` per free
    corner read as a chip, ``EDGE_UNKNOWN_RANK`` with a whole edge line unreadable, and
    ``TWINS_UNLIKE_RANK`` times how unlike its empty twins look (over 8 pairs or more)."""
    unlike = 1.0 - parts.twins_alike if parts.twin_pairs >= TWINS_CLEAR_PAIRS else 0.0
    return (
        plausibility
        - CORNER_CHIP_RANK * parts.corner_chips
        - EDGE_UNKNOWN_RANK * parts.edge_unknown
        - TWINS_UNLIKE_RANK * unlike
    )


def _verified_against(parts: Judgement, other: Judgement) -> bool:
    """Whether a grid read as ``parts`` lies on the cards where one read as ``other`` has taken
    in a strip beside them, whatever the two rank: ``other`` leaves a whole edge line
    unreadable, ``parts`` none, and its empty twins look as alike as only cards beside their
    own twins do (``MOVED_TWINS_CLEAR`` over ``TWINS_CLEAR_PAIRS`` or more), with an ink match
    at least as good. (A paper board's title strip taken for its first row read 0.71
    plausibly, ink 0.47, twins 0.79 over 6 pairs, its corners blank paper and so alike, with
    64 cells wrong; the grid a row over, on the cards, 0.28 after the move's handicap, ink
    0.61, twins 0.99 over 12 pairs, its corners two stars and two FREE texts.)"""
    return (
        other.edge_unknown
        and not parts.edge_unknown
        and parts.match >= other.match
        and _many_twins_alike(parts.twins_alike, parts.twin_pairs, MOVED_TWINS_CLEAR)
    )


def _surer(vote: OrientationVote, than: OrientationVote) -> bool:
    """Whether an ink vote tells the four turns apart more surely than another: its margin
    over the runner-up times the square root of the cells it rests on (a margin measured on 7
    cards is noise: a late-game board read 0.55 ahead on 7 cards in the wrong turn, and 0.38
    ahead in the right one on 63 cards and the printing beside their chips)."""
    return vote.margin * np.sqrt(vote.cells_used) > than.margin * np.sqrt(than.cells_used)


def _with_ink_beside(
    feats: chips.CellFeatures, under: np.ndarray, usable: np.ndarray, redness: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The redness and cells of an ink vote (``redness``, ``usable``) with the chip cells
    ``under`` added where their card's printing shows beside the chip (``BESIDE_CHIP_INK``)."""
    red, dark = chips.ink_beside_chips(feats, under)
    shows = under & (red + dark >= BESIDE_CHIP_INK)
    return np.where(shows, ink_redness(red, dark), redness), usable | shows


def _unreadable_edge(symbols: np.ndarray) -> bool:
    """A whole edge line of a reading's symbols (10x10, its 8 inner cells) is `?`: on a grid
    that reads only faintly, that line is most likely table or margin seen through a grid with
    the wrong pitch (11 cells taken for 10), not cards under a hand (:func:`margin_lines` on
    the unknowns)."""
    return bool(margin_lines(np.asarray(symbols) == "?").any())


def _moved_copy(source: str) -> bool:
    """The trial is the located grid moved (by a whole cell, or by the chips' common
    offset) or cut down to the chips' lattice, not a grid the locator fitted."""
    return "+shift(" in source or source.endswith("+moved") or source.endswith("+fitted")


def _unknown_share(reading: BoardReading) -> float:
    """Share of a reading's 96 playing cells that are '?' (1.0 without a board)."""
    if not reading.board_found or reading.cells is None:
        return 1.0
    return "".join(reading.cells).count("?") / 96.0


def _unprinted_share(symbols: np.ndarray, feats) -> float:
    """Share of the cells read empty that show no printing (no red or black ink)."""
    empty = symbols == "."
    if not empty.any():
        return 0.0
    printing = feats.red_ink + feats.dark
    return float((printing[empty] < BLANK_CONTENT).mean())


def _any_chip(rows: list[str]) -> bool:
    """Whether a reading's rows show a chip anywhere."""
    return any(sym in row for row in rows for sym in CHIP_SYMBOLS)


def _without_colour(t0: float) -> BoardReading:
    """The reading of a frame without colour (``colour.colourless``): no board, and why."""
    return BoardReading(
        board_found=False, elapsed_ms=(time.perf_counter() - t0) * 1000, notes=[NO_COLOUR]
    )


def _corner_chips(symbols: np.ndarray) -> int:
    """How many of a reading's four corner cells hold a chip. Nobody plays on a free corner;
    four corners alike in one chip colour are the board's own emblem, not chips."""
    corners = [str(symbols[r, c]) for r, c in CORNER_CELLS]
    if len(set(corners)) == 1:
        return 0
    return sum(sym in CHIP_SYMBOLS for sym in corners)


def _acceptable(best: TrialReading, top_match: float, calibrated: int | None) -> bool:
    """Whether the chosen trial's reading is reported as a board: with a calibration always;
    a weakly located grid (``WEAK_LINES``) only when it reads clearly plausibly; otherwise when
    it reads plausibly, or its ink pattern alone is clear (and no grid a cell off matches the ink
    better) with no whole edge line unreadable unless many empty twins look alike; never with a
    chip on a free corner and a whole edge line unreadable or corners that do not look alike (a
    grid a cell off, its far edge line on table or margin and its near corners on cards holding
    chips)."""
    if calibrated is not None:
        return True
    if 0.0 < best.lines < WEAK_LINES:  # (0: not measured, a grid moved by a cell)
        return best.plausibility >= WEAK_GRID_PLAUSIBLE
    parts = best.parts
    if parts.corner_chips > 0 and (
        parts.edge_unknown or parts.corners_alike < CLEAR_INK_CORNERS_MIN
    ):
        # nobody plays on a free corner: a "chip" there, with the four corners not alike
        # (ordinary cards under a grid a cell off, not the emblems), is a cell of the board
        return False
    if best.plausibility >= PLAUSIBLE_MIN:
        return True
    if _twins_clear(parts) and _fair_ink(parts) and parts.match >= top_match - 0.05:
        # many empty twins alike: the grid lies on the cards, no cell off, in this orientation
        # (turned, or a cell off, each card is compared with another card's twin: no twin pair
        # of the classic layout maps onto one under a turn), though an arm over the board
        # hides enough cards and lines to leave it implausible by the other parts (an arm
        # reaching up the middle: 0.08 plausible, 24 % unknown, ink 0.52 ahead by 0.19,
        # twins 0.94 alike over 10 pairs, every cell read right)
        return True
    clear = _clear_ink(parts, corners=best.lines < STRONG_LINES)
    # (a whole edge line unreadable is the margin of a grid a cell off, or cards under an arm
    # along the edge: many empty twins alike say the grid lies on the cards)
    return (
        clear
        and parts.match >= top_match - 0.05
        and (not parts.edge_unknown or _twins_clear(parts))
    )


def _clear_ink(parts: tuple, corners: bool = True) -> bool:
    """The judged reading's ink pattern (match, margin, unknown share) alone says board, and
    (with ``corners``) its four corner cells look alike (on a grid a cell off, two "corners"
    are ordinary cards, while the ink of a shifted grid can still match fairly well); and no
    chip lies on a free corner (a hundred chart strewn with counters matches the ink fairly
    well too, but its corners are ordinary cells)."""
    parts = Judgement(*parts)
    return (
        parts.match >= CLEAR_INK_MATCH
        and parts.margin >= CLEAR_INK_MARGIN
        and parts.unknown <= CLEAR_INK_UNKNOWN_MAX
        and (not corners or parts.corners_alike >= CLEAR_INK_CORNERS_MIN or _twins_clear(parts))
        and parts.corner_chips == 0
    )


def _fair_ink(parts: Judgement) -> bool:
    """The ink pattern matches the layout as a board read from scratch must (``INK_MATCH_MIN``),
    in one orientation by a margin that decides it (``ORIENT_MARGIN_MIN``), with at most
    ``CLEAR_INK_UNKNOWN_MAX`` of the cells unknown."""
    return (
        parts.match >= INK_MATCH_MIN
        and parts.margin >= ORIENT_MARGIN_MIN
        and parts.unknown <= CLEAR_INK_UNKNOWN_MAX
    )


def _twins_doubtful(parts: Judgement) -> bool:
    """Whether a reading's empty twins, over enough pairs to say, look less alike than a grid
    on the cards' as a rule (``TWINS_SURE``): however plausibly it reads, its alternatives are
    tried too."""
    return parts.twin_pairs >= TWINS_CLEAR_PAIRS and parts.twins_alike < TWINS_SURE


def _at_twins(values: np.ndarray, twins: np.ndarray, missing: float) -> np.ndarray:
    """10x10: each cell's twin's value of ``values`` (10x10; ``twins``: ``twins.twin_cells``
    flattened), ``missing`` where a cell has no twin (the free corners)."""
    return np.where(twins >= 0, values.ravel()[np.maximum(twins, 0)], missing).reshape(10, 10)


def _many_twins_alike(
    alike: float | None,
    pairs: int,
    least: float | None = None,
    pairs_min: int | None = None,
) -> bool:
    """Whether at least ``pairs_min`` pairs of empty twin cards (``pairs`` of them, their median
    likeness ``alike``, None: too few to say) look at least ``least`` alike (None: the module's
    ``TWINS_CLEAR`` and ``TWINS_CLEAR_PAIRS`` as they stand when called)."""
    least = TWINS_CLEAR if least is None else least
    pairs_min = TWINS_CLEAR_PAIRS if pairs_min is None else pairs_min
    return alike is not None and pairs >= pairs_min and alike >= least


def _twins_clear(parts: Judgement) -> bool:
    """Whether many empty twin cards look alike (``TWINS_CLEAR``): the grid lies on the cards
    and is no cell off (a grid a cell off compares each card with another card's twin), over
    at least ``TWINS_CLEAR_REPORT_PAIRS`` pairs."""
    return _many_twins_alike(
        parts.twins_alike, parts.twin_pairs, pairs_min=TWINS_CLEAR_REPORT_PAIRS
    )


def _enumerate_then(items: list, more) -> Iterator[tuple[int, object]]:
    """``enumerate(items)`` while ``items`` grows (insertions after the current item are
    met too), then ``items`` extended by ``more()``, called only when the loop gets there."""
    i = 0
    while True:
        if i == len(items) and more is not None:
            items += more()
            more = None
        if i >= len(items):
            return
        yield i, items[i]
        i += 1


def shifted_quad(
    quad: np.ndarray,
    dx: float,
    dy: float,
    lens: float = 0.0,
    size: tuple[int, int] | None = None,
) -> np.ndarray:
    """The grid quad moved by cells along its own columns (dx) and rows (dy); with ``lens``
    (and the frame's ``size``, (w, h)), the lensed grid's real corners moved along it."""
    if lens and size is not None:
        return shifted(np.asarray(quad, np.float64), lens, size, dx, dy)
    return window_quad(quad, (dx, dy, 10 + dx, 10 + dy))


FULL_WINDOW = (0.0, 0.0, 10.0, 10.0)  # (x0, y0, x1, y1): a grid's own 10x10 cells
WINDOW_MOVED = 0.15  # of a cell: a part of a grid whose side lies this far off is another grid


def _window_moved(window: tuple[float, float, float, float]) -> bool:
    """Whether a part of a grid (``window_quad``) is another grid than the grid itself."""
    return float(np.abs(np.subtract(window, FULL_WINDOW)).max()) > WINDOW_MOVED


def window_quad(quad: np.ndarray, window: tuple[float, float, float, float]) -> np.ndarray:
    """The quad (frame pixels) of the part of the grid ``quad`` from (x0, y0) to (x1, y1),
    in its cells (``FULL_WINDOW``: the grid itself), under its perspective."""
    x0, y0, x1, y1 = window
    grid = np.float32([[0, 0], [10, 0], [10, 10], [0, 10]])
    hom = cv2.getPerspectiveTransform(grid, np.asarray(quad, np.float32))
    part = np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(part, hom).reshape(4, 2).astype(np.float64)


def corner_likeness(grid_bgr: np.ndarray) -> float:
    """How much the 4 corner cells look like each other rather than like their neighbours.

    The free corners print the same emblem (or nothing) and never hold a chip, so on the real
    grid they resemble each other more than the cards beside them; on a grid off by a cell, two
    "corners" are ordinary cards. Descriptor: the inner part's mean colour (relative to the
    board's white) and its contrast. Positive when the corners stand out together.
    """
    h, w = grid_bgr.shape[:2]
    ch, cw = h // 10, w // 10
    white = percentile_u8(grid_bgr, 95) + 1.0

    cells = (*CORNER_CELLS, (0, 1), (1, 0), (0, 8), (1, 9), (8, 0), (9, 1), (9, 8), (8, 9))
    # the inner part of each cell, all 12 at once: pixels x colour per cell
    patches = np.stack(
        [
            grid_bgr[
                r * ch + ch // 5 : r * ch + ch // 5 + ch * 3 // 5,
                c * cw + cw // 5 : c * cw + cw // 5 + cw * 3 // 5,
            ].reshape(-1, 3)
            for r, c in cells
        ]
    )
    patches = patches.astype(np.float32) * (255.0 / white)
    contrast = patches.mean(axis=2).std(axis=1) * 2
    descs = np.concatenate([patches.mean(axis=1), contrast[:, None]], axis=1)
    corners, near = list(descs[:4]), list(descs[4:])
    inner = np.mean([np.abs(a - b).mean() for i, a in enumerate(corners) for b in corners[i + 1 :]])
    across = np.mean([np.abs(a - b).mean() for a in corners for b in near])
    return float((across - inner) / (across + inner + 1e-6))


def analyze_image(bgr: np.ndarray, calibration=None) -> BoardReading:
    """Locate, orient and read the board in one frame, from scratch (or from a calibration)."""
    return BoardReader(calibration).read(bgr)


def _mark_corners(row_index: int, row: str) -> str:
    if row_index in (0, 9):
        return CORNER + row[1:9] + CORNER
    return row


def _check_image(bgr: np.ndarray) -> None:
    if not isinstance(bgr, np.ndarray) or bgr.ndim != 3 or bgr.shape[2] != 3:
        raise ValueError("expected a BGR image: a numpy array of shape (height, width, 3)")
    if bgr.dtype != np.uint8:
        raise ValueError(f"expected a uint8 BGR image, not {bgr.dtype}")
    if min(bgr.shape[:2]) < 40:
        raise ValueError(f"image too small to hold a board: {bgr.shape[1]}x{bgr.shape[0]}")


def _printed_empty(why: dict, feats: chips.CellFeatures) -> np.ndarray | None:
    """The cells (10x10 bool) read empty before their doubts (``why["_read"]``) that show
    their card's printing (``chips.PRINT_MIN`` of dark or red ink) and no hand's skin; None
    when nothing was doubted."""
    if "_read" not in why:
        return None
    printed = feats.dark + feats.red_ink >= chips.PRINT_MIN
    return (np.asarray(why["_read"]) == ".") & printed & (feats.skin < chips.HAND_SKIN)


def _empty_cards(grid, symbols, conf, why, feats, orientation, match):
    """The unknown cells that show what their empty twin card shows (``empty_like_twins``),
    then those that show what another empty card of their rank or suit shows
    (``empty_like_cousins``), read empty: ``symbols``, ``conf`` and whether any was."""
    # (a cousin read empty no surer than by its shape alone stands in only with a second one
    # alike: see empty_like_cousins; ``conf`` as the twins left it)
    # (a cell a loose card's side runs through is partly under the card: what shows of it
    # says nothing of the part beneath)
    crossed = why.get("slanted_edge")
    twins, likeness = empty_like_twins(
        grid, symbols, orientation, printed=_printed_empty(why, feats), match=match
    )
    if crossed is not None:
        twins &= ~crossed
    symbols, conf = _taken(symbols, conf, twins, ".", likeness)
    # (cells doubted only beside a cover are no cover: not counted; those read as a chip
    # before are read back as one or stay unknown, never compared)
    beside = doubted_beside_cover(symbols, why)
    looked = symbols
    if beside.any():
        looked = np.where(beside & (why["_read"] != "."), why["_read"], symbols)
    cousins, likeness = empty_like_cousins(
        grid, looked, orientation, sure=conf > RED_PRINT_CONF, aside=beside, match=match
    )
    if crossed is not None:
        cousins &= ~crossed
    symbols, conf = _taken(symbols, conf, cousins, ".", likeness)
    return symbols, conf, bool(twins.any() or cousins.any())


@functools.cache
def _faces(orientation: int | None) -> np.ndarray | None:
    """The picture cards on screen for a known orientation (None while it is not known)."""
    return None if orientation is None else face_cells(orientation=orientation)
