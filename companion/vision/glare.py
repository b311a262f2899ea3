"""Glare: light added on top of the board (a lamp's reflection), estimated and taken off.

A specular reflection on a laminated board or on glossy chips *adds* the lamp's light to
whatever lies under it: black ink, the lines between cells and a chip's dark side are lifted by
the same amount as the card's white. Dividing by the local white (``colour.flatten_light``)
cannot undo an addition, so under a veil of glare the ink fades, boundaries seem gone and the
cells' borders look foreign. This module estimates the added light per cell and subtracts it
before the light is divided out, the "dark channel prior" of haze removal (He et al.): every
cell of a Sequence board shows something dark in at least one colour channel (black ink; red
ink is dark in green and blue; blue and green chips are dark in red; shading), so per cell the
darkest level of the per-pixel minimum over B, G, R says how much light lies on top of it.

Two signs must agree, so a cell whose printing is merely faint (a small red pip blurred) is not
taken for glare: its darkest level is lifted over the board's typical dark level, *and* its
brightest level over the light the board gets there (a plane fitted to the cells' whites, glare
spots left out). They need not agree in grey levels: a camera's tone curve squeezes the light
it adds near white, so glare in a picture is a veil that lifts each level by the same share of
its way up to white (the dark ink by far more levels than the white), or in a linear picture
by the same levels. The share the white's lift says, applied to the board's dark level, bounds
the dark's lift in either case; the smaller is what is taken off. A clipped white bounds
nothing: the dark says it alone.

Pure functions of small arrays (a straightened grid image of 10x10 cells).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.vision.cell_boxes import eroded_shares
from companion.vision.colour import cell_white_colours
from companion.vision.stats import nth_smallest, percentile_u8

VEIL_MIN = 24.0  # grey levels: a smaller lift anywhere on the board is left alone
VEIL_LIGHT = 255.0  # the light a veil of glare blends in: as bright as the camera records
WHITE_LIFT_MIN = 8.0  # grey levels above the fitted light a cell's white lies for some glare
WHITE_LIFT_SPREAD = 3.0  # ... and at least this many times the whites' spread about that light
NEAR_CLIPPED_MAX = 0.3  # of a cell clipped on a board lit close to clipping: glare left on
BLOWN_OUT = 245  # every channel at least this bright: the camera clipped the pixel
DARK_RANK = 25  # of 100 cells' darkest levels (ascending), the board's own dark level
PLANE_ROUNDS = 4  # refits of the light plane with cells lifted above it left out
PLANE_SLACK = 8.0  # grey levels above the fitted light a cell's white may lie without glare
PLANE_BELOW = 25.0  # ... and below it without a hand, a shadow or a chip over all of it
FIT_CELLS = 30  # cells the light is fitted to at least
PEAK_SLACK = 10.0  # grey levels a cell's veil may exceed the most of its neighbours'
SPOT_NEIGHBOURS = 2  # a lifted cell is glare with this many of its 8 neighbours half as lifted
SPOT_REACH = np.ones((5, 5), np.uint8)  # light is taken off within 2 cells of such a cell
AROUND = np.array([[1, 1, 1], [1, 0, 1], [1, 1, 1]], np.uint8)  # a cell's 8 neighbours
CHANNEL_CLIPPED = 240.0  # a channel this bright was (probably) clipped (JPEG and noise blur 255)
FIX_MIN = 8  # grey levels taken off below which a clipped channel is left as it is
CLIPPED = 250.0  # a cell white this bright may be clipped: it says nothing of the glare's size
HAZE_RANK = 1.0  # percentile of a grid's least channel: the board's darkest pixels
HAZE_DARK = 65.0  # ... at or above this level, the board lies under a haze
HAZE_KEEP = 20.0  # ... taken off down to this level (boards without haze: median 10-19)


def least_channel(bgr: np.ndarray) -> np.ndarray:
    """Per pixel, the least of B, G and R (uint8): the last channel to clip, and the one the
    light on top of a picture lifts by all of its level."""
    b, g, r = cv2.split(bgr)
    return cv2.min(cv2.min(b, g), r)


def _per_cell(img: np.ndarray, reduce, ny: int = 10, nx: int = 10) -> np.ndarray:
    """``reduce`` (``np.min``, ``np.max`` or ``np.sum``) of a one-channel image over each
    cell: rows of pixels first (contiguous, cheap for numpy), then columns."""
    h, w = img.shape[:2]
    ch, cw = h // ny, w // nx
    rows = reduce(img[: ch * ny, : cw * nx].reshape(ny, ch, cw * nx), axis=1)
    return reduce(rows.reshape(ny, nx, cw), axis=2).astype(np.float32)


def cell_levels(grid_bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per cell (10x10 float32 each), the darkest and the brightest level of the per-pixel
    minimum over B, G, R, 3x3-averaged (sensor noise and JPEG blocks are not ink). The
    minimum channel is the last to clip: glare lifts it by all of its light."""
    low = cv2.blur(least_channel(grid_bgr), (3, 3))
    return _per_cell(low, np.min), _per_cell(low, np.max)


