"""Colour: white balance from the board's own cards, and per-pixel colour classes.

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
    """Which white-balanced hues and saturations count as chip colours and as skin.

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
    min_saturation: int = 85  # of 255, after white balance
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


def white_gains(bgr: np.ndarray) -> np.ndarray:
    """Per-channel gains that make the board's brightest near-neutral pixels (the cards) grey.

    Uses the brightest fifth of the pixels, so chips and ink do not matter; the result is
    normalised to keep the overall brightness.
    """
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    cut = _percentile_u8(grey, 80)
    mask = (grey >= cut).astype(np.uint8)
    white = np.array(cv2.mean(bgr, mask=mask)[:3], np.float32) + 1.0
    gains = white.mean() / white
    return np.clip(gains, 0.5, 2.0).astype(np.float32)


def balance(bgr: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """Apply white-balance gains and stretch so the card white sits near 230."""
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    white = _percentile_u8(grey, 90) * float(np.mean(gains)) + 1.0
    scale = np.asarray(gains, np.float32) * (230.0 / white)
    return cv2.transform(bgr, np.diag(scale).astype(np.float32))  # saturates at 0..255


def _percentile_u8(img: np.ndarray, q: float) -> float:
    hist = cv2.calcHist([img], [0], None, [256], [0, 256]).ravel()
    cdf = np.cumsum(hist)
    return float(np.searchsorted(cdf, cdf[-1] * q / 100.0))


def colour_masks(bgr: np.ndarray, profile: ColourProfile) -> dict[str, np.ndarray]:
    """uint8 masks (0/255) per chip colour, plus ``skin``, ``dark`` (black ink, shadows) and
    ``glare`` (blown-out white). ``cv2.inRange`` keeps this cheap enough for every frame."""
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)
    s_min, v_min = profile.min_saturation, profile.min_value
    masks = {k: _hue_range(hsv, band, s_min, v_min) for k, band in profile.chips.items()}
    skin = _hue_range(hsv, profile.skin, 40, 80)
    masks["skin"] = cv2.bitwise_and(skin, cv2.bitwise_not(masks["R"]))
    masks["dark"] = cv2.inRange(hsv, (0, 0, 0), (180, 109, 89))
    masks["glare"] = cv2.inRange(hsv, (0, 0, 250), (180, 29, 255))
    return masks


def _hue_range(hsv: np.ndarray, band: HueBand, s_min: int, v_min: int) -> np.ndarray:
    if band.lo <= band.hi:
        return cv2.inRange(hsv, (band.lo, s_min, v_min), (band.hi, 255, 255))
    return cv2.bitwise_or(
        cv2.inRange(hsv, (band.lo, s_min, v_min), (180, 255, 255)),
        cv2.inRange(hsv, (0, s_min, v_min), (band.hi, 255, 255)),
    )
