"""The shortcuts that make locating from scratch fast must give the same numbers as the plain
computations they replace (the speed itself is measured by `companion bench vision`)."""

import cv2
import numpy as np
import pytest
from test_vision_support import close_board_spec

from companion.render import render_frame
from companion.vision import chips, locate
from companion.vision.cell_boxes import cell_extremes, eroded_shares
from companion.vision.grid import AxisFit, _cell_means, settle_shift
from companion.vision.locate import (
    GridFit,
    LocatedGrids,
    component_stats,
    fit_grid_in_quad,
)
from companion.vision.pipeline import _enumerate_then
from companion.vision.stats import (
    grey_median,
    nth_smallest,
    percentile_u8,
    row_counts,
    row_medians,
    row_percentiles,
)


@pytest.mark.parametrize("width", [1, 2, 93, 104])
def test_row_medians_are_numpys_medians_for_odd_and_even_rows(width):
    rng = np.random.default_rng(width)
    # blurred absolute differences of 8-bit pixels, as in a gradient profile: many ties
    values = (rng.integers(0, 766, (40, width)) / 3).astype(np.float32)
    assert np.array_equal(row_medians(values), np.median(values, axis=1))
    floats = rng.random((7, width))
    assert np.array_equal(row_medians(floats), np.median(floats, axis=1))


@pytest.mark.parametrize("shape", [(1, 1), (3, 5), (4, 6), (61, 80)])
def test_grey_median_is_numpys_median(shape):
    rng = np.random.default_rng(shape[0])
    for top in (1, 2, 17, 256):
        image = rng.integers(0, top, shape).astype(np.uint8)
        assert grey_median(image) == float(np.median(image))


def test_percentile_u8_is_numpys_percentile_also_between_two_values():
    rng = np.random.default_rng(3)
    for _ in range(200):
        h, w = rng.integers(1, 20, 2)
        image = rng.integers(0, int(rng.integers(1, 256)), (h, w, 3)).astype(np.uint8)
        for q in (0, 50, 95, 100):
            assert percentile_u8(image, q) == float(np.percentile(image, q))
    # 95th percentile between a 10 and a 200: numpy's interpolation, not a histogram bin
    image = np.array([[10] * 19 + [200]], np.uint8).reshape(1, 20, 1).repeat(3, axis=2)
    assert percentile_u8(image, 95) == float(np.percentile(image, 95))
    assert percentile_u8(image, 95) not in (10.0, 200.0)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_row_percentiles_are_numpys_percentiles_to_the_bit(dtype):
    rng = np.random.default_rng(5)
    for n in (12, 13, 40, 97):  # ranks falling on a value, below and above the middle of two
        for q in (80, 25, 50, 90):
            values = rng.random((3, n)).astype(dtype)
            values[1] = np.round(values[1], 1)  # ties
            got = row_percentiles(values, q)
            assert got.dtype == dtype
            assert np.array_equal(got, np.percentile(values, q, axis=1))


@pytest.mark.parametrize("outside", [None, 0])
def test_eroded_shares_of_a_few_cells_are_the_whole_images_erosion(outside):
    rng = np.random.default_rng(3)
    cw, ch, inset = 28, 20, (3, 2)
    mask = np.where(rng.random((10 * ch, 10 * cw)) < 0.8, 255, 0).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))  # blobs
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
    cells = np.zeros((10, 10), bool)
    cells[0, 0] = cells[4, 5] = cells[9, 9] = cells[0, 9] = True  # corners: the image's edge
    got = eroded_shares(lambda box: mask[box], cells, cw, ch, kernel, inset, outside)
    if outside is None:
        whole = cv2.erode(mask, kernel)
    else:
        whole = cv2.erode(mask, kernel, borderType=cv2.BORDER_CONSTANT, borderValue=outside)
    for r, c in zip(*np.nonzero(cells), strict=True):
        part = whole[r * ch + 2 : (r + 1) * ch - 2, c * cw + 3 : (c + 1) * cw - 3]
        assert got[r, c] == np.float32(cv2.countNonZero(part) / part.size)
    assert (got[~cells] == 0).all() and got[cells].min() > 0


