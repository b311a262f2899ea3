"""Sensor noise: how much a frame has, and a copy with less of it for finding the board.

A cheap webcam in dim kitchen light, or a phone pushing its gain up, adds grain of 10 grey
levels and more per pixel. The board's boundaries are then lost among the speckles the edge
and line detectors answer to, and no grid is located, although a person sees the board at
once. A 3x3 median takes the speckles away and keeps the boundaries (a wider one starts to
erase thin printed lines and a small board's gaps)."""

from __future__ import annotations

import cv2
import numpy as np

# Immerkaer's operator: the difference of two Laplacians, blind to edges and smooth shading
_NOISE_KERNEL = np.float32([[1, -2, 1], [-2, 4, -2], [1, -2, 1]])
NOISY_FRAME = 6.0  # grey levels of noise: rendered and clean camera frames show 0-5.2


def frame_noise(bgr: np.ndarray) -> float:
    """The standard deviation of a frame's per-pixel noise in grey levels (Immerkaer, 1996:
    the mean absolute response of a kernel that cancels lines, edges and gradients, scaled).

    Fine texture (wood grain, printed pips) adds a little; a frame with grain of sigma 12
    measures 7-10.5, clean frames 0.2-5.2 on the project's rendered sets."""
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY) if bgr.ndim == 3 else bgr
    response = cv2.filter2D(grey.astype(np.float32), -1, _NOISE_KERNEL)[1:-1, 1:-1]
    return float(np.sqrt(np.pi / 2) * np.abs(response).mean() / 6.0)


def denoised(bgr: np.ndarray) -> np.ndarray:
    """A copy of the frame with its speckle noise taken out by a 3x3 median."""
    return cv2.medianBlur(bgr, 3)
