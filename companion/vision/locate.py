"""Locate the board in a frame: candidate quadrilaterals, each checked for a 10x10 grid.

Candidates come from two independent cues, so no single board art or table is assumed:
- outlines: Canny edges, closed, outer contours whose convex hull simplifies to 4 corners (the
  board's outer edge or the playing area's edge);
- cells: pixels brighter than their surroundings (cards, printed cells), merged across the gaps
  into one blob whose outline is the playing area.
Each candidate is straightened and scored by :mod:`companion.vision.grid`; the best grid wins.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.geometry import (
    apply_homography,
    corner_error,
    homography,
    is_convex,
    line_intersection,
    order_quad,
    quad_area,
    rect_points,
)
from companion.vision.grid import (
    LINES,
    AxisFit,
    axis_options,
    column_profile,
    doubled,
    fit_axis,
    framed_fit,
    gradient_integral,
    gradient_profiles,
    rescored,
    row_profile,
    settle_shift,
)
from companion.vision.lens import (
    LensFit,
    fit_at,
    fit_lens,
    grid_to_frame,
    undistort,
    warp_lensed,
)
from companion.vision.shear import AxisShear, crosses_boundaries, grid_shear, unsheared_quad
from companion.vision.sides import quad_from_straight_sides
from companion.vision.stats import grey_median, median

WORK_SIDE = 640  # locate on a copy whose long side is at most this
WARP_SIDE = 256  # candidate quads are straightened to this square (plus padding) at most
MIN_WARP_SIDE = 160  # ... and on the first look at least (see warp_side)
WARP_FACTOR = 1.0  # ... else at this many times the quad's longest side in the working copy
PAD = 0.15  # straighten outside the quad too: the outline shows, and a quad cut short still works
MIN_AREA = 0.02  # smallest candidate, as a fraction of the frame
GRID_SCORE_MIN = 0.9  # both axes of the best candidate must show boundaries at least this clear
MAX_CANDIDATES = 8
# second look, only when the first finds no readable board: every candidate, fainter grids
# (blur, glare, a small board) and, for a small board in a big frame, a finer working copy;
# the reading still has to match the layout's ink, so a fainter grid adds no false boards
DEEP_SCORE_MIN = 0.45
DEEP_MAX_CANDIDATES = 16
DEEP_WORK_SIDE = 1280
DEEP_REFINE_MIN = 0.6  # ... and this share of its refined grid lines must fit one homography
LENS_RESCUE_MIN = 0.4  # ... or this share, and a clear lens fitted to them (see _refined)
REFINE_MIN = 0.5  # on the first look, this share of a located grid's lines must fit too
MAX_CELL_ASPECT = 2.05  # see plausible_cells
TILTED_CELL_ASPECT = 3.2  # ... or this, seen under a strong tilt:
TILT_CONVERGENCE = 1.08  # ... the grid's near edge this much longer than its far edge
RELATIVE_LINES_MIN = 0.8  # ... and at least this share of the best located grid's
DEEP_OPTIONS = 6  # best grids per candidate on the second look, plus the framed one
EDGE_CAP = 4.0  # ... and one fitted with the profiles' peaks cut to this times their median
# (see grid_options_in_quad)
DEEP_LIMIT = 6  # located grids handed to the reader on the second look
OPEN_DISC = 0.06  # opened outlines: the disc that cuts arms off, as a share of the frame
# the closer look tries these on its first working copy (a hand close up is wide), and only
# OPEN_DISC on the finer copy (an opening costs about the disc's width squared)
OPEN_DISCS = (0.06, 0.1, 0.14, 0.18)
OPEN_DISC_PX = 24  # a wider disc opens a mask shrunk to make it this wide
WIDE_DISC_CANDIDATES = 3  # outlines the wider discs add at most (each unlike all others)
LINK = 2.5  # blobs closer than this many blob sizes belong to one board (an arm may split it)
SETTLE = True
COARSE_PITCH_STEP = 0.5
MIN_GRID_IN_QUAD = 0.5  # the grid spans at least half of a candidate quad
BROKEN_FILL = 0.3  # second look: a card broken by a chip fills this share of its box at least
FAINT_EDGES = 0.3  # second look: edges also at this share of the usual thresholds
SIDE_OUTLINES = 6  # second look: the largest outlines also simplified to 4 straight sides
# a refined grid explaining fewer of its lines than this may have the wrong pitch along one
# axis (9 or 11 of the board's cells taken for 10: a fold, a wrinkled mat, a margin line) ...
REPITCH_BELOW = 0.8
REPITCH_PITCHES = (10 / 9, 10 / 11)  # ... so it is stretched to span 10 of them instead ...
REPITCH_MIN = 0.85  # ... and a stretched grid explaining this share of its lines ...
REPITCH_GAIN = 0.2  # ... and this much more than the grid itself replaces it
REPITCH_FIRST = 0.9  # ... refined fully if one refining round reaches this share of that
# the closer look's last resort: an outline that is the grid itself (cards printed edge to edge
# on a sheet laid on felt: the sheet's edge is the grid's outer boundary), its inner lines too
# faint to fit (a small frame; 1-px gaps of felt between white cards). The first few such
# outlines (each source's in turn, none along the frame's edges) are handed on as grids after
# the fitted ones, refined where their lines stay on them, else as found; each is reported
# only if it reads clearly plausibly (``lines`` below ``pipeline.WEAK_LINES``)
SHEETS = 4
OUTSIDE_CELLS = 0.5  # a located grid further out of the frame than this is tried last
SHEET_SOURCES = ("outline", "colour-outline")
SHEET_SOURCE = "sheet"  # a located grid's source when it is such an outline
SHEET_MOVE_MAX = 0.25  # of a cell: a refined sheet moved further is the sheet's own edge lost
SHEET_LINES = 0.05  # the share of lines a sheet as found claims (no line fitted)


@dataclass(frozen=True, slots=True)
class GridFit:
    """A located grid: its screen quad (image pixels) and how clearly the grid shows."""

    quad: np.ndarray  # TL, TR, BR, BL on screen, image pixels of the full frame
    score: float
    source: str
    lines: float = 1.0  # share of the grid lines one homography explains (refine_grid)
    lens: float = 0.0  # the camera lens bending its lines (companion.vision.lens), 0: none
    plain: np.ndarray | None = None  # with a lens: the same grid as one plain homography


def downscale(bgr: np.ndarray, side: int = WORK_SIDE) -> tuple[np.ndarray, float]:
    h, w = bgr.shape[:2]
    s = min(1.0, side / max(h, w))
    if s >= 1.0:
        return bgr, 1.0
    return cv2.resize(bgr, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA), s


def quad_from_contour(contour: np.ndarray) -> np.ndarray | None:
    """Simplify a contour's convex hull to 4 corners, or None.

    When the hull keeps more than 4 corners (a corner cut off by a hand, corner cells without a
    card), the 4 longest sides are extended and intersected instead.
    """
    hull = cv2.convexHull(contour)
    peri = cv2.arcLength(hull, True)
    for eps in (0.01, 0.02, 0.03):
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            return order_quad(approx.reshape(4, 2).astype(np.float64))
        if len(approx) < 4:
            return None
    return quad_from_longest_sides(approx.reshape(-1, 2).astype(np.float64))


def quad_from_longest_sides(poly: np.ndarray) -> np.ndarray | None:
    """Intersect the 4 longest sides of a convex polygon (kept in their order around it)."""
    n = len(poly)
    if n < 4:
        return None
    sides = [(poly[i], poly[(i + 1) % n]) for i in range(n)]
    lengths = [np.linalg.norm(b - a) for a, b in sides]
    keep = sorted(np.argsort(lengths)[-4:])
    lines = [(sides[i][0], sides[i][1] - sides[i][0]) for i in keep]
    corners = []
    for i in range(4):
        p = line_intersection(lines[i - 1], lines[i])
        if p is None:
            return None
        corners.append(p)
    q = np.array(corners)
    if not is_convex(q):
        return None
    return order_quad(q)


def edge_map(grey: np.ndarray, strength: float = 1.0) -> np.ndarray:
    """Canny edges (thresholds from the frame's median brightness, times ``strength``),
    thickened to close gaps."""
    return edge_maps(grey, (strength,))[0]


def edge_maps(grey: np.ndarray, strengths: tuple[float, ...]) -> list[np.ndarray]:
    """:func:`edge_map` at each of ``strengths``, blurring the frame once."""
    blur = cv2.GaussianBlur(grey, (5, 5), 0)
    median = grey_median(blur)
    maps = []
    for strength in strengths:
        med = median * strength
        edges = cv2.Canny(blur, 0.5 * med * 0.66, max(30.0 * strength, 1.33 * med * 0.66))
        maps.append(cv2.dilate(edges, np.ones((3, 3), np.uint8)))
    return maps


def outline_candidates(grey: np.ndarray, edges: np.ndarray | None = None) -> list[np.ndarray]:
    """Quads of the closed outlines in ``grey`` (``edges``: its :func:`edge_map`, if made)."""
    edges = edge_map(grey) if edges is None else edges
    return _quads_from_mask(edges, grey.size, cv2.RETR_LIST)


def straight_side_candidates(grey: np.ndarray, edges: np.ndarray | None = None) -> list[np.ndarray]:
    """Outer outlines simplified to their four longest straight lines
    (:func:`companion.vision.sides.quad_from_straight_sides`): a board whose outline a hand or
    an arm reaching over it joins and bends."""
    edges = edge_map(grey) if edges is None else edges
    return _quads_from_mask(
        edges,
        grey.size,
        cv2.RETR_EXTERNAL,
        to_quad=lambda c: quad_from_straight_sides(c, grey.shape),
        limit=SIDE_OUTLINES,
        approx=cv2.CHAIN_APPROX_NONE,
    )


def opened_outline_candidates(grey: np.ndarray, disc: float = OPEN_DISC) -> list[np.ndarray]:
    """Board outlines with an arm or a hand that reaches onto the board cut off.

    The regions inside closed edge outlines are filled and opened with a disc ``disc`` of the
    frame's shorter side wide: an arm, a sleeve or a card touching the board is narrower than
    that and falls away, the board stays, and its outline simplifies to 4 corners again.
    """
    return opened_outline_groups(grey, (disc,))[0]


def opened_outline_groups(
    grey: np.ndarray, discs: tuple[float, ...], edges: np.ndarray | None = None
) -> list[list[np.ndarray]]:
    """:func:`opened_outline_candidates` for each disc size (one edge map for all): a hand
    seen close up is wider than a sleeve, and only a disc wider than the hand cuts it off,
    while a small board needs a disc narrower than itself."""
    edges = edge_map(grey) if edges is None else edges
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(grey)
    cv2.drawContours(filled, contours, -1, 255, -1)
    groups = []
    for disc in discs:
        k = max(3, int(disc * min(grey.shape)))
        # a disc wider than the usual one opens a shrunk copy of the mask (an opening costs
        # about the disc's width squared); its outline only seeds the grid search
        f = 1.0 if disc <= OPEN_DISC else min(1.0, OPEN_DISC_PX / k)
        mask = filled if f == 1.0 else cv2.resize(filled, None, fx=f, fy=f)
        shape = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (max(3, round(k * f)),) * 2)
        opened = cv2.morphologyEx(mask, cv2.MORPH_OPEN, shape)
        quads = _quads_from_mask(opened, mask.size, cv2.RETR_EXTERNAL)
        groups.append([q * (np.array(filled.shape[::-1]) / mask.shape[::-1]) for q in quads])
    return groups


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


def blob_candidates(grey: np.ndarray, broken: bool = False) -> list[np.ndarray]:
    """The playing area as the hull of a large cluster of similar bright blobs (cards, cells).

    Cards on a board and printed cells between grid lines both show as many bright blobs of
    about one size; the hull of their centres spans 9 of the 10 cells, so it is grown by 10/9.
    With ``broken``, blobs are sized by their bounding box and need fill only a third of it:
    a card with a chip on it is a ring or a C around the chip's dark disc (the second look,
    for a board covered with chips).
    """
    return blob_candidate_sets(grey, (broken,))[0]


def blob_candidate_sets(grey: np.ndarray, modes: tuple[bool, ...]) -> list[list[np.ndarray]]:
    """:func:`blob_candidates` for each ``broken`` mode of ``modes``, segmenting the frame once
    per block size for all of them."""
    h, w = grey.shape
    side = min(h, w)
    found: list[list[np.ndarray]] = [[] for _ in modes]
    for block in ((side // 16) | 1, (side // 40) | 1):
        bright = cv2.adaptiveThreshold(
            grey, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, max(block, 7), -3
        )
        bright = cv2.morphologyEx(bright, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
        stats, centres = component_stats(bright)
        for quads, broken in zip(found, modes, strict=True):
            quads.extend(_blob_cluster_quads(stats[1:], centres[1:], side, broken))
    return found


SPARSE_MASK = 0.15  # component_stats: measured on the set pixels below this share of them


def component_stats(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``cv2.connectedComponentsWithStats(mask, connectivity=4)``'s stats and centroids, the
    same numbers for every component but the background (label 0: not measured, zeros).

    A thresholded frame sets few pixels (cards' bright blobs: ~7 %), and OpenCV's statistics
    visit every pixel: on a sparse mask they are taken from the set pixels alone, which halves
    the cost. Centroids are sums of whole pixel coordinates over areas either way, so exact."""
    if cv2.countNonZero(mask) > SPARSE_MASK * mask.size:
        _, _, stats, centres = cv2.connectedComponentsWithStats(mask, connectivity=4)
        return stats, centres
    n, labels = cv2.connectedComponents(mask, connectivity=4)
    on = np.flatnonzero(labels)
    label = labels.ravel()[on]
    ys, xs = np.divmod(on, labels.shape[1])
    area = np.bincount(label, minlength=n)
    x0, y0 = np.full(n, labels.shape[1]), np.full(n, labels.shape[0])
    x1, y1 = np.full(n, -1), np.full(n, -1)
    np.minimum.at(x0, label, xs)
    np.minimum.at(y0, label, ys)
    np.maximum.at(x1, label, xs)
    np.maximum.at(y1, label, ys)
    stats = np.stack([x0, y0, x1 - x0 + 1, y1 - y0 + 1, area], axis=1).astype(np.int32)
    stats[0] = 0
    centres = np.zeros((n, 2))
    with np.errstate(invalid="ignore", divide="ignore"):
        centres[:, 0] = np.bincount(label, weights=xs, minlength=n) / area
        centres[:, 1] = np.bincount(label, weights=ys, minlength=n) / area
    centres[0] = 0.0
    return stats, centres


