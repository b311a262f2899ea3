"""The vision side's lens model (companion.vision.lens): closed-form undistort/distort, the fit
of a lens to bent grid lines, and warping a grid through its lens."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_vision_support import close_board_spec

from companion.vision.geometry import rect_points
from companion.vision.lens import (
    distort,
    fit_at,
    fit_lens,
    grid_to_frame,
    lattice_offset,
    shifted,
    trimmed_cost,
    undistort,
    warp_lensed,
)

SIZE = (1280, 720)
QUAD = np.array([[250.0, 60.0], [1060.0, 110.0], [1000.0, 680.0], [200.0, 640.0]])


def _max_off_line(points: np.ndarray) -> float:
    centred = points - points.mean(axis=0)
    _, _, vt = np.linalg.svd(centred, full_matrices=False)
    return float(np.abs(centred @ vt[1]).max())


@settings(max_examples=60, deadline=None)
@given(
    lam=st.floats(-0.3, 0.15),
    x=st.floats(0, SIZE[0] - 1),
    y=st.floats(0, SIZE[1] - 1),
)
def test_distort_inverts_undistort_everywhere_in_the_frame(lam, x, y):
    p = np.array([[x, y]])
    assert np.allclose(distort(undistort(p, lam, SIZE), lam, SIZE), p, atol=1e-6)


def test_no_lens_changes_nothing_and_the_centre_never_moves():
    pts = np.array([[0.0, 0.0], [100.0, 700.0], [1279.0, 719.0]])
    assert np.array_equal(undistort(pts, 0.0, SIZE), pts)
    centre = np.array([[(SIZE[0] - 1) / 2, (SIZE[1] - 1) / 2]])
    assert np.allclose(distort(centre, -0.2, SIZE), centre)


def test_barrel_pulls_points_towards_the_centre():
    corner = np.array([[0.0, 0.0]])
    centre = np.array([(SIZE[0] - 1) / 2, (SIZE[1] - 1) / 2])
    seen = distort(corner, -0.15, SIZE)
    assert np.linalg.norm(seen - centre) < np.linalg.norm(corner - centre) - 50


def test_a_bent_line_is_made_straight():
    straight = np.stack([np.linspace(80, 1200, 40), np.full(40, 90.0)], 1)  # near the top edge
    bent = distort(straight, -0.15, SIZE)
    assert _max_off_line(bent) > 10  # a barrel lens bows the line by many pixels
    assert _max_off_line(undistort(bent, -0.15, SIZE)) < 1e-6
    assert _max_off_line(undistort(bent, -0.05, SIZE)) > 5  # the wrong lens leaves it bent


def _line_observations(quad: np.ndarray, lam: float, per_line: int = 6, noise: float = 0.0):
    """Frame points on the 11 column and 11 row boundaries of the lensed grid."""
    rng = np.random.default_rng(3)
    along = (np.arange(per_line) + 0.5) * 10 / per_line
    rows = []
    for k in range(11):
        for a in along:
            rows.append((k, a, k, 0))  # column boundary u = k at v = a
            rows.append((a, k, k, 1))  # row boundary v = k at u = a
    rows = np.array(rows, np.float64)
    pts = grid_to_frame(quad, lam, SIZE, rows[:, :2]) + rng.normal(0, noise, (len(rows), 2))
    return pts, rows[:, 2], rows[:, 3]


@pytest.mark.parametrize("lam", [-0.2, -0.12, -0.05, 0.0, 0.06])
def test_fit_lens_recovers_the_lens_and_the_corners(lam):
    pts, k, axis = _line_observations(QUAD, lam, noise=0.3)
    fit = fit_lens(pts, k, axis, np.ones(len(k)), SIZE)
    assert fit is not None
    assert abs(fit.lam - lam) < 0.01
    assert np.abs(fit.corners(SIZE) - QUAD).max() < 1.5
    assert (fit.residuals < 0.02).all()
    if lam != 0:  # one plain homography cannot explain the bent lines
        assert fit.plain_cost > 5 * fit.cost


def test_fit_lens_ignores_a_few_false_peaks():
    pts, k, axis = _line_observations(QUAD, -0.12, noise=0.2)
    pts[::17] += 25.0  # a chip's edge or a printed stroke taken for a boundary
    fit = fit_lens(pts, k, axis, np.ones(len(k)), SIZE)
    assert abs(fit.lam + 0.12) < 0.015
    assert np.abs(fit.corners(SIZE) - QUAD).max() < 2.0


def test_trimmed_cost_leaves_the_worst_quarter_out():
    residuals = np.array([0.01] * 6 + [0.3, 0.5])
    assert trimmed_cost(residuals) == pytest.approx(0.01**2)
    assert trimmed_cost(np.full(8, 0.02)) == pytest.approx(0.02**2)


def test_a_lens_hidden_by_many_outliers_shows_in_the_trimmed_cost():
    from companion.vision.locate import LensRefit, lens_is_clear

    # a moderate lens and a quarter of the peaks taken on chips' rims (far off their lines)
    pts, k, axis = _line_observations(QUAD, -0.08, noise=0.3)
    rng = np.random.default_rng(5)
    wild = rng.random(len(k)) < 0.25
    off = rng.normal(0, 20.0, (wild.sum(), 2))
    pts[wild] += off
    fit = fit_lens(pts, k, axis, np.ones(len(k)), SIZE)
    assert abs(fit.lam + 0.08) < 0.02

    assert fit.cost > 0.7 * fit.plain_cost  # the outliers' truncated cost hides the lens ...
    assert fit.trimmed_cost < 0.3 * fit.plain_trimmed_cost  # ... the lines that show do not
    assert lens_is_clear(LensRefit.of(fit, SIZE))
    # the same observations of an unbent grid keep the plain homography
    pts0, k0, axis0 = _line_observations(QUAD, 0.0, noise=0.3)
    pts0[wild] += off
    plain = fit_lens(pts0, k0, axis0, np.ones(len(k0)), SIZE)
    assert not lens_is_clear(LensRefit.of(plain, SIZE))


def test_fit_needs_enough_observations():
    pts, k, axis = _line_observations(QUAD, -0.1)
    assert fit_lens(pts[:8], k[:8], axis[:8], np.ones(8), SIZE) is None
    assert fit_at(0.0, pts[:8], k[:8], axis[:8], np.ones(8), SIZE) is None


def test_grid_to_frame_puts_the_corners_on_the_quad_and_bends_the_sides():
    corners = grid_to_frame(QUAD, -0.15, SIZE, rect_points(10, 10))
    assert np.allclose(corners, QUAD, atol=1e-6)
    side = grid_to_frame(QUAD, -0.15, SIZE, np.stack([np.zeros(30), np.linspace(0, 10, 30)], 1))
    assert _max_off_line(side) > 3
    plain = grid_to_frame(QUAD, 0.0, SIZE, np.stack([np.zeros(30), np.linspace(0, 10, 30)], 1))
    assert _max_off_line(plain) < 1e-6


def test_shifted_moves_the_lensed_grid_by_whole_cells():
    moved = shifted(QUAD, -0.12, SIZE, 1, 0)
    expect = grid_to_frame(QUAD, -0.12, SIZE, rect_points(10, 10) + [1, 0])
    assert np.allclose(moved, expect)
    assert np.allclose(shifted(moved, -0.12, SIZE, -1, 0), QUAD, atol=1e-6)


def _drawn_lensed_grid(lam: float) -> np.ndarray:
    """A white frame with the lensed grid's 11 + 11 lines drawn (bent) in black."""
    img = np.full((SIZE[1], SIZE[0]), 255, np.uint8)
    t = np.linspace(0, 10, 200)
    for k in range(11):
        for uv in (np.stack([np.full_like(t, k), t], 1), np.stack([t, np.full_like(t, k)], 1)):
            pts = grid_to_frame(QUAD, lam, SIZE, uv)
            cv2.polylines(img, [np.round(pts * 16).astype(np.int32)], False, 0, 3, cv2.LINE_AA, 4)
    return img


