"""Pure geometry: corner order, orientation bookkeeping, homographies between image and grid.

Conventions
- A *screen quad* is 4 image points ordered clockwise on screen starting with the corner nearest
  the top-left: top-left, top-right, bottom-right, bottom-left.
- *Canonical corners* are the outer corners of A1, J1, J10, A10 (``BoardReading.corners``).
- ``orientation`` is the clockwise rotation of the canonical layout on screen (0/90/180/270).
  With orientation ``o`` and ``k = o // 90``: canonical corners = screen quad rolled by ``-k``
  and the canonical 10x10 grid = ``np.rot90(screen_grid, k)``.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

ORIENTATIONS = (0, 90, 180, 270)


def order_quad(points: np.ndarray) -> np.ndarray:
    """Order 4 points clockwise on screen (y down), starting with the one nearest the top-left."""
    pts = np.asarray(points, dtype=np.float64).reshape(4, 2)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    order = np.argsort(angles)  # increasing angle = clockwise on screen
    pts, angles = pts[order], angles[order]
    target = -3 * math.pi / 4
    dist = np.abs((angles - target + math.pi) % (2 * math.pi) - math.pi)
    start = int(np.argmin(dist))
    return np.concatenate((pts[start:], pts[:start]))  # rolled to start there


_ROLLED_BACK = [[(i + k) % 4 for i in range(4)] for k in range(4)]  # np.roll(range(4), -k)


def canonical_corners(screen_quad: np.ndarray, orientation: int) -> np.ndarray:
    """Screen quad (TL, TR, BR, BL) -> canonical corners (A1, J1, J10, A10)."""
    k = _quarter_turns(orientation)
    # (the rows rolled back by k, picked by index: np.roll costs several times more on
    # every frame's reading)
    return np.asarray(screen_quad, dtype=np.float64).reshape(4, 2)[_ROLLED_BACK[k]]


def screen_quad(canonical: np.ndarray, orientation: int) -> np.ndarray:
    """Inverse of :func:`canonical_corners`."""
    k = _quarter_turns(orientation)
    return np.roll(np.asarray(canonical, dtype=np.float64).reshape(4, 2), k, axis=0)


def to_canonical_grid(screen_grid: np.ndarray, orientation: int) -> np.ndarray:
    """A 10x10 array read on screen (row 0 = top of the image) -> canonical rows and columns."""
    return _rot90(screen_grid, _quarter_turns(orientation))


def to_screen_grid(canonical_grid: np.ndarray, orientation: int) -> np.ndarray:
    """A 10x10 array in canonical rows and columns -> as it lies on screen (the inverse of
    :func:`to_canonical_grid`)."""
    return _rot90(canonical_grid, -_quarter_turns(orientation))


def _rot90(grid: np.ndarray, k: int) -> np.ndarray:
    """``np.rot90(grid, k)`` of a 2-D array: the same view, by one transpose and slice (numpy's
    generic version costs several times more, and a reading turns a few grids every frame)."""
    grid = np.asarray(grid)
    if grid.ndim != 2:
        return np.rot90(grid, k)
    k %= 4
    if k == 0:
        return grid[:]
    if k == 1:
        return grid.T[::-1]
    if k == 2:
        return grid[::-1, ::-1]
    return grid.T[:, ::-1]


def orientation_of(canonical: np.ndarray) -> int:
    """The orientation implied by canonical corners: where A1 sits in the screen order."""
    order = order_quad(canonical)
    a1 = np.asarray(canonical, dtype=np.float64).reshape(4, 2)[0]
    idx = int(np.argmin(np.linalg.norm(order - a1, axis=1)))
    return (idx * 90) % 360


def rect_points(width: float, height: float) -> np.ndarray:
    return np.array([[0, 0], [width, 0], [width, height], [0, height]], dtype=np.float64)


def homography(src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """Exact homography mapping 4 source points to 4 destination points (DLT, no OpenCV)."""
    src = np.asarray(src, dtype=np.float64).reshape(4, 2)
    dst = np.asarray(dst, dtype=np.float64).reshape(4, 2)
    rows = []
    rhs = []
    for (x, y), (u, v) in zip(src, dst, strict=True):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        rhs += [u, v]
    h = np.linalg.solve(np.array(rows), np.array(rhs))
    return np.append(h, 1.0).reshape(3, 3)


def apply_homography(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    homog = np.hstack([pts, np.ones((len(pts), 1))]) @ np.asarray(h, dtype=np.float64).T
    return homog[:, :2] / homog[:, 2:3]


def quad_at(quad: np.ndarray, corners_in_cells: np.ndarray) -> np.ndarray:
    """The quad whose corners lie at ``corners_in_cells`` (4 points in grid units: (0, 0) is
    the grid's TL corner, (10, 10) its BR) of the 10x10 grid ``quad`` (TL, TR, BR, BL)."""
    return apply_homography(homography(rect_points(10, 10), quad), corners_in_cells)


def quad_area(quad: np.ndarray) -> float:
    """Area of a simple polygon (shoelace)."""
    p = np.asarray(quad, dtype=np.float64).reshape(-1, 2)
    x, y = p[:, 0], p[:, 1]
    return float(abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) / 2)