def _blob_cluster_quads(
    stats: np.ndarray, cen: np.ndarray, side: int, broken: bool
) -> list[np.ndarray]:
    """The quads around the first large cluster of like-sized blobs (components' ``stats`` and
    centres ``cen``), or none: one cluster of blobs of one size per block size."""
    filled = stats[:, cv2.CC_STAT_AREA].astype(np.float64)
    bw = stats[:, cv2.CC_STAT_WIDTH].astype(np.float64)
    bh = stats[:, cv2.CC_STAT_HEIGHT].astype(np.float64)
    area = bw * bh if broken else filled
    ok = (
        (filled >= 16)
        & (area <= (side / 6) ** 2)
        & (filled >= (BROKEN_FILL if broken else 0.45) * bw * bh)
        & (np.maximum(bw, bh) <= 3.5 * np.minimum(bw, bh))
    )
    if ok.sum() < 30:
        return []
    la = np.log(area[ok])
    for mode in _common_sizes(la, area[ok]):
        keep = np.flatnonzero(ok)[np.abs(la - mode) <= np.log(1.8)]
        if len(keep) < 30:
            continue
        pts = cen[keep]
        size = np.sqrt(median(area[keep]))
        cluster = _largest_cluster(pts, LINK * size)
        if len(cluster) < 30:
            continue
        hull = cv2.convexHull(pts[cluster].astype(np.float32))
        # the hull's sides (keeps perspective) and the smallest rotated rectangle (robust
        # to a ragged hull); the grid fit decides which is better
        quads = []
        for q in (quad_from_contour(hull), order_quad(cv2.boxPoints(cv2.minAreaRect(hull)))):
            if q is not None:
                centre = q.mean(axis=0)
                quads.append(order_quad(centre + (q - centre) * (10 / 9)))
        return quads
    return []


