"""Find the 10x10 grid inside a straightened board image by its periodic cell boundaries.

Pure numpy on a grey image: every cell boundary (a gap between cards, a printed grid line or the
edge of a card) runs across the whole playing area, so the column-wise mean of the horizontal
gradient peaks at 11 equally spaced positions. Card content differs from cell to cell and averages
out. The search tries every pitch and offset, so margins (title, jack reminders) of any width on
any side are skipped and cells need not be square.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.stats import row_medians

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
    """Line evidence across x (per column) and across y (per row).

    A cell boundary is an edge along the whole grid, while chips, pips and pictures make edges
    at scattered places. So for each column the *median* over the rows of the horizontal
    gradient is taken (slightly blurred across, to forgive a pixel of misalignment): it is high
    only where an edge runs along most of the column.
    """
    return column_profile(grey), row_profile(grey)


def column_profile(grey: np.ndarray) -> np.ndarray:
    """The x half of :func:`gradient_profiles`: per column, the median horizontal gradient."""
    # every other row: the same median, half the work (the blur runs along each row alone)
    g = grey[::2].astype(np.float32)
    gx = cv2.blur(np.abs(np.diff(g, axis=1)), (3, 1))
    px = np.zeros(g.shape[1], np.float32)
    px[1:] = row_medians(gx.T)
    return px


def row_profile(grey: np.ndarray) -> np.ndarray:
    """The y half of :func:`gradient_profiles`: per row, the median vertical gradient."""
    g = grey[:, ::2].astype(np.float32)  # every other column (the blur runs down each alone)
    gy = cv2.blur(np.abs(np.diff(g, axis=0)), (1, 3))
    py = np.zeros(g.shape[0], np.float32)
    py[1:] = row_medians(gy)
    return py


def fit_axis(
    profile: np.ndarray,
    min_span: float = 0.5,
    max_span: float = 1.0,
    pitch_step: float = 0.25,
) -> AxisFit:
    """Best 11 equally spaced peaks in ``profile``; the grid spans between ``min_span`` and
    ``max_span`` of the profile's length.

    Score: the weaker of the mean normalised profile on the even and on the odd boundaries,
    minus its mean on the cell centres (a grid of half the pitch would put every other line on
    a cell centre, whose printed content is weaker and varies between cells). (pitch, start)
    pairs are scored in vector passes, coarse to fine: a lattice of pitches ``pitch_step``
    apart (at least 0.5 px) and starts 2 px apart first, then around the best few.
    """
    prof = _normalised(profile)
    pitch_range = _pitch_range(len(prof), min_span, max_span)
    pooled, coarse_p, scores = _coarse_scores(prof, pitch_range, max(0.5, pitch_step))
    if scores is None:
        return AxisFit(0.0, 1.0, -np.inf)
    # all refinements scored in one vector pass: per (pitch, start) pair, flattened pitch-major,
    # so each neighbourhood's first best pair is the same one
    flat = np.argsort(scores.ravel())[::-1][:COARSE_KEEP]
    pairs = [_neighbourhood(scores.shape, int(idx), coarse_p, pitch_range) for idx in flat]
    return _best_pair(
        prof, pooled, np.concatenate([p for p, _ in pairs]), np.concatenate([s for _, s in pairs])
    )


def _normalised(profile: np.ndarray) -> np.ndarray:
    prof = profile.astype(np.float64)
    return prof / (prof.mean() + 1e-9)


def _pitch_range(n: int, min_span: float, max_span: float) -> tuple[float, float]:
    return (min_span * (n - 1) / 10, max_span * (n - 1) / 10)


def _coarse_scores(prof: np.ndarray, pitch_range: tuple[float, float], pitch_step: float = 0.5):
    """``(pooled, coarse pitches, scores)``: the profile blurred so that a gap between cards
    (two edges) peaks in its middle, and the scores of a coarse lattice of (pitch, start)
    pairs, starts 2 px apart (``scores`` is None when no grid fits the profile)."""
    pooled = _pooled(prof, pitch_range)
    coarse_p = np.arange(pitch_range[0], pitch_range[1] + 1e-9, pitch_step)
    wide = np.convolve(pooled, _triangle(2), mode="same")  # forgives the coarse lattice's steps
    return pooled, coarse_p, _scores(prof, wide, coarse_p, np.arange(0.0, len(prof), 2.0))


def _pooled(prof: np.ndarray, pitch_range: tuple[float, float]) -> np.ndarray:
    """The normalised profile blurred so that a gap between cards (two edges) peaks in its
    middle: a triangle about a tenth of the least pitch wide."""
    half = max(2, int(round(0.06 * pitch_range[0])))
    return np.convolve(prof, _triangle(half), mode="same")


def _coarse_pair(shape: tuple[int, int], idx: int, coarse_p: np.ndarray) -> tuple[float, float]:
    i, j = np.unravel_index(idx, shape)
    return float(coarse_p[i]), 2.0 * j


def _neighbourhood(shape, idx: int, coarse_p: np.ndarray, pitch_range) -> tuple:
    """(pitches, starts) of every fine pair around coarse pair ``idx`` (pitch-major): pitches
    0.1 px apart within half a pixel, starts 0.5 px apart within 2 px."""
    p0, s0 = _coarse_pair(shape, idx, coarse_p)
    pitches = np.arange(max(pitch_range[0], p0 - 0.5), min(pitch_range[1], p0 + 0.5) + 1e-9, 0.1)
    starts = np.arange(max(0.0, s0 - 2.0), s0 + 2.01, 0.5)
    return np.repeat(pitches, len(starts)), np.tile(starts, len(pitches))


def _best_pair(prof, pooled, pitches, starts) -> AxisFit:
    """The first best of (pitches[i], starts[i]) pairs, scored like :func:`_scores`."""
    if len(pitches) == 0:
        return AxisFit(0.0, 1.0, -np.inf)
    ks = np.arange(LINES, dtype=np.float64)
    pos = starts[:, None] + pitches[:, None] * ks[None, :]  # N x 11
    score = _score_positions(prof, pooled, pos, pitches[:, None])
    best = int(np.argmax(score))
    if not np.isfinite(score[best]):
        return AxisFit(0.0, 1.0, -np.inf)
    return AxisFit(float(starts[best]), float(pitches[best]), float(score[best]))


COARSE_KEEP = 6


def rescored(profile: np.ndarray, fit: AxisFit, min_span: float) -> AxisFit:
    """``fit`` scored on ``profile`` (as :func:`fit_axis` scores its pairs; ``min_span`` as
    given there): how well another profile's fit explains this one."""
    prof = _normalised(profile)
    pooled = _pooled(prof, _pitch_range(len(prof), min_span, 1.0))
    best = _best_pair(prof, pooled, np.array([fit.pitch]), np.array([fit.start]))
    return AxisFit(fit.start, fit.pitch, best.score)


