"""Read the chips of 100 cells from a straightened grid image.

The grid image is the playing area warped to 10x10 square cells of ``CELL`` pixels, in screen
order (row 0 = top of the image). A chip is a disc of one colour *inside* one cell: after an
erosion that removes printed strokes, its colour still covers a good part of the cell, while the
cell's border ring stays mostly free. A hand, an arm or a sleeve covers the ring as well, and glare
washes a chip out; both make the cell unknown (``?``) instead of a guess.
"""

from __future__ import annotations

import functools
import math
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

import cv2
import numpy as np

from companion.vision.causes import held_only_by
from companion.vision.cell_boxes import cell_extremes, eroded_shares
from companion.vision.colour import (
    CHIP_SYMBOLS,
    CLASSES,
    GREY_WEIGHTS,
    WHITE_LEVEL,
    ColourProfile,
    cell_white_colours,
    class_mask,
    class_masks,
    colour_code,
    dark_level,
    flatten_light,
    light_gains,
    local_whites,
)
from companion.vision.glare import (
    CHANNEL_CLIPPED,
    Veil,
    blown_out,
    board_haze,
    chip_room,
    estimate_veil,
    remove_veil,
)
from companion.vision.packed import erode_bits_ellipse5
from companion.vision.shade import edge_cells, shade_whites
from companion.vision.slanted_edges import slanted_edge_cells
from companion.vision.stats import (
    median,
    nth_smallest,
    percentile_u8,
    row_counts,
    row_medians,
    row_percentiles,
)

CELL = 24  # pixels per cell side in the grid image
INNER = 3  # pixels of each cell's border treated as its ring
CHIP_MIN = 0.16  # eroded chip-colour fraction of the inner cell above which a chip is read
EMPTY_MAX = 0.04  # ... below which the cell is empty
RING_MAX = 0.3  # a chip may touch the ring (off-centre), a hand covers it
RING_MAX_CHIP = 0.45  # ... a solid, dominant chip without skin on it may touch more
SOLID_DOMINANCE = 0.8  # a chip colour this far ahead of the others is a solid chip
GLARE_MAX = 0.25
BLANK_CONTENT = 0.02  # a cell with less ink or colour than this share shows no printing
GLARE_ALL = 0.9  # a cell (nearly) all clipped white could hide a washed-out chip
WASHED_TINT = 0.25  # a broad pale tint over this much of a clipped cell: a washed-out chip
WASHED_BLANK_TINT = 0.15  # ... or this much where the cell shows no printing at all
SOLIDITY_MIN = 0.45  # eroded / raw colour fraction of a red chip (a solid disc) at least
REFERENCE_MARGIN = 0.12  # with a calibration, a chip shows this much more than the empty cell
RED_CORE_MIN = 0.26  # eroded red share no printed symbol keeps (bold ink < INK_ERODED_MAX) ...
SOLIDITY_MIN_CORE = 0.35  # ... with this share of the cell's red surviving the erosion
RED_DISC_MIN = 0.1  # ... or red keeping this much through an erosion by a chip's core
TINT_DISC_MIN = 0.2  # ... inside a tinted disc this broad (seen: chips >= 0.2, ink <= 0.16)
SOLIDITY_MIN_BG = 0.3  # ... of a blue or green one (no printed ink in those colours)
WHITE_MIN = 0.6
RING_CHIP_MAX = 0.75  # a chip never covers more of its cell's border than this
RAW_MAX = 0.95  # ... nor all of the cell (a disc in a square covers at most 0.79 of it)
INK_SOLIDITY_MAX = 0.3  # printed strokes: under a third of the colour survives the erosion
INK_RAW_MAX = 0.25  # thin printed strokes cover little of a cell; more is a chip or unknown  # a cell whose brightest part is darker than this share of the typical cell's
INK_ERODED_MAX = 0.22  # bold ink never keeps this much through the erosion (chips keep >= 0.26)
INK_CELLS = 8  # this board's own red ink is measured over at least this many cells like it
INK_BOLD_RAW_MAX = 0.5  # ... nor covers this much of the cell (red chips: >= 0.48 at 1 %)
INK_RAW_ALL = 0.7  # thin red over more of a cell than any printing covers (bold hearts 0.59)
PIP_RAW_MAX = 0.4  # one big printed pip covers up to ~0.36 of the inner cell
WASHED_RING_RED = 0.25  # red over this much of a veiled, broadly tinted cell: a washed chip's rim
SHOULDER_CLIPPED = 0.02  # a cell this much clipped white lies under a glare spot's shoulder
PIP_GLARE = 0.1  # a cell this much clipped white may hold a washed-out chip, not a pip
DARK_BLOB_MAX = 0.15  # bold printed symbols stay below this; a shadowed chip or sleeve does not
EMPTY_RAW_BG_MAX = 0.3  # an empty cell shows less blue or green than this (empty cards: < 0.2)
NEAR_RAW_BG = 0.1  # next to a covered cell, this much blue or green may be a hidden chip's edge
NEAR_TINT_DISC = 0.3  # ... a chip-sized core of tint in a cell read empty (a hand's blur, a chip)
NEAR_RAW_MIXED = 0.2  # ... and a second chip colour over this much of a chip cell (held chips)
PART_BG_MIN = 0.17  # a cell read empty with this much blue or green (text, mat: <= 0.11; card
# pictures up to 0.18, 0.16 on a board whose other pictures are hidden) ...
PART_BG_MARGIN = 0.09  # ... and this much more than the board's empty cells' upper decile
PART_BG_TINT = 0.3  # ... or NEAR_RAW_BG of it inside a broad tint over this much (card pictures
# with as much blue: <= 0.25)
BOARD_CELLS = 10  # a board's own empty cells are measured over at least this many of them
PRINT_MIN = 0.02  # an empty card shows at least this much dark or red printing ...
PALE_SKIN = 0.1  # ... unless skin spread over this much of it hides it (a pale hand)
PALE_HAND = 0.5  # skin over this much of an unprinted cell is a hand on its own ...
PALE_HAND_TINT = 0.3  # ... spread broadly (eroded tint), not the thin edge of a picture
DIM_HAND_TINT = 0.5  # skin over a cell spread this broadly (eroded tint) ...
DIM_HAND_WHITE = 0.9  # ... with the card's white this dim is a hand, whatever print shows
PATTERN_RED_MIN = 0.55  # thin red over more of a cell than printing covers (bold hearts: 0.59)
NEAR_RAW_RED = 0.4  # ... and this much red that is not a solid disc (a red card back's pattern)


@dataclass(slots=True)
class CellFeatures:
    """10x10 arrays measured per cell (screen order)."""

    chip: dict[str, np.ndarray]  # eroded fraction of each chip colour in the inner cell
    raw: dict[str, np.ndarray]  # un-eroded fraction of each chip colour in the inner cell
    ring: np.ndarray  # fraction of the cell's border ring unlike the typical cell's ring
    edges_missing: np.ndarray  # how many of the cell's 4 boundary lines do not show (0..4)
    ring_chip: np.ndarray  # fraction of the border ring in chip colours
    skin: np.ndarray
    glare: np.ndarray
    dark: np.ndarray  # black ink and shadows in the inner cell
    dark_blob: np.ndarray  # dark pixels surviving the erosion: a solid dark object, not ink
    white: np.ndarray  # the cell's brightest part relative to the typical cell's (card visible?)
    red_ink: np.ndarray  # raw red fraction in the inner cell
    # of the cell's 4 boundaries / 4 corner points, how many lie in chip colours
    coloured_sides: np.ndarray | None = None
    coloured_corners: np.ndarray | None = None
    faint_print: np.ndarray | None = None  # thin strokes a little darker than the card (faded ink)
    tinted_blob: np.ndarray | None = None  # broad areas of any colour, however pale
    tinted_disc: np.ndarray | None = None  # ... as broad as a chip (no printed pip is)
    # red left after the same erosion by a chip's core (no printed symbol keeps any); measured
    # only where a red cell keeps too little of its red through the small erosion to be read
    red_disc: np.ndarray | None = None
    # ``tinted_disc`` on the cells in doubt only (0 elsewhere): those red cells, and glared
    # cells with a broad tint; the whole of ``tinted_disc`` where that was measured
    tint_core: np.ndarray | None = None
    # per chip colour, the fraction of the cell's border ring in that colour
    ring_colour: dict[str, np.ndarray] | None = None
    # per pixel of the grid image: any chip colour (uint8 0/255), for the chip-placement check
    chip_mask: np.ndarray | None = None
    # per chip colour, its eroded mask of the grid image (uint8 0/255; the solid parts whose
    # per-cell shares are ``chip``): kept for a look at chips off their cells' centres
    eroded_chips: dict[str, np.ndarray] | None = None
    # blue or green however pale (a chip washed out by glare), eroded fraction of the inner cell
    pale_bg: np.ndarray | None = None
    # skin surviving the erosion (fingers, not the orange fringe of a blurred chip by red ink);
    # measured only where a chip cell shows skin and a foreign border
    skin_blob: np.ndarray | None = None
    # the cell's darkest (3x3-averaged) grey level over the board's white (light divided
    # out): a veil of glare lifts the darkest ink and shading with it; measured only where
    # boundaries seem gone
    black: np.ndarray | None = None
    # ... and there, broad areas of any colour however pale (what a washed-out chip leaves)
    veil_tint: np.ndarray | None = None
    # the light glare added on each cell, already taken off (``glare.estimate_veil``; zeros
    # where none was found); None: not measured
    glare_added: np.ndarray | None = None
    # cells glare lifted where the board's light was too close to clipping to measure how much
    # (nothing taken off; ``glare.unmeasured_glare``); None: no glare found
    glare_unmeasured: np.ndarray | None = None
    # share of each cell's border ring clipped white in the picture (measured only where glare
    # was found)
    ring_clipped: np.ndarray | None = None
    # ``ring`` without an edge cell's side facing the board's margin (equal to it elsewhere)
    ring_inside: np.ndarray | None = None
    # on glared cells clipped over ``GLARED_PRINT``, the share of the cell where a chip-sized
    # disc fits whole in the clipped part (``glare.chip_room``; 1 on the other cells); None:
    # no such cell
    clip_room: np.ndarray | None = None
    # ``ring`` without the foreign strips that run along a whole row or column of cells (a
    # fold crease, a grid line a little off): ``off_board_lines``; None: no such strip
    ring_off_lines: np.ndarray | None = None
    # how far straight edges at a slant to the grid run through the cell, in cells (a loose
    # card's sides: ``slanted_edges``); None: not looked at (no sign of a cover)
    slanted_edge: np.ndarray | None = None
    # ``ring`` where a cast shadow may cross the border (``shaded_borders``), on the cells
    # whose border looks foreign; None: no such cell
    ring_shaded: np.ndarray | None = None
    # the cells a cast shadow's edge crosses, where its light was divided out pixel by pixel
    # (``shade.edge_cells``); None: no cast shadow found
    shade_edges: np.ndarray | None = None
    # per chip colour, the share of each inner grid intersection (9x9; 3x3 pixels) in that
    # colour beyond what this board's own intersections show (``corner_colours``); measured
    # only for the colours read in the four cells around some intersection (None: none)
    corner_colour: dict[str, np.ndarray] | None = None
    # skin too dark for the skin class (a dark-skinned hand, fingers in their own shadow),
    # surviving the erosion (``dark_skin``); None: none on the board
    dark_skin: np.ndarray | None = None
    # per pixel of the grid image, the red, dark (black ink), blue and green class masks as
    # measured (uint8 0/255): for a look at the printing beside the chips
    # (``ink_beside_chips``) and at the shapes of chips (``red_print``, ``small_chips``)
    ink_masks: dict[str, np.ndarray] | None = None
    # per pixel of the grid image, its colour classes' bits (``colour.colour_code``): for a
    # late look at a class measured on no frame otherwise (``small_chips.pale_discs``)
    colour_code: np.ndarray | None = None
    # the grid image in HSV with the light divided out (and glare taken off), as classified:
    # for a late look at faint hues (``small_chips.washed_discs``)
    hsv: np.ndarray | None = None

    @property
    def red_strongest(self) -> np.ndarray:
        """Cells (10x10 bool) whose strongest chip colour after the erosion is red."""
        chip = self.chip
        return (chip["R"] >= chip["B"]) & (chip["R"] >= chip["G"])

    @property
    def glared(self) -> np.ndarray | None:
        """Cells where glare was found: taken off (``GLARE_TAKEN`` grey levels or more), or
        found on a board lit too close to clipping to measure it. None: not measured."""
        if self.glare_added is None:
            return None
        if self.glare_unmeasured is None:
            return self.glare_added >= GLARE_TAKEN
        return (self.glare_added >= GLARE_TAKEN) | self.glare_unmeasured

    @property
    def content(self) -> np.ndarray:
        """What shows inside each cell besides its card white: ink, chip colour, skin."""
        return self.red_ink + self.dark + self.raw["B"] + self.raw["G"] + self.skin


@dataclass(frozen=True)
class CellShape:
    """Pixel layout of a grid image of 10x10 cells of ``w`` x ``h`` pixels: the inner part of
    each cell, its border ring and the ring's flat pixel indices (computed once per shape)."""

    w: int
    h: int

    @property
    def size(self) -> tuple[int, int]:
        return (10 * self.w, 10 * self.h)

    @functools.cached_property
    def inner_x(self) -> int:
        """Pixels of each cell's left and right border (its ring)."""
        return _border(self.w)

    @functools.cached_property
    def inner_y(self) -> int:
        return _border(self.h)

    @functools.cached_property
    def inner_count(self) -> int:
        """Pixels in one cell's inner part."""
        return (self.w - 2 * self.inner_x) * (self.h - 2 * self.inner_y)

    @functools.cached_property
    def inner(self) -> np.ndarray:
        cell = np.zeros((self.h, self.w), np.float32)
        iy, ix = self.inner_y, self.inner_x
        cell[iy:-iy, ix:-ix] = 1.0
        return np.tile(cell, (10, 10))

    @functools.cached_property
    def count_shares(self) -> np.ndarray:
        """Per count of set pixels in a cell's inner part (0 .. :attr:`inner_count`), its
        share of the part (float32, as :func:`_per_cell` gives it)."""
        counts = np.arange(self.inner_count + 1, dtype=np.uint32)
        return _shares(counts * np.uint32(255), self.inner_count)

    @functools.cached_property
    def ring(self) -> np.ndarray:
        return 1.0 - self.inner

    @functools.cached_property
    def boundary_xs(self) -> np.ndarray:
        """Pixel columns of the 11 vertical cell boundaries (the last one inside the image)."""
        return np.minimum(np.arange(11) * self.w, 10 * self.w - 1)

    @functools.cached_property
    def boundary_ys(self) -> np.ndarray:
        return np.minimum(np.arange(11) * self.h, 10 * self.h - 1)

    @functools.cached_property
    def near_xs(self) -> np.ndarray:
        """11 x 3: each vertical boundary's pixel column and its two neighbours (inside)."""
        return np.clip(self.boundary_xs[:, None] + np.arange(-1, 2), 0, 10 * self.w - 1)

    @functools.cached_property
    def near_ys(self) -> np.ndarray:
        return np.clip(self.boundary_ys[:, None] + np.arange(-1, 2), 0, 10 * self.h - 1)

    @functools.cached_property
    def pool_xs(self) -> np.ndarray:
        """11 x pool: the pixel columns near each vertical boundary (within ``EDGE_POOL``)."""
        offsets = np.arange(-EDGE_POOL, EDGE_POOL + 1)
        return np.clip(np.arange(11)[:, None] * self.w + offsets, 0, 10 * self.w - 1)

    @functools.cached_property
    def pool_ys(self) -> np.ndarray:
        offsets = np.arange(-EDGE_POOL, EDGE_POOL + 1)
        return np.clip(np.arange(11)[:, None] * self.h + offsets, 0, 10 * self.h - 1)

    @functools.cached_property
    def _ring_yx(self) -> tuple[np.ndarray, np.ndarray]:
        """Row and column within its cell of each of a cell's :attr:`ring_pixels`."""
        ys, xs = np.nonzero(self.ring[: self.h, : self.w] > 0)
        return ys[::2], xs[::2]  # every other ring pixel says as much, at half the cost

    @functools.cached_property
    def outer_ring(self) -> np.ndarray:
        """100 x ring bool: the :attr:`ring_pixels` on the side of an edge cell that faces
        the board's margin (none for the inner cells)."""
        ys, xs = self._ring_yx
        sides = {
            "top": ys < self.inner_y,
            "bottom": ys >= self.h - self.inner_y,
            "left": xs < self.inner_x,
            "right": xs >= self.w - self.inner_x,
        }
        out = np.zeros((10, 10, len(ys)), bool)
        out[0] |= sides["top"]
        out[9] |= sides["bottom"]
        out[:, 0] |= sides["left"]
        out[:, 9] |= sides["right"]
        return out.reshape(100, -1)

    @functools.cached_property
    def ring_pixels(self) -> np.ndarray:
        ys, xs = self._ring_yx
        rows = []
        for r in range(10):
            for c in range(10):
                rows.append((r * self.h + ys) * (10 * self.w) + c * self.w + xs)
        return np.array(rows)

    @functools.cached_property
    def ring_maps(self) -> tuple[np.ndarray, np.ndarray]:
        """The x and y of every :attr:`ring_pixels` entry in the grid image (100 x ring
        float32 each), as ``cv2.remap`` takes them (:func:`ring_values`)."""
        ys, xs = np.divmod(self.ring_pixels, 10 * self.w)
        return xs.astype(np.float32), ys.astype(np.float32)