def _common_sizes(log_area: np.ndarray, area: np.ndarray) -> list[float]:
    """The log blob size most blobs have, then the one covering the most area when that is
    another (tried only when the first makes no cluster): a board's cards, half of them under
    a chip that breaks them up, can be fewer than the printed pips and fragments beside them,
    but cover far more of the frame."""
    hist, edges = np.histogram(log_area, bins=24)
    by_count = 0.5 * (edges[np.argmax(hist)] + edges[np.argmax(hist) + 1])
    covered, _ = np.histogram(log_area, bins=edges, weights=area)
    by_area = 0.5 * (edges[np.argmax(covered)] + edges[np.argmax(covered) + 1])
    if abs(by_area - by_count) <= np.log(1.8):
        return [by_count]
    return [by_count, by_area]


def _largest_cluster(pts: np.ndarray, radius: float) -> np.ndarray:
    """Indices of the largest group of points linked by steps shorter than ``radius``
    (discs of half the radius drawn on a mask, then connected components)."""
    lo = pts.min(axis=0) - radius
    size = np.ceil(pts.max(axis=0) - lo + radius).astype(int) + 1
    mask = np.zeros((size[1], size[0]), np.uint8)
    r = max(1, int(round(radius / 2)))
    for x, y in np.round(pts - lo).astype(int).tolist():
        cv2.circle(mask, (x, y), r, 255, -1)
    _, labels = cv2.connectedComponents(mask, connectivity=8)
    ids = labels[np.round(pts[:, 1] - lo[1]).astype(int), np.round(pts[:, 0] - lo[0]).astype(int)]
    counts = np.bincount(ids[ids > 0]) if (ids > 0).any() else np.array([0])
    return np.flatnonzero(ids == int(np.argmax(counts)))


def _quads_from_mask(
    mask: np.ndarray,
    frame_area: int,
    mode: int,
    to_quad=quad_from_contour,
    limit: int = 12,
    approx: int = cv2.CHAIN_APPROX_SIMPLE,
) -> list[np.ndarray]:
    """Quads (``to_quad`` of a contour) of the ``limit`` largest outlines in ``mask`` whose hull
    and quad cover at least ``MIN_AREA`` of the frame, largest hull first."""
    contours, _ = cv2.findContours(mask, mode, approx)
    hulls = [(cv2.contourArea(cv2.convexHull(c)), i) for i, c in enumerate(contours)]
    big = sorted((h for h in hulls if h[0] >= MIN_AREA * frame_area), key=lambda h: -h[0])
    quads = []
    for _, i in big[:limit]:
        q = to_quad(contours[i])
        if q is not None and is_convex(q) and quad_area(q) >= MIN_AREA * frame_area:
            quads.append(q)
    return quads


def straighten_quad(grey: np.ndarray, quad: np.ndarray, side: int = WARP_SIDE, pad: float = PAD):
    """Warp ``quad`` to a ``side`` square inside a padded canvas; returns (image, H img->canvas)."""
    p = side * pad
    dst = rect_points(side, side) + p
    hom = cv2.getPerspectiveTransform(quad.astype(np.float32), dst.astype(np.float32))
    full = int(round(side + 2 * p))
    return cv2.warpPerspective(grey, hom, (full, full), flags=cv2.INTER_LINEAR), hom


def warp_side(quad: np.ndarray) -> int:
    """The side to straighten a candidate quad to for the first look: about the quad's own
    size in the working copy (a bigger square only interpolates, at four times the cost per
    doubling), between ``MIN_WARP_SIDE`` and ``WARP_SIDE``."""
    sides = np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1)
    return int(np.clip(round(WARP_FACTOR * float(sides.max())), MIN_WARP_SIDE, WARP_SIDE))


def fit_grid_in_quad(
    grey: np.ndarray, quad: np.ndarray, min_score: float = -np.inf
) -> tuple[np.ndarray, float] | None:
    """Find the 10x10 grid inside a candidate quad. Returns (grid quad in image px, score),
    or None when it scores below ``min_score`` (the grid's score is the lower of its two axes'
    scores: the rows are not looked at when the columns already score too low)."""
    warped, hom = straighten_quad(grey, quad, side=warp_side(quad))
    px = column_profile(warped)
    if len(px) <= 0:
        return None
    lo = MIN_GRID_IN_QUAD / (1 + 2 * PAD)
    fx = fit_axis(px, min_span=lo, max_span=0.98, pitch_step=COARSE_PITCH_STEP)
    if fx.score < min_score:
        return None
    py = row_profile(warped)
    fy = fit_axis(py, min_span=lo, max_span=0.98, pitch_step=COARSE_PITCH_STEP)
    score = min(fx.score, fy.score)
    if score < min_score:
        return None
    if SETTLE:
        fx, fy = settle_shift(warped, fx, fy)
    rect = _rect_from_fits(fx, fy)
    grid = apply_homography(np.linalg.inv(hom), rect)
    return order_quad(grid), score


def grid_options_in_quad(
    grey: np.ndarray, quad: np.ndarray, min_score: float, count: int = DEEP_OPTIONS
) -> list[tuple[np.ndarray, float]]:
    """Several 10x10 grids a faint candidate may hold, best first: (grid quad, score).

    The closer look's answer to an ambiguous profile: the two best distinct fits per axis,
    and for each the grid at twice its pitch through its lines (the printed rank and suit
    of a text board stand in a column at each cell's centre and can outshine faint grid
    lines; the doubled grid shares the fit's evidence, so it gets the fit's score). The
    reading decides between them.
    """
    warped, hom = straighten_quad(grey, quad)
    px, py = gradient_profiles(warped)
    lo = MIN_GRID_IN_QUAD / (1 + 2 * PAD)
    per_axis, framed = [], []
    for prof in (px, py):
        fits = axis_options(prof, lo, 0.98)
        extra = []
        for f in fits:
            # the doubled grids share the fit's evidence: its score, just below it
            extra += [AxisFit(d.start, d.pitch, f.score - 1e-3) for d in doubled(prof, f)]
        per_axis.append(fits + extra)
        framed.append(framed_fit(prof, lo, 0.98) or (fits[0] if fits else None))
    combos = sorted(
        ((fx, fy) for fx in per_axis[0] for fy in per_axis[1]),
        key=lambda c: -min(c[0].score, c[1].score),
    )[:count]
    if framed[0] is not None and framed[1] is not None and tuple(framed) not in combos:
        combos.append((framed[0], framed[1]))
    # the board's outer edges can outshine faint gaps between its cards (a folding board
    # with no printed lines, crowded with chips): a fit to each profile with its strongest
    # peaks cut down to a few times its median is tried too
    # (each scored on the profile as it is: the cut profile's own scores are on another
    # scale, and would crowd the other grids out)
    capped = [
        axis_options(np.minimum(prof, EDGE_CAP * np.median(prof)), lo, 0.98, 1) for prof in (px, py)
    ]
    if capped[0] and capped[1]:
        fits = (rescored(px, capped[0][0], lo), rescored(py, capped[1][0], lo))
        if fits not in combos:
            combos.append(fits)
    out = []
    integral = gradient_integral(warped) if SETTLE else None
    for fx, fy in combos:
        score = min(fx.score, fy.score)
        if score < min_score:
            continue
        if SETTLE:
            fx, fy = settle_shift(warped, fx, fy, integral)
        grid = apply_homography(np.linalg.inv(hom), _rect_from_fits(fx, fy))
        out.append((order_quad(grid), score))
    return out