def axis_options(
    profile: np.ndarray, min_span: float, max_span: float, count: int = 2
) -> list[AxisFit]:
    """Up to ``count`` distinct good fits of 11 equally spaced boundaries, best first.

    A faint grid leaves its profile ambiguous: the same lines read with another start (a
    board edge or frame line a cell outside the grid looks like one more boundary) or, when
    the printed rank and suit stand in a column at each cell's centre, at half the pitch. The
    runners-up are kept so that a reading can decide; fits that put their lines within a
    third of a cell of a better fit's lines at nearly its pitch count as the same fit.
    """
    prof = _normalised(profile)
    pitch_range = _pitch_range(len(prof), min_span, max_span)
    pooled, coarse_p, scores = _coarse_scores(prof, pitch_range)
    if scores is None:
        return []
    out: list[AxisFit] = []
    for idx in np.argsort(scores.ravel())[::-1][: 60 * count]:
        if not np.isfinite(scores.ravel()[idx]):
            break
        p0, s0 = _coarse_pair(scores.shape, int(idx), coarse_p)
        if any(_same_lines(f, s0, p0) for f in out):
            continue
        fit = _best_pair(
            prof, pooled, *_neighbourhood(scores.shape, int(idx), coarse_p, pitch_range)
        )
        if np.isfinite(fit.score) and not any(_same_lines(f, fit.start, fit.pitch) for f in out):
            out.append(fit)
        if len(out) >= count:
            break
    return out


def framed_fit(profile: np.ndarray, min_span: float, max_span: float) -> AxisFit | None:
    """The best grid whose first and last boundaries are two of the profile's strongest
    peaks, or None.

    On a blurred board covered with chips the inner boundaries barely show, but the grid's
    printed frame, the outer edges of its outer cards and the board's own edge still do:
    a grid spanned between two of them is worth a reading even when its inner lines score
    low.
    """
    n = len(profile)
    prof = _normalised(profile)
    pooled = np.convolve(prof, _triangle(2), mode="same")
    inner = pooled[1:-1]
    peaks = 1 + np.flatnonzero((inner >= pooled[:-2]) & (inner > pooled[2:]) & (inner >= 2.0))
    peaks = peaks[np.argsort(pooled[peaks])[::-1][:FRAME_PEAKS]]
    starts, pitches = [], []
    for a in peaks:
        for b in peaks:
            span = (b - a) / (n - 1)
            if a < b and min_span <= span <= max_span:
                starts.append(float(a))
                pitches.append((b - a) / 10)
    if not starts:
        return None
    fine = np.convolve(prof, _triangle(max(2, int(round(0.06 * min(pitches))))), mode="same")
    return _best_pair(prof, fine, np.array(pitches), np.array(starts))