@pytest.mark.parametrize("aspect", [0.5, 1.0, 1.5])
def test_per_cell_counts_are_the_plain_counts_of_each_cells_inner_pixels(aspect):
    # the reading's per-cell shares, summed in wrapping 8-bit rows and a small matrix
    # product: the same float32 numbers as counting with numpy, to the bit
    shape = chips.shape_for_aspect(aspect)
    rng = np.random.default_rng(int(aspect * 10))
    h, w = 10 * shape.h, 10 * shape.w
    masks = np.where(rng.random((4, h, w)) < [[[0.0]], [[0.3]], [[0.97]], [[1.0]]], 255, 0)
    masks = masks.astype(np.uint8)
    ix, iy = shape.inner_x, shape.inner_y
    cells = masks.reshape(4, 10, shape.h, 10, shape.w)[:, :, iy:-iy, :, ix:-ix]
    counts = np.count_nonzero(cells, axis=(2, 4)).astype(np.uint32) * 255
    want = (counts * (1.0 / (255.0 * shape.inner_count))).astype(np.float32)
    got = chips._per_cell_planes(masks, shape)
    assert np.array_equal(got, want) and got.dtype == np.float32
    assert got.flags.c_contiguous  # classify is slower on strided per-cell arrays
    assert got[0].max() == 0 and got[3].min() == 1  # nothing set, everything set
    assert 0.2 < got[1].mean() < 0.4


@pytest.mark.parametrize("ufunc", [np.minimum, np.maximum])
def test_cell_extremes_are_each_cells_least_and_greatest_pixel(ufunc):
    rng = np.random.default_rng(6)
    for cw, ch in ((24, 24), (29, 20), (20, 29)):
        image = rng.integers(0, 256, (10 * ch, 10 * cw)).astype(np.uint8)
        cells = image.reshape(10, ch, 10, cw)
        want = cells.min(axis=(1, 3)) if ufunc is np.minimum else cells.max(axis=(1, 3))
        got = cell_extremes(image, cw, ch, ufunc)
        assert np.array_equal(got, want) and got.dtype == np.uint8


def test_row_counts_are_numpys_sums_of_booleans():
    rng = np.random.default_rng(7)
    mask = rng.random((100, 126)) < 0.3
    mask[0] = False
    mask[1] = True
    got = row_counts(mask)
    assert np.array_equal(got, mask.sum(axis=1))
    assert got[0] == 0 and got[1] == 126
    # a share per row, as the reading's ring shares divide it: numpy's mean to the bit
    assert np.array_equal(got / mask.shape[1], mask.mean(axis=1))


def test_pooled_boundaries_are_the_dilated_masks_lines_at_the_image_edges_too():
    rng = np.random.default_rng(8)
    shape = chips.shape_for_aspect(1.5)
    mask = np.where(rng.random((10 * shape.h, 10 * shape.w)) < 0.1, 255, 0).astype(np.uint8)
    xs, ys = shape.boundary_xs, shape.boundary_ys  # the first and last on the image's edge
    cols = chips.pool_max(mask, shape.near_xs, axis=1)
    rows = chips.pool_max(mask, shape.near_ys, axis=0)
    assert np.array_equal(cols, cv2.dilate(mask, np.ones((1, 3), np.uint8))[:, xs])
    assert np.array_equal(rows, cv2.dilate(mask, np.ones((3, 1), np.uint8))[ys, :])
    assert cols.any() and rows.any()
    # ... and over EDGE_POOL pixels either side, as missing_edges pools them (its last
    # boundary lies at the image's far edge, one pixel past it: the ten before it compared)
    wide = np.ones((1, 2 * chips.EDGE_POOL + 1), np.uint8)
    cols = chips.pool_max(mask, shape.pool_xs, axis=1)[:, :10]
    rows = chips.pool_max(mask, shape.pool_ys, axis=0)[:10]
    assert np.array_equal(cols, cv2.dilate(mask, wide)[:, xs[:10]])
    assert np.array_equal(rows, cv2.dilate(mask, wide.T)[ys[:10], :])