def _rect_from_fits(fx: AxisFit, fy: AxisFit) -> np.ndarray:
    return np.array(
        [[fx.start, fy.start], [fx.end, fy.start], [fx.end, fy.end], [fx.start, fy.end]],
        dtype=np.float64,
    )


REFINE_SIDE = 320
REFINE_PAD = 0.08
REFINE_BLUR = 0.14
EXPLAINED_WITHIN = 0.05  # of a cell: an observed line this near a grid's own explains it
PEAK_WEIGHT_FLOOR = 0.02  # refine_grid: a peak's weight is its height over the mean, plus this
PEAK_MIN = 1.1  # ... and a peak lower than this many times the mean weighs only the floor


def peak_weights(strengths: np.ndarray) -> np.ndarray:
    """Each line observation's weight in a fit: a washed-out stretch (glare) still yields a
    "peak" per line, at a random place, so each peak weighs by how far it stands out from its
    profile's mean (``PEAK_MIN``, ``PEAK_WEIGHT_FLOOR``); a faint but clean grid keeps all its
    lines, with equal weights."""
    return np.where(strengths > PEAK_MIN, strengths - 1.0, 0.0) + PEAK_WEIGHT_FLOOR


def refine_grid(grey: np.ndarray, quad: np.ndarray, rounds: int = 2) -> tuple[np.ndarray, float]:
    """Correct a found grid's corners, perspective included, by least squares.

    The grid is straightened again at a finer scale. Each of the 11 column boundaries is looked
    for near its expected place in the top half and in the bottom half, each row boundary in the
    left and right halves (44 sub-pixel peak positions). Each says "grid line k passes here",
    which is linear in the 8 unknowns of the homography from the straightened image to grid
    units; the least-squares solution (after dropping outliers) gives the corners. The first
    round looks within a third of a cell of each expected line; later rounds, starting from a
    corrected grid, within a sixth, so a board edge, a frame line or a column of printed ranks
    half a cell away cannot pull a faint line off.

    The score is the share of the 44 observations that are real peaks (above the profile's
    mean) and that one homography explains to within a twentieth of a cell.
    """
    side, p0 = REFINE_SIDE, REFINE_SIDE * REFINE_PAD
    pitch = side / 10
    half = int(round(p0 + side / 2))
    full = int(round(side + 2 * p0))
    centres = (half / 2, (half + full) / 2)
    score = 0.0
    for round_no in range(rounds):
        warped, hom = straighten_quad(grey, quad, side=side, pad=REFINE_PAD)
        expected = p0 + pitch * np.arange(LINES)
        if round_no > 0:  # the outer lines (margin, board edge) are left out of the final fit
            expected[0] = expected[-1] = -1e9
        reach = pitch / 3 if round_no == 0 else pitch / 6
        rows = []  # (x, y, k, axis) observations: axis 0 -> u = k, axis 1 -> v = k
        strengths = []
        for band, centre in ((slice(0, half), centres[0]), (slice(half, full), centres[1])):
            px = column_profile(warped[band])
            py = row_profile(warped[:, band])
            ks, pos, st = band_peaks(np.stack([px, py]), expected, pitch, reach)
            rows += [(p, centre, k, 0) for k, p in zip(ks, pos[0], strict=True)]
            rows += [(centre, p, k, 1) for k, p in zip(ks, pos[1], strict=True)]
            strengths += [*st[0], *st[1]]
        obs, strengths = np.array(rows, dtype=np.float64), np.array(strengths)
        fit = _fit_grid_homography(obs, peak_weights(strengths))
        if fit is None:
            score = 0.0
            break
        g, resid = fit
        explained = (resid < EXPLAINED_WITHIN) & (strengths > 1.0)
        score = float(explained.sum() / (4 * np.sum(expected >= 0)))
        grid_corners = np.array([[0, 0], [10, 0], [10, 10], [0, 10]], np.float64)
        corners = apply_homography(np.linalg.inv(g), grid_corners)
        quad = order_quad(apply_homography(np.linalg.inv(hom), corners))
    return quad, score


LENS_BANDS = 6  # refine_lens: each grid line observed in this many bands along it
LINE_REACH = 0.1  # ... as a dark line against the pixels this many cells away on both sides