FRAME_PEAKS = 6


def doubled(profile: np.ndarray, fit: AxisFit) -> list[AxisFit]:
    """The grids at twice ``fit``'s pitch through every other one of its lines: the best one
    through its even lines and the best one through its odd lines (those that fit inside the
    profile). The alternatives to a fit that put a boundary on every cell's printed centre
    column; which half of its lines are the boundaries, only a reading can tell."""
    n = len(profile)
    pitch = 2 * fit.pitch
    prof = _normalised(profile)
    pooled = np.convolve(prof, _triangle(max(2, int(round(0.06 * pitch)))), mode="same")
    out = []
    for phase in (0, 1):
        starts = fit.start + fit.pitch * np.arange(phase - 10, 11, 2)
        starts = starts[(starts >= 0) & (starts + 10 * pitch <= n - 1)]
        if len(starts):
            # the other half of the fit's lines fall on this grid's cell centres, so only the
            # strength on its own 11 lines picks the start
            on = _lerp(pooled, starts[:, None] + pitch * np.arange(LINES)[None, :]).mean(axis=1)
            best = int(np.argmax(on))
            out.append(AxisFit(float(starts[best]), pitch, float(on[best])))
    return out


def _same_lines(fit: AxisFit, start: float, pitch: float) -> bool:
    return abs(pitch - fit.pitch) < 0.08 * fit.pitch and abs(start - fit.start) < fit.pitch / 3


def _scores(prof, pooled, pitches, starts) -> np.ndarray | None:
    """Score of every (pitch, start) pair: P x S, -inf where the grid leaves the profile."""
    n = len(prof)
    if len(pitches) == 0 or len(starts) == 0:
        return None
    valid = starts[None, :] + 10 * pitches[:, None] <= n - 1  # P x S: the grid fits
    if not valid.any():
        return None
    # only the pairs whose grid fits are scored (at large pitches most starts do not fit)
    pi, si = np.nonzero(valid)
    pos = starts[si, None] + pitches[pi, None] * np.arange(LINES, dtype=np.float64)[None, :]
    out = np.full(valid.shape, -np.inf)
    out[pi, si] = _score_positions(prof, pooled, pos, pitches[pi, None])
    return out


def _score_positions(prof, pooled, pos, pitches) -> np.ndarray:
    """Scores of grids whose 11 boundaries are ``pos[..., :]`` (pitch ``pitches``, broadcast to
    ``pos[..., :1]``): -inf where the grid leaves the profile."""
    valid = pos[..., -1] <= len(prof) - 1
    on = _lerp(pooled, pos)
    on = np.minimum(on[..., 0::2].mean(axis=-1), on[..., 1::2].mean(axis=-1))
    centres = pos[..., :-1] + pitches / 2
    mid = _lerp(prof, centres).mean(axis=-1)
    return np.where(valid, on - mid, -np.inf)


def _triangle(half: int) -> np.ndarray:
    tri = np.concatenate([np.arange(1, half + 2), np.arange(half, 0, -1)]).astype(np.float64)
    return tri / tri.sum()


def _lerp(values: np.ndarray, pos: np.ndarray) -> np.ndarray:
    """Linear interpolation of ``values`` at positions (clipped to the ends); faster than
    ``np.interp`` for large query arrays on a uniform grid."""
    pos = np.clip(pos, 0, len(values) - 1.000001)
    i = pos.astype(np.intp)
    f = pos - i
    return values[i] * (1 - f) + values[i + 1] * f


