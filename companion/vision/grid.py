"""Find the 10x10 grid inside a straightened board image by its periodic cell boundaries.

Pure numpy on a grey image: every cell boundary (a gap between cards, a printed grid line or the
edge of a card) runs across the whole playing area, so the column-wise mean of the horizontal
gradient peaks at 11 equally spaced positions. Card content differs from cell to cell and averages
out. The search tries every pitch and offset, so margins (title, jack reminders) of any width on
any side are skipped and cells need not be square.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

LINES = 11  # boundaries of 10 cells


@dataclass(frozen=True, slots=True)
class AxisFit:
    """11 equally spaced boundaries ``start + k * pitch`` along one axis, and how clear they are."""

    start: float
    pitch: float
    score: float

    @property
    def end(self) -> float:
        return self.start + 10 * self.pitch


def gradient_profiles(grey: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean absolute gradient across x (per column) and across y (per row)."""
    g = grey.astype(np.float32)
    gx = np.abs(np.diff(g, axis=1))
    gy = np.abs(np.diff(g, axis=0))
    px = np.zeros(g.shape[1], np.float32)
    py = np.zeros(g.shape[0], np.float32)
    # robust to a few strong rows/columns (a hand, a crease): clip before averaging
    cx = np.percentile(gx, 90) + 1e-3
    cy = np.percentile(gy, 90) + 1e-3
    px[1:] = np.minimum(gx, cx).mean(axis=0)
    py[1:] = np.minimum(gy, cy).mean(axis=1)
    return px, py


def fit_axis(
    profile: np.ndarray,
    min_span: float = 0.5,
    max_span: float = 1.0,
    pitch_step: float = 0.25,
    start_range: tuple[float, float] | None = None,
    pitch_range: tuple[float, float] | None = None,
) -> AxisFit:
    """Best 11 equally spaced peaks in ``profile``.

    The grid spans between ``min_span`` and ``max_span`` of the profile's length unless
    ``pitch_range``/``start_range`` narrow the search (refinement). Score: mean normalised
    profile on the boundaries minus its mean half a cell away (the cell centres).
    """
    n = len(profile)
    prof = profile.astype(np.float64)
    prof = prof / (prof.mean() + 1e-9)
    # a gap between cards shows as two edges: a small triangle blur puts the peak on its middle
    pooled = np.convolve(prof, np.array([1.0, 2.0, 3.0, 2.0, 1.0]) / 9.0, mode="same")
    if pitch_range is None:
        pitch_range = (min_span * (n - 1) / 10, max_span * (n - 1) / 10)
    pitches = np.arange(pitch_range[0], pitch_range[1] + 1e-9, pitch_step)
    best = AxisFit(0.0, 1.0, -np.inf)
    ks = np.arange(LINES)
    xs = np.arange(n, dtype=np.float64)
    for pitch in pitches:
        hi = n - 1 - 10 * pitch
        if hi < 0:
            continue
        lo_s, hi_s = (
            (0.0, hi)
            if start_range is None
            else (max(0.0, start_range[0]), min(hi, start_range[1]))
        )
        if hi_s < lo_s:
            continue
        starts = np.arange(lo_s, hi_s + 1e-9, 0.5 if start_range is not None else 1.0)
        pos = starts[:, None] + ks[None, :] * pitch
        on = np.interp(pos, xs, pooled)
        # even and odd boundaries must both be strong: a grid of half the pitch would put every
        # other line on a cell centre, whose printed content is weaker and varies between cells
        on = np.minimum(on[:, 0::2].mean(axis=1), on[:, 1::2].mean(axis=1))
        mid = np.interp(pos[:, :-1] + pitch / 2, xs, prof).mean(axis=1)
        score = on - mid
        i = int(np.argmax(score))
        if score[i] > best.score:
            best = AxisFit(float(starts[i]), float(pitch), float(score[i]))
    return best


def cell_content(
    grad: np.ndarray, xs: np.ndarray, ys: np.ndarray, inner: float = 0.6
) -> np.ndarray:
    """Mean gradient magnitude in the central part of each cell: printed cards and chips have
    content, a plain margin has little. ``xs``/``ys`` are the 11 boundaries on each axis."""
    out = np.zeros((len(ys) - 1, len(xs) - 1), np.float32)
    h, w = grad.shape
    for i in range(len(ys) - 1):
        m = (ys[i + 1] - ys[i]) * (1 - inner) / 2
        y0, y1 = int(round(ys[i] + m)), int(round(ys[i + 1] - m))
        for j in range(len(xs) - 1):
            n = (xs[j + 1] - xs[j]) * (1 - inner) / 2
            x0, x1 = int(round(xs[j] + n)), int(round(xs[j + 1] - n))
            y0c, y1c, x0c, x1c = max(0, y0), min(h, y1), max(0, x0), min(w, x1)
            if y1c > y0c and x1c > x0c:
                out[i, j] = grad[y0c:y1c, x0c:x1c].mean()
    return out


def settle_shift(grey: np.ndarray, fx: AxisFit, fy: AxisFit) -> tuple[AxisFit, AxisFit]:
    """Choose between the fitted grid and the grid moved one cell along an axis.

    A board margin as wide as a cell, bounded by the board's edge, mimics one more row of
    cells; the real end row has printed content on most of its cells, the margin does not.
    """
    g = grey.astype(np.float32)
    grad = np.zeros_like(g)
    grad[:, 1:] += np.abs(np.diff(g, axis=1))
    grad[1:, :] += np.abs(np.diff(g, axis=0))
    h, w = g.shape

    def ends(f: AxisFit, size: int, other: AxisFit, along_x: bool) -> list[AxisFit]:
        opts = []
        for s in (-1, 0, 1):
            cand = AxisFit(f.start + s * f.pitch, f.pitch, f.score)
            if cand.start >= -0.5 and cand.end <= size - 0.5:
                opts.append(cand)
        return opts

    def strength(cx: AxisFit, cy: AxisFit, along_x: bool) -> float:
        xs = cx.start + cx.pitch * np.arange(LINES)
        ys = cy.start + cy.pitch * np.arange(LINES)
        c = cell_content(grad, xs, ys)
        if along_x:
            return float(min(np.median(c[:, 0]), np.median(c[:, -1])))
        return float(min(np.median(c[0, :]), np.median(c[-1, :])))

    best_x = max(ends(fx, w, fy, True), key=lambda f: strength(f, fy, True))
    best_y = max(ends(fy, h, best_x, False), key=lambda f: strength(best_x, f, False))
    return best_x, best_y
