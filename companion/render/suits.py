"""Suit symbols drawn as filled shapes (Hershey fonts have no suit glyphs).

``draw_suit(img, suit, center, height, color)`` paints ♠ ♣ ♥ ♦ with anti-aliased edges; shapes
are built once in unit coordinates (height 1, centred on the origin, y down).
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np

SHIFT = 4  # sub-pixel bits for cv2 drawing
ONE = 1 << SHIFT


def _heart_outline(n: int = 48) -> np.ndarray:
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    x = 16 * np.sin(t) ** 3
    y = -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t))
    pts = np.stack([x, y], axis=1)
    pts -= (pts.max(0) + pts.min(0)) / 2
    return pts / (pts[:, 1].max() - pts[:, 1].min())


@cache
def _shapes(suit: str) -> tuple[list[np.ndarray], list[tuple[float, float, float]]]:
    """Polygons and circles (cx, cy, r) in unit coordinates for one suit."""
    if suit == "H":
        return [_heart_outline()], []
    if suit == "D":
        t = np.linspace(0, 1, 9)
        side = np.stack([0.36 * t, -0.5 + 0.5 * t], axis=1)
        bulge = 0.035 * np.sin(np.pi * t)  # slightly concave sides
        side[:, 0] -= bulge
        side[:, 1] += bulge * 0.6
        quad = np.concatenate(
            [side, side[::-1] * [1, -1], side * [-1, -1], side[::-1] * [-1, 1]], axis=0
        )
        return [quad], []
    if suit == "S":
        body = _heart_outline() * [1, -1] * 0.8 + [0, -0.08]
        stem = np.array([[-0.1, -0.05], [0.1, -0.05], [0.17, 0.5], [-0.17, 0.5]])
        fill = np.array([[-0.2, 0.0], [0.2, 0.0], [0.1, 0.34], [-0.1, 0.34]])
        return [body, stem, fill], []
    if suit == "C":
        stem = np.array([[0, -0.05], [0.15, 0.5], [-0.15, 0.5]])
        r = 0.2
        return [stem], [(0, -0.28, r), (-0.22, 0.06, r), (0.22, 0.06, r), (0, 0.0, 0.12)]
    raise ValueError(f"unknown suit {suit!r}; use S, C, H or D")


def draw_suit(
    img: np.ndarray,
    suit: str,
    center: tuple[float, float],
    height: float,
    color: tuple[int, int, int],
    flip: bool = False,
) -> None:
    """Paint a suit symbol ``height`` pixels tall centred on ``center`` (in place)."""
    polys, circles = _shapes(suit)
    sign = -1 if flip else 1
    cx, cy = center
    scaled = [
        np.round((np.asarray(p) * height * sign + [cx, cy]) * ONE).astype(np.int32) for p in polys
    ]
    for poly in scaled:  # one call each: overlapping polygons in one call cancel out
        cv2.fillPoly(img, [poly], color, cv2.LINE_AA, SHIFT)
    for x, y, r in circles:
        c = (round((cx + sign * x * height) * ONE), round((cy + sign * y * height) * ONE))
        cv2.circle(img, c, max(1, round(r * height * ONE)), color, -1, cv2.LINE_AA, SHIFT)
