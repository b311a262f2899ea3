"""Radial lens distortion of cheap webcams and phones (barrel ``k1 < 0``, pincushion ``k1 > 0``).

The model is Brown's radial one, in units of the frame's half-diagonal ``R`` around the frame
centre ``c``: an ideal pinhole image point ``p`` at radius ``rho = |p - c| / R`` is seen at

    c + zoom * (p - c) * (1 + k1 * rho**2 + k2 * rho**4)

so ``k1 + k2`` is the relative displacement of a point at the half-diagonal (``-0.1``: a frame
corner drawn 10 % closer to the centre). ``zoom`` is the smallest enlargement that keeps the
whole output frame inside the pinhole frame (a phone crops its corrected output the same way),
so no black borders appear. Points map forward in closed form (``distort``); the per-pixel
inverse needed to resample a frame is solved once per camera on a coarse grid (``maps``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

from companion.vision.geometry import coarse_grid

MAX_K1, MAX_K2 = 0.25, 0.1
MAP_STEP = 8  # pixels between exactly solved points of the resampling map


def radial_factor(rho: np.ndarray, k1: float, k2: float) -> np.ndarray:
    r2 = rho * rho
    return 1 + k1 * r2 + k2 * r2 * r2


def is_monotonic(k1: float, k2: float) -> bool:
    """Whether ``rho * radial_factor(rho)`` keeps growing up to the frame corner (a real lens
    never folds the image back over itself there)."""
    rho = np.linspace(0, 1.05, 64)
    return bool(np.all(1 + 3 * k1 * rho**2 + 5 * k2 * rho**4 > 0.2))


@dataclass(frozen=True)
class Lens:
    k1: float
    k2: float
    size: tuple[int, int]  # frame (width, height)

    @property
    def centre(self) -> np.ndarray:
        w, h = self.size
        return np.array([(w - 1) / 2, (h - 1) / 2])

    @property
    def radius(self) -> float:
        w, h = self.size
        return float(np.hypot(w, h) / 2)

    @cached_property
    def zoom(self) -> float:
        """Enlargement keeping the output frame inside the pinhole frame: every output border
        point at radius ``rho`` must come from a pinhole point at no larger radius along the same
        border, i.e. ``zoom >= 1 / radial_factor(rho)`` for the border radii."""
        w, h = self.size
        rho = np.linspace(min(w, h) / 2 / self.radius, 1.0, 128)
        return float(np.max(1 / radial_factor(rho, self.k1, self.k2)))

    def distort(self, points: np.ndarray) -> np.ndarray:
        """Nx2 pinhole image points -> where this lens shows them."""
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        d = pts - self.centre
        rho = np.hypot(d[:, 0], d[:, 1]) / self.radius
        return self.centre + self.zoom * d * radial_factor(rho, self.k1, self.k2)[:, None]

    def undistort(self, points: np.ndarray, iterations: int = 12) -> np.ndarray:
        """Nx2 output image points -> pinhole image points (fixed-point solve of ``distort``)."""
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        d = (pts - self.centre) / self.zoom
        rho_d = np.hypot(d[:, 0], d[:, 1]) / self.radius
        rho = rho_d.copy()
        for _ in range(iterations):
            rho = rho_d / radial_factor(rho, self.k1, self.k2)
        scale = np.where(rho_d > 0, rho / np.maximum(rho_d, 1e-12), 1.0)
        return self.centre + d * scale[:, None]

    @cached_property
    def maps(self) -> tuple[np.ndarray, np.ndarray]:
        """Fixed-point ``cv2.remap`` maps: for each output pixel, its pinhole image position."""
        points, upsample = coarse_grid((0, 0), self.size, MAP_STEP)
        fine = upsample(self.undistort(points))
        return cv2.convertMaps(fine, None, cv2.CV_16SC2)

    def apply(self, image: np.ndarray, interpolation: int = cv2.INTER_LINEAR) -> np.ndarray:
        """The frame as this lens shows it (same size)."""
        m1, m2 = self.maps
        return cv2.remap(image, m1, m2, interpolation, borderMode=cv2.BORDER_REPLICATE)
