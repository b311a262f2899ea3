"""Chips small against their cells: a round disc as wide as the board's other chips.

The reading's shares assume a chip covers most of its cell (0.8 of its shorter side, as on the
boards we know). A board printed large for its chips (a home-made board on a big sheet, cells
wide for the chips) leaves a chip a quarter of its cell: too little of it survives the erosion
for a chip, a blue or green one then reads as a card back's pattern or undecided, and a red one
among a card's red pips as printing (60 frames with chips 0.6 of the cell's shorter side: 101
red chips read empty, 518 blue and green ones `?`). Its shape still tells: one round blob (its
area that of its largest inner circle, holes filled) as wide as the board's chips, measured on
the round blue and green blobs wherever they show (no board prints those colours). Printed
hearts and diamonds are neither round (area 1.3-2.4x their inner circle) nor, as printed on
cards, as wide as a chip.

The same holds for a chip whose highlight bites into its disc on a board small in the frame
(``chip_shapes.chip_disc``: as wide as a chip, about as round), and, on the class of pale blue
and green, for a chip too pale for its colour class (:func:`pale_discs`).
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from companion.vision.chip_shapes import (
    NEAR_MIDDLE,
    ROUND_DISC,
    SOME_COLOUR,
    WIDE,
    WIDE_DISC,
    blob_circle,
    chip_disc,
    disc_bits,
    kept,
    near_middle,
    odd_side,
)
from companion.vision.chips import CORNERS, CellShape
from companion.vision.colour import CHIP_SYMBOLS, ColourProfile, hue_mask

SOLID_SOME = 0.08  # a cell read empty is looked at with this much chip colour left after the
# erosion (a chip a quarter of its cell keeps ~0.15; a card's thin pips ~0)
SMALL_CHIP_CONF = 0.6  # what a chip read by its shape alone claims
DOUBTS = frozenset({"pattern", "undecided"})  # the `?` such a chip gets (``chips.classify``)
# the signs a chip washed out by glare shows beside the glare's own causes: part of its colour
# (as fingers leave), its printing gone and its cell blank (as a card lying there leaves)
WASHED_SIGNS = frozenset({"part_chip_bg", "blank", "print_gone"})


def small_chips(
    candidates: np.ndarray,
    raw: dict[str, np.ndarray],
    masks: dict[str, np.ndarray],
    width: float,
    shape: CellShape,
    memo: dict | None = None,
    aces: np.ndarray | None = None,
    bitten: np.ndarray | None = None,
) -> np.ndarray | None:
    """Symbols (10x10, ``""`` elsewhere; None when there is none) of the ``candidates`` (10x10
    bool) whose strongest chip colour (``raw`` shares) is a chip's disc against this board's
    chip ``width`` (``masks``: the grid image's class mask of each colour): round and
    ``AS_WIDE`` as wide (``chip_shapes.chip_disc``'s ``ROUND_DISC``), or as wide as a chip and
    about as round (``WIDE_DISC``), which red counts but on ``aces`` (10x10 bool, the red
    aces; None: nowhere): an ace's one big red pip measures so. ``memo`` (kept with a located
    grid) keeps each cell's answer (``chip_shapes.kept``).

    On the ``bitten`` cells (10x10 bool; None: none) a blue or green blob that is no disc as
    it is is measured again closed (:func:`bitten_disc`)."""
    shares = np.stack([raw[s] for s in CHIP_SYMBOLS])
    top = shares.argmax(axis=0)
    share = shares.max(axis=0)
    look = candidates & ~CORNERS & (share >= SOME_COLOUR)
    found = kept(
        memo,
        "small_chips",
        look,
        share,
        top,
        lambda r, c: chip_disc(masks[CHIP_SYMBOLS[top[r, c]]], r, c, shape, width),
    )
    if bitten is not None:
        again = look & bitten & (found == 0) & (top != CHIP_SYMBOLS.index("R"))
        if again.any():
            healed = kept(
                memo,
                "bitten_discs",
                again,
                share,
                top,
                lambda r, c: bitten_disc(masks[CHIP_SYMBOLS[top[r, c]]], r, c, shape, width),
            )
            found = np.where(again, healed, found)
    red = top == CHIP_SYMBOLS.index("R")
    wide_ok = ~red if aces is None else ~red | ~aces
    read = look & (((found & ROUND_DISC) > 0) | (((found & WIDE_DISC) > 0) & wide_ok))
    if not read.any():  # (most frames: nothing to add, and nothing to build)
        return None
    return np.where(read, np.array(CHIP_SYMBOLS)[top], "")


# of the chip width: a closing this wide closes a highlight's bite into a chip's rim (a
# phone's sharpening widens the highlight and darkens a ring around it, out of the colour's
# class, and the disc is left a C)
BITE_CLOSING = 0.4


def bitten_disc(mask: np.ndarray, r: int, c: int, shape: CellShape, width: float) -> int:
    """``chip_shapes.chip_disc``'s bits (``ROUND_DISC``, ``WIDE_DISC``) for the blob of
    ``mask`` over cell ``(r, c)`` as a closing ``BITE_CLOSING`` of the chip ``width`` wide
    leaves it, when it is at most ``WIDE``'s upper end wide (a closing joins blobs: a card
    back's lattice closes into a blob as wide as the cell); 0 otherwise.

    Blue and green only: no board prints them, while a closing joins a card's red pips into
    blobs."""
    diameter, area, centre = blob_circle(mask, r, c, shape, closing=odd_side(BITE_CLOSING * width))
    if centre is None or not near_middle(centre, r, c, shape):
        return 0
    return disc_bits(diameter, area, width) if diameter <= WIDE[1] * width else 0


PALE_LOOK = 0.05  # a cell read empty with this much pale blue or green (eroded) is looked at
PALE_PART = 0.6  # ... and a pale disc this wide of the board's chips is something there
PALE_HUE_MIN = 0.03  # ... a chip, if it is round and shows its colour over this much too


def pale_discs(
    candidates: np.ndarray,
    pale: np.ndarray,
    pale_mask: Callable[[], np.ndarray],
    raw: dict[str, np.ndarray],
    width: float,
    shape: CellShape,
    memo: dict | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """``(symbols, doubtful)``: of the ``candidates`` (10x10 bool, cells read empty that print
    no picture), those showing pale blue or green (``pale``: the class's eroded share; blue
    and green are never printed) as a blob over the cell's middle at least ``PALE_PART`` as
    wide as the board's chips (``width``) on the class mask (``pale_mask()``, made only when
    some cell is looked at): a round disc as wide as a chip (``chip_shapes.disc_bits``'s
    ``ROUND_DISC``), with blue or green over
    ``PALE_HUE_MIN`` of the cell (``raw``), is a chip of that colour (``symbols``, ``""``
    elsewhere); any other such blob is something lying there, unknown (``doubtful``). A blob
    whose inner circle lies off the cell's middle (``chip_shapes.near_middle``) is not looked
    at: a neighbour's chip reaching in, or a grid a part of a cell off.

    A chip lit too brightly, or light blue or mint green in the first place, leaves its chip
    class (saturation below the chips') over most of its disc, keeps its hue, and read empty.
    """
    look = candidates & ~CORNERS & (pale >= PALE_LOOK)
    none = np.full((10, 10), "", "<U1")
    if not look.any():
        return none, look
    mask = pale_mask()
    answers = kept(
        memo,
        "pale_discs",
        look,
        pale,
        0,
        lambda r, c: _pale_answer(mask, r, c, shape, width),
    )
    blue, green = raw["B"], raw["G"]
    hue = np.maximum(blue, green) >= PALE_HUE_MIN
    chip = look & (answers == PALE_CHIP) & hue
    symbols = np.where(chip, np.where(blue >= green, "B", "G"), none)
    return symbols, look & (answers > 0) & ~chip


PALE_NONE, PALE_THING, PALE_CHIP = 0, 1, 2


def _pale_answer(mask: np.ndarray, r: int, c: int, shape: CellShape, width: float) -> int:
    """``PALE_CHIP`` (a round disc as wide as a chip), ``PALE_THING`` (a blob at least
    ``PALE_PART`` as wide) or ``PALE_NONE``: the pale blob over cell ``(r, c)``'s middle."""
    diameter, area, centre = blob_circle(mask, r, c, shape)
    if centre is None or not near_middle(centre, r, c, shape):
        return PALE_NONE  # (a neighbour's chip reaching in, or a grid off: left as read)
    if disc_bits(diameter, area, width) & ROUND_DISC:
        return PALE_CHIP
    return PALE_THING if diameter >= PALE_PART * width else PALE_NONE


# a chip washed out by glare still shows its hue this faintly (of 255) over its disc
WASHED_SATURATION = 16
# ... or in red's band and these hues below it, where the cell shows enough of them (below):
# a red chip washed pink, with the glare taken off and the light divided out by a cream
# card's white, leans to crimson (hues 162-171: 242 pixels of a 27x21 cell, 28 in red's
# band); a bold heart's blurred pink rim reaches them too, but its red is most of it (12-17
# pixels beside 157-165), and joined to it made a disc
WASHED_CRIMSON = (158, 169)
# ... where the cell shows at least this many of them for each of red's: a chip washed pink
# across red's lower edge (hues 165-174) splits its disc between the two bands, 0.35-0.8 as
# many crimson pixels as red, and neither band alone is round (a bold heart's rim shows
# 12-17 of them beside its red, most of its blob)
CRIMSON_SHARE = 0.3
# a faint disc's centre lies at most this far (of a cell) off its cell's: nearer than a solid
# chip's may (``chip_shapes.OFF_CENTRE_MAX``), as a faint hue's mask takes in a neighbour's
# chip too, and a grid off by a part of a cell along one edge showed two chips 0.37 off the
# cells beside their own (read there); the chips it read measured at most 0.23 off
FAINT_OFF_MAX = 0.3


def washed_discs(
    candidates: np.ndarray,
    hsv: np.ndarray,
    profile: ColourProfile,
    width: float,
    shape: CellShape,
    memo: dict | None = None,
) -> np.ndarray:
    """Which of the ``candidates`` (10x10 bool: cells read empty under glare, taken off or not)
    show a chip's disc in a chip's hue however faint (saturation >= ``WASHED_SATURATION``
    in a colour's band of the ``profile``; red's with the orange-red hues): a round disc as
    wide as this board's chips (``width``; ``chip_shapes.chip_disc``) is a chip washed out,
    unknown rather than empty. Printing is thin or not round, and a card's picture is no disc.
    ``memo`` (kept with a located grid) keeps each cell's answer while its mean saturation
    stays (``chip_shapes.kept``): a fixed camera's glare spot lies on the same cells.

    Glare leaves little of a chip's colour (saturation 0.1-0.25 of full, taken off or not): on
    the independent renderer's 1,200 board frames, 9 chips under glare read empty; this look
    finds 7 of them, and 1 of 6,396 empty cells under glare."""
    look = candidates & ~CORNERS
    if not look.any():
        return look
    return look & (faint_discs(look, hsv, profile, width, shape, memo) > 0)


WASHED_CONF = 0.5  # what a chip read by its faint hue's disc alone claims
WIDE_SOLID = 0.2  # of a cell in saturated blue: a faint blue disc not round is a chip


def washed_colour(
    candidates: np.ndarray,
    hsv: np.ndarray,
    profile: ColourProfile,
    width: float,
    shape: CellShape,
    red: np.ndarray | None = None,
    memo: dict | None = None,
    twin_of: np.ndarray | None = None,
    raw: dict[str, np.ndarray] | None = None,
    pips: np.ndarray | None = None,
) -> np.ndarray:
    """Per cell (10x10 str): the chip colour of each of the ``candidates`` (10x10 bool: cells
    left unknown for glare, for the signs a washed-out chip shows, for too little of a chip's
    colour or beside a cover, alone: ``BoardReader._washed_colour``) that shows a
    round disc as wide as a chip (``ROUND_DISC``) in that colour's faint hue
    (:func:`washed_discs`' masks) and no disc in any other chip colour's; ``""`` elsewhere.
    The disc must lie within ``FAINT_OFF_MAX`` of a cell of its cell's middle. Red only on the
    ``red`` cells (10x10 bool; None: nowhere). ``memo`` as in :func:`faint_discs`.

    ``twin_of`` (10x10 int; None: -1 everywhere) gives a candidate's twin, the flat index of
    the cell printing the same card, read empty (-1: none). Against such a twin the candidate
    is read only where the twin shows no disc at all in the colour's faint hue (the same card
    with no chip on it), and then a disc as wide as a chip but not as round (``WIDE_DISC``: a
    washed-out chip joined to a pip's faint red, or cut by clipped glare) is read too. A
    picture card's art may show any colour: the caller looks at one only against its twin.

    ``raw`` (each chip colour's share of the cell at its class's saturation, before the
    erosion; None: not looked at): a green disc as wide as a chip but not round is read too (a
    pale chip squeezed into an ellipse by a tilted view; green is never printed, and a mint
    chip washed out leans to cyan, away from it), a blue one on a cell showing ``WIDE_SOLID``
    of blue at full saturation (a mint chip washed out to cyan keeps no saturated blue).

    ``pips`` (10x10 bool; None: none): the cells printing one big red pip (the red aces), red
    there only as a round disc, twin or not: the pip itself is as wide as a chip but not as
    round, and glare on one ace and not on its twin makes the two unlike (an ace of hearts
    under glare, its twin read empty, read red at 0.5; on the 66 sets read, requiring the
    round disc there made that cell and 3 red chips `?`, nothing else).

    Glare leaves a chip a pale disc that keeps its hue: too pale for its class, and with a
    broad pale tint, part of its colour or its printing gone beside, the reading doubts it.
    Blue and green are never printed; red's faint band takes in a hand's skin too (round
    fingertips), hence only where glare was found. Without a twin only a round disc: as wide
    as a chip but not as round is what a red ace's one big pip, a card's hearts smeared by
    motion blur under glare (a 9 of hearts, 13 pixels of blur) and a mint chip washed out to a
    cyan between green's band and blue's measured (read red, red and blue before this was
    required).
    Measured before choosing, on the stored readings of the independent renderer's 18 board
    sets and 8 arm sets, with the cells left unknown for these causes alone: 47 showed a round
    disc in one of blue and green, every one a chip of that colour (none of 51 cells under an
    arm did), and 18 a round red one, every one a red chip; the empty cards that showed a
    disc (picture cards' green art; a fingertip's pink beside an arm, a glare spot's halo on a
    peach card) are not looked at or were read empty by their twins before this look. Against
    twins read empty, on the same readings: 8 picture cards (round discs) and 17 other cells
    (wide discs) more were read, every one its chip."""
    out = np.full((10, 10), "", "<U1")
    look = candidates & ~CORNERS
    if not look.any():
        return out
    red = np.zeros((10, 10), bool) if red is None else red
    twin_of = np.full((10, 10), -1) if twin_of is None else twin_of
    twins = np.zeros(100, bool)
    twins[twin_of[look & (twin_of >= 0)]] = True
    codes = faint_discs(look | twins.reshape(10, 10), hsv, profile, width, shape, memo).ravel()
    for r, c in np.argwhere(look):
        shown = {sym: disc for sym, disc in _discs(codes[r * 10 + c]).items() if disc}
        if len(shown) != 1:
            continue
        (sym, disc), twin = shown.popitem(), twin_of[r, c]
        if twin >= 0 and _discs(codes[twin])[sym]:
            continue  # (the card's own art shows that disc)
        if not disc & NEAR_MIDDLE:
            continue  # (perhaps a neighbour's chip, or a grid a part of a cell off)
        # (green, never printed nor reached by a mint chip's cyan, as wide as a chip: a chip)
        wide = (
            raw is not None
            and disc & WIDE_DISC
            and (sym == "G" or (sym == "B" and raw[sym][r, c] >= WIDE_SOLID))
        )
        if sym == "R" and pips is not None and pips[r, c] and not disc & ROUND_DISC:
            continue  # (a red ace's own pip, washed out)
        if (disc & ROUND_DISC or twin >= 0 or wide) and (sym != "R" or red[r, c]):
            out[r, c] = sym
    return out


# a picture card's own art is judged plain in a chip colour from this many picture cards read
# empty, at least (a board shows 16; a game's middle leaves most of them free)
PLAIN_ART_MIN = 4


def plain_art_colours(
    empty_faces: np.ndarray,
    hsv: np.ndarray,
    profile: ColourProfile,
    width: float,
    shape: CellShape,
    memo: dict | None = None,
) -> frozenset[str]:
    """The chip colours in which none of the picture cards read empty (``empty_faces``, 10x10
    bool) shows a disc of its faint hue (:func:`faint_discs`, round or only as wide as a chip)
    when at least ``PLAIN_ART_MIN`` of them are looked at; none otherwise.

    A picture card's art may print any colour, so a faint disc over one is read as a chip only
    against its twin read empty (the same card as printed). When that twin holds a chip itself,
    the board's other picture cards tell how its art looks: a board whose court cards wear a
    colour in round patches (a blue robe, a green emblem) shows a disc on some empty one, and no
    faint disc in that colour is read on any picture card of it. Empty picture cards lit evenly
    show their art's hues more strongly than one under glare, so the test errs to doubt.
    Measured on the independent renderer's 12 seen jax sets (their last grid read): of ~14,000
    empty picture cards 8, 7 and 16 showed a round faint disc in blue, green and red, scattered
    over frames, and the picture cards left unknown for a washed-out chip that showed one
    (10) were each a chip of that colour."""
    look = empty_faces & ~CORNERS
    if int(look.sum()) < PLAIN_ART_MIN:
        return frozenset()
    codes = faint_discs(look, hsv, profile, width, shape, memo)
    shown = set()
    for code in codes[look]:
        shown |= {sym for sym, disc in _discs(code).items() if disc}
    return frozenset(CHIP_SYMBOLS) - shown


def _discs(code: int) -> dict[str, int]:
    """Each chip colour's disc bits in a :func:`faint_discs` code."""
    return {sym: (int(code) >> (3 * k)) & 7 for k, sym in enumerate(CHIP_SYMBOLS)}


def faint_discs(
    look: np.ndarray,
    hsv: np.ndarray,
    profile: ColourProfile,
    width: float,
    shape: CellShape,
    memo: dict | None = None,
) -> np.ndarray:
    """Per cell (10x10 int; only those ``look`` marks are meant): each chip colour's
    ``chip_shapes.chip_disc`` bits on its faint hue's mask (:func:`_faint_discs`) with
    ``NEAR_MIDDLE`` where the disc lies that near its cell's middle, three bits a colour in
    ``CHIP_SYMBOLS`` order (0: no disc in any). ``memo`` (kept with a located grid)
    keeps each cell's answer while its mean saturation stays (``chip_shapes.kept``): a fixed
    camera's glare spot lies on the same cells, read empty (:func:`washed_discs`) or left
    unknown (:func:`washed_colour`) frame after frame."""
    # (each cell's mean, for the memo: one area resize of the saturation plane)
    saturation = cv2.resize(cv2.extractChannel(hsv, 1), (10, 10), interpolation=cv2.INTER_AREA)

    def code(r: int, c: int) -> int:
        discs = _faint_discs(hsv, profile, r, c, width, shape)
        return sum(discs[sym] << (3 * k) for k, sym in enumerate(CHIP_SYMBOLS))

    return kept(memo, "faint_discs", look, saturation / 255.0, 0, code)


def _faint_discs(
    hsv: np.ndarray, profile: ColourProfile, r: int, c: int, width: float, shape: CellShape
) -> dict[str, int]:
    """Each chip colour's ``chip_shapes.chip_disc`` answer over cell ``(r, c)`` on the mask of
    its hue however faint (saturation >= ``WASHED_SATURATION``; red's with the crimson hues
    below it where the cell shows ``CRIMSON_SHARE`` as many of them), looked at in the 3x3
    cells around (a chip's blob reaches at most into the next)."""
    w, h = shape.w, shape.h
    r0, c0 = max(0, r - 1), max(0, c - 1)
    part = hsv[r0 * h : (r + 2) * h, c0 * w : (c + 2) * w]
    masks = {sym: hue_mask(part, profile, sym, WASHED_SATURATION) for sym in CHIP_SYMBOLS}
    low = (WASHED_CRIMSON[0], WASHED_SATURATION, profile.min_value)
    crimson = cv2.inRange(part, low, (WASHED_CRIMSON[1], 255, 255))
    own = (slice((r - r0) * h, (r - r0 + 1) * h), slice((c - c0) * w, (c - c0 + 1) * w))
    at = (r - r0, c - c0)  # (the cell in ``part``)
    near = FAINT_OFF_MAX
    discs = {sym: chip_disc(m, *at, shape, width, False, near) for sym, m in masks.items()}
    if cv2.countNonZero(crimson[own]) > CRIMSON_SHARE * cv2.countNonZero(masks["R"][own]):
        discs["R"] |= chip_disc(crimson | masks["R"], *at, shape, width, False, near)
    return discs