def is_convex(quad: np.ndarray) -> bool:
    p = np.asarray(quad, dtype=np.float64).reshape(-1, 2)
    signs = []
    for i in range(len(p)):
        a, b, c = p[i], p[(i + 1) % len(p)], p[(i + 2) % len(p)]
        u, v = b - a, c - b
        signs.append(u[0] * v[1] - u[1] * v[0])
    signs = np.array(signs)
    return bool(np.all(signs > 0) or np.all(signs < 0))


def line_intersection(l1: tuple, l2: tuple) -> np.ndarray | None:
    """Intersect two lines given as (point, direction); None when parallel."""
    (p, d), (q, e) = l1, l2
    m = np.array([[d[0], -e[0]], [d[1], -e[1]]], dtype=np.float64)
    if abs(np.linalg.det(m)) < 1e-9:
        return None
    t = np.linalg.solve(m, np.asarray(q, dtype=np.float64) - np.asarray(p, dtype=np.float64))
    return np.asarray(p, dtype=np.float64) + t[0] * np.asarray(d, dtype=np.float64)


def corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    """Largest distance in pixels between matching corners."""
    return float(np.max(np.linalg.norm(np.asarray(found) - np.asarray(truth), axis=1)))


def _quarter_turns(orientation: int) -> int:
    if orientation not in ORIENTATIONS:
        raise ValueError(f"orientation must be one of {ORIENTATIONS}, not {orientation!r}")
    return orientation // 90


def coarse_grid(origin: tuple[int, int], size: tuple[int, int], step: int):
    """``(points, upsample)``: pixel points every ``step`` pixels covering the ``size`` box at
    ``origin`` (one step beyond each side), and a function that turns one value (or vector) per
    point into a dense float32 map over the box by bilinear interpolation."""
    w, h = size
    gw, gh = -(-w // step) + 2, -(-h // step) + 2
    # ``cv2.resize`` puts coarse sample i at fine pixel (i + 0.5) * step - 0.5
    xs = origin[0] + (np.arange(gw) + 0.5) * step - 0.5 - step
    ys = origin[1] + (np.arange(gh) + 0.5) * step - 0.5 - step
    gx, gy = np.meshgrid(xs, ys)
    points = np.stack([gx.ravel(), gy.ravel()], 1)

    def upsample(values: np.ndarray) -> np.ndarray:
        grid = np.asarray(values, np.float32).reshape(gh, gw, -1)
        fine = cv2.resize(grid, (gw * step, gh * step), interpolation=cv2.INTER_LINEAR)
        fine = fine.reshape(gh * step, gw * step, -1)[step : step + h, step : step + w]
        return np.ascontiguousarray(fine if fine.shape[2] > 1 else fine[..., 0])

    return points, upsample