def ring_values(image: np.ndarray, shape: CellShape) -> np.ndarray:
    """A grid image's pixels at every cell's :attr:`CellShape.ring_pixels` (100 x ring, x
    channels): a nearest-neighbour remap at their whole-pixel positions gives exactly what
    ``np.take`` at those indexes gives, for a third to a half less (numpy gathers a
    pixel's bytes one index at a time)."""
    return cv2.remap(image, *shape.ring_maps, cv2.INTER_NEAREST)


def _border(n: int) -> int:
    return max(2, int(round(n * INNER / CELL)))


@functools.lru_cache(maxsize=8)
def cell_shape(w: int, h: int) -> CellShape:
    return CellShape(w, h)


def shape_for_aspect(aspect: float) -> CellShape:
    """Cells of about ``CELL`` x ``CELL`` pixels' area with the board's width/height ratio, so
    chips stay round in the grid image (landscape cards are 1.5 times wider than tall)."""
    aspect = float(np.clip(aspect, 0.5, 2.0))
    w = int(round(CELL * np.sqrt(aspect)))
    h = int(round(CELL / np.sqrt(aspect)))
    return cell_shape(w, h)


def shape_of(grid: np.ndarray) -> CellShape:
    h, w = grid.shape[:2]
    if h % 10 or w % 10:
        raise ValueError(f"a grid image must be 10 cells each way, not {w}x{h} pixels")
    return cell_shape(w // 10, h // 10)


def _per_cell(mask: np.ndarray, shape: CellShape) -> np.ndarray:
    """Fraction of set pixels of a 0/255 uint8 mask in the inner part of each cell: 10x10."""
    return _per_cell_planes(mask[None], shape)[0]


def _per_cell_planes(planes: np.ndarray, shape: CellShape) -> np.ndarray:
    """:func:`_per_cell` of K masks stacked in one K x H x W array: K x 10 x 10.

    One integer sum over the inner rows of every cell row (contiguous pixel rows, cheap
    for numpy), then one over the inner columns of every cell: exact counts, no inner-part
    mask, no float copy of the images.

    The row sums stay in 8 bits: 255 is -1 modulo 256, so a column's wrapped byte sum is
    minus its count of set pixels (exact below 128 rows: :func:`_wrapped_sum`), and no wider
    copy is made; each cell's inner columns are then summed by one OpenCV row reduction over
    a view of them (no BLAS call, whose helper threads would spin on a shared machine; a
    quarter of the cost of a box filter along the rows).
    """
    w, h = shape.w, shape.h
    ix, iy = shape.inner_x, shape.inner_y
    k = planes.shape[0]
    rows = planes.reshape(k * 10, h, 10 * w)[:, iy : h - iy]
    if h - 2 * iy < 128:
        column_counts = np.negative(_wrapped_sum(rows))
        # each cell's inner columns summed: one OpenCV row sum over a view of them
        inner_columns = column_counts.reshape(k * 100, w)[:, ix : w - ix]
        sums = cv2.reduce(inner_columns, 1, cv2.REDUCE_SUM, dtype=cv2.CV_32S)
        counts = sums.reshape(k, 10, 10)
        return shape.count_shares[counts]  # each count's share, looked up
    else:
        rows = rows.sum(axis=1, dtype=np.uint32)
        counts = rows.reshape(k, 10, 10, w)[..., ix : w - ix].sum(axis=-1, dtype=np.uint32)
    return _shares(counts * np.uint32(255), shape.inner_count)


def _wrapped_sum(rows: np.ndarray) -> np.ndarray:
    """``rows.sum(axis=1, dtype=np.uint8)`` of a K x N x W stack of 0/255 masks, N < 128: the
    same bytes (minus each column's count of set pixels, modulo 256).

    As signed bytes the masks are 0 and -1, and OpenCV's saturating add of signed bytes never
    saturates on fewer than 128 of them: halves of each block's rows are added to each other
    (each block's rows one contiguous span, a 2-D view OpenCV takes as it is) until one row
    is left, at half the cost of numpy's additions or its reduction along the middle axis."""
    k, n, w = rows.shape
    acc = rows.view(np.int8).reshape(k, n * w)
    while n > 1:
        half = n // 2
        top = cv2.add(acc[:, : half * w], acc[:, half * w : 2 * half * w])
        if n % 2:
            top[:, :w] = cv2.add(top[:, :w], acc[:, 2 * half * w : (2 * half + 1) * w])
        acc, n = top, half
    return acc.view(np.uint8)


def _shares(counts: np.ndarray, inner_count: int) -> np.ndarray:
    """Counts of set pixels (times 255) as shares of a cell's inner part, float32."""
    return (counts * (1.0 / (255.0 * inner_count))).astype(np.float32)


RING_DIFF = 22.0  # a ring pixel this far (0..255, any channel) from the ring palette is foreign
PALETTE = 6
COUNTED = (*CHIP_SYMBOLS, "dark", "skin", "glare")  # masks measured per cell as they are ...
# ... and after the erosion (solid parts only); "tinted" is kept only on boards whose cells look
# blank, clipped or pale-handed, but counted with the others (one more plane in the stack costs
# less than a count of its own)
ERODED = (*CHIP_SYMBOLS, "dark", "pale_bg", "tinted")
CHIP_BITS = sum(1 << CLASSES.index(sym) for sym in CHIP_SYMBOLS)  # of a colour code


def ring_colour_counts(ring_bits: np.ndarray, chip_ring: np.ndarray) -> np.ndarray:
    """Per cell, how many of its ring pixels show each chip colour and any of them (100 x 4,
    ``CHIP_SYMBOLS`` then any): ``ring_bits``, the colour code's chip bits at each cell's ring
    pixels (100 x ring); ``chip_ring``, where any is set. One row sum of each colour's bit (a
    set bit adds its own value: the sum shifted back is the count); a few small OpenCV calls,
    cheaper than counting every combination of the bits per cell."""
    counts = []
    for sym in CHIP_SYMBOLS:
        bit = CLASSES.index(sym)
        summed = cv2.reduce(
            cv2.bitwise_and(ring_bits, 1 << bit), 1, cv2.REDUCE_SUM, dtype=cv2.CV_32S
        )
        counts.append(summed.ravel() >> bit)
    counts.append(row_counts(chip_ring))
    return np.stack(counts, axis=1)


def cell_whites(img: np.ndarray, shape: CellShape) -> np.ndarray:
    """The brightest (3x3-averaged) grey level of each cell: 10x10 float."""
    grey = cv2.cvtColor(cv2.blur(img, (3, 3)), cv2.COLOR_BGR2GRAY)
    return cell_extremes(grey, shape.w, shape.h, np.maximum).astype(np.float32)


def normalised_rings(img: np.ndarray, whites: np.ndarray, shape: CellShape) -> np.ndarray:
    """Every cell's border ring (100 x ring x 3, float), each cell divided by its own white."""
    ring = ring_values(img, shape).astype(np.float32)
    ring *= (200.0 / (whites.reshape(100) + 1.0))[:, None, None]
    return ring


def ring_palette(ring: np.ndarray) -> np.ndarray:
    """The few colours of a typical cell border: k-means of the median ring over all cells."""
    # each ring pixel's median over the cells, as np.median(ring, axis=0) gives it: one sort
    # of each pixel's values, the rows of a transposed copy (under half of np.median's cost)
    by_pixel = np.ascontiguousarray(ring.reshape(ring.shape[0], -1).T)
    template = row_medians(by_pixel).reshape(ring.shape[1:])
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    cv2.setRNGSeed(1)  # the same palette for the same picture
    _, _, palette = cv2.kmeans(template, PALETTE, None, criteria, 3, cv2.KMEANS_PP_CENTERS)
    return palette


def _near_palette(ring: np.ndarray, palette: np.ndarray) -> np.ndarray:
    """Per ring pixel (``ring``: cells x ring x 3, flattened to one bool per pixel), whether
    every channel lies within ``RING_DIFF`` of some ``palette`` colour (the bounds inclusive,
    in float32).

    One range test of every channel plane against every palette colour at once (numpy
    broadcasting, colours x channels x pixels), then an and over the channels and an or over
    the colours: vectorised compares, several times cheaper than a ``cv2.inRange`` per colour
    and channel (which tests float pixels one at a time), and far cheaper than distances."""
    planes = np.ascontiguousarray(ring.reshape(-1, 3).T)  # channels x pixels
    colours = palette.astype(np.float32)[:, :, None]  # colours x channels x 1
    diff = np.float32(RING_DIFF)
    box = (planes >= colours - diff) & (planes <= colours + diff)
    inside = box[:, 0] & box[:, 1] & box[:, 2]  # colours x pixels
    return np.logical_or.reduce(inside, axis=0)


class RingAnomalies(NamedTuple):
    """:func:`ring_anomalies`: per cell (10x10 float), the share of its border ring foreign,
    the same without an edge cell's side facing the margin, and without the board's lines."""

    share: np.ndarray
    inside: np.ndarray | None
    off_lines: np.ndarray | None


def ring_anomalies(
    ring: np.ndarray,
    palette: np.ndarray,
    chip_ring: np.ndarray | None = None,
    outer: np.ndarray | None = None,
    lines: bool = False,
    light: np.ndarray | None = None,
) -> RingAnomalies:
    """Per cell, the fraction of its border ring in colours the board's rings do not show;
    and (given ``outer``, 100 x ring bool: the sides of the edge cells that face the board's
    margin) the same without those sides, else None; and (with ``lines``) the same without
    what the board's own lines explain (:func:`off_board_lines`), None if no line shows.

    Every cell's border shows the same few colours (the gap, the card's edge, a printed line),
    the ``palette`` from :func:`ring_palette`. An arm, a hand or a sleeve crossing a cell brings
    other colours onto most of its ring, an off-centre chip onto a small part, and a grid line a
    little off along the board's edge the margin onto the edge cells' outer sides. Comparing
    with a palette rather than pixel by pixel tolerates a grid that is off by a pixel or two,
    and dividing each cell by its own white tolerates uneven light. Pixels of chip colours
    (``chip_ring``, 100 x ring bool) are left out: the cell's own chip may overlap its border.

    ``light`` (10x10, :func:`border_light`): how much lighter the borders around each cell are
    than the board's; a pixel near a palette colour as it is or taken back to the board's
    light is the board's (the card's white clips alike everywhere, its gap follows the light).
    """
    near = _near_palette(ring, palette)
    if light is not None:
        lit = ring / light.reshape(-1, 1, 1).astype(np.float32)
        near |= _near_palette(lit, palette)
    foreign = ~near.reshape(ring.shape[:2])
    if chip_ring is not None:
        foreign &= ~chip_ring
    share = (row_counts(foreign) / foreign.shape[1]).reshape(10, 10).astype(np.float32)
    # a palette that misses one of the board's own colours raises every cell alike: only what
    # stands out from the typical cell counts
    typical = _typical(share)
    inside = None
    if outer is not None:
        kept = row_counts(~outer)
        inside_share = row_counts(foreign & ~outer) / np.maximum(kept, 1)
        inside = np.clip(inside_share.reshape(10, 10).astype(np.float32) - typical, 0, 1)
    off_lines = None
    if lines and (share - typical > RING_MAX)[~CORNERS].any():
        # (only a border foreign enough for a cover needs the lines taken off)
        off_lines = off_board_lines(foreign)
    return RingAnomalies(np.clip(share - typical, 0, 1), inside, off_lines)


LINE_MAX = 0.6  # a line covers at most this share of a cell's ring (a grid a cell off: all)
LINE_CELLS = 6  # ... and shows in the same place of the ring of this many cells of ten


def off_board_lines(foreign: np.ndarray) -> np.ndarray | None:
    """Per cell (10x10 float), the share of its border ring foreign (``foreign``: 100 x ring
    bool, the same ring pixel order in every cell) beyond what the board's own lines explain,
    less the typical cell's; None where the board shows no such line.

    A fold crease, a printed rule or a grid line a little off (a lens, a warped board) runs
    along a whole row or column of cells: most cells there show a foreign pixel at the same
    place of their ring. Such pixels (in ``LINE_CELLS`` of the ten cells of a row or a column)
    are the line's, unless they make up more than ``LINE_MAX`` of the ring (a whole strip of
    table or margin: a grid a cell off). A hand or an arm lies over a few cells of a line, or
    over a cell's ring all round."""
    cells = foreign.view(np.uint8).reshape(10, 10, -1)
    along_row = cells.sum(axis=1, dtype=np.uint8) >= LINE_CELLS  # 10 rows x ring
    along_col = cells.sum(axis=0, dtype=np.uint8) >= LINE_CELLS  # 10 columns x ring
    along_row[along_row.mean(axis=1) > LINE_MAX] = False
    along_col[along_col.mean(axis=1) > LINE_MAX] = False
    if not (along_row.any() or along_col.any()):
        return None
    left = foreign.reshape(10, 10, -1) & ~along_row[:, None, :] & ~along_col[None, :, :]
    share = left.mean(axis=2, dtype=np.float32)
    return np.clip(share - _typical(share), 0, 1)


def _typical(share: np.ndarray) -> float:
    """The typical cell's share (10x10: the upper median, one partial sort): a palette that
    misses one of the board's own colours raises every cell alike."""
    return float(nth_smallest(share, 50))


SHADES = (0.35, 0.45, 0.55, 0.65, 0.75, 0.85)  # a cast shadow keeps this share of the light
# ... and is no warmer than the light: the room's fill light is as white or bluer than the lamp
# (the median over a border's shaded pixels of their red's share of the board colour they
# match, over their blue's). Fingers in a cool light are greyish but warm: 1.12-1.14 on the
# three arm cells whose chips a first version read empty under them; the shadow sets' shaded
# borders measured 0.87-0.93 (their shade tinted blue)
SHADE_WARMTH_MAX = 1.02


def shaded_borders(
    rings: np.ndarray, palette: np.ndarray, chip_ring: np.ndarray, cells: np.ndarray
) -> np.ndarray:
    """Per cell (10x10 float; 1 where not measured), the share of its border ring foreign when
    the ring may lie in a shade in part: its pixels near a palette colour as they are or
    brightened back by one of ``SHADES``, the latter no warmer than that colour
    (``SHADE_WARMTH_MAX``); measured on ``cells`` (10x10 bool) only.

    Someone beside the table casts a shadow across the board, its edge soft and straight: a
    cell under the edge is divided by its lit part's white, and the shaded part of its border
    comes out darker than any border of the board, though in the board's own colours. A
    dark sleeve or card lying there is darker too, but hides the cell's lines, which a shadow
    leaves showing: the caller measures only cells whose lines show."""
    share = np.ones(100, np.float32)
    at = np.flatnonzero(cells)
    if not at.size:
        return share.reshape(10, 10)
    colours = palette.astype(np.float32)
    ring = rings[at]  # (all the cells' rings at once: one palette test per shade)
    near = _near_palette(ring, colours).reshape(ring.shape[:2])
    shaded = np.zeros_like(near)
    matched = np.zeros_like(ring)  # the palette colour each shaded pixel matched
    for keep in SHADES:
        lit = ring * np.float32(1.0 / keep)
        hit = _near_palette(lit, colours).reshape(near.shape) & ~near & ~shaded
        if hit.any():
            off = np.abs(lit[hit][:, None, :] - colours[None]).max(axis=2)
            matched[hit] = colours[off.argmin(axis=1)]
            shaded |= hit
    for i in np.flatnonzero(shaded.any(axis=1)):
        share_of = ring[i][shaded[i]] / np.maximum(matched[i][shaded[i]], 1.0)
        warmth = float(np.median(share_of[:, 2] / np.maximum(share_of[:, 0], 1e-3)))
        if warmth <= SHADE_WARMTH_MAX:
            near[i] |= shaded[i]
    foreign = ~near & ~chip_ring[at]
    share[at] = row_counts(foreign) / foreign.shape[1]
    return share.reshape(10, 10)


LIGHT_STEP = 0.06  # light around a cell's borders this much off the board's is measured again
LIGHT_AROUND = 5  # ... given this many clean borders among the 5x5 cells around it


def border_light(rings: np.ndarray, clean: np.ndarray) -> np.ndarray:
    """Per cell (10x10 float), how much lighter the borders around it are than the board's
    typical border (1: alike, and where too few show): the median grey of each cell's ring,
    its median over the ``clean`` cells (10x10 bool: borders of the board's own colours) of
    the 5x5 around it, over the median of all clean cells.

    Dividing each cell by its own white takes the light off only where the white is not
    clipped: a board lit close to clipping shows the same white everywhere, while its gaps
    still follow the light. Taken over clean cells around, the level follows the light but
    not a cover's colours (a hand over a corner of the board moves no level at all); with
    fewer than ``LIGHT_AROUND`` clean cells around, nothing is said."""
    level = np.median(rings.mean(axis=2), axis=1).reshape(10, 10).astype(np.float32)
    if not clean.any():
        return np.ones((10, 10), np.float32)
    shown = np.pad(np.where(clean, level, np.nan), 2, constant_values=np.nan)
    around = np.stack([shown[i : i + 10, j : j + 10] for i in range(5) for j in range(5)])
    enough = np.count_nonzero(~np.isnan(around), axis=0) >= LIGHT_AROUND
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # (a window with no clean cell)
        light = np.nanmedian(around, axis=0) / float(np.median(level[clean]))
    return np.where(enough, light, 1.0).astype(np.float32)


def _borders_in_their_light(
    rings: np.ndarray,
    palette: np.ndarray,
    chip_ring: np.ndarray,
    outer: np.ndarray,
    measured: RingAnomalies,
) -> RingAnomalies:
    """``measured`` (:func:`ring_anomalies` of the ``rings`` as they are), where a cell's
    border is foreign enough for a cover (``RING_MAX``), measured again in the light around it
    (:func:`border_light` of the other cells). A see-through hand darkens a border as a shade
    does, but only a little of it stands out: a border foreign all round that the light around
    explains is the light's. (Each measure keeps the lesser of the two: lines explained in one
    light stay explained.)"""
    foreign = measured.share > RING_MAX
    light = border_light(rings, ~foreign)
    if not (np.abs(light[foreign] - 1) > LIGHT_STEP).any():
        return measured
    lit = ring_anomalies(rings, palette, chip_ring, outer, lines=True, light=light)
    kept = []
    for before, after in zip(measured, lit, strict=True):
        kept.append(
            before
            if before is None or after is None
            else np.where(foreign, np.minimum(before, after), before)
        )
    return RingAnomalies(*kept)


EDGE_POOL = 2  # pixels either side of a cell boundary searched for the gap's darkest line
EDGE_KEEP = 0.35  # an edge keeping less than this share of the typical edge contrast is gone
EDGE_SHIFT = 0.3  # ... unless it shows as a line this share of a cell away (a lens bends lines)
EDGE_DIP_KEEP = 0.2  # ... a dip this share of the typical edge contrast below the card each side
HAND_SKIN = 0.08  # a chip cell with this much skin ...
HAND_RING = 0.15  # ... and this much of its border foreign is under a hand
HAND_SKIN_BLOB = 0.03  # ... skin as broad as fingers (eroded) over this much of the cell
HAND_SPREAD_SKIN = 0.25  # a cell beside a cover with skin over this much of it is the hand too
HAND_SPREAD_MARGIN = 0.15  # ... and this much more than the board's empty cells' upper decile
HELD_HAND_SKIN = 0.5  # a covered cell with skin over this much of it is a hand ...
HELD_SOLIDITY = 0.5  # ... and a chip beside it keeping less of its colour through the erosion
# than this is only part of a disc: a chip held in those fingers, straddling the cells
EDGES_GONE = 2  # a cell with this many boundaries gone is covered (a loose card, a hand)
SLANTED_EDGE_IN = 0.3  # of a cell: a straight edge at a slant running this far through it
# a board's typical boundary contrast this low shows no lines at all (0.12 tried: the gapless
# cards of mixed16 frame 65, 0.105, and 25 overexposed frames lost `?` cells, but a grid a
# cell off was then judged right on mixed13 frame 100, 43 cells wrong, and 5 chips more read
# wrong on re-exposed sets: the boundary check also judges located grids)
LINES_SHOW_MIN = 0.05
VEIL_BLACK = 0.45  # ... unless its darkest part is this bright (of the white): a glare veil
VEIL_TINT_MAX = 0.15  # a veiled cell read empty with a broad pale tint may hide a chip
GLARE_TAKEN = 8.0  # grey levels of glare taken off a cell: its faded signs were the glare's
GLARED_PRINT = 0.6  # with glare taken off, a cell clipped this much still shows its printing ...
GLARED_TINT = 0.05  # ... and no washed-out chip's broad pale tint over more of it than this
GLARED_DISC = 0.1  # ... or none as broad as a chip's disc (printed red turns pink under glare
# too, but in strokes, which an erosion by a chip's core removes; a cell clipped more than
# GLARED_PRINT may hide a whole chip washed out in the clipped part, printing showing around it)
GLARED_RED = 0.2  # red over this much of a glared cell: its tint's disc is looked at
GLARE_FADES = 30.0  # grey levels of glare taken off a cell that leave its lines faded ...
FADED_EDGES = 2  # ... so many of its four at most (a card lying over the cell hides more)
FADED_PRINT = 0.1  # ... and printing over this much of it at least (a white card shows little)
CLIP_ROOM_DISC = 0.55  # of a cell's shorter side: a disc this wide clipped whole may be a chip
# (chips are about 0.8 of it wide: room for a smaller disc is room for a chip's clipped part)
CLIP_ROOM_MAX = 0.05  # a cell clipped over GLARED_PRINT whose clipped part has no more room for
# that disc than this (of the cell's middle, where a chip's centre can lie) holds no chip
# washed out whole, and shows its printing (seen: every chip hidden in clipped white has room
# >= 0.17 there, and no chip on a cell clipped over 0.3 of it has 0.01-0.07; an empty card's
# glare spot leaves 0.00-0.02, or up to 0.05 between a cards art's scattered pips)
WASHED_TAKEN = 40.0  # levels of glare taken off a cell that may leave a chip washed out ...
WASHED_CORE = 0.1  # ... whose pale tint keeps this much through the erosion by a chip's core
WASHED_BROAD = 0.2  # ... or spreads over this much of a cell printed over < WASHED_PRINT
WASHED_PRINT = 0.08  # (cards with red pips washed pink: red and black ink >= 0.09)
WASHED_ALL = 0.5  # ... but not over more than a chip's disc covers (a whole card tinted)
GLARED_INK = 0.75  # of the white: under unmeasured glare, a darkest level below it is printing
GLARED_FAINT = 0.02  # under glare, thin strokes over this much of a cell show its printing
CHIP_REACH = 0.2  # of a cell: how far off its centre a player puts a chip's centre, at most
CHIP_DIAMETER = 0.78  # of a cell's shorter side: a chip's width
RING_CLIPPED = 0.3  # a cell whose border is this much clipped white lost its lines to glare
AROUND = np.float32([[1, 1, 1], [1, 0, 1], [1, 1, 1]])  # a cell's 8 neighbours
AROUND_ALL = np.ones((3, 3), np.uint8)  # ... and the cell itself


def _middle(a: np.ndarray, axis: int) -> np.ndarray:
    """The (upper) median along ``axis``: one partial sort, much cheaper than np.median."""
    k = a.shape[axis] // 2
    return nth_smallest(a, k, axis).astype(np.float32)


CORNERS = np.zeros((10, 10), bool)
CORNERS[[0, 0, 9, 9], [0, 9, 0, 9]] = True  # the free corners (may be plain)
PALE_BLOB_MAX = 0.05  # a broad tint over more of the cell than this may be a washed-out chip
FAINT_LEVEL = 0.82  # of the white: a stroke this much darker is printing, however faded


def faint_print(grey: np.ndarray, shape: CellShape) -> np.ndarray:
    """Per cell, the share of its inner part in thin strokes at least a little darker than the
    card (``grey``: the light-flattened grid image, white at ``WHITE_LEVEL``).

    Haze, blur and glare fade small printed pips below every colour class, yet they still show
    as thin marks darker than the card; a washed-out chip or a plain card lying on the board is
    a broad, even area, which the opening (an erosion then a dilation) keeps and so does not
    count here."""
    _, faint = cv2.threshold(grey, FAINT_LEVEL * WHITE_LEVEL, 255, cv2.THRESH_BINARY_INV)
    thin = cv2.subtract(faint, cv2.morphologyEx(faint, cv2.MORPH_OPEN, ERODE))
    return _per_cell(thin, shape)


def missing_edges(
    img: np.ndarray,
    whites: np.ndarray,
    shape: CellShape,
    grey: np.ndarray | None = None,
    chip_mask: np.ndarray | None = None,
) -> np.ndarray:
    """Per cell, how many of its 4 boundaries (the gap or printed line to its neighbours) do
    not show: 0..4.

    Every boundary between two cells shows as a line darker than the cards beside it. A
    playing card lying on the board, a hand or a sleeve hides those lines, while a chip sits
    inside its cell and leaves them. Each boundary's contrast is its darkest line near the
    expected position (pooled over a few pixels, so a grid a pixel or two off still finds it),
    relative to the cells' white; a boundary with much less contrast than the typical one is
    missing. The board's outer boundary counts for the outer cells.

    ``chip_mask`` (the pixels in chip colours, 255) keeps the pieces of boundary that chips
    lie across out of the typical line (see :func:`_typical_line`).
    """
    if grey is None:
        grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    white = float(_middle(whites.ravel(), 0)) + 1.0
    # every boundary k = 0..10 at once: the darkest of the pixels near it, then per cell side
    cols = grey[:, shape.pool_xs].min(axis=2).T.reshape(11, 10, shape.h)  # boundary, row, px
    rows = grey[shape.pool_ys, :].min(axis=1).reshape(11, 10, shape.w)
    vert = 1.0 - _middle(cols, axis=2).T / white  # 10 x 11
    horiz = 1.0 - _middle(rows, axis=2) / white  # 11 x 10
    typical = _typical_line(vert, horiz, chip_mask, shape)
    if typical <= LINES_SHOW_MIN:  # no visible boundaries on this board: nothing to say
        return np.zeros((10, 10), np.float32)
    gone_v = vert < EDGE_KEEP * _line_reference(vert, typical, axis=0)[None, :]
    gone_h = horiz < EDGE_KEEP * _line_reference(horiz, typical, axis=1)[:, None]
    if gone_v.any() or gone_h.any():
        dip = EDGE_DIP_KEEP * typical * white
        gone_v &= ~_line_nearby(grey, gone_v, shape.w, shape.h, dip)
        gone_h &= ~_line_nearby(grey.T, gone_h.T, shape.h, shape.w, dip).T
    return gone_v[:, :10].astype(np.float32) + gone_v[:, 1:] + gone_h[:10, :] + gone_h[1:, :]


PLAIN_PIECES_MIN = 40  # of the 180 inner pieces of boundary: free of chips, enough to measure


def _typical_line(
    vert: np.ndarray, horiz: np.ndarray, chip_mask: np.ndarray | None, shape: CellShape
) -> float:
    """The contrast of the board's typical boundary line: the median over the inner pieces
    of boundary (``vert`` 10 x 11, ``horiz`` 11 x 10), those with no chip lying across them.

    A chip by a boundary darkens it more than any printed line: on a crowded board the
    median over every piece is a chip's, and each piece of a faint line, showing only its
    own contrast, would seem gone (seen on text boards filmed small, where a line is a pixel
    wide). A piece counts as crossed where most of its length has a chip pixel within
    ``EDGE_POOL`` of the boundary, as its contrast is taken. With fewer than
    ``PLAIN_PIECES_MIN`` pieces free (a board covered in chips), every piece counts."""
    pieces = np.concatenate([vert[:, 1:10].ravel(), horiz[1:10, :].ravel()])
    if chip_mask is not None:
        on_v = pool_max(chip_mask, shape.pool_xs, axis=1)  # H x 11
        on_h = pool_max(chip_mask, shape.pool_ys, axis=0)  # 11 x W
        crossed_v = cv2.resize(on_v, (11, 10), interpolation=cv2.INTER_AREA) > 127
        crossed_h = cv2.resize(on_h, (10, 11), interpolation=cv2.INTER_AREA) > 127
        plain = ~np.concatenate([crossed_v[:, 1:10].ravel(), crossed_h[1:10, :].ravel()])
        if np.count_nonzero(plain) >= PLAIN_PIECES_MIN:
            pieces = pieces[plain]
    return float(_middle(pieces, 0))


LINE_LEVEL_RANK = 7  # a board line's own contrast: the 8th weakest of its 10 pieces


def _line_level(contrast: np.ndarray, axis: int) -> np.ndarray:
    """Per board line (11), the contrast most of its 10 pieces reach (``contrast``: 10 x 11
    pieces with ``axis=0``, 11 x 10 with ``axis=1``).

    Some boards print a line fainter than the others along its whole length (a mat's outer
    rule, the line beside the title margin, a text board's near edge seen at a slant); a piece
    of such a line is missing only when it is faint for that line. A hand, an arm or a card
    hides a few pieces of a line, so the 8th weakest of the ten still shows the line's own
    level under up to 7 covered pieces."""
    return nth_smallest(contrast, LINE_LEVEL_RANK, axis)


# of the typical line's contrast: an inner line this faint all along is still one, and so is
# the board's outer line as faint as the second (a grid a cell off, blurred, sees as much as
# 0.26 where its outer line lies on the table or the margin)
LINE_PRESENT = np.float32([0.4] + [0.15] * 9 + [0.4])
FAINT_LINE = 0.6  # ... and a line below this share of the typical one is printed faint: its
# pieces are judged against its own level over this share (as the typical line's pieces are)


def _line_reference(contrast: np.ndarray, typical: float, axis: int) -> np.ndarray:
    """Per board line (11), the contrast its pieces are judged against: the board's typical
    line's; or, where the line's own level (:func:`_line_level`) is below ``FAINT_LINE`` of
    that but the line still shows all along (``LINE_PRESENT``), its level over
    ``FAINT_LINE``. A line that hardly shows is no faint line: along a grid a cell off, its
    outer line lies on the table or the margin, and every piece of it is missing."""
    level = _line_level(contrast, axis)
    faint = np.minimum(level / FAINT_LINE, typical)
    return np.where(level >= LINE_PRESENT * typical, faint, typical)


def cell_blacks(grey: np.ndarray, shape: CellShape) -> np.ndarray:
    """Per cell, its darkest (3x3-averaged) grey level over ``WHITE_LEVEL``: 10x10 float."""
    dark = cell_extremes(cv2.blur(grey, (3, 3)), shape.w, shape.h, np.minimum)
    return dark.astype(np.float32) / WHITE_LEVEL


def _line_nearby(grey: np.ndarray, gone: np.ndarray, w: int, h: int, depth: float) -> np.ndarray:
    """Which of the vertical boundaries marked ``gone`` (10 rows of cells x 11 boundaries)
    show as a line a little further from where the grid puts them.

    One homography does not follow a lens: at the corners of a big board a boundary can lie a
    quarter of a cell from its place in the grid image. Across the boundary, the median along
    the cell's side (printed ink spans only part of it) is looked at within ``EDGE_SHIFT`` of
    a cell either way: a line is a dip at least ``depth`` darker than the card on *both* sides
    of it (a hand's or a card's edge is a step, a hand over it no dip at all), and the same
    boundary beside the next cell up or down dips at the same place (a lens bends a line
    smoothly; the edge of a card lying askew over the boundary runs elsewhere)."""
    found = np.zeros_like(gone)
    reach = max(EDGE_POOL + 1, int(round(EDGE_SHIFT * w)))
    width = grey.shape[1]
    dips: dict[tuple[int, int], tuple[int, bool]] = {}

    def dip(i: int, k: int) -> tuple[int, bool]:
        if (i, k) not in dips:
            x0, x1 = max(0, k * w - reach), min(width, k * w + reach + 1)
            profile = _middle(grey[i * h : (i + 1) * h, x0:x1], 0)
            j = int(np.argmin(profile))
            rise = min(profile[: j + 1].max(), profile[j:].max()) - profile[j]
            dips[i, k] = (x0 + j, bool(rise >= depth))
        return dips[i, k]

    for i, k in zip(*np.nonzero(gone), strict=True):
        at, line = dip(i, k)
        if line:
            found[i, k] = any(
                dip(n, k)[1] and abs(dip(n, k)[0] - at) <= EDGE_POOL
                for n in (i - 1, i + 1)
                if 0 <= n < gone.shape[0]
            )
    return found


def _missing_edges_either(
    img, whites, shape, grey, smooth, chip_mask, cache: MeasureCache | None, fresh: bool
) -> np.ndarray:
    """:func:`missing_edges` of the grid image; where boundaries seem gone, those missing in
    the ``smooth`` view too (see :func:`measure`; the same grid, so the same chips).

    A big board in a big frame can lose some of its thin lines in the grid image on every
    frame, and the smooth view (a reduction of the frame: 2-3 ms at 1080p) finds them again
    on every frame. For a fixed camera (``cache``, not ``fresh``) the smooth view's answer is
    kept with the light: while the grid image loses no more boundaries on any cell than when
    it was asked (sensor noise makes a faint line come and go), it stands; a cell losing more
    (a hand, a card) asks the smooth view again, and so does each measure of the light
    (every ``MeasureCache.every`` frames)."""
    gone = missing_edges(img, whites, shape, grey, chip_mask)
    if smooth is None or not gone.any():
        return gone
    kept = None if cache is None or fresh else cache.smooth_edges
    if kept is not None and (gone <= kept[0]).all():
        return np.minimum(gone, kept[1])
    fine = smooth()
    if fine is None:
        return gone
    fine_img, fine_whites, _ = normalise(fine)
    both = np.minimum(gone, missing_edges(fine_img, fine_whites, shape, chip_mask=chip_mask))
    if cache is not None:
        cache.smooth_edges = (gone, both)
    return both


def pool_max(mask: np.ndarray, pool: np.ndarray, axis: int) -> np.ndarray:
    """Per line, the greatest of ``mask`` over its pool of pixel columns (``axis`` 1) or rows
    (0) (``pool``: lines x pool width, inside the image, as ``CellShape.near_xs`` or
    ``pool_xs``): H x lines or lines x W. ``cv2.dilate`` across the lines, then those lines,
    with the dilation done on the few lines taken only."""
    out = np.take(mask, pool[:, 0], axis=axis)
    for j in range(1, pool.shape[1]):
        np.maximum(out, np.take(mask, pool[:, j], axis=axis), out=out)
    return out


SIDE_COLOURED = 0.6  # a boundary this much in chip colours (beyond the board's own) is crossed


def _levels(shares: np.ndarray) -> np.ndarray:
    """Shares 0-1 as grey levels 0-255 (uint8), so medians are taken alike everywhere."""
    return np.clip(np.ascontiguousarray(shares) * 255.0 + 0.5, 0, 255).astype(np.uint8)


def _nearby_median(shares: np.ndarray) -> np.ndarray:
    """Per boundary of a block of them (shares 0-1, 2-D), the median of those within two of
    it along both axes (the block mirrored at its edges): a cover bigger than a cell crosses a
    few of the 25, the board's own colour most. (Mirrored past the block's edge, not
    repeated: a line of a grid a cell off, on the margin all along the block's edge, would be
    most of its own neighbours.)"""
    h, w = shares.shape
    return _window_medians(_levels(shares), _block_windows(h, w))


def _median_along(lines: np.ndarray) -> np.ndarray:
    """Per boundary of each line of them (rows of shares 0-1: the board's four outer edges),
    the median of the 7 nearest along its line, the line mirrored at its ends: a card lying
    over the edge covers two or three."""
    k, n = lines.shape
    windows = _line_windows(k, n)
    return _window_medians(_levels(lines), windows).reshape(k, n)


def _window_medians(levels: np.ndarray, windows: np.ndarray) -> np.ndarray:
    """The median level (an odd count, as a share 0-1, float32) of each row of ``windows``
    (flat indexes into ``levels``), shaped as ``levels``: one gather and one partial sort,
    the same numbers as padding and a median filter (numpy's padding and sliding windows
    cost several times more on these few values, more still with the caches cold)."""
    values = levels.take(windows)
    middle = nth_smallest(values, windows.shape[1] // 2, axis=1)
    return (middle.reshape(levels.shape) / 255.0).astype(np.float32)


def _mirrored(n: int, reach: int) -> np.ndarray:
    """Per position 0 .. n-1, the positions within ``reach`` of it (n x 2*reach+1), mirrored
    at the ends without repeating the end (``cv2.BORDER_REFLECT_101``, numpy's "reflect")."""
    at = np.abs(np.arange(n)[:, None] + np.arange(-reach, reach + 1))
    return np.where(at > n - 1, 2 * (n - 1) - at, at)


@functools.lru_cache(maxsize=8)
def _block_windows(h: int, w: int) -> np.ndarray:
    """Per entry of an ``h`` x ``w`` block, the flat indexes of the 5x5 around it, the block
    mirrored at its edges (:func:`_nearby_median`): h*w x 25."""
    ys, xs = _mirrored(h, 2), _mirrored(w, 2)
    return (ys[:, None, :, None] * w + xs[None, :, None, :]).reshape(h * w, 25)


@functools.lru_cache(maxsize=8)
def _line_windows(k: int, n: int) -> np.ndarray:
    """Per entry of ``k`` lines of ``n``, the flat indexes of the 7 nearest along its line,
    the line mirrored at its ends (:func:`_median_along`): k*n x 7."""
    along = _mirrored(n, 3)
    return (np.arange(k)[:, None, None] * n + along[None]).reshape(k * n, 7)


def coloured_sides(any_chip: np.ndarray, shape: CellShape) -> np.ndarray:
    """Per cell, how many of its 4 boundaries run mostly (``SIDE_COLOURED``) in chip colours.

    A chip is a disc inside its cell: even pushed off-centre it crosses at most one boundary
    for about 40 % of its length. A card lying face down, a sleeve or a coloured object is
    bigger than a cell and its colour runs along whole boundaries. What the board's own
    boundaries show (a green board's gaps, a blue margin) does not count: only the excess over
    the median of the inner boundaries (of the outer edge, for the outer ones).
    """
    # a pixel either side of each boundary counts (a grid a pixel off); area resizes average
    # each boundary over each cell's side
    cols = pool_max(any_chip, shape.near_xs, axis=1).astype(np.float32)  # H x 11
    rows = pool_max(any_chip, shape.near_ys, axis=0).astype(np.float32)  # 11 x W
    vert = cv2.resize(cols, (11, 10), interpolation=cv2.INTER_AREA) / 255.0  # 10 x 11
    horiz = cv2.resize(rows, (10, 11), interpolation=cv2.INTER_AREA) / 255.0  # 11 x 10
    if max(vert.max(), horiz.max()) < SIDE_COLOURED:
        # (the common case: taking the board's own share off only lowers them)
        return np.zeros((10, 10), np.float32)
    # (each against the board's own nearby: under a lamp a green board's gaps are greener at
    # the dim edges than in the middle)
    vert[:, 1:10] -= _nearby_median(vert[:, 1:10])
    horiz[1:10] -= _nearby_median(horiz[1:10])
    edges = _median_along(np.stack([vert[:, 0], vert[:, 10], horiz[0], horiz[10]]))
    vert[:, 0] -= edges[0]
    vert[:, 10] -= edges[1]
    horiz[0] -= edges[2]
    horiz[10] -= edges[3]
    on_v = vert >= SIDE_COLOURED
    on_h = horiz >= SIDE_COLOURED
    return on_v[:, :10].astype(np.float32) + on_v[:, 1:] + on_h[:10] + on_h[1:]


def coloured_corners(any_chip: np.ndarray, shape: CellShape) -> np.ndarray:
    """Per cell, how many of its 4 corner points (grid intersections, 3x3 pixels) lie in chip
    colours beyond what the board's own intersections show.

    No disc inside a cell reaches its corners, nor do two neighbouring discs both reach the
    point they share: only something bigger than a chip lying over the grid does."""
    points = cv2.blur(any_chip, (3, 3))[np.ix_(shape.boundary_ys, shape.boundary_xs)]
    points = points.astype(np.float32) / 255.0
    on = (points - _middle(points[1:10, 1:10].ravel(), 0)) >= SIDE_COLOURED
    return on[:10, :10].astype(np.float32) + on[:10, 1:] + on[1:, :10] + on[1:, 1:]


def _sides_in_own_colour(
    masks: dict[str, np.ndarray], chip: dict[str, np.ndarray], shape: CellShape
) -> tuple[np.ndarray, np.ndarray]:
    """Per cell, :func:`coloured_sides` and :func:`coloured_corners` counted in the colour of
    the chip it shows most of (``masks``: each chip colour's class mask of the grid image;
    ``chip``: per colour, its share of each cell).

    A cover read as a chip is read in its own colour, and that colour runs along the
    boundaries; a green board's gaps, greener where the light is dim than under the glare in
    the middle, run along a blue or red chip's boundaries as the board's own colour."""
    own = np.argmax(np.stack([chip[sym] for sym in CHIP_SYMBOLS]), axis=0)
    sides = np.zeros((10, 10), np.float32)
    corners = np.zeros((10, 10), np.float32)
    for k, sym in enumerate(CHIP_SYMBOLS):
        mine = own == k
        if mine.any():
            sides[mine] = coloured_sides(masks[sym], shape)[mine]
            corners[mine] = coloured_corners(masks[sym], shape)[mine]
    return sides, corners


_POINT_OFFSETS = np.arange(-1, 2)  # the 3x3 pixels of a grid intersection


def four_around(cells: np.ndarray) -> np.ndarray:
    """Per inner grid intersection (9x9), whether all four cells around it are marked
    (``cells``: 10x10 bool, or a stack of them: ... x 9 x 9)."""
    return cells[..., :-1, :-1] & cells[..., :-1, 1:] & cells[..., 1:, :-1] & cells[..., 1:, 1:]


def corner_colours(
    packed: np.ndarray, shape: CellShape, colours: Iterable[str] = CHIP_SYMBOLS
) -> dict[str, np.ndarray]:
    """Per chip colour of ``colours``, the share of each inner grid intersection (9x9 points,
    3x3 pixels each) in that colour (``packed``: the colour code's chip bits), less the median
    over the board's intersections (a navy board's gaps are blue wherever they cross).

    No chip reaches a corner of its cell; four chips of one colour around a point that is
    itself that colour are one thing lying over the grid (a card's back)."""
    ys = shape.boundary_ys[1:10, None] + _POINT_OFFSETS  # 9 x 3
    xs = shape.boundary_xs[1:10, None] + _POINT_OFFSETS
    points = packed[ys[:, None, :, None], xs[None, :, None, :]]  # 9 x 9 x 3 x 3
    shares = {}
    for sym in colours:
        share = np.count_nonzero(points & (1 << CLASSES.index(sym)), axis=(2, 3)) / 9.0
        share = share.astype(np.float32)
        shares[sym] = share - _middle(share.ravel(), 0)
    return shares


@dataclass(slots=True)
class MeasureCache:
    """What changes slowly for a fixed camera (the light, the border palette); refreshed
    every ``every`` frames by :func:`measure`."""

    every: int = 15
    palette: np.ndarray | None = None
    # whites near each cell, pixel gains, the cells a cast shadow's edge crosses (None: no
    # cast shadow found), and whether one was looked for
    light: tuple[np.ndarray, np.ndarray, np.ndarray | None, bool] | None = None
    dark_max: int | None = None  # the dark-ink level measured with the light
    noise: float | None = None  # the sensor noise on the card white, measured with the light
    veil: Veil | None = None  # glare added on top of the board, measured with the light
    haze: float | None = None  # grey levels of haze over the whole board (glare.board_haze)
    # per cell, the boundaries the grid image lost and those the smooth view still lost of
    # them, kept with the light: while the grid image loses no more, the smooth view says so
    smooth_edges: tuple[np.ndarray, np.ndarray] | None = None
    # per cell, the signs of a cover when a loose card's sides were last looked for, and how
    # far such sides ran through each cell: while no cell shows a sign it did not show then,
    # the answer stands until the light is measured again
    slanted: tuple[np.ndarray, np.ndarray] | None = None
    age: int = 0
    # what ``red_print`` measured on this grid: the board's chip width, each red cell's shape
    red_shapes: dict = field(default_factory=dict)


NOISY = 3.5  # grey levels of sensor noise on the card white (rendered boards: mostly < 3)
_FLAT = np.ones((5, 5), np.uint8)


def sensor_noise(hsv: np.ndarray) -> float:
    """The camera's noise (a standard deviation in grey levels) on a grid image's card white
    (light divided out, HSV): the median absolute difference from the 3x3 mean, robustly
    scaled, over pixels whose whole 5x5 neighbourhood is bright and unsaturated (no printing,
    no edge nearby); 0.0 where too little such white shows."""
    _, sat, v = cv2.split(hsv)  # (contiguous planes: numpy is slow on strided channels)
    # brighter than the level: than its whole part (the same test on bytes, which numpy
    # would otherwise compare as float64)
    level = math.floor(0.8 * percentile_u8(v, 95))
    white = cv2.erode(((v > level) & (sat < 70)).astype(np.uint8), _FLAT) > 0
    if np.count_nonzero(white) < 300:
        return 0.0
    values = v.astype(np.float32)
    detail = values - cv2.blur(values, (3, 3))
    # 1.4826: the MAD of a normal distribution; 1.06: the 3x3 mean removes 1/9 of the noise
    return median(np.abs(detail[white])) * 1.4826 * 1.06


class Normalised(NamedTuple):
    """A grid image with the light divided out (:func:`normalise`)."""

    img: np.ndarray
    whites: np.ndarray  # each cell's brightest grey level in ``img`` (10x10 float)
    # the cells a cast shadow's edge crosses (10x10 bool, ``shade.edge_cells``), where its
    # light was divided out pixel by pixel; None: no cast shadow found
    shade_edges: np.ndarray | None


def normalise(
    grid_bgr: np.ndarray, cache: MeasureCache | None = None, shade: bool = True
) -> Normalised:
    """The grid image with the light divided out cell by cell (``colour.flatten_light``), or
    pixel by pixel where a shadow is cast across the board (``shade.shade_whites``; looked
    for only with ``shade``).

    With a ``cache`` not due for a refresh, the light measured on an earlier frame is reused
    (a fixed camera's light changes slowly); each cell's own white is measured every frame."""
    own = cell_white_colours(grid_bgr)
    size = (grid_bgr.shape[1], grid_bgr.shape[0])
    light = cache.light if cache is not None and cache.age < cache.every else None
    if light is None or light[1].shape[:2] != size[::-1] or light[3] != shade:
        light = _light(grid_bgr, own, shade)
        if cache is not None:
            cache.light = light
    near, gains, edges, _ = light
    img = flatten_light(grid_bgr, near, gains)
    if edges is None:
        whites = (own.astype(np.float32) * (WHITE_LEVEL / near)) @ GREY_WEIGHTS
    else:  # (the white changes inside a cell: its brightest level measured after)
        whites = cell_white_colours(img).astype(np.float32) @ GREY_WEIGHTS
    return Normalised(img, np.minimum(whites, 255.0), edges)


def _light(grid_bgr: np.ndarray, own: np.ndarray, shade: bool) -> tuple:
    """The light of a grid image as ``MeasureCache.light`` keeps it, from each cell's own white
    (``own``: ``colour.cell_white_colours``), a cast shadow looked for with ``shade``."""
    near = local_whites(own)
    in_shade = shade_whites(grid_bgr, near) if shade else None
    if in_shade is None:
        return near, light_gains(near, (grid_bgr.shape[1], grid_bgr.shape[0])), None, shade
    return near, WHITE_LEVEL / in_shade, edge_cells(in_shade), shade


def cast_shadow_light(grid_bgr: np.ndarray) -> tuple | None:
    """The light of a grid image with a shadow cast across it (``MeasureCache.light``, to
    measure it with), or None where none is: a grid judged on the picture as it is, without
    looking for one, is looked at once more before it is read."""
    light = _light(grid_bgr, cell_white_colours(grid_bgr), True)
    return light if light[2] is not None else None


ERODE = cv2.getStructuringElement(
    cv2.MORPH_ELLIPSE, (5, 5)
)  # removes printed strokes, keeps solid discs


@functools.lru_cache(maxsize=8)
def _chip_core(shape: CellShape) -> np.ndarray:
    """A disc of ~0.36 of the cell's shorter side: what remains of a chip (~0.7 of the cell
    wide) after an erosion by it is its core; printed pips, letters and their blur vanish."""
    k = max(5, int(round(0.36 * min(shape.w, shape.h))) | 1)
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))