def test_blown_out_is_every_channel_clipped():
    rng = np.random.default_rng(11)
    bgr = rng.integers(230, 256, (60, 80, 3)).astype(np.uint8)  # around the clipping level
    got = chips.blown_out(bgr)
    assert np.array_equal(got, cv2.inRange(bgr, (245, 245, 245), (255, 255, 255)))
    assert 0 < np.count_nonzero(got) < got.size
    out = np.zeros(bgr.shape[:2], np.uint8)
    assert chips.blown_out(bgr, out) is not None and np.array_equal(out, got)


def test_normalised_rings_are_each_cells_ring_pixels_over_its_white():
    shape = chips.shape_for_aspect(1.5)
    rng = np.random.default_rng(9)
    img = rng.integers(0, 256, (10 * shape.h, 10 * shape.w, 3)).astype(np.uint8)
    whites = rng.uniform(90, 255, (10, 10)).astype(np.float32)
    got = chips.normalised_rings(img, whites, shape)
    want = np.take(img.reshape(-1, 3), shape.ring_pixels, axis=0).astype(np.float32)
    want *= (200.0 / (whites.reshape(100) + 1.0))[:, None, None]
    assert got.dtype == np.float32 and np.array_equal(got, want)


def test_a_grid_warp_is_one_perspective_warp_planned_once_per_quad():
    from companion.vision.geometry import rect_points
    from companion.vision.pipeline import _warp_plan, grid_shape, warp_grid

    rng = np.random.default_rng(10)
    frame = rng.integers(0, 256, (240, 320, 3)).astype(np.uint8)
    quad = np.array([[40.3, 30.1], [290.7, 45.2], [270.2, 220.8], [25.5, 200.4]])
    shape = grid_shape(quad)
    w, h = shape.size
    hom = cv2.getPerspectiveTransform(quad.astype(np.float32), rect_points(w, h).astype(np.float32))
    want = cv2.warpPerspective(frame, hom, (w, h), flags=cv2.INTER_LINEAR)
    _warp_plan.cache_clear()
    assert np.array_equal(warp_grid(frame, quad), want)  # a quad warped once: warpPerspective
    plan = _warp_plan(np.asarray(quad, np.float64).tobytes(), None)
    assert plan.maps is None
    # the second warp of a quad (a fixed camera) reuses the plan, now with the homography's
    # per-pixel maps for cv2.remap: the same picture but for the 1/32-pixel sampling steps
    # (on this frame of pure noise, the worst case: at most a few grey levels)
    again = warp_grid(frame, quad.tolist())  # any array-like quad
    assert _warp_plan.cache_info().hits >= 2 and plan.maps is not None
    diff = np.abs(again.astype(int) - want)
    assert diff.mean() < 1.0 and diff.max() <= 8
    assert np.array_equal(warp_grid(frame, quad), again)
    other = chips.shape_for_aspect(1.0)  # a shape given explicitly has its own plan
    assert warp_grid(frame, quad, other).shape[:2] == (10 * other.h, 10 * other.w)


@pytest.mark.parametrize("share", [0.01, 0.02, 0.4])  # the first two: sparse
def test_component_stats_are_opencvs_on_sparse_and_dense_masks(share):
    rng = np.random.default_rng(int(share * 100))
    mask = ((rng.random((90, 130)) < share) * 255).astype(np.uint8)
    if share < 0.1:
        mask = cv2.dilate(mask, np.ones((2, 2), np.uint8))  # blobs of a few pixels
    _, _, stats, centres = cv2.connectedComponentsWithStats(mask, connectivity=4)
    mine, mine_centres = component_stats(mask)
    assert len(stats) > 10
    assert np.array_equal(mine[1:], stats[1:]) and mine.dtype == stats.dtype
    assert np.array_equal(mine_centres[1:], centres[1:])


def test_cell_means_of_several_grids_at_once_match_one_grid_at_a_time():
    rng = np.random.default_rng(4)
    integral = cv2.integral(rng.random((120, 150)).astype(np.float32))
    xs = np.stack([3.3 + 13.7 * np.arange(11), 0.6 + 14.2 * np.arange(11)])
    ys = 1.9 + 11.1 * np.arange(11)
    both = _cell_means(integral, xs, ys[None], 0.6)
    assert both.shape == (2, 10, 10)
    for k in range(2):
        one = _cell_means(integral, xs[k], ys, 0.6)
        assert np.array_equal(both[k], one)