def test_warp_lensed_straightens_the_bent_lines():
    img = _drawn_lensed_grid(-0.15)
    out = warp_lensed(img, QUAD, -0.15, (400, 300))
    # every inner boundary is one dark straight line across the whole straightened image
    cols = out.astype(np.float32).mean(axis=0)
    rows = out.astype(np.float32).mean(axis=1)
    for k in range(1, 10):
        assert cols[int(round(k * 40)) - 2 : int(round(k * 40)) + 3].min() < 120
        assert rows[int(round(k * 30)) - 2 : int(round(k * 30)) + 3].min() < 120
    # the same image warped with one plain homography shows the bow: lines smeared
    hom = cv2.getPerspectiveTransform(
        QUAD.astype(np.float32), rect_points(400, 300).astype(np.float32)
    )
    plain = cv2.warpPerspective(img, hom, (400, 300)).astype(np.float32).mean(axis=0)
    assert plain[38:43].min() > cols[38:43].min() + 40


def test_warp_lensed_without_a_lens_is_the_perspective_warp():
    rng = np.random.default_rng(0)
    img = cv2.GaussianBlur(rng.integers(0, 255, (SIZE[1], SIZE[0]), np.uint8), (9, 9), 3)
    hom = cv2.getPerspectiveTransform(
        QUAD.astype(np.float32), rect_points(240, 240).astype(np.float32)
    )
    plain = cv2.warpPerspective(img, hom, (240, 240)).astype(np.float32)
    lensed = warp_lensed(img, QUAD, 0.0, (240, 240)).astype(np.float32)
    assert np.abs(plain - lensed)[2:-2, 2:-2].mean() < 1.0


