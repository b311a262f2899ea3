"""A cheap motion score: how much a small grey copy of the frame changed since the last one.

The tracker never sees images; it gets this one number per frame. A hand entering the picture
moves a large share of the pixels, camera noise and a chip appearing under a hand do not.
"""

from __future__ import annotations

import cv2
import numpy as np

SMALL_WIDTH = 96  # pixels
PIXEL_THRESHOLD = 18  # grey levels a pixel must change by to count as moving


def small_grey(image: np.ndarray, width: int = SMALL_WIDTH) -> np.ndarray:
    """Downscaled, lightly blurred grey copy of a BGR (or grey) image.

    Every ``step``-th pixel is taken first (a view, no cost), then area-averaged down to
    ``width``: about 1 ms for a 720p frame instead of 10 ms for a full-frame area resize.
    """
    height = max(1, round(image.shape[0] * width / image.shape[1]))
    step = max(1, image.shape[1] // (2 * width))
    sub = np.ascontiguousarray(image[::step, ::step])
    small = cv2.resize(sub, (width, height), interpolation=cv2.INTER_AREA)
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small
    return cv2.GaussianBlur(grey, (3, 3), 0)


def motion_score(previous: np.ndarray | None, current: np.ndarray) -> float:
    """Share (0..1) of small-grey pixels that changed by more than ``PIXEL_THRESHOLD``."""
    if previous is None or previous.shape != current.shape:
        return 1.0
    diff = cv2.absdiff(previous, current)
    return float(np.count_nonzero(diff > PIXEL_THRESHOLD)) / diff.size


class MotionMeter:
    """Stateful wrapper: feed every frame, get its motion score against the previous one."""

    def __init__(self, width: int = SMALL_WIDTH) -> None:
        self.width = width
        self._previous: np.ndarray | None = None

    def update(self, image: np.ndarray) -> float:
        current = small_grey(image, self.width)
        score = motion_score(self._previous, current)
        self._previous = current
        return score

    def reset(self) -> None:
        self._previous = None
