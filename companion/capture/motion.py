"""A cheap motion score: how much a small grey copy of the frame changed since the last one.

The tracker never sees images; it gets this number per frame, and whether the change is a
*spot*. A hand entering the picture moves a large share of the pixels, camera noise and a chip
appearing under a hand do not.

Once the board has been located, only changes over the board and a margin around it count
(``region``): a player reaching for a card or a drink beside the board does not hold the game
up, while a hand coming onto the board is seen while it crosses the margin. The score stays a
share of the whole small frame, so the threshold means the same number of pixels either way.

A *spot* (:func:`is_spot`) is a change all of whose pixels lie on the board itself, not its
margin, within a box about one chip across: a chip that flickers in the light, a glint. A hand
cannot make one without first crossing the margin, so the tracker may treat a spot as a change
of one cell (per-cell hysteresis) instead of as a hand that restarts the stillness clock.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

SMALL_WIDTH = 96  # pixels
PIXEL_THRESHOLD = 18  # grey levels a pixel must change by to count as moving
REGION_MARGIN = 0.6  # the watched region: the board's quad grown by this share about its
# centre (30 % of its size on each side: room for a board located a cell or two off)
QUIET_THRESHOLD = 8  # grey levels: off the board, nothing may change by more for a spot
SPOT_BAND = 0.5  # cells around the board's edge that a chip's change on an edge cell blurs into
SPOT_CELLS = 1.6  # a spot's moving pixels fit in a box this many cells wide and high (a chip
# is 0.8 cell; the small image's blur and pixel rounding make its change up to 1.5 cells)


@dataclass(frozen=True, slots=True)
class Motion:
    """What changed between two frames: ``score`` (share of the small frame's pixels that
    moved, only on and around the board once it is located) and whether all of it is one
    ``spot`` on the board."""

    score: float
    spot: bool = False


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


def motion_score(
    previous: np.ndarray | None, current: np.ndarray, mask: np.ndarray | None = None
) -> float:
    """Share (0..1) of small-grey pixels that changed by more than ``PIXEL_THRESHOLD``, counting
    only pixels inside ``mask`` (same shape, non-zero = watched) when one is given."""
    diff = change(previous, current, mask)
    return 1.0 if diff is None else moving_share(diff)


def moving_share(diff: np.ndarray) -> float:
    """Share (0..1) of the pixels of a :func:`change` image that moved (``PIXEL_THRESHOLD``)."""
    return float(np.count_nonzero(diff > PIXEL_THRESHOLD)) / diff.size


def change(
    previous: np.ndarray | None, current: np.ndarray, mask: np.ndarray | None = None
) -> np.ndarray | None:
    """Grey levels each pixel changed by (zero outside ``mask`` when one is given), or
    ``None`` when there is nothing to compare with."""
    if previous is None or previous.shape != current.shape:
        return None
    diff = cv2.absdiff(previous, current)
    if mask is not None:
        diff[~mask.astype(bool)] = 0
    return diff


def is_spot(diff: np.ndarray, board: np.ndarray) -> bool:
    """Whether a frame's change (``diff``, grey levels per small-image pixel, zero outside
    the watched region) is one spot on ``board`` (its four corners in small-image pixels):
    some pixels moved (more than ``PIXEL_THRESHOLD``), all of them on the board (or within
    ``SPOT_BAND`` of its edge) in a box ``SPOT_CELLS`` cells wide and high, and nothing
    beyond that changed even faintly (more than ``QUIET_THRESHOLD``: an arm over the margin
    that hardly differs from the table, while its fingertips cross the board's edge)."""
    moving = diff > PIXEL_THRESHOLD
    ys, xs = np.nonzero(moving)
    if xs.size == 0:
        return False
    quad = np.asarray(board, dtype=np.float32).reshape(4, 2)
    cell = float(np.sqrt(abs(cv2.contourArea(quad)))) / 10
    box = max(int(xs.max() - xs.min()), int(ys.max() - ys.min())) + 1
    if box > SPOT_CELLS * cell:
        return False
    centre = quad.mean(axis=0)  # the board and a band of half a cell (the blur's reach)
    grown = centre + (quad - centre) * (1.0 + 2 * SPOT_BAND / 10)
    inside = np.zeros(diff.shape, np.uint8)
    cv2.fillConvexPoly(inside, np.round(grown).astype(np.int32), 1)
    return bool(inside[ys, xs].all()) and not (diff[inside == 0] > QUIET_THRESHOLD).any()


def region_mask(
    corners: np.ndarray, image_shape: tuple[int, ...], small_shape: tuple[int, int]
) -> np.ndarray:
    """A ``small_shape`` mask of the quad ``corners`` (image points of a ``image_shape`` frame)
    grown by ``REGION_MARGIN`` about its centre."""
    quad = np.asarray(corners, dtype=np.float64).reshape(4, 2)
    centre = quad.mean(axis=0)
    grown = centre + (quad - centre) * (1.0 + REGION_MARGIN)
    scale = np.array([small_shape[1] / image_shape[1], small_shape[0] / image_shape[0]])
    points = np.round(grown * scale).astype(np.int32)
    mask = np.zeros(small_shape, np.uint8)
    cv2.fillConvexPoly(mask, points, 1)
    return mask


class MotionMeter:
    """Stateful wrapper: feed every frame, get its motion score against the previous one.

    ``region`` (the board's four corners in image points, or ``None`` for the whole frame)
    limits the score to the board and its margin."""

    def __init__(self, width: int = SMALL_WIDTH) -> None:
        self.width = width
        self._previous: np.ndarray | None = None
        self._mask_key: tuple | None = None
        self._mask: np.ndarray | None = None

    def update(self, image: np.ndarray, region: np.ndarray | None = None) -> float:
        return self.measure(image, region).score

    def measure(self, image: np.ndarray, region: np.ndarray | None = None) -> Motion:
        """The frame's :class:`Motion` against the previous one (a spot only with a region)."""
        current = small_grey(image, self.width)
        diff = change(self._previous, current, self._region_mask(region, image, current))
        self._previous = current
        if diff is None:
            return Motion(1.0)
        score = moving_share(diff)
        if region is None or score == 0.0:
            return Motion(score)
        scale = np.array([current.shape[1] / image.shape[1], current.shape[0] / image.shape[0]])
        board = np.asarray(region, dtype=np.float64).reshape(4, 2) * scale
        return Motion(score, is_spot(diff, board))

    def _region_mask(
        self, region: np.ndarray | None, image: np.ndarray, small: np.ndarray
    ) -> np.ndarray | None:
        if region is None:
            return None
        key = (tuple(np.round(np.asarray(region, float).ravel(), 1)), image.shape[:2])
        if key != self._mask_key:
            self._mask_key, self._mask = key, region_mask(region, image.shape, small.shape[:2])
        return self._mask

    def reset(self) -> None:
        self._previous = None