def _strong_lens_frame(art: str, seed: int):
    from companion.render import render_frame

    return render_frame(close_board_spec(art, seed, lens_k1=-0.15))


@pytest.mark.parametrize("art, seed", [("cards", 6), ("text", 4)])
def test_a_board_bent_by_a_strong_lens_reads_exactly_at_its_real_corners(art, seed, monkeypatch):
    from companion.vision import BoardReader, locate

    image, truth = _strong_lens_frame(art, seed)
    reader = BoardReader()
    reading = reader.read(image)
    assert reading.cells == truth.cells
    assert reader.lens < -0.05  # barrel
    assert np.abs(np.asarray(reading.corners) - np.asarray(truth.corners)).max() < 6.0
    # one plain homography is off by far more at the corners (and, on the cards art, leaves
    # cells along the bent edges unread)
    monkeypatch.setattr(locate, "LENS", False)
    plain_reader = BoardReader()
    plain = plain_reader.read(image)
    assert plain_reader.lens == 0.0
    assert np.abs(np.asarray(plain.corners) - np.asarray(truth.corners)).max() > 15.0
    if art == "cards":
        assert plain.cells != truth.cells
    # the straightened board for evidence follows the lens too
    board = reader.straighten(image, width=300)
    assert board is not None and board.shape[1] == 300


def test_the_fast_path_keeps_reading_through_the_lens():
    from companion.vision import BoardReader

    image, truth = _strong_lens_frame("cards", 6)
    reader = BoardReader()
    reader.read(image)
    again = reader.read(image)
    assert again.notes == []  # fast path: not located again
    assert again.cells == truth.cells


@pytest.mark.parametrize("art, seed", [("cards", 6), ("text", 4)])
def test_a_camera_without_a_lens_keeps_the_plain_homography(art, seed):
    from companion.render import render_frame
    from companion.vision import BoardReader

    spec = close_board_spec(art, seed)
    image, truth = render_frame(spec)
    reader = BoardReader()
    reading = reader.read(image)
    assert reader.lens == 0.0
    assert "+lens" not in reader.located_by
    assert reading.cells == truth.cells


