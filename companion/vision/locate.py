"""Locate the board in a frame: candidate quadrilaterals, each checked for a 10x10 grid.

Candidates come from two independent cues, so no single board art or table is assumed:
- outlines: Canny edges, closed, outer contours whose convex hull simplifies to 4 corners (the
  board's outer edge or the playing area's edge);
- cells: pixels brighter than their surroundings (cards, printed cells), merged across the gaps
  into one blob whose outline is the playing area.
Each candidate is straightened and scored by :mod:`companion.vision.grid`; the best grid wins.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.geometry import (
    apply_homography,
    is_convex,
    order_quad,
    quad_area,
    rect_points,
)
from companion.vision.grid import AxisFit, fit_axis, gradient_profiles, settle_shift

WORK_SIDE = 640  # locate on a copy whose long side is at most this
WARP_SIDE = 320  # candidate quads are straightened to this square (plus padding)
PAD = 0.06  # straighten a little outside the quad, so an outline on the quad itself is visible
MIN_AREA = 0.08  # smallest candidate, as a fraction of the frame
GRID_SCORE_MIN = 0.55  # both axes must show a grid at least this clear


@dataclass(frozen=True, slots=True)
class GridFit:
    """A located grid: its screen quad (image pixels) and how clearly the grid shows."""

    quad: np.ndarray  # TL, TR, BR, BL on screen, image pixels of the full frame
    score: float
    source: str


def downscale(bgr: np.ndarray, side: int = WORK_SIDE) -> tuple[np.ndarray, float]:
    h, w = bgr.shape[:2]
    s = min(1.0, side / max(h, w))
    if s >= 1.0:
        return bgr, 1.0
    return cv2.resize(bgr, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA), s


def quad_from_contour(contour: np.ndarray) -> np.ndarray | None:
    """Simplify a contour's convex hull to 4 corners, or None."""
    hull = cv2.convexHull(contour)
    peri = cv2.arcLength(hull, True)
    for eps in (0.01, 0.02, 0.03, 0.05, 0.07):
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            return order_quad(approx.reshape(4, 2).astype(np.float64))
        if len(approx) < 4:
            break
    return None


def outline_candidates(grey: np.ndarray) -> list[np.ndarray]:
    blur = cv2.GaussianBlur(grey, (5, 5), 0)
    med = float(np.median(blur))
    edges = cv2.Canny(blur, 0.5 * med * 0.66, max(30.0, 1.33 * med * 0.66))
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    return _quads_from_mask(edges, grey.size, cv2.RETR_LIST)


def cell_candidates(grey: np.ndarray) -> list[np.ndarray]:
    h, w = grey.shape
    block = max(15, (min(h, w) // 12) | 1)
    bright = cv2.adaptiveThreshold(
        grey, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, block, -5
    )
    k = max(3, min(h, w) // 60)
    merged = cv2.morphologyEx(bright, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    merged = cv2.morphologyEx(merged, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    return _quads_from_mask(merged, grey.size, cv2.RETR_EXTERNAL)


def _quads_from_mask(mask: np.ndarray, frame_area: int, mode: int) -> list[np.ndarray]:
    contours, _ = cv2.findContours(mask, mode, cv2.CHAIN_APPROX_SIMPLE)
    contours = [c for c in contours if cv2.contourArea(cv2.convexHull(c)) >= MIN_AREA * frame_area]
    contours.sort(key=lambda c: -cv2.contourArea(cv2.convexHull(c)))
    quads = []
    for c in contours[:12]:
        q = quad_from_contour(c)
        if q is not None and is_convex(q) and quad_area(q) >= MIN_AREA * frame_area:
            quads.append(q)
    return quads


def dedupe(quads: list[np.ndarray], tol: float) -> list[np.ndarray]:
    out: list[np.ndarray] = []
    for q in quads:
        if all(np.max(np.linalg.norm(q - o, axis=1)) > tol for o in out):
            out.append(q)
    return out


def straighten_quad(grey: np.ndarray, quad: np.ndarray, side: int = WARP_SIDE, pad: float = PAD):
    """Warp ``quad`` to a ``side`` square inside a padded canvas; returns (image, H img->canvas)."""
    p = side * pad
    dst = rect_points(side, side) + p
    hom = cv2.getPerspectiveTransform(quad.astype(np.float32), dst.astype(np.float32))
    full = int(round(side + 2 * p))
    return cv2.warpPerspective(grey, hom, (full, full), flags=cv2.INTER_LINEAR), hom


def fit_grid_in_quad(grey: np.ndarray, quad: np.ndarray) -> tuple[np.ndarray, float] | None:
    """Find the 10x10 grid inside a candidate quad. Returns (grid quad in image px, score)."""
    warped, hom = straighten_quad(grey, quad)
    px, py = gradient_profiles(warped)
    n = len(px)
    fx = fit_axis(px, min_span=0.55, max_span=(1 + 2 * PAD) * 0.98)
    fy = fit_axis(py, min_span=0.55, max_span=(1 + 2 * PAD) * 0.98)
    score = min(fx.score, fy.score)
    if n <= 0:
        return None
    fx, fy = settle_shift(warped, fx, fy)
    rect = _rect_from_fits(fx, fy)
    grid = apply_homography(np.linalg.inv(hom), rect)
    return order_quad(grid), score


def _rect_from_fits(fx: AxisFit, fy: AxisFit) -> np.ndarray:
    return np.array(
        [[fx.start, fy.start], [fx.end, fy.start], [fx.end, fy.end], [fx.start, fy.end]],
        dtype=np.float64,
    )


def refine_grid(grey: np.ndarray, quad: np.ndarray) -> tuple[np.ndarray, float]:
    """Re-straighten the found grid itself at a finer scale and fit again near the identity."""
    warped, hom = straighten_quad(grey, quad, side=400, pad=0.05)
    px, py = gradient_profiles(warped)
    p0 = 400 * 0.05
    fx = fit_axis(px, pitch_range=(38.0, 42.0), start_range=(p0 - 8, p0 + 8), pitch_step=0.1)
    fy = fit_axis(py, pitch_range=(38.0, 42.0), start_range=(p0 - 8, p0 + 8), pitch_step=0.1)
    rect = _rect_from_fits(fx, fy)
    return order_quad(apply_homography(np.linalg.inv(hom), rect)), min(fx.score, fy.score)


def locate_grid(bgr: np.ndarray) -> GridFit | None:
    """Find the 10x10 playing grid in a frame, or None when no candidate shows a clear grid."""
    small, s = downscale(bgr)
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    cands = [(q, "outline") for q in outline_candidates(grey)]
    cands += [(q, "cells") for q in cell_candidates(grey)]
    tol = 0.02 * max(grey.shape)
    kept: list[tuple[np.ndarray, str]] = []
    for q, src in cands:
        if all(np.max(np.linalg.norm(q - o, axis=1)) > tol for o, _ in kept):
            kept.append((q, src))
    best: tuple[np.ndarray, float, str] | None = None
    for q, src in kept[:10]:
        fit = fit_grid_in_quad(grey, q)
        if fit is None:
            continue
        grid, score = fit
        if best is None or score > best[1]:
            best = (grid, score, src)
    if best is None or best[1] < GRID_SCORE_MIN:
        return None
    grid, score = refine_grid(grey, best[0])
    return GridFit(quad=grid / s, score=score, source=best[2])