def measure(
    grid_bgr: np.ndarray,
    profile: ColourProfile,
    cache: MeasureCache | None = None,
    smooth: Callable[[], np.ndarray | None] | None = None,
    glare: bool = True,
):
    """Measure every cell of a grid image (10x10 cells).

    ``smooth`` (optional) returns the same grid area-averaged from a much finer frame
    (``pipeline.warp_grid_smooth``), or None; it is asked for only when some boundary seems
    gone, and a boundary showing in either view is there (thin lines a plain warp skipped).
    ``glare=False`` measures the picture as it is, glare and a cast shadow left on (see
    ``BoardReader``: a grid is judged that way, read with them taken off); a haze over the
    whole board is taken off either way."""
    shape = shape_of(grid_bgr)
    fresh = cache is None or cache.palette is None or cache.age >= cache.every
    # glare adds light that dividing by the white cannot undo: taken off first (clipped
    # pixels stay flagged from the picture as it was)
    if not glare:
        veil = None
    elif cache is None:
        veil = estimate_veil(grid_bgr)
    else:
        if fresh and not (cache.palette is None and cache.veil is not None):
            # a fixed camera's glare moves with its lamp: measured with the light (a new
            # cache may come with the veil already measured on this grid)
            cache.veil = estimate_veil(grid_bgr)
        veil = cache.veil
    seen = grid_bgr if veil is None else remove_veil(grid_bgr, veil)
    # ... and a haze over the whole board, which lifts every cell alike (measured with the
    # light, and kept with it: the light a fixed camera keeps was measured under it). Also
    # on a grid judged as it is: no table under a grid's edge passes for an even lift, and
    # left on, it greyed the black printing so that the ink vote of a right grid failed
    if cache is None:
        haze = board_haze(seen)
    else:
        if fresh or cache.haze is None:
            cache.haze = board_haze(seen)
        haze = cache.haze
    if haze > 0.0:
        seen = cv2.subtract(seen, (haze, haze, haze, 0.0))
    # ... and a shadow cast across the board (a grid judged on the picture as it is keeps
    # it: the table under a grid running past the board could pass for a shade)
    img, whites, shade_edges = normalise(seen, cache, shade=glare)
    hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)
    # the darkest ink level: measured on this picture, or kept with the light by a fixed camera
    if cache is None:
        dark_max, noise = dark_level(hsv), sensor_noise(hsv)
    else:
        if fresh or cache.dark_max is None:
            cache.dark_max, cache.noise = dark_level(hsv), sensor_noise(hsv)
        dark_max, noise = cache.dark_max, cache.noise
    code = colour_code(hsv, profile, dark_max)
    # every mask counted per cell is written straight into one stack, counted at once
    planes = np.empty((len(COUNTED) + len(ERODED), *grid_bgr.shape[:2]), np.uint8)
    masks = dict(zip(COUNTED, planes[: len(COUNTED)], strict=True))
    class_masks(code, COUNTED[:-2], planes[: len(COUNTED) - 2])  # (skin and glare: below)
    class_mask(code, "skin", masks["skin"])
    blown_out(grid_bgr, masks["glare"])
    # every class eroded at once (the same masks as eroding each class's mask by ERODE)
    eroded = erode_bits_ellipse5(code)
    eroded_chips = dict(zip(ERODED, planes[len(COUNTED) :], strict=True))
    class_masks(eroded, ERODED, planes[len(COUNTED) :])
    if noise >= NOISY:
        for sym in CHIP_SYMBOLS:
            # a majority vote over 3x3 first: sensor noise in dim light pits a chip's disc
            # with pixels of other colour classes, and the erosion would widen every pit
            cv2.erode(cv2.medianBlur(masks[sym], 3), ERODE, dst=eroded_chips[sym])
    cells = _per_cell_planes(planes, shape)
    plain = dict(zip(COUNTED, cells[: len(COUNTED)], strict=True))
    blob = dict(zip(ERODED, cells[len(COUNTED) :], strict=True))
    chip = {sym: blob[sym] for sym in CHIP_SYMBOLS}
    raw = {sym: plain[sym] for sym in CHIP_SYMBOLS}
    rings = normalised_rings(img, whites, shape)
    palette = ring_palette(rings) if fresh else cache.palette
    if cache is not None:
        if fresh:
            cache.palette, cache.age = palette, 0
        cache.age += 1
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    # the three chip colours are the code's lowest bits: one look-up of the ring pixels
    # serves the border in any chip colour and in each colour
    packed = np.bitwise_and(code, CHIP_BITS)  # (numpy: OpenCV's and with a scalar costs more)
    any_chip = cv2.compare(packed, 0, cv2.CMP_GT)
    ring_bits = ring_values(packed, shape)
    chip_ring = ring_bits > 0
    # per cell, each chip colour's share of its ring pixels, and any chip colour's
    ring_share = ring_colour_counts(ring_bits, chip_ring) / float(ring_bits.shape[1])  # 100 x 4
    ring_colour = {
        sym: ring_share[:, i].reshape(10, 10).astype(np.float32)
        for i, sym in enumerate(CHIP_SYMBOLS)
    }
    ring, ring_inside, ring_off_lines = ring_anomalies(
        rings, palette, chip_ring, shape.outer_ring, lines=True
    )
    if (ring > RING_MAX)[~CORNERS].any():
        # only a board with foreign-looking borders pays for the look at the light on them
        ring, ring_inside, ring_off_lines = _borders_in_their_light(
            rings,
            palette,
            chip_ring,
            shape.outer_ring,
            RingAnomalies(ring, ring_inside, ring_off_lines),
        )
    feats = CellFeatures(
        chip=chip,
        raw=raw,
        ring=ring,
        ring_inside=ring_inside,
        ring_off_lines=ring_off_lines,
        edges_missing=_missing_edges_either(
            img, whites, shape, grey, smooth, any_chip, cache, fresh
        ),
        ring_chip=ring_share[:, 3].reshape(10, 10).astype(np.float32),
        skin=plain["skin"],
        glare=plain["glare"],
        dark=plain["dark"],
        dark_blob=blob["dark"],
        white=whites / (float(_middle(whites.ravel(), 0)) + 1.0),
        red_ink=raw["R"],
        coloured_sides=coloured_sides(any_chip, shape),
        ring_colour=ring_colour,
        chip_mask=any_chip,
        eroded_chips={sym: eroded_chips[sym] for sym in CHIP_SYMBOLS},
        pale_bg=blob["pale_bg"],
        glare_added=np.zeros((10, 10), np.float32) if veil is None else veil.added,
        glare_unmeasured=None if veil is None else veil.unmeasured,
        shade_edges=shade_edges,
    )
    foreign = ring > RING_MAX
    odd_border = bool(foreign[~CORNERS].any())  # some cell's border: a cover?
    feats.slanted_edge = _slanted_edges_kept(feats, foreign, grey, shape, cache, fresh)
    if odd_border:
        # ... or a cast shadow's edge: looked at where the cell keeps its lines (``classify``
        # takes it only there)
        feats.ring_shaded = shaded_borders(
            rings, palette, chip_ring, foreign & ~CORNERS & (feats.edges_missing == 0)
        )
    if veil is not None or odd_border:
        clipped = ring_values(masks["glare"], shape)
        feats.ring_clipped = row_counts(clipped > 0).reshape(10, 10) / clipped.shape[1]
    if ((feats.skin >= HAND_SKIN) & (feats.ring >= HAND_RING)).any():
        feats.skin_blob = _per_cell(cv2.erode(masks["skin"], ERODE), shape)
    # only a board with chips of one colour in the four cells around an intersection pays
    # for the look at the intersection's colour
    solid = np.stack([chip[sym] for sym in CHIP_SYMBOLS]) >= CHIP_MIN  # (all colours at once)
    around = four_around(solid).any(axis=(1, 2))
    blocks = [sym for sym, found in zip(CHIP_SYMBOLS, around, strict=True) if found]
    if blocks:
        feats.corner_colour = corner_colours(packed, shape, blocks)
    if (feats.coloured_sides >= 2).any():  # corners matter only where colour runs along sides
        feats.coloured_sides, feats.coloured_corners = _sides_in_own_colour(masks, chip, shape)
    if (feats.content < BLANK_CONTENT)[~CORNERS].any():
        # only a board with cells that look blank pays for the look at faded printing
        feats.faint_print = faint_print(grey, shape)
        feats.tinted_blob = blob["tinted"]
        feats.tinted_disc = _per_cell(
            cv2.erode(class_mask(code, "tinted"), _chip_core(shape)), shape
        )
    elif (feats.glare > GLARE_MAX).any() or (
        (feats.skin > PALE_SKIN) & (feats.dark + feats.red_ink < PRINT_MIN)
    ).any():
        # ... and a board with clipped cells, for the look at a washed-out chip's pale tint,
        # or with skin over a cell that shows none of its printing, for the look at a pale hand
        feats.tinted_blob = blob["tinted"]
    if (
        (feats.edges_missing >= EDGES_GONE).any()
        or odd_border
        or (veil is not None and veil.unmeasured.any())
    ):
        # only a board with covered-looking cells pays for the look at a veil of glare
        feats.black = cell_blacks(grey, shape)
        feats.veil_tint = feats.tinted_blob
        if feats.veil_tint is None:
            feats.veil_tint = blob["tinted"]
    # a chip's disc survives an erosion by a chip's core, printed strokes do not: looked at
    # only on the cells in doubt. Under glare, a broad tint (a washed-out chip's, or printed
    # red turned pink); and a red chip partly pale (a highlight, glare, a salmon hue) keeps
    # too little of its red through the small erosion to be told from bold printing that way
    # (a board's bold red printing puts a few cells in that band on every frame)
    doubt = np.zeros((10, 10), bool)
    if veil is not None and feats.veil_tint is not None:
        doubt = feats.glared & (feats.veil_tint >= GLARED_TINT)
    if veil is not None:
        # ... and red under glare: printing, or a red chip turned pink
        doubt |= feats.glared & (feats.raw["R"] >= GLARED_RED)
    red = feats.chip["R"]
    band = (red >= CHIP_MIN) & (red < RED_CORE_MIN) & (red < SOLIDITY_MIN * feats.raw["R"])
    core = _chip_core(shape)
    if band.any():
        feats.red_disc = _disc_cells(lambda box: masks["R"][box], band, shape, core)
    if feats.tinted_disc is not None:
        feats.tint_core = feats.tinted_disc
    elif (doubt | band).any():
        feats.tint_core = _disc_cells(
            lambda box: class_mask(code[box], "tinted"), doubt | band, shape, core
        )
    if veil is not None:
        feats.clip_room = _clip_room(grid_bgr, feats, shape)
    feats.dark_skin = dark_skin(eroded, shape)
    feats.ink_masks = {name: masks[name] for name in ("R", "dark", "B", "G")}
    feats.colour_code = code
    feats.hsv = hsv
    return feats