def _cell_means(integral: np.ndarray, xs: np.ndarray, ys: np.ndarray, inner: float) -> np.ndarray:
    """Mean of an image over the central part of each cell, from its integral image: cells
    between the boundaries ``xs`` and ``ys`` (last axis; leading axes: several grids at once,
    giving ``... x rows x columns``)."""
    h, w = integral.shape[0] - 1, integral.shape[1] - 1
    mx = (xs[..., 1:] - xs[..., :-1]) * (1 - inner) / 2
    my = (ys[..., 1:] - ys[..., :-1]) * (1 - inner) / 2
    x0 = np.clip(np.round(xs[..., :-1] + mx), 0, w).astype(int)
    x1 = np.clip(np.round(xs[..., 1:] - mx), 0, w).astype(int)
    y0 = np.clip(np.round(ys[..., :-1] + my), 0, h).astype(int)
    y1 = np.clip(np.round(ys[..., 1:] - my), 0, h).astype(int)
    x1 = np.maximum(x1, x0 + 1)
    y1 = np.maximum(y1, y0 + 1)
    x0, x1 = x0[..., None, :], x1[..., None, :]
    y0, y1 = y0[..., :, None], y1[..., :, None]
    s = integral[y1, x1] - integral[y0, x1] - integral[y1, x0] + integral[y0, x0]
    return s / ((y1 - y0) * (x1 - x0))


def gradient_integral(grey: np.ndarray) -> np.ndarray:
    """Integral image of the gradient magnitude (|dx| + |dy|), for :func:`settle_shift`."""
    g = grey.astype(np.float32)
    grad = np.zeros_like(g)
    grad[:, 1:] += np.abs(np.diff(g, axis=1))
    grad[1:, :] += np.abs(np.diff(g, axis=0))
    return cv2.integral(grad)


def settle_shift(
    grey: np.ndarray, fx: AxisFit, fy: AxisFit, integral: np.ndarray | None = None
) -> tuple[AxisFit, AxisFit]:
    """Choose between the fitted grid and the grid moved one cell along an axis.

    A board margin as wide as a cell, bounded by the board's edge, mimics one more row of
    cells; the real end row has printed content (mean gradient in the cells' centres) on most of
    its cells, the margin does not.
    """
    if integral is None:
        integral = gradient_integral(grey)
    h, w = grey.shape[:2]

    def options(f: AxisFit, size: int) -> list[AxisFit]:
        out = []
        for s in (0, -1, 1):
            cand = AxisFit(f.start + s * f.pitch, f.pitch, f.score)
            if cand.start >= -0.5 and cand.end <= size - 0.5:
                out.append(cand)
        return out or [f]

    def best(opts: list[AxisFit], along_x: bool, other: AxisFit) -> AxisFit:
        """The option whose end rows (columns) show the most content (the first of equals)."""
        lines = np.stack([o.start + o.pitch * np.arange(LINES) for o in opts])
        across = other.start + other.pitch * np.arange(LINES)
        if along_x:
            c = _cell_means(integral, lines, across[None], 0.6)
            ends = c[:, :, 0], c[:, :, -1]
        else:
            c = _cell_means(integral, across[None], lines, 0.6)
            ends = c[:, 0, :], c[:, -1, :]
        return opts[int(np.argmax(np.minimum(row_medians(ends[0]), row_medians(ends[1]))))]

    best_x = best(options(fx, w), True, fy)
    best_y = best(options(fy, h), False, best_x)
    return best_x, best_y


SAMPLE = 12  # pixels per cell side when comparing cell borders


def border_mismatch(grey: np.ndarray, fx: AxisFit, fy: AxisFit) -> np.ndarray:
    """10x10: how far each cell's border ring is from the median cell's ring (grey levels,
    relative to the ring's own contrast)."""
    x0, x1 = fx.start, fx.end
    y0, y1 = fy.start, fy.end
    size = 10 * SAMPLE
    src = np.float32([[x0, y0], [x1, y0], [x1, y1]])
    dst = np.float32([[0, 0], [size, 0], [size, size]])
    m = cv2.getAffineTransform(src, dst)
    img = cv2.warpAffine(grey, m, (size, size), flags=cv2.INTER_AREA).astype(np.float32)
    cells = img.reshape(10, SAMPLE, 10, SAMPLE).transpose(0, 2, 1, 3).reshape(100, SAMPLE, SAMPLE)
    ring = np.concatenate(
        [
            cells[:, :2, :].reshape(100, -1),
            cells[:, -2:, :].reshape(100, -1),
            cells[:, 2:-2, :2].reshape(100, -1),
            cells[:, 2:-2, -2:].reshape(100, -1),
        ],
        axis=1,
    )
    template = np.median(ring, axis=0)
    contrast = float(np.abs(template - np.median(template)).mean()) + 8.0
    return (np.abs(ring - template[None]).mean(axis=1) / contrast).reshape(10, 10)
