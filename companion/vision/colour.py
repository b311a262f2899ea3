"""Colour: the light divided out with the board's own white, and per-pixel colour classes.

Everything here is a pure function of small arrays (a straightened grid image), so it is cheap
enough to run on every frame and easy to test.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.vision.stats import percentile_u8

CHIP_SYMBOLS = ("B", "G", "R")


@dataclass(frozen=True, slots=True)
class HueBand:
    """OpenCV hue range (0..180); ``lo > hi`` wraps around red."""

    lo: int
    hi: int

    def mask(self, hue: np.ndarray) -> np.ndarray:
        if self.lo <= self.hi:
            return (hue >= self.lo) & (hue <= self.hi)
        return (hue >= self.lo) | (hue <= self.hi)


@dataclass(frozen=True, slots=True)
class ColourProfile:
    """Which hues and saturations (with the light divided out) count as chip colours and skin.

    Defaults suit the usual blue, green and red chips; ``companion calibrate`` measures them.
    """

    chips: dict[str, HueBand] = field(
        default_factory=lambda: {
            "B": HueBand(92, 132),
            "G": HueBand(38, 88),
            "R": HueBand(170, 6),
        }
    )
    skin: HueBand = field(default_factory=lambda: HueBand(7, 24))
    min_saturation: int = 85  # of 255, with the light divided out
    min_value: int = 45  # of 255: darker pixels have no reliable hue

    def to_json(self) -> dict:
        return {
            "chips": {k: [b.lo, b.hi] for k, b in self.chips.items()},
            "skin": [self.skin.lo, self.skin.hi],
            "min_saturation": self.min_saturation,
            "min_value": self.min_value,
        }

    @classmethod
    def from_json(cls, data: dict) -> ColourProfile:
        chips = {k: HueBand(int(v[0]), int(v[1])) for k, v in data["chips"].items()}
        if set(chips) != set(CHIP_SYMBOLS):
            raise ValueError(f"chip colour profile must name {CHIP_SYMBOLS}, not {sorted(chips)}")
        return cls(
            chips=chips,
            skin=HueBand(*[int(v) for v in data.get("skin", [7, 24])]),
            min_saturation=int(data.get("min_saturation", 85)),
            min_value=int(data.get("min_value", 45)),
        )


WHITE_LEVEL = 230.0  # where the board's white sits after balancing
GREY_WEIGHTS = np.float32([0.114, 0.587, 0.299])  # B, G, R as in cv2.COLOR_BGR2GRAY


def cell_white_colours(bgr: np.ndarray, cells_x: int = 10, cells_y: int = 10) -> np.ndarray:
    """Per cell, the colour of its brightest (3x3-averaged) spot: the card or paper around the
    printing and the chip. ``cells_y`` x ``cells_x`` x 3 uint8 (BGR)."""
    h, w = bgr.shape[:2]
    ch, cw = h // cells_y, w // cells_x
    small = cv2.blur(bgr[: ch * cells_y, : cw * cells_x], (3, 3))
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).reshape(cells_y, ch, cells_x, cw)
    flat = grey.transpose(0, 2, 1, 3).reshape(cells_y, cells_x, ch * cw)
    at = flat.argmax(axis=2)
    ys, xs = at // cw, at % cw
    return small[np.arange(cells_y)[:, None] * ch + ys, np.arange(cells_x)[None, :] * cw + xs]


def local_whites(own: np.ndarray) -> np.ndarray:
    """The board's white near every cell (float BGR), from each cell's own white
    (:func:`cell_white_colours`). Light varies smoothly over a board while a cell's content
    does not, so each value is the median over the 5x5 cells around it: a cell whose card is
    hidden (a chip over most of it, a hand, a glare spot) takes its white from around it."""
    return cv2.medianBlur(own, 5).astype(np.float32) + 1.0


def light_gains(whites: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """Per-pixel gains (``size`` = (w, h), float BGR) that bring the white near every pixel
    (smoothly interpolated from :func:`local_whites`) to ``WHITE_LEVEL``."""
    return cv2.resize(WHITE_LEVEL / whites, size, interpolation=cv2.INTER_LINEAR)


def flatten_light(bgr: np.ndarray, whites: np.ndarray, gains: np.ndarray | None = None):
    """Divide out the light: every pixel over the white near it, so the board's white sits at
    ``WHITE_LEVEL`` everywhere whatever the gradients, vignetting, colour temperature or mixed
    light. ``whites`` from :func:`local_whites`; ``gains`` from :func:`light_gains` (reused
    while the light stays the same)."""
    if gains is None:
        gains = light_gains(whites, (bgr.shape[1], bgr.shape[0]))
    return cv2.multiply(bgr, gains, dtype=cv2.CV_8U)


# bit k of a colour code: CLASSES[k]; "tinted": any tint at all, however washed out (a chip
# under haze or glare keeps a little); "dark_skin": the skin hue too dark for "skin" (a
# dark-skinned hand, fingers in their own shadow)
CLASSES = ("B", "G", "R", "skin", "dark", "pale_bg", "tinted", "dark_skin")
SKIN_SATURATION, SKIN_VALUE = 40, 80  # skin is paler than a chip, but not dark
DARK_SKIN_SATURATION = 60  # of 255: dark skin keeps its warm hue strongly (dark ink: greyish)
DARK_SKIN_LEAST = 15  # of 255: darker pixels have no hue worth the name
# a red chip leaning to orange (a cheaper set, a camera's colours) shows these hues, past red's
# band, but saturated as no skin is (skin: 0.23-0.68 of full; red chips and ink: 0.8-0.87)
ORANGE_RED = (7, 12)
ORANGE_RED_SAT = 190
# a rust-red chip (hues 4-9, saturation 0.5-0.9 with the light divided out) is speckled with
# paler orange pixels between the two bands; they count as red inside a patch of red, where
# they are bright: a dark hand's skin as saturated is darker (values 67-90 with the white at
# 230; a hand's skin rarely reaches 0.6), and the blend along a printed pip's edge lies half
# outside
RUST_RED = (7, 12)
RUST_RED_SAT = 150
RUST_RED_VALUE = 95
# a crimson chip (a dark red set, or red under a cool light with a cream card's white divided
# out) lies at these hues, short of red's band, as saturated as a chip: the independent wood
# art's crimson chips measured 164-172 (10th-90th percentiles), saturation 156-220 (10th
# percentile to median). Red printing blurred or washed pink reaches these hues too, but
# paler: taken in at any saturation, a bright board's pink print matched the layout's ink so
# much better that a grid half a cell off its cards read plausibly, 11 chips read empty
CRIMSON_RED = (162, 169)
CRIMSON_RED_SAT = 150
INSIDE = 17 * 255 // 25  # of its 5x5 neighbourhood red, this pixel included


def colour_code(hsv: np.ndarray, profile: ColourProfile, dark_max: int) -> np.ndarray:
    """Every pixel's colour classes as bits (bit k: ``CLASSES[k]``), uint8.

    Each class is a box in HSV (a hue band, a least saturation and value; dark: at most a
    saturation and a value), so a pixel's classes are the bits its hue, its saturation and
    its value all allow: three table look-ups and two ands instead of one range test per
    class and band. Red's usual band also takes the saturated orange-red hues
    (``ORANGE_RED``) and crimson ones (``CRIMSON_RED``) and, among red, a rust-red chip's
    paler pixels (``RUST_RED``)."""
    hue_t, sat_t, val_t = _class_tables(_profile_key(profile), dark_max)
    h, s, v = cv2.split(hsv)
    code = cv2.bitwise_and(cv2.bitwise_and(cv2.LUT(h, hue_t), cv2.LUT(s, sat_t)), cv2.LUT(v, val_t))
    if takes_orange(profile):
        extra_red = cv2.inRange(
            hsv, (ORANGE_RED[0], ORANGE_RED_SAT, profile.min_value), (ORANGE_RED[1], 255, 255)
        )
        crimson = (CRIMSON_RED[0], CRIMSON_RED_SAT, profile.min_value)
        extra_red |= cv2.inRange(hsv, crimson, (CRIMSON_RED[1], 255, 255))
        rust = cv2.inRange(
            hsv, (RUST_RED[0], RUST_RED_SAT, RUST_RED_VALUE), (RUST_RED[1], 255, 255)
        )
        if cv2.countNonZero(rust):
            red_now = class_mask(code, "R")
            inside = cv2.compare(cv2.blur(red_now | extra_red | rust, (5, 5)), INSIDE, cv2.CMP_GE)
            cv2.bitwise_or(extra_red, cv2.bitwise_and(rust, inside), dst=extra_red)
        if cv2.countNonZero(extra_red):
            # (the bit or'ed in where the mask is set: two whole-image ands and ors, cheaper
            # than picking the pixels out by a boolean index)
            bit = 1 << CLASSES.index("R")
            np.bitwise_or(code, np.bitwise_and(extra_red, bit), out=code)
    return code


def takes_orange(profile: ColourProfile) -> bool:
    """Whether red's band is the usual one, wrapping round 0 short of the orange-red hues
    (``ORANGE_RED``) and of the crimson ones (``CRIMSON_RED``), which it then takes too
    (saturated, in :func:`colour_code`)."""
    red = profile.chips["R"]
    return red.lo > red.hi and red.hi < ORANGE_RED[0] and red.lo > CRIMSON_RED[1]


def hue_mask(hsv: np.ndarray, profile: ColourProfile, sym: str, s_min: int) -> np.ndarray:
    """The 0/255 mask of pixels in chip colour ``sym``'s hue band of the ``profile`` (red's
    usual band with the orange-red hues), at saturation ``s_min`` or more and the profile's
    least value, whatever the saturation its class asks for."""
    band, low, top = profile.chips[sym], (s_min, profile.min_value), (255, 255)
    if band.lo <= band.hi:
        return cv2.inRange(hsv, (band.lo, *low), (band.hi, *top))
    hi = ORANGE_RED[1] if sym == "R" and takes_orange(profile) else band.hi
    return cv2.inRange(hsv, (band.lo, *low), (180, *top)) | cv2.inRange(hsv, (0, *low), (hi, *top))


def class_mask(code: np.ndarray, name: str, out: np.ndarray | None = None) -> np.ndarray:
    """The 0/255 mask of one class (a ``CLASSES`` name) from a :func:`colour_code`, written
    into ``out`` if given. ``skin`` leaves out red pixels (an orange chip edge is red's, not
    a hand's).

    (The bits are masked out by numpy: OpenCV's and with a scalar costs twice as much; a
    threshold then spreads a set bit to 255, cheaper than a compare with a scalar.)"""
    if name == "skin":  # the skin bit set and the red bit not, in one test
        skin, red = 1 << CLASSES.index("skin"), 1 << CLASSES.index("R")
        return cv2.compare(np.bitwise_and(code, skin | red), skin, cv2.CMP_EQ, dst=out)
    bit = np.bitwise_and(code, 1 << CLASSES.index(name))
    return cv2.threshold(bit, 0, 255, cv2.THRESH_BINARY, dst=out)[1]


def class_masks(code: np.ndarray, names: tuple[str, ...], out: np.ndarray) -> np.ndarray:
    """:func:`class_mask` of several classes (``CLASSES`` names, not ``skin``) written into
    ``out`` (a contiguous stack of uint8 images, one per name): one and of the code with
    every class's bit and one threshold over the whole stack, instead of a pair per class."""
    np.bitwise_and(code, _class_bits(names)[:, None, None], out=out)
    flat = out.reshape(-1, out.shape[-1])  # (a view: OpenCV takes the stack as one image)
    cv2.threshold(flat, 0, 255, cv2.THRESH_BINARY, dst=flat)
    return out


@functools.cache
def _class_bits(names: tuple[str, ...]) -> np.ndarray:
    if "skin" in names:
        raise ValueError("the skin mask is not its bit alone: use class_mask")
    return np.array([1 << CLASSES.index(name) for name in names], np.uint8)


def _profile_key(profile: ColourProfile) -> tuple:
    bands = tuple((k, b.lo, b.hi) for k, b in sorted(profile.chips.items()))
    return bands, (profile.skin.lo, profile.skin.hi), profile.min_saturation, profile.min_value


@functools.lru_cache(maxsize=32)
def _class_tables(key: tuple, dark_max: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    bands, skin, s_min, v_min = key
    chips = {k: HueBand(lo, hi) for k, lo, hi in bands}
    levels = np.arange(256)
    hue = np.zeros(256, np.uint8)
    sat = np.zeros(256, np.uint8)
    val = np.zeros(256, np.uint8)

    def allow(table: np.ndarray, name: str, where: np.ndarray) -> None:
        table[where] |= np.uint8(1 << CLASSES.index(name))

    for name in CHIP_SYMBOLS:
        allow(hue, name, chips[name].mask(levels))
        allow(sat, name, levels >= s_min)
        allow(val, name, levels >= v_min)
    allow(hue, "skin", HueBand(*skin).mask(levels))
    allow(sat, "skin", levels >= SKIN_SATURATION)
    allow(val, "skin", levels >= SKIN_VALUE)
    if skin[0] <= skin[1]:  # (a calibrated skin band wrapping around red: not looked for)
        allow(hue, "dark_skin", HueBand(*skin).mask(levels))
    allow(sat, "dark_skin", levels >= DARK_SKIN_SATURATION)
    allow(val, "dark_skin", (levels >= DARK_SKIN_LEAST) & (levels < SKIN_VALUE))
    allow(hue, "dark", levels <= 180)
    allow(sat, "dark", levels <= DARK_SATURATION_MAX)
    allow(val, "dark", levels <= dark_max)
    b, g = chips["B"], chips["G"]
    if g.lo <= g.hi < b.lo <= b.hi:  # one range from green's lower hue to blue's upper one
        pale_hue = (levels >= g.lo) & (levels <= b.hi)
    else:
        pale_hue = b.mask(levels) | g.mask(levels)
    allow(hue, "pale_bg", pale_hue)
    allow(sat, "pale_bg", levels >= PALE_MIN)
    allow(val, "pale_bg", levels >= v_min)
    allow(hue, "tinted", levels <= 180)
    allow(sat, "tinted", levels >= TINT_MIN)
    allow(val, "tinted", levels >= v_min)
    return hue, sat, val


TINT_MIN = 30  # saturation (of 255) above which a pixel has some colour
PALE_MIN = 40  # ... and a blue or green one a hue (a card's white stays below ~20)
DARK_SATURATION_MAX = 109  # black ink and shadows are hardly coloured
DARK_MAX = 89  # of 255 with the white at WHITE_LEVEL: black ink, shadows
DARK_SHARE = 0.33  # ... or this share of the way from the darkest ink up to the white


def dark_level(hsv: np.ndarray) -> int:
    """Brightness at or below which a pixel counts as dark (black ink, a shadow).

    Haze and glare veil a picture with light that lifts black ink far above its usual level
    while the white stays where it is, so the level follows the picture's own darkest ink (its
    1st percentile of brightness): a third of the way from it to the white, never below
    ``DARK_MAX``.
    """
    black = percentile_u8(hsv[..., 2], 1)
    return int(max(DARK_MAX, black + DARK_SHARE * (WHITE_LEVEL - black)))


COLOURLESS_STEP = 8  # pixels between the samples looked at (a chip, an ink pip is wider)
COLOURLESS_SPREAD = 10  # grey levels: a pixel whose channels differ by at most this is grey


def colourless(bgr: np.ndarray) -> bool:
    """Whether a frame carries no colour at all: a greyscale image, or a camera switched to
    its night mode. No pixel of a sample every ``COLOURLESS_STEP`` pixels has two channels
    more than ``COLOURLESS_SPREAD`` apart (a frame of a board shows chips, red ink or a warm
    or cool light on its white; a grey picture saved in colour, or sent through a camera's
    YUV, keeps its channels within a few levels)."""
    h, w = bgr.shape[:2]
    size = (max(1, w // COLOURLESS_STEP), max(1, h // COLOURLESS_STEP))
    blue, green, red = cv2.split(cv2.resize(bgr, size, interpolation=cv2.INTER_NEAREST))
    spread = max(int(cv2.absdiff(blue, green).max()), int(cv2.absdiff(green, red).max()))
    return spread <= COLOURLESS_SPREAD