def test_a_wrongly_fitted_lens_falls_back_to_the_plain_grid(monkeypatch):
    from companion.render import render_frame
    from companion.vision import BoardReader, locate, pipeline

    spec = close_board_spec("cards", 6)
    image, truth = render_frame(spec)
    real = locate.locate_candidates(image, limit=3)
    assert real[0].lens == 0.0
    # the same grid offered as if a strong barrel lens had been fitted to it (wrongly)
    wrong = locate.GridFit(
        quad=real[0].quad,
        score=real[0].score,
        source="outline+lens",
        lines=real[0].lines,
        lens=-0.25,
        plain=real[0].quad,
    )
    monkeypatch.setattr(pipeline, "locate_candidates", lambda *a, **k: [wrong])
    reader = BoardReader()
    reading = reader.read(image)
    assert reader.lens == 0.0 and "+lens" not in reader.located_by
    assert reading.cells == truth.cells


# a soft mat seen through a strong barrel lens (a dev frame, seed 7900012): its printed margin
# next to the outer lines holds the first round of the lens fit near zero, the second round
# (outer lines left out) finds the lens
_MAT_UNDER_A_LENS = dict(
    cells=(
        "*.RR..GRG*", "BR....R..B", "GRR.R.BB.R", "G.R.R.RBRR", "..RR.B..BG",
        ".G...B..GR", "GRBGB.R..R", ".R...BR..B", "G........G", "*.G.GBB.G*",
    ),
    seed=2077482249, art="mat", palette=3, cell_aspect=1.35, size=(640, 480), orientation=90,
    rotation_jitter=9.3936, tilt_deg=6.7226, tilt_azimuth_deg=33.6109, camera_distance=2.6036,
    board_fraction=1.0, board_offset=(0.1702, -0.1391), table="laminate", clutter=2,
    chip_jitter=0.0524, light_angle_deg=197.57, brightness=0.934, color_temp=3358.0,
    gradient=0.0586, gradient_angle_deg=229.47, vignette=0.0987, glare=0.0, wrinkles=0.274,
    noise=2.21, jpeg=81, lens_k1=-0.1379, lens_k2=-0.0144, camera_seed=999135936,
)  # fmt: skip


def test_a_lens_the_first_round_misses_is_found_by_the_second():
    from companion.render import RenderSpec, render_frame
    from companion.vision import BoardReader, locate

    image, truth = render_frame(RenderSpec(**_MAT_UNDER_A_LENS))
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    plain = locate.locate_candidates(image, limit=1)[0].plain
    assert plain is not None  # the located grid was bent ...
    obs, strengths = locate.lens_observations(grey, plain, 0.0, 1 / 3, True)
    first = fit_lens(obs[:, :2], obs[:, 2], obs[:, 3], strengths, (640, 480))
    assert abs(first.lam) < 0.03  # ... though the first round alone sees almost no lens
    reader = BoardReader()
    reading = reader.read(image)
    assert reader.lens < -0.09 and "+lens" in reader.located_by
    assert np.abs(np.asarray(reading.corners) - np.asarray(truth.corners)).max() < 3.0
    assert reading.cells == truth.cells


def test_the_smooth_warp_of_a_lensed_grid_shrinks_a_crop_around_it_like_the_whole_frame():
    from companion.vision.pipeline import grid_shape, warp_grid_smooth, warp_reduction

    size = (3840, 2160)
    rng = np.random.default_rng(2)
    texture = cv2.resize(rng.integers(0, 255, (54, 96, 3), np.uint8), size)  # 40 px blotches
    quad = QUAD * 3.0 + [100.0, 0.0]  # a board in the middle of a 4K frame
    lam = -0.15
    shape = grid_shape(quad)
    smooth = warp_grid_smooth(texture, quad, shape, lam)
    assert smooth is not None and smooth.shape[:2] == shape.size[::-1]
    # the same grid from the whole frame shrunk by the same factor
    factor = warp_reduction(quad, *shape.size)
    assert factor > 2  # far more frame pixels than grid-image pixels: a smooth view is made
    whole = cv2.resize(texture, (round(3840 / factor), round(2160 / factor)), cv2.INTER_AREA)
    scale = np.array([whole.shape[1] / 3840, whole.shape[0] / 2160])
    small_quad = (quad + 0.5) * scale - 0.5
    reference = warp_lensed(whole, small_quad, lam, shape.size)
    diff = np.abs(smooth.astype(float) - reference.astype(float))
    assert np.median(diff) < 2 and diff.mean() < 3


