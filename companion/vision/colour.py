"""Colour: the light divided out with the board's own white, and per-pixel colour classes.

Everything here is a pure function of small arrays (a straightened grid image), so it is cheap
enough to run on every frame and easy to test.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

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


def cell_white_colours(bgr: np.ndarray, cells_x: int = 10, cells_y: int = 10) -> np.ndarray:
    """Per cell, the colour of its brightest (3x3-averaged) spot: the card or paper around the
    printing and the chip. ``cells_y`` x ``cells_x`` x 3 uint8 (BGR)."""
    h, w = bgr.shape[:2]
    ch, cw = h // cells_y, w // cells_x
    small = cv2.blur(bgr[: ch * cells_y, : cw * cells_x], (3, 3))
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).reshape(cells_y, ch, cells_x, cw)
    flat = grey.transpose(0, 2, 1, 3).reshape(cells_y, cells_x, ch * cw)
    ys, xs = np.divmod(flat.argmax(axis=2), cw)
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


def _percentile_u8(img: np.ndarray, q: float) -> float:
    hist = cv2.calcHist([img], [0], None, [256], [0, 256]).ravel()
    cdf = np.cumsum(hist)
    return float(np.searchsorted(cdf, cdf[-1] * q / 100.0))


def colour_masks(
    bgr: np.ndarray,
    profile: ColourProfile,
    dark_max: int | None = None,
    hsv: np.ndarray | None = None,
) -> dict[str, np.ndarray]:
    """uint8 masks (0/255) per chip colour, plus ``skin``, ``dark`` (black ink, shadows, at
    or below ``dark_max``, by default :func:`dark_level` of this picture) and ``pale_bg``
    (blue or green however pale). ``cv2.inRange`` keeps this cheap enough for every frame.
    ``hsv``: the picture already converted to HSV, if at hand."""
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV) if hsv is None else hsv
    s_min, v_min = profile.min_saturation, profile.min_value
    masks = {k: _hue_range(hsv, band, s_min, v_min) for k, band in profile.chips.items()}
    skin = _hue_range(hsv, profile.skin, 40, 80)
    masks["skin"] = cv2.bitwise_and(skin, cv2.bitwise_not(masks["R"]))
    dark_max = dark_level(hsv) if dark_max is None else dark_max
    masks["dark"] = cv2.inRange(hsv, (0, 0, 0), (180, 109, dark_max))
    # blue or green however pale: a chip under a veil of glare keeps its hue, not its colour
    masks["pale_bg"] = _pale_blue_green(hsv, profile, v_min)
    return masks


def tinted_mask(hsv: np.ndarray, profile: ColourProfile) -> np.ndarray:
    """Pixels with any tint at all, however washed out (a chip under haze or glare keeps a
    little): uint8 0/255."""
    return cv2.inRange(hsv, (0, TINT_MIN, profile.min_value), (180, 255, 255))


TINT_MIN = 30  # saturation (of 255) above which a pixel has some colour
PALE_MIN = 40  # ... and a blue or green one a hue (a card's white stays below ~20)
DARK_MAX = 89  # of 255 with the white at WHITE_LEVEL: black ink, shadows
DARK_SHARE = 0.33  # ... or this share of the way from the darkest ink up to the white


def dark_level(hsv: np.ndarray) -> int:
    """Brightness at or below which a pixel counts as dark (black ink, a shadow).

    Haze and glare veil a picture with light that lifts black ink far above its usual level
    while the white stays where it is, so the level follows the picture's own darkest ink (its
    1st percentile of brightness): a third of the way from it to the white, never below
    ``DARK_MAX``.
    """
    black = _percentile_u8(hsv[..., 2], 1)
    return int(max(DARK_MAX, black + DARK_SHARE * (WHITE_LEVEL - black)))


def _pale_blue_green(hsv: np.ndarray, profile: ColourProfile, v_min: int) -> np.ndarray:
    """Blue or green pixels from ``PALE_MIN`` saturation up: one range from green's lower
    hue to blue's upper one when the two bands do not wrap (the few cyan hues between them
    are no printing colour either)."""
    b, g = profile.chips["B"], profile.chips["G"]
    if g.lo <= g.hi < b.lo <= b.hi:
        return cv2.inRange(hsv, (g.lo, PALE_MIN, v_min), (b.hi, 255, 255))
    return cv2.bitwise_or(_hue_range(hsv, b, PALE_MIN, v_min), _hue_range(hsv, g, PALE_MIN, v_min))


def _hue_range(hsv: np.ndarray, band: HueBand, s_min: int, v_min: int) -> np.ndarray:
    if band.lo <= band.hi:
        return cv2.inRange(hsv, (band.lo, s_min, v_min), (band.hi, 255, 255))
    return cv2.bitwise_or(
        cv2.inRange(hsv, (band.lo, s_min, v_min), (180, 255, 255)),
        cv2.inRange(hsv, (0, s_min, v_min), (band.hi, 255, 255)),
    )
