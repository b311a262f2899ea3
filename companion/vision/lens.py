"""A camera lens that bends straight lines: the one-parameter division model, fitted to grid lines.

Cheap webcams and phones show straight board edges bowed (barrel: outwards, ``lam < 0``;
pincushion: inwards, ``lam > 0``) around a centre near the frame's centre. The division model
undistorts a seen point in closed form: in units of the frame's half-diagonal ``R`` around the
frame centre ``c``, a point at ``d = (p - c) / R`` lies on the pinhole image at

    u = d / (1 + lam * |d|**2)

and the inverse (``distort``) is the root of a quadratic, also closed form. A located grid is
then one homography in pinhole coordinates plus ``lam`` (0: no lens, one plain homography).

The fit (:func:`fit_lens`): observations "grid line k passes through this frame pixel" are
undistorted with each ``lam`` of a scan and explained by one homography (a small linear
least-squares solve each); the ``lam`` whose homography explains them best wins, refined by a
parabola through its neighbours. Warping a grid image through a lensed grid uses
``cv2.remap`` maps solved on a coarse lattice and upsampled, cached per located grid.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.geometry import apply_homography, coarse_grid, homography, rect_points

LAM_SCAN = np.round(np.arange(-0.32, 0.1601, 0.04), 3)  # division-model values tried first
LAM_FINE = 0.01  # ... then around the best of them in steps of this
MAP_STEP = 6  # output pixels between exactly solved points of a remap map
TRUNCATE_CELLS = 0.2  # an observation farther off than this counts as this far (an outlier)
TRIM_KEEP = 0.75  # the trimmed cost: mean squared residual of this best share of observations


def _centre_radius(size: tuple[int, int]) -> tuple[np.ndarray, float]:
    w, h = size
    return np.array([(w - 1) / 2, (h - 1) / 2]), float(np.hypot(w, h) / 2)


def undistort(points: np.ndarray, lam: float, size: tuple[int, int]) -> np.ndarray:
    """Frame pixels (Nx2) -> pinhole pixels (same centre and scale) under lens ``lam``."""
    pts = np.asarray(points, np.float64).reshape(-1, 2)
    if lam == 0:
        return pts.copy()
    c, r = _centre_radius(size)
    d = (pts - c) / r
    factor = 1.0 + lam * np.einsum("ij,ij->i", d, d)
    return c + r * d / np.maximum(factor, 1e-6)[:, None]


def distort(points: np.ndarray, lam: float, size: tuple[int, int]) -> np.ndarray:
    """Pinhole pixels (Nx2) -> frame pixels: the inverse of :func:`undistort`.

    With ``rho_u`` the pinhole radius, the seen radius solves ``lam rho_u rho_d**2 - rho_d +
    rho_u = 0``; its small root is ``rho_u * 2 / (1 + sqrt(1 - 4 lam rho_u**2))`` (a strong
    pincushion's points beyond the fold are clamped to it)."""
    pts = np.asarray(points, np.float64).reshape(-1, 2)
    if lam == 0:
        return pts.copy()
    c, r = _centre_radius(size)
    u = (pts - c) / r
    disc = np.maximum(1.0 - 4.0 * lam * np.einsum("ij,ij->i", u, u), 0.0)
    return c + r * u * (2.0 / (1.0 + np.sqrt(disc)))[:, None]


@dataclass(frozen=True, slots=True)
class LensFit:
    """The best lens for a set of line observations: its parameter, the homography from
    pinhole pixels to grid units, and each observation's residual in cells."""

    lam: float
    grid_hom: np.ndarray  # pinhole frame pixels -> grid units (0..10)
    residuals: np.ndarray
    cost: float  # mean truncated squared residual (cells^2), weighted
    plain_cost: float  # the same with no lens (lam = 0)
    trimmed_cost: float = 0.0  # mean squared residual of the best TRIM_KEEP of them (cells^2)
    plain_trimmed_cost: float = 0.0  # the same with no lens

    def corners(self, size: tuple[int, int]) -> np.ndarray:
        """The grid's outer corners TL, TR, BR, BL of grid units, in frame pixels."""
        pin = apply_homography(np.linalg.inv(self.grid_hom), rect_points(10, 10))
        return distort(pin, self.lam, size)


def _fit_many(
    lams: np.ndarray, pts: np.ndarray, k: np.ndarray, axis: np.ndarray, w: np.ndarray, size
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each lens value of ``lams`` at once: (costs, homographies normalised pinhole ->
    grid units, residuals in cells).

    Each observation says "grid line k passes here", linear in the homography's 8 unknowns
    (see ``locate._fit_grid_homography``); the weighted normal equations are solved for every
    lens value in one batch, then again without the observations left far off. The cost is
    the weighted mean squared residual, truncated at ``TRUNCATE_CELLS`` (an outlier counts
    as that far off, whatever the lens)."""
    c, r = _centre_radius(size)
    d = (pts - c) / r
    r2 = (d * d).sum(axis=1)
    xy = d[None] / (1.0 + lams[:, None, None] * r2[None, :, None])  # L x N x 2
    x, y = xy[..., 0], xy[..., 1]
    u = axis == 0
    a = np.zeros(xy.shape[:2] + (8,))
    a[:, u, 0], a[:, u, 1], a[:, u, 2] = x[:, u], y[:, u], 1
    a[:, ~u, 3], a[:, ~u, 4], a[:, ~u, 5] = x[:, ~u], y[:, ~u], 1
    a[..., 6], a[..., 7] = -k * x, -k * y
    weights = np.broadcast_to(w, x.shape)
    res = g = None
    for _ in range(2):
        awt = (a * weights[..., None]).transpose(0, 2, 1)
        normal = awt @ a + 1e-12 * np.eye(8)
        sol = np.linalg.solve(normal, (awt @ k)[..., None])[..., 0]
        g = np.concatenate([sol, np.ones((len(lams), 1))], axis=1).reshape(-1, 3, 3)
        hom = xy @ g[:, :, :2].transpose(0, 2, 1) + g[:, None, :, 2]
        uv = hom[..., :2] / hom[..., 2:3]
        res = np.abs(np.where(u, uv[..., 0], uv[..., 1]) - k)
        limit = np.maximum(0.08, 3 * np.sort(res, axis=1)[:, res.shape[1] // 2, None])
        keep = res < limit
        if (keep.sum(axis=1) < 12).any():
            break
        weights = w * keep
    cost = np.sum(w * np.minimum(res, TRUNCATE_CELLS) ** 2, axis=1) / max(float(w.sum()), 1e-9)
    cost = np.where(np.isfinite(cost), cost, np.inf)
    return cost, g, res


def fit_lens(
    points: np.ndarray,
    k: np.ndarray,
    axis: np.ndarray,
    weights: np.ndarray,
    size: tuple[int, int],
    scan: np.ndarray = LAM_SCAN,
) -> LensFit | None:
    """The lens that lets one homography explain line observations best.

    ``points``: Nx2 frame pixels each on grid line ``k`` (``axis`` 0: a column boundary, u = k;
    1: a row boundary, v = k), weighted by ``weights``. Scans ``scan``, then steps of
    ``LAM_FINE`` around the best, refined by a parabola through its neighbours' costs. None
    with fewer than 12 observations."""
    pts = np.asarray(points, np.float64).reshape(-1, 2)
    k, axis = np.asarray(k, np.float64), np.asarray(axis)
    w = np.asarray(weights, np.float64)
    if len(pts) < 12:
        return None
    costs, _, _ = _fit_many(scan, pts, k, axis, w, size)
    if not np.isfinite(costs).any():
        return None
    fine = float(scan[int(np.argmin(costs))]) + LAM_FINE * np.arange(-3, 4)
    costs, _, _ = _fit_many(fine, pts, k, axis, w, size)
    i = int(np.argmin(costs))
    lam = float(fine[i])
    if 0 < i < len(fine) - 1 and np.isfinite(costs[i - 1 : i + 2]).all():
        a, b, cc = costs[i - 1 : i + 2]
        den = a - 2 * b + cc
        if den > 1e-12:
            lam += float(np.clip(0.5 * (a - cc) / den, -1, 1)) * LAM_FINE
    return fit_at(lam, pts, k, axis, w, size)


def fit_at(
    lam: float,
    points: np.ndarray,
    k: np.ndarray,
    axis: np.ndarray,
    weights: np.ndarray,
    size: tuple[int, int],
) -> LensFit | None:
    """The homography that explains line observations best under the given lens ``lam``
    (0: a plain homography); arguments as for :func:`fit_lens`."""
    pts = np.asarray(points, np.float64).reshape(-1, 2)
    k, axis, w = np.asarray(k, np.float64), np.asarray(axis), np.asarray(weights, np.float64)
    if len(pts) < 12:
        return None
    costs, gs, res = _fit_many(np.array([lam, 0.0]), pts, k, axis, w, size)
    if not np.isfinite(costs).all():
        return None
    c, r = _centre_radius(size)
    # normalised pinhole coordinates -> pinhole pixels: compose with the normalisation
    norm = np.array([[1 / r, 0, -c[0] / r], [0, 1 / r, -c[1] / r], [0, 0, 1]])
    return LensFit(
        lam=lam,
        grid_hom=gs[0] @ norm,
        residuals=res[0],
        cost=float(costs[0]),
        plain_cost=float(costs[1]),
        trimmed_cost=trimmed_cost(res[0]),
        plain_trimmed_cost=trimmed_cost(res[1]),
    )


def trimmed_cost(residuals: np.ndarray, keep: float = TRIM_KEEP) -> float:
    """Mean squared residual of the ``keep`` share of observations that fit best: how
    precisely a model explains the lines that show, whatever the rest (chips over the gaps
    between cards, printed edges near a line) measured. Outliers dominate the truncated cost
    of noisy observations and hide a lens's gain there; they do not enter this one."""
    res = np.sort(np.abs(np.asarray(residuals, np.float64)))
    n = max(1, int(len(res) * keep))
    return float(np.mean(res[:n] ** 2)) if len(res) else float("inf")


def grid_to_frame(
    quad: np.ndarray, lam: float, size: tuple[int, int], grid_pts: np.ndarray
) -> np.ndarray:
    """Points in grid units (0..10 each way; (0, 0) the corner at ``quad[0]``) -> frame
    pixels, for the grid with real (seen) corners ``quad`` (TL, TR, BR, BL) under lens ``lam``."""
    pin = undistort(quad, lam, size)
    hom = homography(rect_points(10, 10), pin)
    return distort(apply_homography(hom, grid_pts), lam, size)


LATTICE = np.float64([[x, y] for y in range(11) for x in range(11)])  # a grid's 121 line crossings


def lattice_offset(
    quad: np.ndarray, lam: float, truth: np.ndarray, size: tuple[int, int], truth_lam: float = 0.0
) -> float:
    """How far the grid ``quad`` under lens ``lam`` lies off the grid ``truth`` (under
    ``truth_lam``), both seen corners in the same corner order in a frame of ``size``: the
    largest distance between their 121 lattice points, in the truth's cells (its shorter
    side). A grid turned the wrong way is far off too."""
    truth = np.asarray(truth, np.float64)
    cell = min(np.linalg.norm(truth[1] - truth[0]), np.linalg.norm(truth[3] - truth[0])) / 10
    want = grid_to_frame(truth, truth_lam, size, LATTICE)
    found = grid_to_frame(np.asarray(quad, np.float64), lam, size, LATTICE)
    return float(np.linalg.norm(found - want, axis=1).max() / cell)


def shifted(quad: np.ndarray, lam: float, size: tuple[int, int], dx: float, dy: float):
    """The lensed grid moved by ``dx`` cells along its columns and ``dy`` along its rows: its
    new seen corners."""
    moved = rect_points(10, 10) + np.array([dx, dy], np.float64)
    return grid_to_frame(quad, lam, size, moved)


def remap_maps(
    quad: np.ndarray,
    lam: float,
    size: tuple[int, int],
    out: tuple[int, int],
    pad: float = 0.0,
    origin: tuple[float, float] = (0.0, 0.0),
    scale: tuple[float, float] = (1.0, 1.0),
) -> tuple[np.ndarray, np.ndarray]:
    """``cv2.remap`` maps that straighten the lensed grid ``quad`` to an ``out`` (w, h) image
    whose inner ``out - 2 * pad`` pixels span the 10x10 grid (``pad`` pixels of margin each
    side), as ``cv2.warpPerspective`` does for a plain grid. The maps sample an image of the
    frame (``size``) cropped at ``origin`` and resized by ``scale`` (x, y): frame pixel ``p``
    lies at ``(p - origin + 0.5) * scale - 0.5`` in it (the whole frame by default). Cached
    per grid."""
    q = tuple(round(float(v), 4) for v in np.asarray(quad, np.float64).ravel())
    crop = tuple(round(float(v), 6) for v in (*origin, *scale))
    return _maps(q, round(float(lam), 6), tuple(size), tuple(out), round(float(pad), 4), crop)


@functools.lru_cache(maxsize=32)
def _maps(quad: tuple, lam: float, size: tuple, out: tuple, pad: float, crop: tuple):
    w, h = out
    points, upsample = coarse_grid((0, 0), out, MAP_STEP)
    uv = (points - pad) * np.array([10 / (w - 2 * pad), 10 / (h - 2 * pad)])
    frame = grid_to_frame(np.array(quad).reshape(4, 2), lam, size, uv)
    if crop != (0.0, 0.0, 1.0, 1.0):
        frame = (frame - np.array(crop[:2]) + 0.5) * np.array(crop[2:]) - 0.5
    return cv2.convertMaps(upsample(frame), None, cv2.CV_16SC2)


def warp_lensed(
    image: np.ndarray,
    quad: np.ndarray,
    lam: float,
    out: tuple[int, int],
    pad: float = 0.0,
    frame_size: tuple[int, int] | None = None,
    origin: tuple[float, float] = (0.0, 0.0),
    scale: tuple[float, float] = (1.0, 1.0),
) -> np.ndarray:
    """The lensed grid ``quad`` of ``image`` straightened to ``out`` (see :func:`remap_maps`).
    ``image`` is the whole frame, or with ``frame_size`` (w, h) a crop of that frame at
    ``origin`` resized by ``scale`` (``quad`` and the lens stay in frame pixels)."""
    h, w = image.shape[:2]
    size = (w, h) if frame_size is None else tuple(frame_size)
    m1, m2 = remap_maps(quad, lam, size, out, pad, origin, scale)
    return cv2.remap(image, m1, m2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)


def bent_outline(quad: np.ndarray, lam: float, size: tuple[int, int], per_side: int = 40):
    """Frame points along the four bent sides of the lensed grid ``quad`` (its outline)."""
    t = np.linspace(0.0, 10.0, per_side)
    zero, ten = np.zeros_like(t), np.full_like(t, 10.0)
    uv = np.concatenate(
        [np.stack(a, 1) for a in ((t, zero), (ten, t), (t, ten), (zero, t))], axis=0
    )
    return grid_to_frame(np.asarray(quad, np.float64), lam, size, uv)