def test_dark_line_response_answers_a_thin_dark_line_and_not_a_step():
    from companion.vision.locate import dark_line_response

    row = np.full(60, 200.0, np.float32)
    row[20:22] = 120.0  # a grid line (or the grey gap between two cards)
    row[40:] = 60.0  # a chip's rim: card white, then the dark chip
    response = dark_line_response(row[None], 3)[0]
    assert response[20:22].min() == pytest.approx(80.0)
    assert response[30:].max() == 0.0  # the step answers nowhere, nor the chip inside it
    assert response[:17].max() == 0.0


@pytest.mark.parametrize("seed", [4, 9])
def test_a_board_crowded_with_chips_under_a_lens_is_bent_to_its_real_corners(seed):
    """66-71 chips on a cards board: the chips' rims beside the gaps between cards pulled the
    gradient peaks off the lines, and no lens was fitted (corners 16 px off); the gaps as dark
    lines (locate.dark_line_response) still show the lens."""
    from companion.render import render_frame
    from companion.vision import BoardReader

    image, truth = render_frame(close_board_spec("cards", seed, lens_k1=-0.13))
    assert sum(row.count(c) for row in truth.cells for c in "BGR") > 60
    reader = BoardReader()
    reading = reader.read(image)
    assert -0.16 < reader.lens < -0.08
    assert np.abs(np.asarray(reading.corners) - np.asarray(truth.corners)).max() < 3.0
    assert reading.cells == truth.cells


@pytest.mark.parametrize(
    "name", ["lens_runner_up_mat_spec.json", "lens_runner_up_cell_off_spec.json"]
)
def test_a_runner_up_grid_that_wins_is_read_through_its_own_lens(name):
    """Two seen mat frames (barrel lenses, k1 -0.13 and -0.05) where the first located grid,
    the only one fitted a lens on the first look, lost to a runner-up grid (a cell off; or
    as plausible, with corners a little less alike): read without a lens, the runner-up's
    corner cells lay 15-25 px off and read `?`."""
    from test_vision_support import spec_frame

    from companion.vision import BoardReader

    image, truth = spec_frame(name, written=True)
    reader = BoardReader()
    reading = reader.read(image)
    assert reader.lens < -0.03
    assert reader.located_by.endswith("+lens")
    corners = np.asarray(truth.lattice)[[0, 0, 20, 20], [0, 20, 20, 0]]
    assert np.abs(np.asarray(reading.corners) - corners).max() < 5.0
    assert reading.cells == truth.cells


@pytest.mark.parametrize(
    "name", ["lens_rescued_wrinkled_cards_spec.json", "lens_rescued_glare_mat_spec.json"]
)
def test_a_grid_no_homography_fits_is_found_through_its_lens(name):
    """Two seen frames where no board was found: barrel lenses (k1 -0.12 on a wrinkled cards
    board, -0.05 on a mat under glare) bent the outer lines so far that one homography
    explained only 0.4-0.6 of the refined grid's lines, and every candidate was dropped before
    a lens was fitted to it; the lens fitted to those lines puts the corners within 2 px."""
    from test_vision_support import spec_frame

    from companion.vision import BoardReader
    from companion.vision.locate import DEEP_REFINE_MIN, refine_grid

    image, truth = spec_frame(name, written=True)
    corners = np.asarray(truth.lattice)[[0, 0, 20, 20], [0, 20, 20, 0]]
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    _, plain_share = refine_grid(grey, corners.astype(np.float64), rounds=2)
    assert plain_share < DEEP_REFINE_MIN  # the true grid itself: its lines fit no homography
    reader = BoardReader()
    reading = reader.read(image)
    assert reading.board_found
    assert "lens-rescued" in reader.located_by
    assert reader.lens < -0.03
    assert np.abs(np.asarray(reading.corners) - corners).max() < 5.0
    # (the wrinkles bend a few cards beyond any lens: those may read unknown, none wrong)
    wrong = [
        (r, c)
        for r, (got, want) in enumerate(zip(reading.cells, truth.cells, strict=True))
        for c, (g, w) in enumerate(zip(got, want, strict=True))
        if g != w and g != "?"
    ]
    assert wrong == []
    # (and a blue chip under the glare spot, paled a little more by the glare taken off as a
    # veil, may read `?`)
    assert sum(row.count("?") for row in reading.cells) <= (10 if "wrinkled" in name else 1)