def _plane_fit(design: np.ndarray, values: np.ndarray, keep: np.ndarray) -> np.ndarray:
    a = design[keep]
    return np.linalg.solve(a.T @ a, a.T @ values[keep])


_YS, _XS = np.mgrid[0:10, 0:10].astype(np.float64) / 9.0 - 0.5
# a quadratic surface over the 10x10 cells: a gradient and a vignette's fall-off
_DESIGN = np.stack(
    [
        np.ones(100),
        _XS.ravel(),
        _YS.ravel(),
        _XS.ravel() ** 2,
        (_XS * _YS).ravel(),
        _YS.ravel() ** 2,
    ],
    axis=1,
)


def light_plane(whites: np.ndarray) -> np.ndarray:
    """The light the board's white gets at each cell (10x10), without glare: a quadratic
    surface (gradients, vignetting) fitted to the cells' whites, refitted with the cells far
    from it left out (lifted above it: glare; far below: a hand, a shadow, a chip over the
    whole cell)."""
    values = whites.ravel().astype(np.float64)
    keep = values < CLIPPED
    if keep.sum() < FIT_CELLS:
        keep = np.ones_like(keep)
    fit = _DESIGN @ _plane_fit(_DESIGN, values, keep)
    for _ in range(PLANE_ROUNDS - 1):
        nxt = (values < CLIPPED) & (values <= fit + PLANE_SLACK) & (values >= fit - PLANE_BELOW)
        if nxt.sum() < FIT_CELLS or np.array_equal(nxt, keep):
            break
        keep = nxt
        fit = _DESIGN @ _plane_fit(_DESIGN, values, keep)
    return fit.reshape(10, 10).astype(np.float32)


@dataclass(eq=False)
class Veil:
    """Glare found on a grid image: per cell (10x10 float32, grey levels) the light added on
    top, and the light the board's white gets there without it (its minimum channel)."""

    added: np.ndarray
    light: np.ndarray
    white: np.ndarray  # the board white's colour (BGR float32, least channel 1)
    # cells glare lifted where the board is lit so close to clipping that how much it added
    # cannot be measured, nor taken off (10x10 bool): the signs it fades are still its doing
    unmeasured: np.ndarray = field(default_factory=lambda: np.zeros((10, 10), bool))
    _fields: dict = field(default_factory=dict, repr=False, compare=False)

    def per_pixel(self, w: int, h: int) -> tuple:
        """For a ``w`` x ``h`` grid image (kept for the next frames): the light added at every
        pixel (interpolated between the cells' centres) as a BGR uint8 image; the box where it
        reaches ``FIX_MIN`` (two slices); there, that mask and the white's light without the
        glare (its least channel, uint8)."""
        if (w, h) not in self._fields:
            field = cv2.resize(self.added, (w, h), interpolation=cv2.INTER_LINEAR)
            field8 = cv2.convertScaleAbs(field)  # rounded, saturated to 0..255
            reach = cv2.compare(field8, FIX_MIN, cv2.CMP_GE)
            x, y, bw, bh = cv2.boundingRect(reach)
            box = (slice(y, y + bh), slice(x, x + bw))
            light = cv2.resize(self.light, (w, h), interpolation=cv2.INTER_LINEAR)
            self._fields.clear()
            self._fields[w, h] = (
                cv2.merge([field8] * 3),
                box,
                np.ascontiguousarray(reach[box]),
                cv2.convertScaleAbs(light[box]),
            )
        return self._fields[w, h]

    @property
    def scale(self) -> tuple[float, float, float, float]:
        """The white's colour as an OpenCV scalar (multiplies each channel)."""
        return (*(float(v) for v in self.white), 0.0)

    @property
    def inverse(self) -> tuple[float, float, float, float]:
        return (*(1.0 / float(v) for v in self.white), 0.0)