def red_pattern(feats: CellFeatures) -> np.ndarray:
    """Per cell, thin red over more of it than printing covers, which the erosion removes: a
    red card back's pattern (``PATTERN_RED_MIN``; a chip's disc survives the erosion)."""
    red = feats.raw["R"]
    return (red > PATTERN_RED_MIN) & (feats.chip["R"] < 0.1 * red)


def _signs_of_a_cover(feats: CellFeatures, odd_border: np.ndarray) -> np.ndarray:
    """Per cell, whether it shows a sign that something lies on the board: a foreign border
    (``odd_border``), a boundary line gone, no card white, a card back's thin pattern in red,
    or one chip colour over all of it (cheap tests on what ``measure`` has found already)."""
    signs = odd_border | (feats.edges_missing >= 1) | (feats.white < WHITE_MIN)
    signs |= red_pattern(feats)
    for sym in CHIP_SYMBOLS:
        signs |= feats.raw[sym] > RAW_MAX
    signs[CORNERS] = False  # (a free corner's emblem is no sign)
    return signs


def _slanted_edges_kept(
    feats: CellFeatures,
    odd_border: np.ndarray,
    grey: np.ndarray,
    shape: CellShape,
    cache: MeasureCache | None,
    fresh: bool,
) -> np.ndarray | None:
    """How far a loose card's sides run through each cell (``slanted_edges``), looked for
    only on a board with signs of a cover (None otherwise: never on a clean board). A fixed
    camera (``cache``, not ``fresh``) keeps the answer while no cell shows a sign it did not
    show when it was asked (a board whose glare or faint lines show such signs on every frame
    pays for one look per measure of the light; a card or hand arriving shows new ones)."""
    signs = _signs_of_a_cover(feats, odd_border)
    if not signs.any():
        return None
    kept = None if cache is None or fresh else cache.slanted
    if kept is not None and not (signs & ~kept[0]).any():
        return kept[1]
    crossed = slanted_edge_cells(grey, shape.w, shape.h)
    if cache is not None:
        cache.slanted = (signs, crossed)
    return crossed