def lens_observations(
    grey: np.ndarray, quad: np.ndarray, lam: float, reach: float, outer: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Where each grid line of the (lensed) grid ``quad`` passes, in ``LENS_BANDS`` bands
    along it: (N x 4 rows of frame x, frame y, line k, axis; each peak's strength).

    The grid is straightened (through its lens ``lam``) at the refining scale; in each band
    the median of :func:`dark_line_response` keeps only dark lines running along the band,
    and each expected boundary takes the sub-pixel peak within ``reach`` cells of its place. ``outer``: the two outer
    lines are looked for too."""
    side = REFINE_SIDE
    pad = side * REFINE_PAD
    full = int(round(side + 2 * pad))
    inner = full - 2 * pad
    h, w = grey.shape[:2]
    if lam == 0:
        warped, hom = straighten_quad(grey, quad, side=side, pad=REFINE_PAD)
        inner = float(side)
    else:
        warped = warp_lensed(grey, quad, lam, (full, full), pad)
    pitch = inner / 10
    expected = pad + pitch * np.arange(LINES)
    if not outer:
        expected[0] = expected[-1] = -1e9
    band = 2 * int(inner // (2 * LENS_BANDS))  # even: every other row is used
    start = int(round(pad + (inner - band * LENS_BANDS) / 2))
    stop = start + band * LENS_BANDS
    centres = start + band * (np.arange(LENS_BANDS) + 0.5)
    # every other row (column) of the bands only: the blur runs along each alone
    reach_px = max(2, int(round(LINE_REACH * pitch)))
    rows = warped[start:stop:2].astype(np.float32)
    gx = cv2.blur(dark_line_response(rows, reach_px), (3, 1))
    columns = warped[:, start:stop:2].astype(np.float32)
    gy = cv2.blur(dark_line_response(np.ascontiguousarray(columns.T), reach_px), (3, 1)).T
    # per band, the median response over its rows (columns): lines running along the band
    px = _band_medians(gx.reshape(LENS_BANDS, -1, gx.shape[1]))
    py = _band_medians(gy.T.reshape(LENS_BANDS, -1, gy.shape[0]))
    rows = []
    strengths = []
    for ax, prof in ((0, px), (1, py)):
        k, pos, st = band_peaks(prof, expected, pitch, reach * pitch)
        across = np.broadcast_to(centres[:, None], pos.shape)
        x, y = (pos, across) if ax == 0 else (across, pos)
        rows.append(
            np.stack(
                [
                    x.ravel(),
                    y.ravel(),
                    np.broadcast_to(k, pos.shape).ravel(),
                    np.full(pos.size, ax),
                ],
                1,
            )
        )
        strengths.append(st.ravel())
    obs = np.concatenate(rows)
    strengths = np.concatenate(strengths)
    if lam == 0:
        obs[:, :2] = apply_homography(np.linalg.inv(hom), obs[:, :2])
    else:
        uv = (obs[:, :2] - pad) * (10 / inner)
        obs[:, :2] = grid_to_frame(quad, lam, (w, h), uv)
    return obs, strengths


def fit_to_lines(
    grey: np.ndarray, quad: np.ndarray, lam: float, reach: float, outer: bool, fit
) -> LensFit | None:
    """One round of fitting a grid to its lines: each line observed where the grid ``quad``
    under lens ``lam`` puts it (:func:`lens_observations` with ``reach`` and ``outer``), each
    observation weighed by its peak (:func:`peak_weights`), all handed to ``fit``
    (``lens.fit_lens``, or ``lens.fit_at`` with its lens given)."""
    obs, strengths = lens_observations(grey, quad, lam, reach, outer)
    size = grey.shape[1], grey.shape[0]
    return fit(obs[:, :2], obs[:, 2], obs[:, 3], peak_weights(strengths), size)


def dark_line_response(rows: np.ndarray, reach: int) -> np.ndarray:
    """Per pixel of each row, how much darker it is than both pixels ``reach`` away along the
    row (0 where it is not): a thin dark line across the row answers, a step edge does not.

    Every board art's cell boundaries are darker than the cells on both sides (printed lines,
    the grey gap between cards, a mat's seams), while a chip's rim next to a boundary is a
    step (card white on one side, chip on the other): with the absolute gradient the rims of
    chips crowding a cards board pulled a quarter of the lens observations off their lines."""
    a = np.asarray(rows, np.float32)
    out = np.zeros_like(a)
    if a.shape[1] > 2 * reach:
        both = np.minimum(a[:, : -2 * reach], a[:, 2 * reach :])
        out[:, reach:-reach] = np.maximum(both - a[:, reach:-reach], 0.0)
    return out


def _band_medians(stack: np.ndarray) -> np.ndarray:
    """Per band (first axis) and position (last), the median over the band's rows (middle
    axis; the upper one of an even count). A sort of these short columns is several times
    faster than ``np.median``'s partition."""
    return np.sort(stack, axis=1)[:, stack.shape[1] // 2]


def band_peaks(
    profiles: np.ndarray, expected: np.ndarray, pitch: float, reach: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For many profiles (rows of ``profiles``) at once, each expected boundary's sub-pixel
    peak of the blurred profile within ``reach`` pixels: the lines k looked for (those of
    ``expected`` >= 0), and per profile and line the peak position and its strength (peak
    over the profile's mean)."""
    prof = profiles.astype(np.float32) / (profiles.mean(axis=1, keepdims=True) + 1e-9)
    h = max(2, int(round(REFINE_BLUR * pitch)))
    tri = np.concatenate([np.arange(1, h + 2), np.arange(h, 0, -1)]).astype(np.float32)
    blur = cv2.filter2D(prof, -1, (tri / tri.sum())[None], borderType=cv2.BORDER_CONSTANT)
    n = blur.shape[1]
    k = np.flatnonzero(expected >= 0)
    r = max(2, int(round(reach)))
    idx = np.clip(expected[k].astype(int)[:, None] + np.arange(-r, r + 1), 1, n - 2)
    window = blur[:, idx]  # profiles x lines x window
    i = np.take_along_axis(idx[None], window.argmax(axis=2)[..., None], 2)[..., 0]
    a, b, c = (np.take_along_axis(blur, i + d, 1) for d in (-1, 0, 1))
    den = a - 2 * b + c
    off = np.where(np.abs(den) > 1e-9, 0.5 * (a - c) / np.where(den == 0, 1, den), 0.0)
    return k, i + np.clip(off, -1, 1), b


def _line_residuals(g: np.ndarray, obs: np.ndarray) -> np.ndarray:
    """How far (in cells) homography ``g`` puts each observation from its grid line."""
    pts = np.stack([obs[:, 0], obs[:, 1], np.ones(len(obs))], axis=1) @ g.T
    uv = pts[:, :2] / pts[:, 2:3]
    return np.abs(np.where(obs[:, 3] == 0, uv[:, 0], uv[:, 1]) - obs[:, 2])


def _fit_grid_homography(
    obs: np.ndarray, weights: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray] | None:
    """Weighted least-squares homography (straightened px -> grid units) from line
    observations, and each observation's residual in cells."""
    if len(obs) < 12:
        return None
    w = np.sqrt(np.ones(len(obs)) if weights is None else np.asarray(weights, np.float64))
    keep = np.ones(len(obs), bool)
    g = None
    for _ in range(2):
        o = obs[keep]
        x, y, k, axis = o[:, 0], o[:, 1], o[:, 2], o[:, 3]
        a = np.zeros((len(o), 8))
        u = axis == 0
        # u-rows: h1 x + h2 y + h3 - k h7 x - k h8 y = k ; v-rows: h4 x + h5 y + h6 - ... = k
        a[u, 0], a[u, 1], a[u, 2] = x[u], y[u], 1
        a[~u, 3], a[~u, 4], a[~u, 5] = x[~u], y[~u], 1
        a[:, 6], a[:, 7] = -k * x, -k * y
        sol, *_ = np.linalg.lstsq(a * w[keep, None], k * w[keep], rcond=None)
        g = np.append(sol, 1.0).reshape(3, 3)
        resid = _line_residuals(g, obs)
        new_keep = resid < max(0.08, 3 * median(resid))
        if new_keep.sum() < 12 or (new_keep == keep).all():
            break
        keep = new_keep
    return g, resid


def locate_candidates(
    bgr: np.ndarray, limit: int = 3, deep: bool = False, lazily: bool = False
) -> Sequence[GridFit]:
    """The most likely 10x10 playing grids in a frame, best first (empty when none is clear).

    Several are returned because a margin or a printed frame can make a grid shifted by one
    cell look almost as good as the real one; reading the cells tells them apart. ``deep``
    is the slower second look (see ``DEEP_SCORE_MIN``). A list; with ``lazily``, a
    :class:`LocatedGrids` that refines the runners-up only when they are asked for (the same
    grids: a reader that settles on the first needs none of them).
    """
    grids = LocatedGrids(_grids_found(bgr, limit, deep))
    return grids if lazily else list(grids)


class LocatedGrids(Sequence[GridFit]):
    """The located grids of :func:`locate_candidates` as a sequence that refines them one by
    one as far as asked (``if grids`` and ``grids[0]`` need the first only, when it is sure to
    stay first; anything else finds them all).

    Found grids whose lines fit clearly worse than the best one's are dropped at the end
    (``RELATIVE_LINES_MIN``); the first one found stays first whatever follows when its lines
    fit at least that share of all lines (no grid explains more than all of them)."""

    def __init__(self, found: Iterator[GridFit]):
        self._found: Iterator[GridFit] | None = found
        self._seen: list[GridFit] = []

    def _next(self) -> bool:
        """Find one more grid; False when there are no more."""
        if self._found is not None:
            for grid in self._found:
                self._seen.append(grid)
                return True
            self._found = None
        return False

    def _all(self) -> list[GridFit]:
        while self._next():
            pass
        best_lines = max((o.lines for o in self._seen), default=0.0)
        # a grid whose lines fit clearly worse than another's is mostly a grid part of a
        # cell off, and such a grid can still read plausibly: it is not offered
        # (a sheet taken as its own grid fits no lines by design: judged by its reading alone)
        return [
            o
            for o in self._seen
            if o.lines >= RELATIVE_LINES_MIN * best_lines or from_sheet(o.source)
        ]

    def _sure_first(self) -> GridFit | None:
        if not self._seen:
            self._next()
        if self._seen and self._seen[0].lines >= RELATIVE_LINES_MIN:
            return self._seen[0]
        return None

    def __bool__(self) -> bool:
        return bool(self._seen) or self._next()

    def __getitem__(self, index):
        if isinstance(index, int) and index == 0:
            first = self._sure_first()
            if first is not None:
                return first
        return self._all()[index]

    def __len__(self) -> int:
        return len(self._all())


def _grids_found(bgr: np.ndarray, limit: int, deep: bool) -> Iterator[GridFit]:
    """The located grids of :func:`locate_candidates` one by one, best first, before the
    final comparison of their lines (:class:`LocatedGrids`)."""
    small, s = downscale(bgr)
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    full = grey if s == 1.0 else cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    sheets: list[np.ndarray] | None = [] if deep else None
    coarse = _coarse_fits(grey, s, deep, small if deep else None, sheets=sheets)
    if deep and s < 1.0:
        fine, s2 = downscale(bgr, DEEP_WORK_SIDE)
        if s2 > s * 1.2:
            fine_grey = cv2.cvtColor(fine, cv2.COLOR_BGR2GRAY)
            coarse += _coarse_fits(fine_grey, s2, deep, discs=(OPEN_DISC,))
    # best first, but grids that run out of the frame after all that lie in it: a striped
    # cloth's stripes continue past the frame's edges, and its grids there (each in a few
    # variants, cut at the frame's edges) crowded the board out of the closer look
    h, w = bgr.shape[:2]
    coarse.sort(key=lambda c: (not _inside_frame(c[1], w, h), -c[0]))
    if deep:
        limit = max(limit, DEEP_LIMIT)
    out: list[GridFit] = []
    tried: list[np.ndarray] = []
    for score, quad, src in coarse:
        if len(out) >= limit:
            break
        cell = np.linalg.norm(quad[1] - quad[0]) / 10
        if not _is_new(quad, tried, 0.3 * cell):
            continue  # the same grid from another candidate: refined and judged already
        tried.append(quad)
        rounds = 2 if deep or not out else 1
        found = _refined(full, quad, rounds, deep)
        if found is None:
            continue
        grid, fit_score, bent = found
        if bent is not None:
            src += "+lens-rescued"
        elif fit_score < REPITCH_BELOW and not out:  # (the best grid only: 8 refinements)
            better = repitched_grid(full, grid, fit_score)
            if better is not None:
                grid, fit_score = better
                src += "+repitched"
        shear = grid_shear(full, grid)
        if (shear[0].wrong_pitch or shear[1].wrong_pitch) and LENS:
            # ... or seem to, where a strong lens bends them: looked at again through it
            if bent is None:
                bent = refine_lens(full, grid)
            if bent is not None and lens_is_clear(bent):
                shear = grid_shear(full, bent.quad, bent.lam)
                src += "+pitch-through-lens"
        if shear[0].wrong_pitch or shear[1].wrong_pitch:
            continue  # the board's boundaries repeat 9 or 11 times across it (see shear.py)
        if shear[0].sheared or shear[1].sheared:
            # its lines run across the board's boundaries (see shear.py)
            turned = grid_along_boundaries(grey, s, full, grid, shear, rounds, deep)
            if turned is None:
                continue
            grid, fit_score, score = turned
            bent = None  # (a lens fitted to the grid before it turned is fitted again)
            src += "+unsheared"
        lam, plain = 0.0, None
        # the lens is fitted to the best grid (on the second look, to every grid): it costs
        # about as much as refining a grid
        if bent is None and LENS and (deep or not out):
            bent = refine_lens(full, grid)
        if bent is not None and lens_is_clear(bent):
            plain, grid, lam = grid, bent.quad, bent.lam
            src += "+lens"
        cell = np.linalg.norm(grid[1] - grid[0]) / 10
        if _is_new(grid, [o.quad for o in out], 0.3 * cell):
            out.append(
                GridFit(quad=grid, score=score, source=src, lines=fit_score, lens=lam, plain=plain)
            )
            yield out[-1]
    # (after as many fitted grids as the limit allows: the sheets come on top of them)
    for sheet in (sheets or [])[:SHEETS]:
        for found in _sheet_grids(full, sheet, [o.quad for o in out]):
            out.append(found)
            yield found


def from_sheet(source: str) -> bool:
    """Whether a located grid's ``source`` is an outline taken as the grid itself (``SHEETS``),
    as located or moved from there."""
    return source.startswith(SHEET_SOURCE)


def _inside_frame(quad: np.ndarray, w: int, h: int, cells: float = OUTSIDE_CELLS) -> bool:
    """Whether no corner of the grid ``quad`` lies further than ``cells`` of its cells outside a
    ``w`` x ``h`` frame."""
    q = np.asarray(quad)
    sides = np.linalg.norm(np.roll(q, -1, axis=0) - q, axis=1)
    return _off_frame_edges(q, w, h, margin=-cells * float(sides.min()) / 10)


def _off_frame_edges(quad: np.ndarray, w: int, h: int, margin: float = 2.0) -> bool:
    """Whether every corner of ``quad`` lies more than ``margin`` pixels inside a ``w`` x
    ``h`` picture (a negative ``margin``: no further than that outside it)."""
    q = np.asarray(quad)
    return bool(np.all((q > margin) & (q < np.array([w, h]) - 1 - margin)))


def _sheet_grids(full: np.ndarray, sheet: np.ndarray, others: list[np.ndarray]) -> list[GridFit]:
    """An outline taken as the grid itself (see ``SHEETS``): refined when its refined lines
    stay on it (each corner within ``SHEET_MOVE_MAX`` of a cell), else as found; none when it
    is (nearly) a grid located already. A refined grid that moved further but explains its
    lines as well as a located grid must (``REFINE_MIN``) comes first, the outline as found
    after it: an arm over a corner bends the outline there, and the refined grid lies on the
    cards; or the refined grid slid off onto a pattern of lines around the board."""
    cell = np.linalg.norm(sheet[1] - sheet[0]) / 10
    if not _is_new(sheet, others, 0.3 * cell):
        return []
    refined, lines = refine_grid(full, sheet, rounds=2)
    moved = float(np.max(np.linalg.norm(refined - sheet, axis=1)))
    stayed = moved <= SHEET_MOVE_MAX * cell
    as_found = GridFit(quad=sheet, score=0.0, source=SHEET_SOURCE, lines=SHEET_LINES)
    if not plausible_cells(refined) or (not stayed and lines < REFINE_MIN):
        return [as_found]
    grid = GridFit(quad=refined, score=0.0, source=SHEET_SOURCE, lines=max(lines, SHEET_LINES))
    return [grid] if stayed else [grid, as_found]


# polish_grid: each inner line looked for in ``LENS_BANDS`` bands within these shares of a cell
# of its place, in turn (the outer lines never: see polish_grid)
POLISH_REACHES = (1 / 4, 1 / 6)
POLISH_GAIN = 0.1  # ... and the polished grid kept when it explains this much more of its lines
POLISH_EXPLAINED = 0.6  # ... and at least this share of them (fewer: lines it made up)
# a grid whose lines refine_grid explains this share of is not polished (of 326 grids refined
# on 240 frames, 231 explained that much; the 11 polished grids kept had explained 0.22-0.91)
POLISH_BELOW = 0.95


def lines_explained(grey: np.ndarray, quad: np.ndarray, lam: float = 0.0) -> float:
    """The share of a grid's inner lines, each observed in ``LENS_BANDS`` bands within a sixth
    of a cell of its place (:func:`lens_observations`), that show as real dark lines (above
    their profile's mean) within ``EXPLAINED_WITHIN`` of a cell of where ``quad`` (its seen
    corners) under lens ``lam`` puts them."""
    size = grey.shape[1], grey.shape[0]
    obs, strengths = lens_observations(grey, quad, lam, 1 / 6, False)
    if not len(obs):
        return 0.0
    to_grid = homography(undistort(quad, lam, size), rect_points(10, 10))
    obs[:, :2] = undistort(obs[:, :2], lam, size)
    near = _line_residuals(to_grid, obs) < EXPLAINED_WITHIN
    return float(np.mean(near & (strengths > 1.0)))


def polish_grid(grey: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """A refined grid (:func:`refine_grid`) fitted again to its inner lines alone, each seen
    as a thin dark line in ``LENS_BANDS`` bands along it (:func:`lens_observations`, one plain
    homography), kept when it explains ``POLISH_GAIN`` more of those lines than ``quad``
    (:func:`lines_explained`); else ``quad``.

    :func:`refine_grid` looks at each line in two halves of the grid with its outer lines in
    the first round. On a board of miniature cards with a grey gap around each (the physical
    board's look) the outer lines lie where the cards meet the margin, a step that a darker
    band beyond pulls on: one corner of a grid so refined can end half a cell off, and the
    second round, within a sixth of a cell, keeps it there. The inner gaps are thin dark lines
    on both sides of which lies a card, which a step is not (:func:`dark_line_response`).
    On the independent renderer's Jax-like sets (600 frames with the grid's truth, read as
    ``companion analyze`` does) grids more than 0.35 of a cell off somewhere went from 15 to
    12 and none became worse; taking every polished grid made others worse. Of the polished
    grids kept on 8 such sets, those explaining 0.6 or more of their lines lay within 0.03 of
    a cell of the truth unless their grid was a cell off to begin with; below, a grid 0.4-0.6
    of a cell off was moved further (``POLISH_EXPLAINED``)."""
    size = grey.shape[1], grey.shape[0]
    polished = quad
    for reach in POLISH_REACHES:
        fit = fit_to_lines(grey, polished, 0.0, reach, False, functools.partial(fit_at, 0.0))
        if fit is None:
            return quad
        polished = order_quad(fit.corners(size))
    explained = lines_explained(grey, polished)
    if explained >= POLISH_EXPLAINED and explained > lines_explained(grey, quad) + POLISH_GAIN:
        return polished
    return quad


def _refined(
    full: np.ndarray, quad: np.ndarray, rounds: int, deep: bool
) -> tuple[np.ndarray, float, LensRefit | None] | None:
    """A coarse grid refined in the full-resolution grey frame (:func:`refine_grid`), or None
    when one homography does not explain enough of its lines (often a grid a cell off) or its
    cells look like no board's (:func:`plausible_cells`).

    On the second look, a grid whose lines one homography explains too few of but at least
    ``LENS_RESCUE_MIN`` is given the lens fitted to them: a strong barrel lens bends the outer
    lines by a fifth of a cell and more, and then no homography fits them (the grid is
    returned with that lens, ``LensRefit``, when the lens is clear; else None). A plain grid
    whose lines it explains less than ``POLISH_BELOW`` of is polished (:func:`polish_grid`)."""
    grid, fit_score = refine_grid(full, quad, rounds=rounds)
    bent = None
    if fit_score < (DEEP_REFINE_MIN if deep else REFINE_MIN):
        if not (deep and LENS and fit_score >= LENS_RESCUE_MIN):
            return None
        bent = refine_lens(full, grid)
        if bent is None or not lens_is_clear(bent):
            return None
    elif fit_score < POLISH_BELOW:
        grid = polish_grid(full, grid)
    if not plausible_cells(grid):
        return None  # a card's patterned back, a tiled floor: no board has such cells
    return grid, fit_score, bent


def stretched_quads(quad: np.ndarray) -> list[np.ndarray]:
    """The grid ``quad`` stretched along one axis to each of ``REPITCH_PITCHES`` times its
    span, kept at one of its sides: 8 quads (frame pixels, TL, TR, BR, BL), one homography."""
    out = []
    for pitch in REPITCH_PITCHES:
        for axis in (0, 1):
            for anchor in (0.0, 10.0):
                pts = rect_points(10, 10)
                pts[:, axis] = anchor + (pts[:, axis] - anchor) * pitch
                out.append(grid_to_frame(quad, 0.0, (0, 0), pts))
    return out


def repitched_grid(
    full: np.ndarray, grid: np.ndarray, fit_score: float
) -> tuple[np.ndarray, float] | None:
    """A refined grid with the wrong pitch along one axis put right: (grid, share of its lines
    explained), or None when no stretched copy explains its lines clearly better.

    A board whose halves do not lie flat (a fold), a wrinkled mat or a margin line beside
    the outer boundary can make the fit span 9 or 11 of the board's cells with its 10: one
    homography then explains only some of its lines, and the cells drift off towards one
    side, where chips read in their neighbours' cells. Stretched to span 10 cells from either
    side (:func:`stretched_quads`) and refined again, the right grid explains nearly all of
    its lines. One refining round scores each copy; the best is refined fully."""
    best, best_score = None, fit_score + REPITCH_GAIN
    for quad in stretched_quads(grid):
        if not plausible_cells(quad):
            continue
        refined, score = refine_grid(full, quad, rounds=1)
        if score >= max(best_score, REPITCH_MIN * REPITCH_FIRST):
            best, best_score = refined, score
    if best is None:
        return None
    refined, score = refine_grid(full, best, rounds=2)
    if score < max(REPITCH_MIN, fit_score + REPITCH_GAIN) or not plausible_cells(refined):
        return None
    return refined, score


def grid_along_boundaries(
    grey: np.ndarray,
    scale: float,
    full: np.ndarray,
    grid: np.ndarray,
    shear: tuple[AxisShear, AxisShear],
    rounds: int = 2,
    deep: bool = True,
) -> tuple[np.ndarray, float, float] | None:
    """A located grid whose lines run slanted across the board's boundaries (``shear``, from
    :func:`companion.vision.shear.grid_shear`), searched again in the quad turned to run
    along them: (refined grid, share of its lines explained, grid score), or None when no
    clear, unsheared grid at the board's pitch is found there. ``grey`` is the working copy (``scale`` times the
    frame), ``full`` the grey frame."""
    turned = unsheared_quad(grid, *shear) * scale
    min_score = DEEP_SCORE_MIN if deep else GRID_SCORE_MIN
    fit = fit_grid_in_quad(grey, turned, min_score)
    if fit is None or fit[1] < min_score:
        return None
    found = _refined(full, fit[0] / scale, rounds, deep)
    if found is None or crosses_boundaries(full, found[0]):
        return None
    return found[0], found[1], fit[1]


def plausible_cells(quad: np.ndarray) -> bool:
    """Whether a grid's cells look like a board's on screen: longer one way than the other
    by at most ``MAX_CELL_ASPECT``, or by at most ``TILTED_CELL_ASPECT`` where the grid shows
    the perspective of the strong tilt that shrinks them so (``TILT_CONVERGENCE``).

    Cells are up to 1.5x wider than tall; under up to 40 degrees of tilt rendered boards'
    grids measure 0.83-1.92 (3,680 frames). A photo taken from a seat at the table looks at
    the board under 45-60 degrees: the cells shrink along the tilt, a landscape cell can look
    3x as wide as tall, and the grid's edges across the tilt converge, its near edge 1.17-1.36x
    its far one on 17 such rendered frames. A flat-on grid of such cells is no board's: one
    whose 10 columns spanned 3.4 of a landscape board's card columns (cells 0.46 as wide as
    tall, the pips' own rows lining up with its lines) read 3 cells confidently wrong, and
    straight sides along a hand and the table made a grid 2.7x wide."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    top, bottom = np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[2] - q[3])
    left, right = np.linalg.norm(q[3] - q[0]), np.linalg.norm(q[2] - q[1])
    ratio = (top + bottom) / max(left + right, 1e-9)
    if 1 / MAX_CELL_ASPECT <= ratio <= MAX_CELL_ASPECT:
        return True
    if not 1 / TILTED_CELL_ASPECT <= ratio <= TILTED_CELL_ASPECT:
        return False
    # shrunk along the tilt: the edges across it converge towards the far side
    near, far = (top, bottom) if ratio > 1 else (left, right)
    return max(near, far) >= TILT_CONVERGENCE * max(min(near, far), 1e-9)


def _coarse_fits(
    grey: np.ndarray,
    scale: float,
    deep: bool,
    colour: np.ndarray | None = None,
    discs: tuple[float, ...] = OPEN_DISCS,
    sheets: list[np.ndarray] | None = None,
) -> list[tuple[float, np.ndarray, str]]:
    """(score, grid quad in full-frame pixels, source) of each candidate with a clear grid, in
    a working copy ``grey`` that is ``scale`` times the frame. The deep look takes the
    candidates of each source in turn, so one source's many outlines cannot crowd out another's.
    With the working copy in ``colour`` (BGR), outlines are also looked for in its saturation:
    a grey board on a wooden table, as bright as the wood, still differs in colour.
    ``sheets`` (a list) receives the outlines (``SHEET_SOURCES``, full-frame pixels) whose
    cells would look like a board's if they were the grid itself (``plausible_cells``)."""
    # shared by every outline source below (the deep look's fainter edges too)
    edges, *fainter = edge_maps(grey, (1.0, FAINT_EDGES) if deep else (1.0,))
    per_source = [
        [(q, "outline") for q in outline_candidates(grey, edges)],
        [(q, "cells") for q in cell_candidates(grey)],
    ]
    # the deep look also takes cards broken around their chips (segmented once for both)
    blobs, *broken_blobs = blob_candidate_sets(grey, (False, True) if deep else (False,))
    per_source.append([(q, "blobs") for q in blobs])
    if colour is not None:
        saturation = cv2.cvtColor(colour, cv2.COLOR_BGR2HSV)[:, :, 1]
        per_source.insert(1, [(q, "colour-outline") for q in outline_candidates(saturation)])
    wider: list[list[tuple[np.ndarray, str]]] = []
    if deep:
        groups = opened_outline_groups(grey, discs, edges)
        per_source.append([(q, "opened-outline") for q in groups[0]])
        per_source.append([(q, "straight-sides") for q in straight_side_candidates(grey, edges)])
        # a bright frame (a white table, glare) sets the edge thresholds too high for a grey
        # board's outer edge: its outline and straight sides among fainter edges too
        faint = fainter[0]
        per_source.append([(q, "faint-outline") for q in outline_candidates(grey, faint)])
        per_source.append(
            [(q, "faint-straight-sides") for q in straight_side_candidates(grey, faint)]
        )
        # the wider discs' outlines come on top of the others' (never crowding them out)
        wider = [
            [(q, f"opened-outline-{round(100 * d)}") for q in g]
            for d, g in zip(discs[1:], groups[1:], strict=True)
        ]
    if deep:
        cands = [c for group in _interleave(per_source) for c in group]
    else:
        cands = [c for group in per_source for c in group]
    limit, min_score = (
        (DEEP_MAX_CANDIDATES, DEEP_SCORE_MIN) if deep else (MAX_CANDIDATES, GRID_SCORE_MIN)
    )
    tol = 0.02 * max(grey.shape)
    kept: list[tuple[np.ndarray, str]] = []
    for q, src in cands:
        if _is_new(q, [o for o, _ in kept], tol):
            kept.append((q, src))
    kept = kept[:limit]
    extra = 0
    for q, src in (c for group in _interleave(wider) for c in group):
        if extra < WIDE_DISC_CANDIDATES and _is_new(q, [o for o, _ in kept], tol):
            kept.append((q, src))
            extra += 1
    if deep:
        # a board covered with chips: its cards broken around them (on top of the others too)
        for q in broken_blobs[0]:
            if _is_new(q, [o for o, _ in kept], tol):
                kept.append((q, "broken-blobs"))
    if sheets is not None:
        # (an outline along the frame's own edges is the picture's, no sheet's)
        h, w = grey.shape[:2]
        groups = [[c for c in group if c[1] in SHEET_SOURCES] for group in per_source]
        own: list[np.ndarray] = []
        for ((q, _),) in _interleave(groups):
            if _off_frame_edges(q, w, h) and plausible_cells(q) and _is_new(q, own, tol):
                own.append(q)
        sheets += [q / scale for q in own]
    coarse = []
    for q, src in kept:
        if deep:
            fits = grid_options_in_quad(grey, q, min_score)
        else:
            fits = [fit_grid_in_quad(grey, q, min_score)]
        for fit in fits:
            if fit is not None and fit[1] >= min_score:
                coarse.append((fit[1], fit[0] / scale, src))
    return coarse


def _is_new(quad: np.ndarray, others: list[np.ndarray], tol: float) -> bool:
    """Whether ``quad`` has a corner more than ``tol`` from every quad of ``others``."""
    return all(corner_error(quad, o) > tol for o in others)


def _interleave(groups: list[list]) -> list[list]:
    """First of each group, then second of each, ... (as one-element lists)."""
    out = []
    for i in range(max((len(g) for g in groups), default=0)):
        out += [[g[i]] for g in groups if i < len(g)]
    return out


def locate_grid(bgr: np.ndarray) -> GridFit | None:
    """The most likely 10x10 playing grid in a frame, or None when no candidate is clear."""
    found = locate_candidates(bgr, limit=1)
    return found[0] if found else None


LENS = True
# a fitted lens is kept when it bends the lines at least this much (division-model units) and
# cuts the fit's cost to this share of one plain homography's: a weak lens only when the lines
# measure precisely (thin printed lines: the fit's cost drops far)
LENS_TIERS = ((0.025, 0.35), (0.05, 0.7))
# ... or when it cuts the trimmed cost (the best-fitting three quarters of the observations,
# see lens.trimmed_cost) to this share: chips over the gaps between cards made a quarter of the
# observations outliers whose truncated cost hid the lens
TRIMMED_TIER = (0.025, 0.6)
# ... and either way only when those best-fitting observations lie on the bent lines this
# closely (cells^2): every lens kept on 399 dev frames fitted them within 3e-5; lines smeared
# by motion blur scatter far more, and a lens "fitted" to them bends a grid of the wrong pitch
LENS_PRECISION = 0.0005
# ... and a pincushion lens never stronger than this: phones and webcams bend a table's lines
# outwards (barrel) if at all, and a pincushion of a tenth at the half-diagonal is no camera a
# player holds. Fitted to the lines of boards drawn without a lens, on a Jax-like art whose
# outer cards meet a darker band, 0.10-0.19 were "clear" and left a corner of the grid up to
# two thirds of a cell off; the renderer's pincushion lenses (to 0.08) were fitted 0.09 at most
LENS_PINCUSHION_MAX = 0.09


@dataclass(frozen=True, slots=True)
class LensRefit:
    quad: np.ndarray  # the grid's real (bent) corners TL, TR, BR, BL, frame pixels
    lam: float
    cost: float  # mean truncated squared residual of the lensed fit (cells^2)
    plain_cost: float  # ... and of one plain homography, on the same observations
    trimmed_cost: float = 0.0  # mean squared residual of the best-fitting 3/4 (lens.trimmed_cost)
    plain_trimmed_cost: float = 0.0  # ... and of one plain homography

    @classmethod
    def of(cls, fit: LensFit, size: tuple[int, int]) -> LensRefit:
        """A lens fit (``lens.fit_lens``) in a frame of ``size``, its corners ordered."""
        return cls(
            quad=order_quad(fit.corners(size)),
            lam=fit.lam,
            cost=fit.cost,
            plain_cost=fit.plain_cost,
            trimmed_cost=fit.trimmed_cost,
            plain_trimmed_cost=fit.plain_trimmed_cost,
        )


def refine_lens(grey: np.ndarray, quad: np.ndarray) -> LensRefit | None:
    """Fit the camera's lens to a refined grid's lines (:mod:`companion.vision.lens`).

    Each line is observed in ``LENS_BANDS`` bands along it: first around the plain grid
    (within a third of a cell, outer lines too), then around the lensed grid found (within a
    sixth of a cell, outer lines left out, as in :func:`refine_grid`). The second round runs
    whatever the first found: a printed frame or the margin's edge next to the outer lines can
    hold the first round's lens near zero (a soft mat's grid, bent clearly, measured unbent).
    None when too few lines show."""
    size = grey.shape[1], grey.shape[0]
    lam = 0.0
    fit = None
    for reach, outer in ((1 / 3, True), (1 / 6, False)):
        fit = fit_to_lines(grey, quad, lam, reach, outer, fit_lens)
        if fit is None:
            return None
        quad = order_quad(fit.corners(size))
        lam = fit.lam
    return LensRefit.of(fit, size)


def lens_is_clear(bent: LensRefit) -> bool:
    """Whether a fitted lens bends the grid clearly and explains its lines clearly better
    than one plain homography (else the plain grid is kept, so unbent frames read as before),
    judged on all observations (``LENS_TIERS``) or on the best-fitting ones
    (``TRIMMED_TIER``), those fitting within ``LENS_PRECISION``; never a pincushion stronger
    than ``LENS_PINCUSHION_MAX``."""
    if bent.trimmed_cost > LENS_PRECISION or bent.lam > LENS_PINCUSHION_MAX:
        return False
    ratio = bent.cost / max(bent.plain_cost, 1e-12)
    if any(abs(bent.lam) >= bend and ratio <= share for bend, share in LENS_TIERS):
        return True
    bend, share = TRIMMED_TIER
    trimmed = bent.trimmed_cost / max(bent.plain_trimmed_cost, 1e-12)
    return abs(bent.lam) >= bend and trimmed <= share