def estimate_veil(grid_bgr: np.ndarray) -> Veil | None:
    """The glare on a grid image of 10x10 cells, or None where nothing on the board is lifted
    by ``VEIL_MIN`` or more (then the picture is read as it is)."""
    dark, white = cell_levels(grid_bgr)
    own_dark = float(nth_smallest(dark, DARK_RANK))
    lift_dark = dark - own_dark
    if float(lift_dark.max()) < VEIL_MIN:
        return None  # the common case: one cheap look, nothing to do
    light = light_plane(white)
    # Glare seen by a camera is a veil: it lifts every level by the same share of the way up
    # to VEIL_LIGHT (the dark ink by far more grey levels than a white near clipping, as a
    # camera's tone curve squeezes the light it adds) or, in a linear picture, by the same
    # levels. The share the white's lift says, applied to the board's dark level, bounds the
    # dark's lift in either case; a clipped white bounds nothing (the dark says it alone)
    lift_white = white - light
    least = white_lift_least(lift_white, lift_dark, white)
    share_white = np.where(
        lift_white >= least, lift_white / np.maximum(VEIL_LIGHT - light, 1.0), 0.0
    )
    # a clipped white says nothing of the light added: the dark says it alone, but on a board
    # lit close to clipping only where the cell is not much clipped itself (there a chip's
    # colour may be clipped away too, and taking the light off would leave its shaded rim,
    # read as printing: such a cell is left to the signs of glare not taken off)
    clipped = white >= CLIPPED
    near = clipped & (light >= CLIPPED - VEIL_MIN)
    if near.any():
        near &= _clipped_shares(grid_bgr) >= NEAR_CLIPPED_MAX
    share_white = np.where(clipped & ~near, np.inf, np.where(near, 0.0, share_white))
    bound = share_white * (VEIL_LIGHT - own_dark)
    added = np.clip(np.minimum(lift_dark, bound), 0.0, None).astype(np.float32)
    # glare is a broad, smooth spot: no cell lies far above all of its neighbours (one that
    # does shows faint printing, not more light) ...
    around = cv2.dilate(added, AROUND, borderType=cv2.BORDER_CONSTANT, borderValue=0)
    added = np.minimum(added, around + PEAK_SLACK)
    # ... and a spot lifts a cell and several cells beside it: only around such cells is
    # light taken off (a lone lifted cell is faint printing where the fit of the light is off)
    strong = (added >= VEIL_MIN).astype(np.uint8)
    beside = cv2.filter2D(
        (added >= VEIL_MIN / 2).astype(np.float32),
        -1,
        AROUND.astype(np.float32),
        borderType=cv2.BORDER_CONSTANT,
    )
    spots = strong & (beside >= SPOT_NEIGHBOURS) & ~fold_sheen(strong)
    added = np.where(cv2.dilate(spots, SPOT_REACH) > 0, added, 0.0).astype(np.float32)
    unmeasured = unmeasured_glare(lift_dark, white, light) & (added < VEIL_MIN)
    if not spots.any() and not unmeasured.any():
        return None
    return Veil(added=added, light=light, white=board_white(grid_bgr), unmeasured=unmeasured)


def board_haze(grid_bgr: np.ndarray) -> float:
    """Grey levels of haze over the whole board (0.0: none): a veil that lifts every cell
    alike (a misted lens, a window's reflection, a webcam's flat picture), which
    :func:`estimate_veil`, measuring each cell against the board's own dark level, cannot see.

    The board's darkest pixels say it: the 1st percentile of the per-pixel minimum over B, G
    and R (black ink, any chip's darkest channel, the shade at a chip's rim) measured 1-39 on
    280 frames of the independent renderer in any light (overexposed too) and up to 45 on a
    small, blurred board whose thin pips blur pale, and 80-97 under a haze blending 40 % of
    a light grey into the frame. (The cells' darkest levels, 3x3-averaged as
    :func:`cell_levels` takes them, do not tell: thin strokes average pale.) From
    ``HAZE_DARK`` it is taken off down to ``HAZE_KEEP``; the light division after it restores
    the colours' saturation."""
    darkest = percentile_u8(least_channel(grid_bgr), HAZE_RANK)
    return darkest - HAZE_KEEP if darkest >= HAZE_DARK else 0.0


