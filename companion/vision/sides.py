"""A board outline from its straight sides, when something reaching over the board bends it.

A hand or an arm that touches the board joins its outline: the convex hull then runs round the
hand, and simplifying it to four corners puts a corner on the hand. The board's own edges stay
long straight runs of the outline, broken where the hand crosses them. Here the outline is
simplified to straight pieces, pieces on one line are joined (both halves of an edge a hand
crosses), and the four longest lines, in their order around the outline, are intersected.
"""

from __future__ import annotations

from functools import cached_property
from itertools import combinations

import cv2
import numpy as np

from companion.vision.geometry import is_convex, line_intersection, order_quad

SIMPLIFY = 0.003  # straight pieces: the outline simplified to this share of its perimeter
MIN_PIECE = 0.05  # a piece shorter than this share of the frame's shorter side is no edge
SAME_ANGLE_DEG = 5.0  # pieces on one line: directions within this ...
SAME_OFFSET = 0.015  # ... and both ends within this share of the frame's shorter side of it
MIN_CORNER_DEG = 25.0  # neighbouring sides of a board seen under tilt meet at least this steeply
REACH = 0.25  # corners may lie outside the frame by this share of it (a board cut by the edge)
MIN_COVER = 0.4  # the pieces of a side cover at least this share of it
MAX_LINES = 8  # the quadrilateral is made of four of this many longest lines


def quad_from_straight_sides(contour: np.ndarray, shape: tuple[int, int]) -> np.ndarray | None:
    """The quadrilateral the straight lines of a closed outline (image ``shape`` (h, w)) make
    best, ordered TL, TR, BR, BL; None when no four of them make a convex quadrilateral.

    Of the longest lines, the four that make a quadrilateral and explain most of it win: each
    must cover ``MIN_COVER`` of the side it makes (an arm's edges running off the board cover
    little of any side) and neighbouring sides must meet at ``MIN_CORNER_DEG`` at least.
    Pieces along the frame's border are left out: they are the frame's edge, not the board's.
    """
    h, w = shape
    side = min(h, w)
    pieces = _straight_pieces(contour, (h, w), MIN_PIECE * side)
    lines = _join_collinear(pieces, SAME_OFFSET * side)
    if len(lines) < 4:
        return None
    lines = sorted(lines, key=lambda ln: -ln.length)[:MAX_LINES]
    centre = contour.reshape(-1, 2).astype(np.float64).mean(axis=0)
    best, best_cover = None, 0.0
    for four in combinations(lines, 4):
        quad = _quad_of(sorted(four, key=lambda ln: ln.bearing_from(centre)), (h, w))
        if quad is None:
            continue
        cover = sum(ln.length for ln in four)
        if cover > best_cover:
            best, best_cover = quad, cover
    return None if best is None else order_quad(best)


def _quad_of(four: list[_Line], shape: tuple[int, int]) -> np.ndarray | None:
    """The corners of four lines taken in order around the outline, or None when they are no
    board's sides (neighbours nearly parallel, a side mostly uncovered, not convex, far out)."""
    h, w = shape
    corners = []
    for i in range(4):
        a, b = four[i - 1], four[i]
        if abs(float(a.direction @ b.direction)) > np.cos(np.deg2rad(MIN_CORNER_DEG)):
            return None
        corner = line_intersection((a.point, a.direction), (b.point, b.direction))
        if corner is None:
            return None
        corners.append(corner)
    quad = np.array(corners)
    low, high = [-REACH * w, -REACH * h], [(1 + REACH) * w, (1 + REACH) * h]
    if not (np.all(quad >= low) and np.all(quad <= high)) or not is_convex(quad):
        return None
    for i, line in enumerate(four):
        if line.length < MIN_COVER * float(np.linalg.norm(quad[(i + 1) % 4] - quad[i])):
            return None
    return quad


class _Line:
    """Collinear straight pieces of an outline and the line fitted through them."""

    def __init__(self, piece: tuple[np.ndarray, np.ndarray]):
        self.pieces = [piece]
        self.angle = _angle(*piece)

    @cached_property
    def length(self) -> float:
        return float(sum(np.linalg.norm(b - a) for a, b in self.pieces))

    def offset_of(self, p: np.ndarray) -> float:
        normal = np.array([-np.sin(self.angle), np.cos(self.angle)])
        a = self.pieces[0][0]
        return float(normal @ (p - a))

    def _points(self) -> np.ndarray:
        return np.concatenate([np.linspace(a, b, 8) for a, b in self.pieces])

    @cached_property
    def point(self) -> np.ndarray:
        return self._points().mean(axis=0)

    @cached_property
    def direction(self) -> np.ndarray:
        vx, vy, _, _ = cv2.fitLine(self._points().astype(np.float32), cv2.DIST_L2, 0, 0.01, 0.01)
        return np.array([float(vx[0]), float(vy[0])])

    def bearing_from(self, centre: np.ndarray) -> float:
        d = self.point - centre
        return float(np.arctan2(d[1], d[0]))


def _angle(a: np.ndarray, b: np.ndarray) -> float:
    d = b - a
    return float(np.arctan2(d[1], d[0]) % np.pi)


def _straight_pieces(contour: np.ndarray, shape: tuple[int, int], min_length: float):
    h, w = shape
    peri = cv2.arcLength(contour, True)
    poly = cv2.approxPolyDP(contour, max(1.5, SIMPLIFY * peri), True).reshape(-1, 2)
    poly = poly.astype(np.float64)

    def on_border(p: np.ndarray) -> bool:
        return p[0] <= 2 or p[1] <= 2 or p[0] >= w - 3 or p[1] >= h - 3

    pieces = []
    for i in range(len(poly)):
        a, b = poly[i], poly[(i + 1) % len(poly)]
        if np.linalg.norm(b - a) >= min_length and not (on_border(a) and on_border(b)):
            pieces.append((a, b))
    pieces.sort(key=lambda p: -np.linalg.norm(p[1] - p[0]))
    return pieces


def _join_collinear(pieces, max_offset: float) -> list[_Line]:
    """Group pieces (longest first) with a line of nearly the same direction whose line both
    of their ends lie near."""
    lines: list[_Line] = []
    max_turn = np.deg2rad(SAME_ANGLE_DEG)
    for a, b in pieces:
        for line in lines:
            turn = abs(_angle(a, b) - line.angle)
            turn = min(turn, np.pi - turn)
            if turn < max_turn and max(abs(line.offset_of(a)), abs(line.offset_of(b))) < max_offset:
                line.pieces.append((a, b))
                break
        else:
            lines.append(_Line((a, b)))
    return lines