BESIDE_CHIP_MARGIN = 0.12  # of a cell's height: a chip's rim and shadow beyond its solid disc


def ink_beside_chips(feats: CellFeatures, cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per cell of ``cells`` (10x10 bool; 0 elsewhere), the share of its inner part in red
    and in dark ink outside every chip's disc (widened by its rim and shadow): the corner
    index and pips of the card a chip lies on still show around it."""
    red = np.zeros((10, 10), np.float32)
    dark = np.zeros((10, 10), np.float32)
    if feats.ink_masks is None or feats.eroded_chips is None or not cells.any():
        return red, dark
    solid = functools.reduce(cv2.bitwise_or, feats.eroded_chips.values())
    shape = shape_of(solid)
    # the discs' cores (bold printing in a chip's colour survives the small erosion, not this
    # one), widened back to the discs, by the small erosion's 2 pixels and by the rim
    core = _chip_core(shape)
    side = core.shape[0] + 2 * max(1, round(BESIDE_CHIP_MARGIN * shape.h)) + 4
    widen = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (side, side))
    covered = cv2.dilate(cv2.erode(solid, core), widen)
    free = cv2.bitwise_not(covered)
    shares = _per_cell_planes(
        np.stack([cv2.bitwise_and(feats.ink_masks[k], free) for k in ("R", "dark")]), shape
    )
    red[cells], dark[cells] = shares[0][cells], shares[1][cells]
    return red, dark


def _clip_room(grid_bgr: np.ndarray, feats: CellFeatures, shape: CellShape) -> np.ndarray | None:
    """:func:`glare.chip_room` of a chip-sized disc on the glared cells clipped over
    ``GLARED_PRINT`` (None where there are none), in the pixels at least ``CHANNEL_CLIPPED``
    in every channel: sensor noise and JPEG pit a clipped area below 255, and a pitted area
    would leave no room for a disc where a whole chip lies washed out."""
    cells = feats.glared & (feats.glare >= GLARED_PRINT)
    if not cells.any():
        return None
    clipped = blown_out(grid_bgr, level=CHANNEL_CLIPPED)
    short = min(shape.w, shape.h)
    diameter = int(round(CLIP_ROOM_DISC * short)) | 1
    # the other cells are not looked at: as if a chip could hide there
    room = chip_room(clipped, cells, shape.w, shape.h, diameter, _chip_centres(shape))
    return np.where(cells, room, 1.0)


def _chip_centres(shape: CellShape) -> tuple[int, int]:
    """Pixels in from each side of a cell (x, y) where the centre of a ``CLIP_ROOM_DISC`` disc
    lying inside a chip can be, the chip's centre ``CHIP_REACH`` of a cell off the cell's centre
    at most: a clipped disc by the cell's side lies beyond every chip on the cell."""
    short = min(shape.w, shape.h)
    slack = (CHIP_DIAMETER - CLIP_ROOM_DISC) / 2 * short  # the disc's centre inside the chip
    inset_x = int(round(shape.w * (0.5 - CHIP_REACH) - slack))
    inset_y = int(round(shape.h * (0.5 - CHIP_REACH) - slack))
    return max(0, inset_x), max(0, inset_y)


def _no_chip_in_clipping(feats: CellFeatures, greyed: np.ndarray) -> np.ndarray:
    """Cells (10x10 bool) whose clipped part cannot hide a whole chip washed out: clipped
    less than ``GLARED_PRINT``, or more with no room for a chip-sized disc in the clipped part
    (``CellFeatures.clip_room``: a glare spot clipped around the printing, not over a chip)
    and at most ``FADED_EDGES`` of the four lines gone, or its printing showing under the
    glare (``greyed``: :func:`_print_under_glare`, which the caller has at hand)."""
    little = feats.glare < GLARED_PRINT
    if feats.clip_room is None:
        return little
    # (a white card clipped over the cell hides more than two of its four lines)
    lines = (feats.edges_missing <= FADED_EDGES) | greyed
    return little | ((feats.clip_room <= CLIP_ROOM_MAX) & lines)


FACE_SKIN_MARGIN = 0.03  # skin over this much more of a cell than this board's empty cells show
# in their upper decile (a card art's printed faces) is a hand's ...
FACE_SKIN_MAX = 0.25  # ... and over this much of it always (fingers over a cell show more)


def _face_skin(feats: CellFeatures, is_empty: np.ndarray) -> float:
    """The share of skin below which a cell under glare shows no hand: ``HAND_SKIN``, or on a
    board whose own empty cells show skin-coloured printing (a cards art's queens and kings)
    ``FACE_SKIN_MARGIN`` above their upper decile, at most ``FACE_SKIN_MAX``. Cells beside skin
    over more than ``FACE_SKIN_MAX`` of a cell (a hand, whose edge shows less) are left out."""
    if not (feats.skin >= HAND_SKIN).any():
        return HAND_SKIN  # the common case: no skin anywhere
    away = is_empty & ~_beside(feats.skin > FACE_SKIN_MAX)
    return _board_level(feats.skin, away, HAND_SKIN, FACE_SKIN_MARGIN, FACE_SKIN_MAX)


def _print_under_glare(feats: CellFeatures) -> np.ndarray:
    """Cells (10x10 bool) under glare that clipped their lines (``RING_CLIPPED`` of the border)
    and their card all around the printing (``GLARED_PRINT`` of the cell) white, whose
    printing still shows, dark (``PRINT_MIN`` of the cell) or lifted to a grey that no dark
    class holds: thin strokes darker than the card (``faint_print``) over ``GLARED_FAINT`` of
    the cell, the darkest level below ``GLARED_INK`` of the white, no skin. The shaded rim of a chip washed out in part shows as
    such strokes too, on a cell clipped less (its body keeps some light below clipping; seen
    0.32-0.44): there the callers never take them for printing. On a cell clipped this much
    the callers still look for room for a washed-out chip (``_no_chip_in_clipping``) and for
    its pale tint."""
    if feats.glared is None or feats.black is None or feats.ring_clipped is None:
        return np.zeros(feats.white.shape, bool)
    # (black printing still dark enough for its class counts the same; red printing turned
    # pink does not: a white card lying there shows its red pips that way too)
    strokes = feats.dark >= PRINT_MIN
    if feats.faint_print is not None:
        strokes = strokes | (feats.faint_print >= GLARED_FAINT)
    return (
        feats.glared
        & (feats.glare >= GLARED_PRINT)
        & (feats.ring_clipped >= RING_CLIPPED)
        & strokes
        & (feats.black < GLARED_INK)
        & (feats.skin < HAND_SKIN)
    )


def _faded_by_glare(feats: CellFeatures, taken: np.ndarray) -> np.ndarray:
    """Of the cells ``taken`` to show what they hold under glare taken off, those where the
    light taken off (``GLARE_FADES`` grey levels or more) explains boundaries and a border
    still faded: taking the glare off is exact only at the cells' centres, and a boundary
    line is thinner than the spot's change of light across it. A card or paper lying over
    the cell hides more than two of its four lines, or two at the board's edge, where it shows
    hardly any printing (``FADED_PRINT``: a card's rank and suit fill more, glare or not); a
    hand shows its skin (``taken`` has none)."""
    if feats.glare_added is None:
        return np.zeros_like(taken)
    faded = feats.glare_added >= GLARE_FADES
    if feats.glare_unmeasured is not None:
        # (glare found on a board lit too close to clipping is not measured: a cell clipped
        # over a glared cell's share lost as much)
        faded |= feats.glare_unmeasured & (feats.glare >= GLARE_MAX)
    # ... one line lost alone is no card lying there, whatever little printing shows
    printing = np.where(feats.edges_missing <= 1, BLANK_CONTENT, FADED_PRINT)
    return taken & faded & (feats.edges_missing <= FADED_EDGES) & (feats.content >= printing)


def _unglared(feats: CellFeatures) -> np.ndarray:
    """Cells (10x10 bool) that glare did not reach: clipped less than a pip's share
    (``PIP_GLARE``) and no glare found there (``CellFeatures.glared``: less than
    ``GLARE_TAKEN`` levels taken off, none unmeasured; none when glare was not looked for)."""
    glared = feats.glared
    if glared is None:
        return np.zeros(feats.glare.shape, bool)
    return (feats.glare < PIP_GLARE) & ~glared


def _disc_cells(mask_in, cells: np.ndarray, shape: CellShape, kernel: np.ndarray) -> np.ndarray:
    """:func:`_per_cell` of a mask eroded by ``kernel``, on the ``cells`` marked (10x10 bool)
    only (0 elsewhere; :func:`cell_boxes.eroded_shares`, the same counts as eroding the whole
    grid image). ``mask_in(box)`` gives the 0/255 mask over a box (two slices) of the grid
    image."""
    inset = (shape.inner_x, shape.inner_y)
    return eroded_shares(mask_in, cells, shape.w, shape.h, kernel, inset)


def _beside(cells: np.ndarray) -> np.ndarray:
    """The marked cells (10x10 bool) and their 8 neighbours."""
    return cv2.dilate(cells.astype(np.uint8), AROUND_ALL) > 0


def _hand_reach(seed: np.ndarray, near: np.ndarray, hand: np.ndarray) -> np.ndarray:
    """The cells within reach of a cover (``near``: ``seed`` dilated by one cell), grown along
    the cells that show the hand itself (``hand``: skin over much of them): a hand is one
    connected thing, so weak signs of something foreign beside its skin count as beside a
    cover too."""
    reach = near.copy()
    grown = near & hand & ~seed & ~CORNERS
    front = grown
    while front.any():
        reach |= _beside(front)
        front = reach & hand & ~grown & ~seed & ~CORNERS
        grown |= front
    return reach


NEAR_SKIN = 0.2  # beside a cover, a cell with skin over this much of it may be under the hand
FACE_MARGIN = 0.05  # ... on a picture card: this much more than the board's own faces show
FACE_CELLS_MIN = 4  # the faces' level is measured over at least this many picture cards


def _face_limit(
    values: np.ndarray,
    faces: np.ndarray | None,
    empty: np.ndarray,
    least: float,
    margin: float = FACE_MARGIN,
) -> np.ndarray | float:
    """Per cell, the level of a measure beside a cover that says something lies over the cell:
    ``least``, and on the picture cards (``faces``) more than this board's own faces show:
    their upper decile over those read ``empty`` (away from the cover), plus ``margin``.
    A board of miniature playing cards prints skin-coloured faces and coloured robes on its
    kings and queens; a rank-and-suit board prints none, and its level stays ``least``."""
    if faces is None or faces.shape != values.shape:
        return least
    shown = values[faces & empty]
    if shown.size < FACE_CELLS_MIN:
        return least
    level = float(nth_smallest(shown, (9 * (shown.size - 1)) // 10)) + margin
    return np.where(faces, max(least, level), least).astype(np.float32)


def _colour_over_corners(
    corner_colour: dict[str, np.ndarray] | None, is_chip: np.ndarray, top: np.ndarray
) -> np.ndarray:
    """Cells (10x10 bool) read as chips of one colour around a grid intersection that is
    itself in that colour (``CellFeatures.corner_colour`` at least ``SIDE_COLOURED``): a
    card's back or a sleeve of a chip's colour lying over the four of them. A chip stays
    inside its cell and never reaches the cell's corners, and four chips around a point
    leave the point itself free."""
    covered = np.zeros_like(is_chip)
    if corner_colour is None or is_chip.shape != CORNERS.shape:
        return covered
    for k, sym in enumerate(CHIP_SYMBOLS):
        if sym not in corner_colour:
            continue
        over = four_around(is_chip & (top == k)) & (corner_colour[sym] >= SIDE_COLOURED)
        if over.any():
            covered[:-1, :-1] |= over
            covered[:-1, 1:] |= over
            covered[1:, :-1] |= over
            covered[1:, 1:] |= over
    return covered


PATCH_TINT = 0.2  # a pale cell whose broad tint covers this much of it ...
PATCH_CELLS = 2  # ... beside another such cell is under a hand (a lone one: a face picture)


def _pale_patch(pale: np.ndarray, tinted_blob: np.ndarray | None) -> np.ndarray:
    """Cells (10x10 bool) under a pale hand spread over the board: of the ``pale`` cells (skin
    spread over a cell that shows none of its printing), those whose broad tint
    (``tinted_blob``) covers more than ``PATCH_TINT`` of the cell, beside at least one more
    such cell. A see-through, motion-blurred hand lets too little skin through for a hand on
    its own in any one cell, yet a hand is big: printing gone under a skin tint over
    ``PATCH_CELLS`` cells together is no card's picture (a yellow face reads as skin on one
    card, and its printing shows)."""
    if tinted_blob is None or not pale.any():
        return np.zeros_like(pale)
    patch = pale & (tinted_blob > PATCH_TINT) & ~CORNERS
    beside = cv2.filter2D(patch.astype(np.float32), -1, AROUND, borderType=cv2.BORDER_CONSTANT)
    return patch & (beside >= PATCH_CELLS - 1)


PRINT_GONE_SHARE = 0.1  # of this board's typical printing: a cell showing less shows none


def _print_gone(feats: CellFeatures, read_empty: np.ndarray, empty: np.ndarray) -> np.ndarray:
    """Cells (10x10 bool) ``read_empty`` that show none of their printing and have lost a
    boundary line: a plain part of a loose card lying over the cell (its edge or its big
    printed pip standing in for the other lines). Every card of the board prints its rank and
    suit: a cell showing less dark or red printing than ``PRINT_MIN`` and than
    ``PRINT_GONE_SHARE`` of what this board's ``empty`` cells typically show is covered, when
    one of its four lines is gone too and it is not clipped white (glare fades printing and
    lines alike; its own rules judge it)."""
    printed = feats.dark + feats.red_ink
    gone = read_empty & (printed < PRINT_MIN) & (feats.edges_missing >= 1) & ~CORNERS
    gone &= feats.glare < PIP_GLARE
    if feats.glared is not None:
        gone &= ~feats.glared
    if not gone.any():
        return gone
    shown = _empty_cells(printed, empty)
    if shown is None:
        return np.zeros_like(gone)
    return gone & (printed < PRINT_GONE_SHARE * float(_middle(shown, 0)))


def _second_raw(raw: dict[str, np.ndarray], top: np.ndarray) -> np.ndarray:
    """Per cell, the largest raw share of a chip colour other than its strongest (``top``:
    the index of that colour in ``CHIP_SYMBOLS``)."""
    shares = np.stack([raw[s] for s in CHIP_SYMBOLS])
    np.put_along_axis(shares, top[None], 0.0, axis=0)
    return shares.max(axis=0)


def _board_level(
    values: np.ndarray, empty: np.ndarray, least: float, margin: float, most: float = 1.0
) -> float:
    """A level of a measure (per cell) that stands out from this board's own ``empty`` cells
    (a mask): ``margin`` above their upper decile, at least ``least`` (at most ``most``). A
    board art may print what covers bring (blue in its pictures, skin-coloured faces): only
    more than the board shows counts. With fewer than ``BOARD_CELLS`` empty cells (or a lone
    cell, not a whole board), ``most``."""
    shown = _empty_cells(values, empty)
    if shown is None:
        return most
    k = (9 * (len(shown) - 1)) // 10  # the upper decile: one partial sort, no interpolation
    board = float(nth_smallest(shown, k))
    return min(most, max(least, board + margin))


def _empty_cells(values: np.ndarray, empty: np.ndarray) -> np.ndarray | None:
    """A measure's values (per cell) on this board's own ``empty`` cells, free corners left
    out; None with fewer than ``BOARD_CELLS`` of them (or a lone cell, not a whole board)."""
    if empty.shape != CORNERS.shape:
        return None
    empty = empty & ~CORNERS
    if np.count_nonzero(empty) < BOARD_CELLS:
        return None
    return values[empty]


DISC_MAX = 0.5  # a chip's disc keeps at most about this share through the erosion (median 0.38)
DISC_RAW_MAX = 0.7  # ... and covers at most about this much of its cell (median 0.63); a card's
# back lying over the cell fills more of it (seen: >= 0.53 and 0.73)


def _border_colour_limit(
    ring_chip: np.ndarray, empty: np.ndarray, disc: np.ndarray
) -> float | np.ndarray:
    """The share of a cell's border in chip colours above which more than a chip lies there:
    ``RING_CHIP_MAX``; for a cell whose colour is a chip-sized disc (``disc``, 10x10 bool),
    ``RING_CHIP_MAX`` of what this board's empty cells' borders leave free: a board whose gaps
    print a chip's colour (navy, green) shows it on every border already. A card's back of the
    gaps' colour lying over cells fills them more than a disc does, and keeps the plain limit."""
    if not (ring_chip > RING_CHIP_MAX).any():
        return RING_CHIP_MAX  # (the limit is never lower)
    shown = _empty_cells(ring_chip, empty)
    if shown is None:
        return RING_CHIP_MAX
    board = min(max(float(_middle(shown, 0)), 0.0), 1.0)
    return np.where(disc, board + RING_CHIP_MAX * (1.0 - board), RING_CHIP_MAX)


PIP_SKIN = 0.05  # skin beside a big printed pip's red, above this board's empty cells' own


def _skin_limit(skin: np.ndarray, empty: np.ndarray, looked_at: np.ndarray, margin: float) -> float:
    """How much skin-coloured pixels the cells ``looked_at`` may show and still hold no hand:
    ``margin`` above what this board's ``empty`` cells typically show (warm light turns much
    of every card, and the edges of every printed red, skin-coloured); measured only when one
    of them shows more skin than ``margin``."""
    if not (looked_at & (skin >= margin)).any():
        return margin
    shown = _empty_cells(skin, empty)
    return margin if shown is None else float(_middle(shown, 0)) + margin


PALE_DISC_MIN = 0.2  # a pale disc of blue or green (eroded) this broad is a chip glare washed out
PALE_DISC_MAX = 0.45  # ... one broader is a card's back or a sleeve (chips seen: 0.21-0.37)
PALE_RAW_MIN = 0.25  # ... whose own hue still shows over this much of the cell (never printed)
PALE_RAW_MAX = 0.62  # ... and no more than a chip covers
PALE_OTHER_MAX = 0.05  # ... with hardly any of the other two chip colours
PALE_CONF = 0.5  # its confidence: read from a pale remnant


def _pale_chips(feats: CellFeatures, decided: np.ndarray) -> np.ndarray:
    """Cells (10x10 bool) not ``decided`` that hold a pale blue or green chip: one glare
    washed out in part, or a mint or sky-blue chip, small in the frame and blurred, whose disc
    is too pale for the chip's colour class (its eroded share falls below ``CHIP_MIN``), yet
    keeps its hue (``CellFeatures.pale_bg``: blue or green however pale, eroded) over a chip's
    area, and the chip colour still covers a good part of the cell. Blue and green are never
    printed; a card's back or a sleeve fills more of the cell (and shows on the border: such
    cells stay covered); the other chip colours hardly show (a chip's hue is one); no skin (a
    chip in the fingers). (Until the round after 37fa8fa glare had to be seen on the cell too:
    on 2,151 independent frames without hands 26 pale green and blue chips with no glare were
    `?` as a pattern; every cell the rule newly reads without glare, on the independent
    renderer's 18 board sets and 8 arm sets and on 8 sets of ours with hands, card backs and
    sleeves, was a chip of that colour.)"""
    if feats.pale_bg is None:
        return np.zeros_like(decided)
    disc = ~decided & (feats.pale_bg >= PALE_DISC_MIN) & (feats.pale_bg <= PALE_DISC_MAX)
    if not disc.any():
        return disc  # the common case: every pale disc is a chip read already
    blue, green = feats.raw["B"], feats.raw["G"]
    hue = np.maximum(blue, green)
    return (
        disc
        & ~CORNERS
        & (hue >= PALE_RAW_MIN)
        & (hue <= PALE_RAW_MAX)
        & (np.minimum(blue, green) < PALE_OTHER_MAX)
        & (feats.raw["R"] < 2 * PALE_OTHER_MAX)
        & (feats.skin < HAND_SKIN)
    )


FRINGE_TAKEN = 30.0  # grey levels of glare taken off a cell: clipped channels fringe its printing
FRINGE_CORE = 0.03  # ... with blue or green this thin (eroded share), no chip seen in part
FRINGE_PALE = 0.12  # ... and no pale disc of that hue (a washed-out chip's: >= 0.15)
GLARE_WHOLE = 0.45  # a cell clipped less than this hides no whole chip (a chip covers >= 0.48)


def _glare_fringe(feats: CellFeatures, hand_over: np.ndarray) -> np.ndarray:
    """Cells (10x10 bool) whose blue or green is a fringe left by taking much glare off
    (``FRINGE_TAKEN`` grey levels or more): where a warm card's red channel clipped, less
    was lost there than the equal amount subtracted from the three channels, and the edges
    of the printing turn bluish. Such blue is thin (nothing survives the erosion) and has
    no pale disc of its hue around it; a chip seen in part keeps a solid piece or a pale
    disc, and a hand over it (``hand_over``: skin, a broad tint) keeps the cell unknown."""
    if feats.glare_added is None:
        return np.zeros_like(hand_over)
    taken = feats.glare_added >= FRINGE_TAKEN
    if not taken.any():
        return taken  # the common case: no glare, or too little taken off
    core = np.maximum(feats.chip["B"], feats.chip["G"])
    fringe = (
        taken
        & (core <= FRINGE_CORE)
        & (feats.pale_bg < FRINGE_PALE if feats.pale_bg is not None else True)
        & (feats.skin < HAND_SKIN)
        & ~hand_over
    )
    if feats.tint_core is not None:
        fringe &= feats.tint_core < GLARED_DISC
    return fringe


DARK_HAND = 0.04  # dark skin over this much of a cell, broad as fingers: a hand (boards: <= 0.025)


def dark_skin(eroded: np.ndarray, shape: CellShape) -> np.ndarray | None:
    """Per cell (10x10 float), the share of dark skin that survives the erosion (``eroded``:
    the colour code with every class eroded, ``packed.erode_bits_ellipse5``): the colour
    class ``dark_skin``, the profile's skin hue, saturated, but too dark for the skin class;
    None where none survives (the usual board).

    A dark-skinned hand, and the shadowed side of any fingers, is darker than the skin class
    allows: its fingers are read as the board's dark ink, and the chip under them as empty.
    Its hue stays warm and saturated, which black ink (greyish) and a chip's shaded rim (red,
    blue or green) are not; and its fingers are broad, so the erosion that removes printed
    strokes keeps them. (A bit of the one colour code, eroded with the others: one compare
    and one count a frame.)"""
    mask = class_mask(eroded, "dark_skin")
    if not cv2.countNonZero(mask):
        return None
    return _per_cell(mask, shape)


def _dark_hand(feats: CellFeatures) -> np.ndarray:
    """Cells (10x10 bool) under a dark hand: dark skin as broad as fingers over more than
    ``DARK_HAND`` of the cell (no board art prints it: the empty boards' cells show none)."""
    if feats.dark_skin is None:
        return np.zeros(feats.skin.shape, bool)
    return (feats.dark_skin > DARK_HAND) & ~CORNERS


def _hand_over_colour(
    feats: CellFeatures,
    read_empty: np.ndarray,
    raw_bg: np.ndarray,
    faces: np.ndarray | None,
) -> np.ndarray:
    """Cells (10x10 bool) ``read_empty`` that show skin over a quarter of them
    (``HAND_SPREAD_SKIN``) and blue or green over a tenth (``NEAR_RAW_BG``): the fingers lie
    over a chip, of which only a sliver shows (blue and green are never printed, nor is skin
    but on the picture cards, ``faces``, whose faces and robes show both: left out)."""
    over = read_empty & (feats.skin >= HAND_SPREAD_SKIN) & (raw_bg >= NEAR_RAW_BG) & ~CORNERS
    if faces is not None and faces.shape == over.shape:
        over &= ~faces
    return over


BLURRED_TINT_MAX = 0.13  # a tint this broad may be a blurred card's pips (seen <= 0.12)
INKED_DARK = 0.05  # a cell with this much black printing shows its ink dark ...
INKED_CELLS = 12  # ... on this many cells of a board that no haze greys (seen >= 17 in 19 of 20)
FADED_SKIN_MAX = 0.03  # ... on a cell with less skin than this (a see-through hand tints too)
BLURRED_PRINT_MIN = 0.17  # ... and faint marks over this much of it (blurred pips: >= 0.18)


WEAK_BORDER_MAX = 0.5  # a border foreign over less than this share of it ...
WEAK_BORDER_SKIN = 0.05  # ... on a cell with less skin than this and every line showing: no cover


def _faded_tint_limit(feats: CellFeatures) -> np.ndarray | float:
    """Per cell, how broad a pale tint (``tinted_disc``, what a chip core's erosion keeps of
    it) faded printing may show and still count as printing: ``PALE_BLOB_MAX``, as a chip
    washed out by haze or glare keeps more of its pale disc.

    Motion or focus blur of a pixel spreads a card's many thin red pips into a pale pink tint
    over much of the card (faint marks over >= 0.18 of it), a little of which survives the
    erosion too (0.03-0.12 of the cell on blurred boards), while the pips fade below every
    colour class. Blur washes out no chip: only haze (which greys the board's black printing
    everywhere) or glare does, and a washed-out chip's faint marks are its thin rim. On a
    board whose black printing still shows dark on ``INKED_CELLS`` cells, a cell where nothing
    is clipped, no glare was found and no skin shows (a see-through hand tints too), with
    faint marks over ``BLURRED_PRINT_MIN`` of it, may show a core up to ``BLURRED_TINT_MAX``."""
    if int(np.count_nonzero(feats.dark >= INKED_DARK)) < INKED_CELLS:
        return PALE_BLOB_MAX
    blurred = (
        (feats.glare == 0)
        & (feats.skin < FADED_SKIN_MAX)
        & (feats.faint_print >= BLURRED_PRINT_MIN)
    )
    if feats.glared is not None:
        blurred &= ~feats.glared
    return np.where(blurred, BLURRED_TINT_MAX, PALE_BLOB_MAX)


_SYMBOLS = np.array(CHIP_SYMBOLS)  # a chip colour's symbol by its index


def classify(
    feats: CellFeatures,
    reference: dict[str, np.ndarray] | None = None,
    covers: bool = True,
    why: dict | None = None,
    faces: np.ndarray | None = None,
):
    """Symbols (``.BGR?``) and confidences per screen cell.

    ``reference`` (from a calibration of the empty board, already in screen order) holds the
    eroded chip-colour fractions the printed art itself shows: a cell showing no more than its
    empty self is empty, and a chip must show clearly more (a chip covers the ink under it, so
    the reference raises the thresholds rather than being subtracted).

    ``covers=False`` leaves out the signs of a cover that only say "something lies on this
    cell" (boundaries gone, a hand at a chip): used to judge whether a located grid is right.

    ``why`` (a dict) receives, by name, the 10x10 masks of every reason a cell became ``?``
    (``foreign_border``, ``boundaries_gone``, ``glare``, ``undecided``, ...), for diagnosis;
    underscored entries are not reasons: ``_read`` and ``_read_conf`` hold the reading before its
    doubts (for a doubt found baseless later), the others what explained faded signs away.

    ``faces`` (10x10 bool, screen order; ``layout.face_cells``) marks the picture cards once
    the orientation is known: the skin their faces show is the board's own.
    """
    blue, green, red_chip = (feats.chip[s] for s in CHIP_SYMBOLS)
    # the strongest colour (the first of equals), its share and the next one's
    top = np.where(blue >= np.maximum(green, red_chip), 0, np.where(green >= red_chip, 1, 2))
    best = np.maximum(np.maximum(blue, green), red_chip)
    second = np.maximum(np.minimum(blue, green), np.minimum(np.maximum(blue, green), red_chip))
    base = 0.0
    if reference is not None:
        base = np.choose(top, [reference[s] for s in CHIP_SYMBOLS])
    best_sym = _SYMBOLS[top]

    symbols = np.full(best.shape, "?", dtype="<U1")
    conf = np.zeros(best.shape, np.float32)

    # chip: strong, dominant colour inside the cell, ring not flooded
    dominance = (best - second) / (best + 1e-6)
    chip_conf = np.clip((best - EMPTY_MAX) / (CHIP_MIN - EMPTY_MAX), 0, 1) * np.clip(
        dominance * 1.5, 0, 1
    )
    # a chip is a solid disc: most of its colour survives the erosion; printed pips, hearts and
    # patterned card backs are thin or broken and lose most of it
    raw_best = np.choose(top, [feats.raw[s] for s in CHIP_SYMBOLS])
    solidity = best / (raw_best + 1e-6)
    # red needs the stricter test: printed hearts and diamonds are red, never blue or green
    solidity_min = np.where(best_sym == "R", SOLIDITY_MIN, SOLIDITY_MIN_BG)
    # a red disc keeping more through the erosion than any printed symbol does is a chip,
    # though red printing around it (pips beside it, a heart under its rim) lowers its share
    solidity_min = np.where(
        (best_sym == "R") & (best >= RED_CORE_MIN), SOLIDITY_MIN_CORE, solidity_min
    )
    is_chip = (
        (best >= np.maximum(CHIP_MIN, base + REFERENCE_MARGIN))
        & (dominance > 0.5)
        & (solidity >= solidity_min)
    )
    # empty: no chip colour worth the name (beyond what the empty board itself shows)
    empty_conf = np.clip(1 - (best - base) / EMPTY_MAX, 0, 1) * 0.5 + 0.5
    # blue and green are never printed: much of either that the erosion removes is a chip
    # seen only in part (under a patterned card back, between fingers), not an empty cell
    raw_bg = np.maximum(feats.raw["B"], feats.raw["G"])
    is_empty = (best < EMPTY_MAX + base) & ~is_chip & (raw_bg < EMPTY_RAW_BG_MAX)
    # a blue or green chip glare turned pale in part: no pattern, read unless covered
    pale_chip = _pale_chips(feats, is_chip | is_empty) if covers else np.zeros_like(is_chip)

    # something over the cell: foreign colours on its border, no card white visible at all,
    # or a solid dark object (a shadowed chip, a sleeve) where only thin ink belongs
    # or one colour over all of the cell and its border (a sleeve, not a chip)
    # a solid chip off the centre of its cell (a tilted board, a grid a little off) covers
    # more of the border: with no skin on it and no neighbour's border foreign too (hands and
    # sleeves are big), only a border even more foreign is a cover. Judging a located grid
    # (``covers=False``) keeps the strict border: a grid one cell off must not read better
    # an edge cell whose other three sides look like the board's shows the margin on its outer
    # side through a grid line a little off there (a lens, a warped board), not a cover.
    # Judging a located grid (``covers=False``) keeps the whole border: a grid running past
    # the board must not read better for the table strip along its edge
    border = feats.ring
    # a hand's skin: on the picture cards, beyond what this board's own faces show
    hand_skin = _face_limit(feats.skin, faces, is_empty, HAND_SKIN)
    if feats.ring_inside is not None and covers:
        border = np.where(feats.ring_inside <= RING_MAX / 3, feats.ring_inside, feats.ring)
    if feats.ring_off_lines is not None and covers:
        # ... nor a strip along a whole row or column of cells: a crease, a grid line a little
        # off (only a cover's own border counts); a cell showing a hand's skin keeps its whole
        # border (an arm lying along a row lines up with it too)
        lined = np.minimum(border, feats.ring_off_lines)
        border = np.where(feats.skin < hand_skin, lined, border)
    shaded = np.zeros((10, 10), bool)
    if feats.ring_shaded is not None and covers:
        # ... nor a border a cast shadow crosses, where the cell keeps all four of its lines
        # and shows no hand's skin (a sleeve or a card lying there hides the lines); such a
        # cell's picture, half in the shade, is no longer like its twin's
        in_shade = np.minimum(border, feats.ring_shaded)
        in_shade = np.where((feats.skin < hand_skin) & (feats.edges_missing == 0), in_shade, border)
        shaded = (border > RING_MAX) & (in_shade <= RING_MAX)
        border = in_shade
    solid_chip = is_chip & (dominance > SOLID_DOMINANCE) & (feats.skin < HAND_SKIN) & covers
    if solid_chip.ndim == 2:
        # a neighbour that is such a chip itself, off-centre too, is no sign of a hand
        chip_beside = solid_chip & (border <= RING_MAX_CHIP)
        foreign = ((border > RING_MAX) & ~chip_beside).astype(np.float32)
        foreign[CORNERS] = 0  # a free corner's emblem is no sign of a hand beside the chip
        if foreign.any():
            solid_chip &= cv2.filter2D(foreign, -1, AROUND, borderType=cv2.BORDER_CONSTANT) == 0
    else:
        solid_chip = np.zeros_like(is_chip)
    veiled = np.zeros_like(is_chip)  # a veil explains faded boundaries and a strange border
    border_veiled = veiled  # ... only a strange border
    veil_signs = np.zeros_like(is_chip)
    if covers and feats.black is not None:
        # a veil of glare fades the lines between cells and the borders' colours with
        # everything else: where even the darkest ink or shading is lifted (printing and
        # chips still show, no skin), faded boundaries and a strange border are the glare's
        # doing, not a cover's (a card lying there keeps its black print, a hand its shadows)
        # ... but a cell read empty may hide a chip washed out by the glare: only one neither
        # clipped nor showing a broad pale tint, and still showing its printing (a pale hand
        # lifts the darkest level too, but hides the printing)
        printed = feats.dark + feats.red_ink >= PRINT_MIN
        clear = (feats.glare < PIP_GLARE) & (feats.veil_tint < VEIL_TINT_MAX) & printed
        showing = (feats.content >= BLANK_CONTENT) & (feats.skin < HAND_SKIN)
        veiled = (feats.black >= VEIL_BLACK) & showing & (is_chip | clear)
        border_veiled = veiled
        over_exposed = np.zeros_like(veiled)
        if feats.ring_clipped is not None:
            # over-exposed light clips a border white, as glare does: where all four boundary
            # lines still show (anything lying over a border hides its line) and the cell shows
            # a chip or its printing, the strange border is the light's doing
            over_exposed = (
                (feats.ring_clipped >= RING_CLIPPED)
                & (feats.edges_missing == 0)
                & showing
                & (is_chip | printed)
            )
        if feats.glare_added is not None:
            # only where glare was found: a white card lying over a cell lifts its darkest
            # level too, and it hides the boundaries for real
            # (glare on a board lit close to clipping is found, though not measured: the cell
            # then still shows it by its lifted darkest level)
            unmeasured = feats.glare_unmeasured
            if unmeasured is None:
                unmeasured = np.zeros_like(veiled)
            # glare added the same light to a chip as to the card: where the card's printing
            # still shows its colours, a chip would show its own, or a pale disc of its tint
            disc = feats.tint_core if feats.tint_core is not None else feats.veil_tint
            veiled &= (feats.glare_added > 0) | unmeasured
            # glare taken off the picture no longer lifts the darkest level: the light taken
            # off says it instead. A cell partly clipped still shows a washed-out chip as a
            # broad pale tint; with none and its printing showing, it holds none
            # (printing glare lifted to a grey no dark class holds still shows as faint strokes)
            greyed = _print_under_glare(feats)
            # (a card art's printed faces show skin: as much as this board's own empty cells
            # show is no hand)
            own_skin = (feats.content >= BLANK_CONTENT) & (feats.skin < _face_skin(feats, is_empty))
            taken = (
                feats.glared
                & (showing | own_skin | greyed)
                & (
                    is_chip
                    | clear
                    | (
                        (printed | greyed)
                        & _no_chip_in_clipping(feats, greyed)
                        & ((feats.veil_tint < GLARED_TINT) | (disc < GLARED_DISC))
                    )
                )
            )
            # ... a strange border then is the glare's, and so are boundaries gone where the
            # lines between cells were clipped white (a white card lying there adds light
            # too, but hides the lines without clipping them)
            lines_clipped = taken
            if feats.ring_clipped is not None:
                lines_clipped = taken & (feats.ring_clipped >= RING_CLIPPED)
            # ... or where so much light was taken off that the lines it faded may not come
            # back whole, and at least two of them still show (a card over a cell hides more)
            lines_clipped |= _faded_by_glare(feats, taken)
            border_veiled = veiled | (taken & ((feats.edges_missing == 0) | lines_clipped))
            veiled |= lines_clipped
        border_veiled = border_veiled | over_exposed
    foreign_border = border > np.where(solid_chip, RING_MAX_CHIP, RING_MAX)
    if covers and foreign_border.ndim == 2 and foreign_border.any():
        # a border foreign over less than half of it, on a cell showing no skin and all four
        # of its boundary lines, is the light's or the grid's (a card edge a pixel off, a
        # gradient across the gaps): a hand over a border brings its skin, a sleeve or card
        # lying over one hides the line beneath it. Beside such a cover, a weaker border is
        # the cover's own edge. Judging a located grid keeps every such border: a grid a
        # little off must not read better
        # (no more skin than this board's own empty cards show under its light, and a little;
        # on the picture cards, than their own faces show)
        weak_skin = _skin_limit(feats.skin, is_empty, foreign_border, WEAK_BORDER_SKIN)
        weak = (
            foreign_border
            & (border < WEAK_BORDER_MAX)
            & (feats.skin < _face_limit(feats.skin, faces, is_empty, weak_skin))
            & (feats.edges_missing == 0)
        )
        # (a free corner's emblem is no such cover)
        foreign_border &= ~(weak & ~_beside(foreign_border & ~weak & ~CORNERS))
    causes = {
        "foreign_border": foreign_border,
        "no_card_white": feats.white < WHITE_MIN,
        "dark_object": feats.dark_blob > DARK_BLOB_MAX,
        "colour_on_border": feats.ring_chip
        > _border_colour_limit(
            feats.ring_chip, is_empty, (best <= DISC_MAX) & (raw_best <= DISC_RAW_MAX)
        ),
        "colour_everywhere": raw_best > RAW_MAX,
    }
    if covers:
        # boundaries gone: a loose card, a hand; or a hand holding or reaching for a chip:
        # skin in the cell and foreign colours on its border (the chip seen may be in the hand)
        gone = feats.edges_missing >= EDGES_GONE
        # the veil's faded signs still warn the neighbours (a chip washed out beside them
        # may read as thin ink): only the cell itself, showing what it holds, is read
        veil_signs = veiled & gone
        veil_signs |= border_veiled & causes["foreign_border"]
        # (a solid chip in plain sight, no skin on it and no foreign border beside it, lies on
        # top: nothing covers it, and its lines are only faint, as a sheet of cards printed
        # edge to edge shows them at this size)
        causes["boundaries_gone"] = gone & ~veiled & ~solid_chip
        if feats.slanted_edge is not None:
            # a loose card's side runs through it: a chip there shows in part or not at all
            # (one seen whole lies beside the card); so does a cell beside such a one that
            # lost a boundary line (the card lies over it)
            crossed = (feats.slanted_edge >= SLANTED_EDGE_IN) & ~CORNERS
            crossed |= _beside(crossed) & (feats.edges_missing >= 1) & ~CORNERS
            causes["slanted_edge"] = crossed & ~solid_chip
        causes["foreign_border"] &= ~border_veiled
        hand_at = is_chip & (feats.skin >= hand_skin) & (feats.ring >= HAND_RING)
        if feats.skin_blob is not None:
            # skin as fingers (broad enough to survive the erosion) or a border mostly foreign;
            # a thin orange fringe is where a blurred chip meets red ink or a warm-lit card
            # (or part of a disc: a chip held in fingertips, cut off by them)
            hand_at &= (
                (feats.skin_blob >= HAND_SKIN_BLOB)
                | (feats.ring >= 2 * HAND_RING)
                | (solidity < HELD_SOLIDITY)
            )
        causes["hand_at_chip"] = hand_at
        causes["colour_over_corners"] = _colour_over_corners(feats.corner_colour, is_chip, top)
        if feats.coloured_sides is not None and feats.coloured_corners is not None:
            # a "chip" whose colour runs along its boundaries and over its corners is something
            # bigger lying there (a row of chips touching each other leaves the corners free)
            causes["colour_across_boundaries"] = (
                is_chip & (feats.coloured_sides >= 2) & (feats.coloured_corners >= 2)
            )
    fringe = np.zeros_like(is_chip)  # blue left by taking much glare off (``_glare_fringe``)
    # a patterned card back: much chip colour in thin lines that the erosion removes (blue or
    # green is never printed; red ink never covers this much of a card)
    # (a sign that something lies on the cell, so left out when judging a located grid)
    if covers:
        thin_red = red_pattern(feats)
        # ... or red over more of a cell than any printing covers, not as a chip's disc
        thin_red |= feats.raw["R"] > INK_RAW_ALL
        causes["pattern"] = ~is_chip & ~pale_chip & ((raw_bg >= EMPTY_RAW_BG_MAX) | thin_red)
        # blue and green are never printed: a cell read empty that shows clearly more of
        # either than this board's own empty cells (a card art's pictures, a neighbour's chip
        # reaching in) is a chip seen in part, between or beside the fingers over it; so is
        # less of either inside a broad tint (the blurred or translucent hand over the chip)
        # or under skin over most of the cell (the fingers themselves)
        # (on the picture cards, more than their own pictures show: a robe is often blue)
        level = _board_level(raw_bg, is_empty, PART_BG_MIN, PART_BG_MARGIN, EMPTY_RAW_BG_MAX)
        level = _face_limit(raw_bg, faces, is_empty, level, PART_BG_MARGIN)
        part_bg = raw_bg >= np.minimum(level, EMPTY_RAW_BG_MAX)
        hand_over = feats.skin > _face_limit(feats.skin, faces, is_empty, PALE_HAND)
        if feats.tinted_blob is not None:
            hand_over |= feats.tinted_blob >= _face_limit(
                feats.tinted_blob, faces, is_empty, PART_BG_TINT
            )
        part_bg |= (raw_bg >= NEAR_RAW_BG) & hand_over
        fringe = _glare_fringe(feats, hand_over)
        causes["part_chip_bg"] = is_empty & part_bg & ~CORNERS & ~fringe
    occluded = functools.reduce(np.logical_or, causes.values())
    edge_sign = feats.edges_missing >= 1 if covers else np.zeros_like(occluded)
    # glare washes a chip out: unsure when some chip colour shows around it
    glared = ((feats.glare > GLARE_MAX) & (raw_best >= 0.03) & (best > base + 0.5 * EMPTY_MAX)) | (
        feats.glare > GLARE_ALL
    )
    # printed ink: some colour, but thin strokes that the erosion removes
    ink_raw, ink_solidity, ink_best = INK_RAW_MAX, INK_SOLIDITY_MAX, CHIP_MIN
    if best.size == 100:
        # this board's own printing: many cells show the same red ink (same font, same size);
        # a cell like them is ink, whatever the art's stroke width
        inkish = (
            (best_sym == "R") & (raw_best > 0.03) & (raw_best < 0.5) & (solidity < SOLIDITY_MIN)
        )
        if inkish.sum() >= INK_CELLS:
            # the upper part: a board prints thin red text and solid hearts alike (one
            # percentile call for the three measures: the same values, a third of the cost)
            upper = row_percentiles(np.stack([raw_best, solidity, best])[:, inkish], 80)
            ink_raw = max(ink_raw, 1.2 * float(upper[0]))
            ink_solidity = max(ink_solidity, min(SOLIDITY_MIN, float(upper[1]) + 0.05))
            # bold symbols keep more of their colour through the erosion than thin strokes:
            # as much as this board's own ink keeps is ink (never as much as a chip keeps)
            # (np.clip of the float32 share between float32 bounds, as min and max: numpy's
            # clip of a scalar costs ~10 us)
            ink_best = float(
                min(max(1.2 * upper[2], np.float32(CHIP_MIN)), np.float32(INK_ERODED_MAX))
            )
    red = best_sym == "R"  # printed ink is red or black, never blue or green
    washed_tint = np.zeros_like(red)
    if feats.tinted_blob is not None:
        washed_tint = feats.tinted_blob >= WASHED_TINT
    not_solid = solidity < SOLIDITY_MIN
    is_ink = (
        ~is_empty
        & red
        & (
            ((best < CHIP_MIN) & ((solidity < ink_solidity) | (not_solid & (raw_best < ink_raw))))
            # as bold as this board's ink, and no bigger
            | ((best < ink_best) & not_solid & (raw_best < min(ink_raw, INK_BOLD_RAW_MAX)))
            # one big printed pip (an ace): a red chip fills more of its cell, and one whose
            # hue leans to orange shows that as skin-coloured pixels beside its red; only on a
            # cell whose four boundaries all show (the rest of a chip under a loose card's edge
            # is a red part-disc of that size)
            | (
                (best < CHIP_MIN)
                & not_solid
                & (raw_best < PIP_RAW_MAX)
                & (feats.skin < _skin_limit(feats.skin, is_empty, red & ~is_empty, PIP_SKIN))
                & (feats.edges_missing == 0)
                # ... and not a clipped cell with a broad pale tint: glare shrinks a washed-out
                # chip's red to a pip's size but leaves its pale disc
                & ~(washed_tint & (feats.glare >= PIP_GLARE))
            )
        )
    )

    if feats.red_disc is not None and feats.tint_core is not None:
        # ... a chip-sized core of red and of tint together, which no printed symbol leaves
        is_chip |= (
            red
            & ~(is_chip | is_empty | is_ink)
            & (best >= CHIP_MIN)
            & (dominance > 0.5)
            & (solidity >= SOLIDITY_MIN_CORE)
            & (feats.red_disc >= RED_DISC_MIN)
            & (feats.tint_core >= TINT_DISC_MIN)
            & (feats.skin < HAND_SKIN)  # (a part-disc in the fingers is the held chip)
        )
    symbols[is_chip] = best_sym[is_chip]
    conf[is_chip] = chip_conf[is_chip]
    symbols[is_empty] = "."
    conf[is_empty] = empty_conf[is_empty]
    symbols[is_ink] = "."
    conf[is_ink] = 0.6

    # every real cell shows printing (rank, suit, pips, a picture) or a chip: a blank cell is
    # covered by something plain (a card lying on the board, paper, a washed-out spot)
    content = feats.content
    if covers and feats.faint_print is not None and feats.tinted_blob is not None:
        # faded printing shows a card; unless a broad pale tint is there too: the faint marks
        # may be the rim of a chip washed out by glare or haze. Judging a located grid
        # (``covers=False``) does without it: a grid a little off must not read better
        # nor where a boundary is hidden: a plain card lying there shows faint marks too
        broad = feats.tinted_disc if feats.tinted_disc is not None else feats.tinted_blob
        faded = (broad < _faded_tint_limit(feats)) & (feats.edges_missing == 0)
        content = content + np.where(faded, feats.faint_print, 0)
    blank = content < BLANK_CONTENT
    if covers and feats.black is not None and feats.glare_unmeasured is not None:
        # glare that could not be taken off lifts black printing to a grey that no dark class
        # holds, though still far darker than the card: it shows (a plain card stays blank)
        blank &= ~(feats.glare_unmeasured & (feats.black < GLARED_INK))
    pale = np.zeros_like(blank)
    dark_hand = np.zeros_like(blank)  # set with the covers of their own below (``_dark_hand``)
    if covers and feats.tinted_blob is not None:
        # a pale hand: skin spread broadly over a cell that shows none of its printing (the
        # chip under it too is hidden; the skin above made the cell look printed)
        printed = feats.dark + feats.red_ink
        pale = (
            (symbols == ".")
            & (printed < PRINT_MIN)
            & (feats.skin > PALE_SKIN)
            & (feats.tinted_blob > PALE_SKIN)
        )
    if blank.ndim == 2:
        blank[CORNERS] = False  # free corners may be plain
    causes["blank"] = blank
    # ... and over most of a cell, no card white brighter than the board's left: a cover
    # on its own (the weaker signs above only count next to a covered cell)
    hand = pale & (feats.skin > PALE_HAND) & (feats.white < 1.0)
    if feats.tinted_blob is not None:
        hand &= feats.tinted_blob > PALE_HAND_TINT
    if covers and feats.tinted_blob is not None:
        # a hand in shadow or blurred by its motion lets a little printing through: skin over
        # most of the cell, spread broadly, with the card's white dimmed, is a hand all the same
        hand |= (
            (symbols == ".")
            & (feats.skin > PALE_HAND)
            & (feats.tinted_blob > DIM_HAND_TINT)
            & (feats.white < DIM_HAND_WHITE)
        )
    if hand.ndim == 2:
        hand[CORNERS] = False
    causes["pale_hand"] = hand
    if covers and hand.ndim == 2:
        # a pale hand spread over several cells hides their printing together: a cover on
        # its own; and a loose card lying over a cell hides all of its printing and a line
        causes["pale_patch"] = _pale_patch(pale, feats.tinted_blob)
        causes["print_gone"] = _print_gone(feats, symbols == ".", is_empty)
        # a dark hand (its fingers read as the board's dark ink); skin over a cell that shows
        # a sliver of blue or green (the chip under the fingers)
        dark_hand = causes["dark_hand"] = _dark_hand(feats)
        causes["hand_over_chip"] = _hand_over_colour(feats, symbols == ".", raw_bg, faces)
        hand = hand | causes["pale_patch"] | causes["print_gone"]
        hand = hand | dark_hand | causes["hand_over_chip"]
    occluded = occluded | blank | hand
    # hands and cards are big: next to a covered cell, weaker signs of something foreign are
    # enough, and so is chip colour reaching over the cell's border
    seed = occluded | veil_signs
    if seed.ndim == 2:
        seed[CORNERS] = False  # the free corners' emblems are not covers
        causes["next_to_cover"] = np.zeros_like(occluded)
    if seed.ndim == 2 and seed.any():
        near = _beside(seed)
        beside_seed = near
        if covers:
            # a hand is one connected thing: its skin beside a cover carries the cover on
            # (skin beyond what this board's own empty cells show, a card art's faces; those
            # measured away from the cover, whose hand may lie over many empty cells; on the
            # picture cards, beyond what their own faces show)
            level = _board_level(feats.skin, is_empty & ~near, HAND_SPREAD_SKIN, HAND_SPREAD_MARGIN)
            level = _face_limit(feats.skin, faces, is_empty & ~near, level)
            near = _hand_reach(seed, near, feats.skin > level)
        # chip colour on the border beyond the board's own (a green board has green gaps)
        chip_border = feats.ring_chip - float(_middle(feats.ring_chip.ravel(), 0))
        if feats.ring_colour is not None:
            # colour by colour: a navy board's gaps read blue, yet red over its border stands out
            for ring_s in feats.ring_colour.values():
                chip_border = np.maximum(chip_border, ring_s - float(_middle(ring_s.ravel(), 0)))
        # beside glare alone, a cell the glare explains has been judged under it already: a
        # chip there off-centre, or red printing there, is no chip washed out
        cover = occluded.copy()
        cover[CORNERS] = False
        # (no more skin than the board's printed faces show: no hand; where glare was measured)
        no_hand = None if feats.glared is None else feats.skin < _face_skin(feats, is_empty)
        if covers and no_hand is not None:
            # (and so is a chip washed out by glare taken off there, showing part of its
            # colour as a chip between fingers does, with no skin: no hand, no cover)
            washed = causes["part_chip_bg"] & feats.glared & no_hand
            if washed.any():
                cover &= ~(washed & held_only_by(causes, ("part_chip_bg",)))
        near_cover = _beside(cover)
        explained = border_veiled & ~near_cover
        # ... and a weakly strange border on the spot's shoulder, where glare was measured
        # though too little to be taken off as such, or clipped a little of the cell, beside
        # glare alone is the glare's too (with no more skin than the board's printed faces)
        shoulder = np.zeros_like(explained)
        if no_hand is not None:
            shoulder = ((feats.glare_added > 0) | (feats.glare >= SHOULDER_CLIPPED)) & no_hand
        away = is_empty & ~near  # (the picture cards' own levels are measured away from it)
        causes["next_to_cover"] = (
            near
            & ~occluded
            & (
                # a veil of glare explains faded boundaries and a strange border
                (~border_veiled & (border > RING_MAX / 3) & ~(shoulder & ~near_cover))
                | (~veiled & edge_sign)
                | (feats.white < 0.8)
                | (feats.skin > _face_limit(feats.skin, faces, away, NEAR_SKIN))
                | ((chip_border > 0.2) & ~explained)
                | pale
                # (beside glare alone, the fringe of glare taken off is no chip's edge)
                | (
                    ~is_chip
                    & (raw_bg > _face_limit(raw_bg, faces, away, NEAR_RAW_BG))
                    & ~(fringe & ~near_cover)
                )
                | (~is_chip & (feats.raw["R"] > NEAR_RAW_RED) & ~explained)
            )
        )
        # ... and a solid chip beside glare alone shows what it holds (glare pales a chip,
        # never turns it into another): the veil's signs warn of chips washed out, not of it
        causes["next_to_cover"] &= ~(solid_chip & ~near_cover)
        # ... and beside glare alone, a cell the glare did not reach (nothing clipped, no glare
        # found there) holds no chip washed out: its weak signs are its printing's (a hand's
        # skin reaching on from a cover carries the cover further)
        glare_alone = beside_seed & ~near_cover
        causes["next_to_cover"] &= ~(_unglared(feats) & glare_alone)
        occluded = occluded | causes["next_to_cover"]
        if covers:
            # signs of a hand's cover only (left out when judging a located grid): a chip held
            # over another one (two chips' colours in one cell); a broad tint as big as a
            # chip's core in a cell read empty (a chip seen through a hand's blurred edge)
            hand_signs = is_chip & (_second_raw(feats.raw, top) > NEAR_RAW_MIXED)
            if feats.tinted_disc is not None:
                hand_signs |= is_empty & (feats.tinted_disc > NEAR_TINT_DISC)
            held = near & ~occluded & hand_signs
            causes["next_to_cover"] |= held
            occluded = occluded | held
            # one chip colour over a whole cell is a card's back, a sleeve, a cloth (a chip
            # never fills its cell): that colour read as a chip beside it is more of the same
            # thing (a red-backed card's dense pattern survives a chip core's erosion)
            filled = causes["colour_everywhere"] & ~CORNERS
            same = np.zeros_like(occluded)
            for k in range(len(CHIP_SYMBOLS)):
                if (filled & (top == k)).any():
                    same |= _beside(filled & (top == k)) & (top == k)
            causes["cover_colour"] = same & is_chip & ~occluded
            occluded = occluded | causes["cover_colour"]
        # every chip is held in the fingers before it is placed: beside a hand, a "chip" that
        # is only part of a disc (straddling the cells under the hand) is the one it holds,
        # whatever it lies over
        # (a free corner is not one: its emblem on a board of a skin-like tan or beige shows
        # "skin" within a foreign border, and a hand over a corner covers the cells beside it)
        hand_cells = occluded & ((feats.skin > HELD_HAND_SKIN) | dark_hand) & ~CORNERS
        if hand_cells.any():
            by_hand = _beside(hand_cells)
            # (or a whole disc with the hand's skin on it and its border foreign: the fingers
            # holding it reach over its cell)
            in_fingers = (feats.skin >= HAND_SKIN) & (feats.ring >= HAND_RING)
            held = (solidity < HELD_SOLIDITY) | in_fingers
            causes["held_chip"] = by_hand & is_chip & ~occluded & held
            occluded = occluded | causes["held_chip"]
    if feats.tinted_blob is not None:
        # red on a clipped card that is as thin and as small as this board's own printing,
        # with no broad pale tint around it (what is left of a washed-out chip), is the ink
        # of an over-exposed white card, not a chip under glare (blue and green stay unsure);
        # so is a trace of thin red too faint to count as ink on an empty card (glare thins
        # printed red below the ink's share; a washed-out chip keeps its broad pale disc)
        faint_red = is_empty & red & (solidity < SOLIDITY_MIN)
        glared &= ~((is_ink | faint_red) & ~washed_tint)
    # ... nor is that fringe, on a cell clipped too little to hide a whole chip (one washed out
    # in part keeps a solid piece of its colour or a pale disc, which a fringe has not)
    glared &= ~(fringe & ~red & (feats.glare < GLARE_WHOLE))
    causes["glare"] = glared & ~is_chip
    if covers and feats.pale_bg is not None:
        # a disc of pale blue or green as big as a chip, where no chip colour is: a chip under
        # a veil of glare keeps its hue but not its colour (never printed: not empty, not ink);
        # (it says nothing about whether a located grid is right: left out when judging one)
        causes["washed_chip"] = (is_empty | is_ink) & (feats.pale_bg >= CHIP_MIN)
    if covers and feats.black is not None and feats.veil_tint is not None:
        # under a veil of glare that is not clipped, a red chip keeps only its rim's colour
        # (thin: it reads as ink) and its broad pale tint: more red than thin text shows is `?`
        causes["washed_red"] = (
            is_ink
            & (feats.black >= VEIL_BLACK)
            & (feats.veil_tint >= WASHED_TINT)
            & (raw_best >= WASHED_RING_RED)
        )
        occluded = occluded | causes["washed_red"]
    if covers and feats.glared is not None and feats.tint_core is not None:
        # a red chip turned pink by glare (taken off or not) keeps too little red through the
        # erosion for a chip, and reads as ink or empty; its tint still fills a chip's disc,
        # which printed strokes turned pink never do
        causes["pink_disc"] = (
            (is_ink | is_empty)
            & (feats.raw["R"] >= GLARED_RED)
            & feats.glared
            & (feats.tint_core >= TINT_DISC_MIN)
        )
        occluded = occluded | causes["pink_disc"]
    if covers and feats.glare_unmeasured is not None and feats.black is not None:
        # glare on a board lit close to clipping is not taken off: a chip it washed out keeps
        # only a broad pale tint, its darkest level lifted with the card's (a card's printing
        # under the same glare keeps its strokes, and no broad tint)
        # (a cell that shows no printing at all, which every card has, lost it to the glare
        # with whatever lay over it: a fainter tint there is the chip's)
        tint_min = np.where(feats.content < BLANK_CONTENT, WASHED_BLANK_TINT, WASHED_TINT)
        causes["washed_unmeasured"] = (
            (is_ink | is_empty)
            & feats.glare_unmeasured
            & (feats.black >= VEIL_BLACK)
            & (feats.veil_tint >= tint_min)
        )
        occluded = occluded | causes["washed_unmeasured"]
    if covers and feats.glare_added is not None:
        # glare taken off a chip it washed out near white gives back too little of its colour
        # where the spot is narrower than a cell (the light is measured at the cell's darkest
        # point, often its edge): the chip's pale tint stays, as broad as a chip's disc (no
        # broader: a whole card tinted is the light's) or, where the cell shows little
        # printing, spread over a chip's share of it (red pips washed pink spread a tint too).
        # Seen on the independent renderer's frames with >= 40 levels taken off: of 1,474
        # empty cells 2 showed such a tint, of the 10 chips read empty there 9
        tint = feats.tinted_blob
        not_all = np.ones_like(is_empty) if tint is None else tint <= WASHED_ALL
        broad = np.zeros_like(is_empty)
        if feats.tint_core is not None:
            broad |= (feats.tint_core >= WASHED_CORE) & not_all
        if tint is not None:
            unprinted = feats.red_ink + feats.dark < WASHED_PRINT
            broad |= (tint >= WASHED_BROAD) & not_all & unprinted
        causes["washed_taken"] = (is_ink | is_empty) & (feats.glare_added >= WASHED_TAKEN) & broad
        occluded = occluded | causes["washed_taken"]
    if covers:
        # red "ink" spread over more of its cell than this board's own printing and than bold
        # printing covers is part of a red chip: one whose glared half lost its colour where
        # glare was taken off, or one half under the fingers of a hand (skin on the cell)
        hidden_part = feats.skin >= HAND_SKIN
        if feats.glared is not None:
            hidden_part = hidden_part | feats.glared
        part_chip = is_ink & hidden_part & (raw_best > max(ink_raw, INK_BOLD_RAW_MAX))
        causes["part_chip"] = part_chip
        occluded = occluded | part_chip
    # a pale chip with no sign of a cover on or beside it is read (glare pales a chip, never
    # turns it into another); beside a cover it stays unknown like any weak sign
    pale_chip &= ~occluded
    symbols[pale_chip] = np.where(feats.raw["B"] >= feats.raw["G"], "B", "G")[pale_chip]
    conf[pale_chip] = PALE_CONF
    causes["glare"] = causes["glare"] & ~pale_chip
    causes["undecided"] = ~(is_chip | is_empty | is_ink | pale_chip)
    unsure = occluded | causes["glare"] | causes["undecided"] | causes.get("washed_chip", False)
    if why is not None:
        why.update(causes)
        # not reasons themselves: what explained faded signs away (underscored), for diagnosis
        why.update(_veiled=veiled, _border_veiled=border_veiled, _veil_signs=veil_signs)
        # ... and the cells read empty as printed red ink (a chip's disc read so is a chip:
        # ``red_print.chips_read_as_ink``)
        why.update(_ink=is_ink & ~unsure, _shaded=shaded)
        if feats.shade_edges is not None:
            why.update(_shade_edges=feats.shade_edges)
        if unsure.any():
            # ... and the reading before its doubts (a doubt found baseless later is lifted)
            why.update(_read=symbols.copy(), _read_conf=conf.copy())
    symbols[unsure] = "?"
    conf[unsure] = 0.0  # an unknown cell claims nothing
    return symbols, conf
