"""Round chips: the grid image's cell shape from the chips' own outlines.

A grid image is warped to cells of the board's apparent width/height ratio
(``pipeline.grid_shape``): the quad's sides as seen. A board seen at a tilt is foreshortened
along the tilt, so that ratio is off by up to the cosine of the tilt (0.77 at 40 degrees) and
the grid image squeezes the board along one axis: its chips become ellipses there (a jax-like
board seen from the side measured 0.73 wide for 1 high), and every look that tells a chip by
its round disc (``chip_shapes``: the board's chip width, small chips, bold printed hearts)
fails on them. The homography itself is right up to that scale: a circle on the board is an
ellipse with its axes along the grid image's, and its width over its height says by how much
the cells' ratio is off. Blue and green blobs are measured (no board prints those colours),
and only those shaped like one ellipse (not two chips touching, nor a chip under a finger).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from companion.vision.chips import CellShape, shape_for_aspect

BLOB_AREA = (0.12, 0.9)  # of a cell: a chip's blob (a chip fills 0.3-0.6 of its cell)
ELLIPSE_FILL = (0.88, 1.1)  # a blob's area over the ellipse of its second moments: one ellipse
SOLID_MIN = 0.93  # ... and over its convex hull: two chips touching have a waist (~0.88)
SKEW_MAX = 0.25  # ... with its axes along the grid image's (the correlation of x and y)
STRETCH_BLOBS = 3  # chips measured at least, to say how the grid image stretches them
STRETCH_MIN = 1.12  # ... and a stretch beyond this (either way) is corrected (the apparent
# ratio is rounded to 0.1: up to 1.05 off on a square board)


def chip_stretch(bg: np.ndarray, shape: CellShape) -> float | None:
    """The median width over height of the chip-sized, elliptical blobs of ``bg`` (a 0/255
    grid image mask of blue and green) in grid image ``shape``: 1.0 where the grid image keeps
    chips round; None with fewer than ``STRETCH_BLOBS`` such blobs."""
    cell = shape.w * shape.h
    contours, _ = cv2.findContours(bg, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    ratios = []
    for contour in contours:
        m = cv2.moments(contour)  # (the polygon's: holes such as a highlight filled)
        area = m["m00"]
        if not BLOB_AREA[0] * cell <= area <= BLOB_AREA[1] * cell:
            continue
        var_x, var_y, cov = m["mu20"] / area, m["mu02"] / area, m["mu11"] / area
        if var_x <= 0 or var_y <= 0 or abs(cov) > SKEW_MAX * math.sqrt(var_x * var_y):
            continue
        # a uniform ellipse of semi-axes a, b: variances a^2/4 and b^2/4, area pi*a*b
        fill = area / (4 * math.pi * math.sqrt(var_x * var_y))
        if not ELLIPSE_FILL[0] <= fill <= ELLIPSE_FILL[1]:
            continue
        if area < SOLID_MIN * cv2.contourArea(cv2.convexHull(contour)):
            continue
        ratios.append(math.sqrt(var_x / var_y))
    if len(ratios) < STRETCH_BLOBS:
        return None
    return float(np.median(ratios))


def round_chip_shape(shape: CellShape, stretch: float | None) -> CellShape | None:
    """The cell shape that makes chips stretched by ``stretch`` (:func:`chip_stretch`) in a
    grid image of ``shape`` round again; None when they are round enough already."""
    if stretch is None or abs(math.log(stretch)) < math.log(STRETCH_MIN):
        return None
    better = shape_for_aspect(shape.w / shape.h / stretch)
    return None if better == shape else better
