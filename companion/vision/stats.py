"""Exact order statistics, cheaper than numpy's on the arrays the vision code measures: the
same numbers as ``np.median`` / ``np.percentile``, by one partial sort, one sort per row or an
8-bit histogram. Pure functions."""

from __future__ import annotations

import cv2
import numpy as np


def median(values: np.ndarray) -> float:
    """np.median of a 1-D array by one partial sort (a tenth of np.median's cost on the short
    arrays measured here, which counts on the fast path of every frame)."""
    n = len(values)
    k = n // 2
    part = np.partition(values, [k - 1, k] if n % 2 == 0 else k)
    return float(part[k] if n % 2 else (part[k - 1] + part[k]) / 2)


def nth_smallest(values: np.ndarray, k: int, axis: int | None = None) -> np.ndarray:
    """The ``k``-th smallest (0-based) of ``values`` along ``axis`` (None: of all of them), by
    one partial sort: ``np.sort(values, axis)`` taken at ``k``, without sorting the rest."""
    if axis is None:
        return np.partition(values.ravel(), k)[k]
    return np.partition(values, k, axis=axis).take(k, axis=axis)


def row_counts(mask: np.ndarray) -> np.ndarray:
    """Per row of a 2-D bool array, how many entries are set (int32): ``mask.sum(axis=1)``
    by one OpenCV row reduction, several times cheaper than numpy's sum of booleans."""
    return cv2.reduce(mask.view(np.uint8), 1, cv2.REDUCE_SUM, dtype=cv2.CV_32S).ravel()


def row_medians(values: np.ndarray) -> np.ndarray:
    """``np.median(values, axis=1)`` of a 2-D array, the same numbers, by one sort of each
    row: several times faster than ``np.median``'s partition on the short rows of a profile
    (a few hundred values), which counts on every frame located from scratch."""
    n = values.shape[1]
    k = n // 2
    ordered = np.sort(values, axis=1)
    if n % 2:
        return ordered[:, k]
    return (ordered[:, k - 1] + ordered[:, k]) / values.dtype.type(2)


def row_percentiles(values: np.ndarray, q: float) -> np.ndarray:
    """``np.percentile(values, q, axis=1)`` of a 2-D float array, the same numbers (numpy's
    linear method and its way of interpolating): one partial sort of each row, without
    numpy's generic machinery, which costs several times more on the few short rows of a
    board's cells (every text-board read asks for it)."""
    n = values.shape[1]
    virtual = q / 100 * (n - 1)
    below = int(np.floor(virtual))
    above = min(below + 1, n - 1)
    ordered = np.partition(values, [below, above], axis=1)
    low, high = ordered[:, below], ordered[:, above]
    t = virtual - below
    step = high - low
    return high - step * (1 - t) if t >= 0.5 else low + step * t


def grey_median(grey: np.ndarray) -> float:
    """``np.median`` of an 8-bit image, the same number, from its histogram (a tenth of the
    cost of sorting a frame's pixels)."""
    hist = cv2.calcHist([grey], [0], None, [256], [0, 256]).ravel().astype(np.int64)
    cum = np.cumsum(hist)
    n, k = grey.size, grey.size // 2
    upper = int(np.searchsorted(cum, k + 1))  # the k-th smallest (from 0)
    return float(upper) if n % 2 else (int(np.searchsorted(cum, k)) + upper) / 2


def percentile_u8(image: np.ndarray, q: float) -> float:
    """``np.percentile(image, q)`` of an 8-bit image, the same number: from its histogram
    when the values around that rank are all one (nearly always in a picture, and the
    interpolation then cannot change it), else by ``np.percentile`` itself (which sorts the
    pixels, a tenth of a frame's reading time)."""
    # (one long row: OpenCV histograms a single column a pixel row at a time, 3.5 times slower)
    flat = np.ascontiguousarray(image).reshape(1, -1)
    cum = np.cumsum(cv2.calcHist([flat], [0], None, [256], [0, 256]).ravel().astype(np.int64))
    n = flat.size
    rank = int(q / 100 * (n - 1))  # numpy's rank, give or take one
    # the values at ranks rank - 1 ... rank + 2 (0 = the smallest)
    low, high = np.searchsorted(cum, [max(rank - 1, 0) + 1, min(rank + 2, n - 1) + 1])
    if low == high:
        return float(low)
    return float(np.percentile(image, q))