def test_a_grid_whose_boundaries_seem_off_pitch_is_looked_at_through_its_lens():
    """fin22 r0_text frame 92: a barrel lens (k1 -0.12) on a wrinkled text board bent the
    boundaries so far that, straightened without it, one axis seemed to repeat them 9 or 11
    times (``shear.py``'s wrong pitch) and every located grid was dropped; straightened
    through the lens fitted to the grid's lines they repeat 10 times."""
    from test_vision_support import spec_frame

    from companion.vision import BoardReader
    from companion.vision.locate import refine_grid
    from companion.vision.shear import grid_shear

    image, truth = spec_frame("lens_pitch_wrinkled_text_spec.json", written=True)
    corners = np.asarray(truth.lattice)[[0, 0, 20, 20], [0, 20, 20, 0]]
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    plain, _ = refine_grid(grey, corners.astype(np.float64), rounds=2)
    assert any(axis.wrong_pitch for axis in grid_shear(grey, plain))
    reader = BoardReader()
    reading = reader.read(image)
    assert reading.board_found
    assert "pitch-through-lens" in reader.located_by
    assert reader.lens < -0.05
    assert not any(axis.wrong_pitch for axis in grid_shear(grey, reader.quad, reader.lens))
    assert reading.cells == truth.cells


@pytest.mark.parametrize(("lam", "kept"), [(0.06, True), (0.12, False)])
def test_a_clear_pincushion_is_kept_only_as_weak_as_a_camera_has(lam, kept):
    """Lines bent outwards (a pincushion lens) measured as precisely as any barrel: a weak
    one is a lens, one of a tenth at the half-diagonal is no camera a player holds."""
    from companion.vision.locate import LensRefit, lens_is_clear

    pts, k, axis = _line_observations(QUAD, lam, noise=0.3)
    fit = fit_lens(pts, k, axis, np.ones(len(k)), SIZE)
    assert abs(fit.lam - lam) < 0.02
    refit = LensRefit.of(fit, SIZE)
    assert lens_is_clear(refit) == kept
    # the same bend measured as precisely the other way (barrel) is a lens
    assert lens_is_clear(dataclasses.replace(refit, lam=-refit.lam))


def test_a_board_drawn_without_a_lens_is_not_given_a_pincushion():
    """A Jax-like board drawn without a lens (jax22 frame 35, never tuned on): its outer cards
    meet a darker band, and a pincushion of 0.19 fitted to its lines passed as clear, leaving
    a corner of the grid two thirds of a cell off. The plain grid lies within a tenth of a
    cell of the truth's."""
    from test_vision_support import independent_image

    from companion.vision import BoardReader

    image, truth = independent_image("jax22_frame_0035")
    reader = BoardReader()
    reading = reader.read(image)
    assert reading.orientation == truth["orientation"] and reader.lens == 0.0
    size = image.shape[1], image.shape[0]
    assert lattice_offset(reading.corners, reader.lens, truth["grid"], size) < 0.1
    cells = [(r, c) for r in range(10) for c in range(10)]
    assert all(reading.cells[r][c] in ("?", truth["cells"][r][c]) for r, c in cells)


def test_lattice_offset_measures_the_farthest_line_crossing_in_cells():
    assert lattice_offset(QUAD, 0.0, QUAD, SIZE) == pytest.approx(0.0, abs=1e-9)
    # the same grid moved by one cell along its rows lies a cell off and more: measured in the
    # cells' shorter side, and these cells are wider than tall (about 1.4 times)
    moved = shifted(QUAD, 0.0, SIZE, 1.0, 0.0)
    assert 1.0 <= lattice_offset(moved, 0.0, QUAD, SIZE) < 1.6
    # bent by a lens, its corners kept, the middle of its edges moves: off by a part of a cell
    assert 0.05 < lattice_offset(QUAD, -0.1, QUAD, SIZE) < 0.5
