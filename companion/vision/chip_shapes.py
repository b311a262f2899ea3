"""Chip shapes on a grid image: the largest circle inside a blob, how round the blob is, and
the width of this board's chips, for the looks that tell a chip by its shape
(``red_print``: bold printed hearts; ``small_chips``: chips small against their cells).

A fixed camera shows the same blobs frame after frame: :func:`kept` keeps each cell's answer
with the located grid while the cell's share of the colour barely moves.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from companion.vision.chips import CORNERS, CellShape

REACH = 0.3  # of a cell looked at beyond each side (a chip off its cell's centre)
CHIP_SAMPLES = 8  # blue and green blobs measured for the board's chip width, at most
# a chip covers most of its card's shorter side (0.75-0.9 on the boards drawn, real boards
# alike): a round blue or green blob narrower than this share of it is a picture card's art
# (a washed-out queen's robe; a board with one chip in view measured 2.8 px on 21x27 cells,
# and every pip's faint pink then passed for a chip's disc)
CHIP_SIDE_MIN = 0.4
# a closing this wide (of a cell's shorter side: a third of a chip) closes a highlight's bite
# into a chip's rim, for the chip width where no blob is round as it is; from this many blobs
BITTEN_SIDE, BITTEN_SAMPLES = 0.25, 3
SOME_COLOUR = 0.1  # a cell with this much of a chip colour (before the erosion) is looked at
ROUND_MAX = 1.25  # a blob's area over its inner circle's at most: a disc
SAME_SHARE = 0.02  # a cell whose share moved less than this keeps its answer (a fixed camera)
AS_WIDE = 0.85  # a round disc (``ROUND_MAX``) this wide of the board's chips is a chip's ...
WIDE = (0.78, 1.2)  # ... and so is a disc this wide of them (printing: <= 0.76) ...
NEAR_ROUND_MAX = 1.45  # ... no bigger than this times its inner circle (a highlight's bite)
ROUND_DISC, WIDE_DISC = 1, 2  # the bits of :func:`chip_disc`
NEAR_MIDDLE = 4  # ... and, when asked, of a disc that near its cell's middle
UNGLUE = 0.4  # of the chip width: an opening this wide cuts printing off a chip's rim
HOLE_MAX = 0.25  # of the opening's square: a hole this small in a blob is a highlight's
OFF_CENTRE_MAX = 0.4  # of a cell: a disc's centre at most this far off its cell's (else a
# neighbour's chip reaching in, or a grid half a cell off; 0.25-0.35 left chips pushed off
# their cells' centres unread on fin39's cards set)


def blob_inner_circle(mask: np.ndarray, r: int, c: int, shape: CellShape) -> tuple[float, float]:
    """``(diameter, area)`` in pixels of the largest circle inside the blob of ``mask`` (a 0/255
    grid image mask) that covers most of the middle of cell ``(r, c)``, with its holes (a
    chip's highlight) filled, and of the blob; ``(0, 0)`` when no blob reaches the middle
    (:func:`blob_circle`)."""
    diameter, area, _ = blob_circle(mask, r, c, shape)
    return diameter, area


def blob_circle(
    mask: np.ndarray,
    r: int,
    c: int,
    shape: CellShape,
    opening: int = 0,
    holes: bool = True,
    closing: int = 0,
) -> tuple[float, float, tuple[float, float] | None]:
    """:func:`blob_inner_circle`'s ``(diameter, area)`` and the circle's centre (grid image
    pixels ``(x, y)``; None with no blob): a blob reaching into the cell's middle from a
    neighbour (a chip pushed off its cell, or smeared by motion blur) centres its circle there.

    (The blob is picked by the middle of the cell, not by its outline: the gaps of a board
    printed in a chip's colour run around every cell, and the outline of their network
    encloses the cell's middle without covering it.)

    ``opening`` (pixels, odd): the blob as left by an opening with a disc that wide first, its
    small holes (``HOLE_MAX``) filled before unless ``holes`` is false. ``closing`` (pixels,
    odd): the blob as left by a closing with a disc that wide first (a bite into its rim
    closed)."""
    w, h = shape.w, shape.h
    x0, y0 = max(0, int(c * w - REACH * w)), max(0, int(r * h - REACH * h))
    x1 = min(mask.shape[1], int((c + 1) * w + REACH * w))
    y1 = min(mask.shape[0], int((r + 1) * h + REACH * h))
    part = np.ascontiguousarray(mask[y0:y1, x0:x1])
    middle = (round((c + 0.25) * w) - x0, round((r + 0.25) * h) - y0, round(w / 2), round(h / 2))
    if opening and holes:
        # (a highlight's small hole filled first: widened by the opening, it would cut the disc
        # of a chip small against its cell into pieces; the gaps between merged pips are left)
        part = _small_holes_filled(part, HOLE_MAX * opening * opening)
    if opening:
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (opening, opening))
        part = cv2.morphologyEx(part, cv2.MORPH_OPEN, disc)
    if closing:
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (closing, closing))
        part = cv2.morphologyEx(part, cv2.MORPH_CLOSE, disc)
    filled = _middle_blob(part, middle)
    if filled is None:
        return 0.0, 0.0, None
    _, radius, _, (x, y) = cv2.minMaxLoc(cv2.distanceTransform(filled, cv2.DIST_L2, 5))
    return 2 * float(radius), float(np.count_nonzero(filled)), (x0 + x - 1.0, y0 + y - 1.0)


def _small_holes_filled(part: np.ndarray, most: float) -> np.ndarray:
    """``part`` (0/255) with its holes of at most ``most`` pixels filled (a hole: a piece of
    background that does not reach the image's border, 4-connected)."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(cv2.bitwise_not(part), None, 4)
    if count < 3:  # (the background around the blobs, and no hole)
        return part
    rows, cols = part.shape
    x, y, w, h, area = (stats[:, k] for k in range(5))
    inside = (x > 0) & (y > 0) & (x + w < cols) & (y + h < rows)
    small = np.flatnonzero(inside & (area <= most))
    if not small.size:
        return part
    return np.where(np.isin(labels, small), np.uint8(255), part)


def _middle_blob(part: np.ndarray, middle: tuple[int, int, int, int]) -> np.ndarray | None:
    """The blob of ``part`` (0/255) covering most of ``middle`` (x, y, w, h), its holes filled,
    in an image one pixel larger on every side (for the distance transform); None: none."""
    count, labels = cv2.connectedComponents(part)
    if count < 2:
        return None
    mx, my, mw, mh = middle
    votes = np.bincount(labels[my : my + mh, mx : mx + mw].ravel(), minlength=count)
    votes[0] = 0
    blob = int(votes.argmax())
    if votes[blob] == 0:
        return None
    contours, _ = cv2.findContours(
        (labels == blob).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE
    )
    filled = np.zeros((part.shape[0] + 2, part.shape[1] + 2), np.uint8)
    cv2.drawContours(filled, [contour + 1 for contour in contours], -1, 255, -1)
    return filled


def roundness(diameter: float, area: float) -> float:
    """A blob's area over that of its largest inner circle (``diameter``): 1 for a disc, 1.3-2.4
    for printed hearts and diamonds; infinite for no blob."""
    circle = np.pi * diameter * diameter / 4
    return area / circle if circle else np.inf


def disc_width(mask: np.ndarray, r: int, c: int, shape: CellShape, closing: int = 0) -> float:
    """The inner-circle diameter (pixels) of the blob over cell ``(r, c)``'s middle when it is
    a round disc (``ROUND_MAX``); 0.0 otherwise. ``closing`` as in :func:`blob_circle`."""
    diameter, area, _ = blob_circle(mask, r, c, shape, closing=closing)
    return diameter if roundness(diameter, area) <= ROUND_MAX else 0.0


def chip_disc(
    mask: np.ndarray,
    r: int,
    c: int,
    shape: CellShape,
    width: float,
    holes: bool = True,
    near: float | None = None,
) -> int:
    """How the blob of ``mask`` over cell ``(r, c)`` compares with a chip of this board's
    ``width`` (pixels): ``ROUND_DISC`` when it is a round disc (``ROUND_MAX``) at least
    ``AS_WIDE`` as wide, ``WIDE_DISC`` when it is as wide as a chip (``WIDE``) and about as
    round (``NEAR_ROUND_MAX``), both, or 0; 0 too when its inner circle is centred off the
    cell's middle (:func:`near_middle`: a neighbour's chip reaching in is that cell's). With
    ``near`` (of a cell), also ``NEAR_MIDDLE`` where the disc that earned those bits is
    centred at most that far off the cell's middle.

    Small in the frame (cells are read at ~24 px) a chip's highlight bites into its colour's
    disc at the rim, where filling holes cannot close it: red chips read as ink on an
    independently drawn board measured 0.88-1.06 of the width and up to 1.43x their circle.
    No printing measured so: 213 cells of bold hearts, mats' hearts and portrait mats' hearts
    wider than a chip had inner circles <= 0.76 of the width, those >= 0.66 at least 1.68x.

    The opening fills the blob's small holes first (``holes``): near the rim, a highlight's hole
    widened by the opening cut the disc of red chips small against their cells (0.85-0.94 of
    the width, 1.45-1.56x their circle before the opening) into pieces. Not in a faint hue's
    mask under glare, where a ten's pips merge around gaps as small."""
    diameter, area, centre = blob_circle(mask, r, c, shape)
    if centre is None or not near_middle(centre, r, c, shape):
        return 0
    bits = disc_bits(diameter, area, width)
    inner = near is not None and near_middle(centre, r, c, shape, near)
    near_bits = NEAR_MIDDLE if bits and inner else 0
    if not bits & WIDE_DISC and WIDE[0] * width <= diameter <= WIDE[1] * width:
        # as wide as a chip but not as round: printing touching its rim (a card's index, a
        # pip beside it) joins its blob; an opening a part of a chip wide cuts such strokes
        # off, and a chip's disc keeps its width and becomes round again
        diameter, area, centre = blob_circle(mask, r, c, shape, odd_side(UNGLUE * width), holes)
        if centre is not None and near_middle(centre, r, c, shape):
            wide = disc_bits(diameter, area, width) & WIDE_DISC
            bits |= wide
            if wide and inner and near_middle(centre, r, c, shape, near):
                near_bits = NEAR_MIDDLE
    return bits | near_bits


def odd_side(pixels: float) -> int:
    """A structuring element's side: ``pixels`` rounded to an odd number, at least 3."""
    return max(3, int(round(pixels)) | 1)


def disc_bits(diameter: float, area: float, width: float) -> int:
    """:func:`chip_disc`'s bits for a blob of inner-circle ``diameter`` and ``area`` (pixels)
    against this board's chip ``width``."""
    round_ = roundness(diameter, area)
    bits = ROUND_DISC if diameter >= AS_WIDE * width and round_ <= ROUND_MAX else 0
    if WIDE[0] * width <= diameter <= WIDE[1] * width and round_ <= NEAR_ROUND_MAX:
        bits |= WIDE_DISC
    return bits


def near_middle(
    centre: tuple[float, float], r: int, c: int, shape: CellShape, off_max: float = OFF_CENTRE_MAX
) -> bool:
    """Whether a disc centred at ``centre`` (grid image pixels ``(x, y)``) lies on cell
    ``(r, c)``: no more than ``off_max`` of the cell off its centre along either axis."""
    dx = abs(centre[0] / shape.w - (c + 0.5))
    dy = abs(centre[1] / shape.h - (r + 0.5))
    return max(dx, dy) <= off_max


def board_chip_width(bg: np.ndarray, raw_bg: np.ndarray, shape: CellShape) -> float | None:
    """This board's chip width: the median inner-circle diameter (pixels) of up to
    ``CHIP_SAMPLES`` round blue or green blobs (``bg``: the two class masks together; no board
    prints those colours, but a picture card's art may) on the cells showing most blue or green
    (``raw_bg``, 10x10 shares), whatever those cells were read, leaving out blobs narrower than
    ``CHIP_SIDE_MIN`` of a cell's shorter side; None when none is left.

    When no blob is round as it is, the blobs as a closing ``BITTEN_SIDE`` of a cell's shorter
    side wide leaves them, from ``BITTEN_SAMPLES`` of them at least: a phone's sharpening
    widens every chip's highlight into a bite at its rim."""
    cells = sorted(
        np.argwhere((raw_bg >= SOME_COLOUR) & ~CORNERS).tolist(),
        key=lambda rc: -raw_bg[rc[0], rc[1]],
    )
    narrowest = CHIP_SIDE_MIN * min(shape.w, shape.h)
    closed = odd_side(BITTEN_SIDE * min(shape.w, shape.h))
    for closing, fewest in ((0, 1), (closed, BITTEN_SAMPLES)):
        widths: list[float] = []
        for r, c in cells:
            if (width := disc_width(bg, r, c, shape, closing)) >= narrowest:
                widths.append(width)
                if len(widths) == CHIP_SAMPLES:
                    break
        if len(widths) >= fewest:
            return float(np.median(widths))
    return None


def kept(
    memo: dict | None,
    name: str,
    look: np.ndarray,
    share: np.ndarray,
    tag: np.ndarray | int,
    measure: Callable[[int, int], int],
) -> np.ndarray:
    """``measure(r, c)`` (a small int) of the cells ``look`` marks (10x10 bool), kept in
    ``memo[name]`` with the cell's ``share`` and ``tag`` (the colour measured, say): a cell whose
    tag stays and whose share moved less than ``SAME_SHARE`` is not measured again (None: no
    memo, every cell measured). The 10x10 answers (only those under ``look`` are meant)."""
    if memo is None:
        memo = {}
    if name not in memo:
        memo[name] = (np.full((10, 10), -1.0), np.full((10, 10), -1), np.zeros((10, 10), int))
    shares, tags, answers = memo[name]
    for r, c in np.argwhere(look & ((np.abs(share - shares) >= SAME_SHARE) | (tag != tags))):
        answers[r, c] = measure(r, c)
        shares[r, c], tags[r, c] = share[r, c], np.broadcast_to(tag, (10, 10))[r, c]
    return answers