def test_settle_shift_still_moves_a_grid_off_an_empty_margin_onto_the_printed_row():
    # 12 columns of printed cells (noise) with an empty margin cell at the left; the fit
    # that starts on the margin is moved one cell right, onto the printed cells
    rng = np.random.default_rng(5)
    image = np.full((120, 132), 128, np.uint8)
    image[:, 11:121] = rng.integers(0, 256, (120, 110))
    fx = AxisFit(0.0, 11.0, 1.0)
    fy = AxisFit(5.0, 11.0, 1.0)
    moved_x, kept_y = settle_shift(image, fx, fy)
    assert moved_x.start == 11.0 and kept_y.start == 5.0  # the rows' only option inside


def _fit(lines: float, x: float = 0.0) -> GridFit:
    quad = np.array([[x, 0], [x + 10, 0], [x + 10, 10], [x, 10]], np.float64)
    return GridFit(quad=quad, score=1.0, source=f"test-{lines}", lines=lines)


def _counting(fits):
    pulled = []

    def found():
        for fit in fits:
            pulled.append(fit)
            yield fit

    return found(), pulled


def test_located_grids_refine_only_the_first_when_it_cannot_be_dropped():
    found, pulled = _counting([_fit(0.95), _fit(0.7, 20), _fit(1.0, 40)])
    grids = LocatedGrids(found)
    assert grids and grids[0].lines == 0.95
    assert len(pulled) == 1  # the runners-up are not looked for yet
    # asked for all: the one whose lines fit clearly worse than the best is dropped
    assert [g.lines for g in grids[1:]] == [1.0]
    assert len(pulled) == 3 and len(grids) == 2


def test_located_grids_find_all_when_the_first_may_be_dropped():
    found, pulled = _counting([_fit(0.6), _fit(1.0, 20)])
    grids = LocatedGrids(found)
    assert grids[0].lines == 1.0  # the first fits its lines clearly worse: not offered
    assert len(pulled) == 2
    assert not LocatedGrids(iter([]))


def test_lazily_located_grids_are_the_located_grids():
    image, _ = render_frame(close_board_spec("cards", 6))
    eager = locate.locate_candidates(image, limit=3)
    lazy = locate.locate_candidates(image, limit=3, lazily=True)
    assert eager and isinstance(lazy, LocatedGrids)
    assert np.array_equal(lazy[0].quad, eager[0].quad)
    assert [g.source for g in lazy] == [g.source for g in eager]


def test_a_quad_scoring_below_the_threshold_is_dropped_and_above_it_kept():
    image, _ = render_frame(close_board_spec("text", 7))
    small, scale = locate.downscale(image)
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    quad = locate.outline_candidates(grey)[0]
    grid, score = fit_grid_in_quad(grey, quad)
    assert fit_grid_in_quad(grey, quad, score + 0.01) is None
    again, same = fit_grid_in_quad(grey, quad, score - 0.01)
    assert same == score and np.array_equal(again, grid)


def test_enumerate_then_meets_insertions_and_asks_for_more_only_at_the_end():
    items = ["a", "b"]
    asked = []

    def more():
        asked.append(True)
        return ["c"]

    seen = []
    for i, item in _enumerate_then(items, more):
        seen.append(item)
        if item == "a":
            items.insert(i + 1, "a2")
            assert not asked
    assert seen == ["a", "a2", "b", "c"] and asked == [True]
    asked.clear()
    for _, item in _enumerate_then(["x", "y"], more):
        if item == "x":
            break
    assert not asked  # a loop that stops early never finds the rest


def test_nth_smallest_is_the_sorted_values_at_k():
    rng = np.random.default_rng(5)
    values = rng.random((10, 11)).astype(np.float32)
    for k in (0, 5, 7, 9):
        assert nth_smallest(values, k) == np.sort(values.ravel())[k]
        assert np.array_equal(nth_smallest(values, k, axis=0), np.sort(values, axis=0)[k])
    for k in (0, 7, 10):
        assert np.array_equal(nth_smallest(values, k, axis=1), np.sort(values, axis=1)[:, k])