def blown_out(
    bgr: np.ndarray, out: np.ndarray | None = None, level: float = BLOWN_OUT
) -> np.ndarray:
    """Glare: pixels the camera clipped (all channels at ``level`` or more before any white
    balance), uint8 0/255. ``out``: a uint8 image of the same size to write the mask into.
    (The least channel against the level: cheaper than a three-channel range test.)"""
    return cv2.compare(least_channel(bgr), level, cv2.CMP_GE, dst=out)


def _clipped_shares(grid_bgr: np.ndarray) -> np.ndarray:
    """Per cell (10x10 float32), the share of its pixels clipped in every channel."""
    clipped = blown_out(grid_bgr) // 255
    h, w = clipped.shape
    return _per_cell(clipped, np.sum) / float((h // 10) * (w // 10))  # (counted exactly)


def white_lift_least(lift_white: np.ndarray, lift_dark: np.ndarray, white: np.ndarray) -> float:
    """Grey levels a cell's white must lie above the fitted light to say glare lies there:
    ``WHITE_LIFT_MIN``, or ``WHITE_LIFT_SPREAD`` times the spread of the whites about the fit on
    the calm cells (darkest level not lifted, white not clipped), whichever is more. A white
    lifted less says nothing: a quadratic light fitted to a board under a steep gradient and
    warm light leaves cells 10-15 levels above it, and those levels, taken as a share of the
    little way left up to white, would say much."""
    calm = (lift_dark < VEIL_MIN) & (white < CLIPPED)
    if calm.sum() < FIT_CELLS:
        return WHITE_LIFT_MIN
    values = lift_white[calm]
    spread = 1.4826 * float(np.median(np.abs(values - np.median(values))))
    return max(WHITE_LIFT_MIN, WHITE_LIFT_SPREAD * spread)


FOLD_LINES = (4, 5)  # the rows (columns) of cells along a board's middle fold
SHEEN_CELLS = 4  # cells of one such row (column) a fold's sheen lights at least


def fold_sheen(lifted: np.ndarray) -> np.ndarray:
    """Of the ``lifted`` cells (10x10 bool), those that a folding board's sheen explains: a
    group of them (8-connected) lying within one row or column beside the board's middle
    (``FOLD_LINES``), along ``SHEEN_CELLS`` cells or more.

    A board that folds in half does not lie quite flat: the hinge bulges, and its ridge
    catches the light as a bright line along the middle, lighting the row (or column) of cards
    beside it from end to end. That is no lamp's spot, which is round and as deep as it is
    wide: taking it off as glare would treat the cards beside the fold as washed out, while
    they are read as they are (their white is simply brighter)."""
    out = np.zeros_like(lifted, dtype=bool)
    if not lifted.any():
        return out
    count, labels, stats, _ = cv2.connectedComponentsWithStats(lifted.astype(np.uint8), 8)
    for i in range(1, count):
        x, y, w, h = stats[i, :4]
        along_col = w == 1 and x in FOLD_LINES and h >= SHEEN_CELLS
        along_row = h == 1 and y in FOLD_LINES and w >= SHEEN_CELLS
        if along_col or along_row:
            out |= labels == i
    return out


def unmeasured_glare(lift_dark: np.ndarray, white: np.ndarray, light: np.ndarray) -> np.ndarray:
    """Cells (10x10 bool) where glare lifted the darkest level by ``VEIL_MIN`` or more over the
    board's own, but the board's white is lit so close to clipping there (a bright lamp, an
    over-exposed camera) that the white cannot rise by as much: the cell's white is clipped and
    says nothing of the added light (the darkest level alone measures it on a cell not much
    clipped itself, in a spot taken off; the caller keeps the others). Glare is a spot: such a
    cell has ``SPOT_NEIGHBOURS`` of its 8 neighbours lifted by half as much (faint printing
    lifts a lone cell); those neighbours, clipped too, lie on the spot's shoulder and count
    with it."""
    near_clipping = (white >= CLIPPED) & (light >= CLIPPED - VEIL_MIN)
    lifted = (lift_dark >= VEIL_MIN) & near_clipping
    if not lifted.any():
        return lifted
    shoulder = lift_dark >= VEIL_MIN / 2
    beside = cv2.filter2D(
        shoulder.astype(np.float32), -1, AROUND.astype(np.float32), borderType=cv2.BORDER_CONSTANT
    )
    core = (lifted & (beside >= SPOT_NEIGHBOURS)).astype(np.uint8)
    return (core > 0) | ((cv2.dilate(core, AROUND) > 0) & shoulder & near_clipping)


def board_white(grid_bgr: np.ndarray) -> np.ndarray:
    """The colour of the board's white (float32 BGR) scaled to a minimum channel of 1: the
    median of the cells' brightest colours where no channel is clipped (cells under glare or
    a clipped lamp left out)."""
    whites = cell_white_colours(grid_bgr).reshape(-1, 3).astype(np.float32)
    unclipped = whites[(whites < CLIPPED).all(axis=1)]
    white = np.median(unclipped if len(unclipped) >= 10 else whites, axis=0) + 1.0
    return white / white.min()


def remove_veil(grid_bgr: np.ndarray, veil: Veil) -> np.ndarray:
    """``grid_bgr`` with the added light taken off, in equal parts from B, G and R (the
    lamp's light, white in a white-balanced picture), interpolated smoothly between the cells'
    centres.

    A channel the camera clipped lost what lay above 255: taking the whole veil off it would
    leave it too dark (a warm card's red clips first, and the card would turn cyan). Its value
    is at least 255 minus the veil, and for the card's white what the unclipped channels say
    in the board white's proportions; the larger of the two is kept, so a white card stays
    white and a red chip, whose other channels are dark, stays red. A pixel clipped in every
    channel says nothing: it is painted as the board's white there without the glare (the
    caller keeps it flagged as clipped from the original)."""
    if not veil.added.any():
        return grid_bgr  # glare seen only where it could not be measured: nothing to take off
    h, w = grid_bgr.shape[:2]
    field3, box, reach, light = veil.per_pixel(w, h)
    out = cv2.subtract(grid_bgr, field3)
    # clipped channels, only where FIX_MIN or more was taken off (all in 8 bits: a level's
    # rounding is far below what clipping lost)
    if reach.size < 4:  # (OpenCV takes a tiny three-channel box for a scalar)
        return out
    part = np.ascontiguousarray(grid_bgr[box])
    b, g, r = cv2.split(part)
    brightest = cv2.max(cv2.max(b, g), r)
    some = cv2.bitwise_and(cv2.compare(brightest, CHANNEL_CLIPPED, cv2.CMP_GE), reach)
    if not cv2.countNonZero(some):
        return out
    seen = np.ascontiguousarray(out[box])
    lost = cv2.compare(part, CHANNEL_CLIPPED, cv2.CMP_GE)  # per channel
    # the pixel's brightness relative to the white (its least channel's share), from its
    # unclipped channels, or for a pixel clipped all over the white's own light there
    share = cv2.bitwise_and(cv2.multiply(seen, veil.inverse), cv2.bitwise_not(lost))
    rb, rg, rr = cv2.split(share)
    level = cv2.max(cv2.max(rb, rg), rr)
    least = cv2.min(cv2.min(b, g), r)
    everywhere = cv2.bitwise_and(cv2.compare(least, CHANNEL_CLIPPED, cv2.CMP_GE), some)
    cv2.copyTo(light, everywhere, level)
    guess = cv2.max(seen, cv2.multiply(cv2.merge([level] * 3), veil.scale))
    cv2.copyTo(guess, cv2.bitwise_and(lost, cv2.merge([some] * 3)), seen)
    out[box] = seen
    return out


def chip_room(
    clipped: np.ndarray,
    cells: np.ndarray,
    cell_w: int,
    cell_h: int,
    diameter: int,
    inset: tuple[int, int] = (0, 0),
) -> np.ndarray:
    """Per cell (10x10 float32, 0 where not marked in ``cells``), the share of the cell where
    a disc of ``diameter`` pixels fits whole inside the clipped pixels (``clipped``: a 0/255
    uint8 mask of a grid image of 10x10 cells of ``cell_w`` x ``cell_h`` pixels), centred there;
    with ``inset`` (x, y), of the cell's part that many pixels in from each side (where a
    chip's centre can lie) only.

    A chip washed out whole by glare is a clipped disc; where the clipped part of a cell
    leaves no room for one (printing shows through it, it is a thin ring or a crescent around
    the printing), every chip on the cell would show some of its colour. Outside the image
    counts as not clipped (no room beyond the board's edge)."""
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (diameter, diameter))
    return eroded_shares(lambda box: clipped[box], cells, cell_w, cell_h, kernel, inset, 0)
