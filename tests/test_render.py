"""The renderer's ground truth agrees with the pixels it draws."""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cells import CORNERS
from companion.render import HandSpec, RenderSpec, SpecError, random_spec, render_frame, truth
from companion.render.layout import CLASSIC_LAYOUT
from companion.render.spec import EMPTY_BOARD

SMALL = (320, 240)


def clean(**changes) -> RenderSpec:
    """A noise-free spec so that pixel comparisons are exact."""
    base = dict(size=SMALL, noise=0.0, blur=0.0, jpeg=None, board_fraction=0.9, camera_seed=3)
    base.update(changes)
    return RenderSpec(**base)


def with_chips(cells: dict[tuple[int, int], str]) -> tuple[str, ...]:
    grid = [list(row) for row in EMPTY_BOARD]
    for (r, c), sym in cells.items():
        grid[r][c] = sym
    return tuple("".join(row) for row in grid)


def test_layout_has_every_non_jack_card_twice():
    counts = Counter(card for row in CLASSIC_LAYOUT for card in row)
    assert counts.pop("W") == 4
    assert len(counts) == 48 and set(counts.values()) == {2}
    assert not any(card.startswith("J") for card in counts)


def test_layout_is_the_referees_classic_layout():
    """The renderer keeps its own copy (it knows no rules code); it must print the same grid."""
    referee_layout = pytest.importorskip("companion.referee.layout")
    labels = referee_layout.classic_layout().labels
    assert tuple(tuple(row) for row in labels) == CLASSIC_LAYOUT


@pytest.mark.parametrize("orientation", [0, 90, 180, 270])
@pytest.mark.parametrize("art", ["text", "cards"])
def test_corners_follow_the_orientation(orientation, art):
    spec = clean(
        art=art, orientation=orientation, rotation_jitter=12, tilt_deg=30, tilt_azimuth_deg=60
    )
    _, t = render_frame(spec)
    assert t.board_found and t.orientation == orientation
    a1, j1, j10, a10 = t.corners
    # A1 -> J1 runs along canonical row 1: screen angle = orientation + jitter (+ a little tilt)
    angle = math.degrees(math.atan2(j1[1] - a1[1], j1[0] - a1[0])) % 360
    assert abs((angle - orientation - 12 + 180) % 360 - 180) < 12
    # the grid lies inside the frame and is a convex quad
    w, h = SMALL
    assert ((t.corners >= 0) & (t.corners <= [w, h])).all()
    edges = np.roll(t.corners, -1, axis=0) - t.corners
    cross = (
        edges[:, 0] * np.roll(edges, -1, axis=0)[:, 1]
        - edges[:, 1] * np.roll(edges, -1, axis=0)[:, 0]
    )
    assert all(c > 0 for c in cross) or all(c < 0 for c in cross)


@pytest.mark.parametrize("art", ["text", "cards", "mat"])
def test_chips_are_where_the_truth_says(art):
    placed = {(2, 3): "B", (5, 5): "G", (7, 1): "R", (0, 4): "B", (9, 8): "G"}
    empty_img, _ = render_frame(clean(art=art, tilt_deg=20))
    img, t = render_frame(clean(art=art, tilt_deg=20, cells=with_chips(placed)))
    centers = np.round(t.cell_centers()).astype(int)
    diff = np.abs(img.astype(int) - empty_img.astype(int)).sum(axis=2)
    for r in range(10):
        for c in range(10):
            x, y = centers[r, c]
            if (r, c) in placed:
                assert diff[y, x] > 60, f"no chip drawn at {(r, c)}"
                b, g, red = img[y, x].astype(int)
                dominant = {"B": b, "G": g, "R": red}[placed[(r, c)]]
                assert dominant == max(b, g, red), f"chip colour wrong at {(r, c)}"
            else:
                assert diff[y, x] == 0, f"unexpected change at {(r, c)}"


def test_same_spec_same_pixels_and_seed_changes_noise():
    spec = random_spec(np.random.default_rng(7), size=SMALL, noise=3.0)
    a, ta = render_frame(spec)
    b, tb = render_frame(spec)
    assert np.array_equal(a, b) and ta.to_json() == tb.to_json()
    c, tc = render_frame(spec.with_frame(seed=spec.seed + 1))
    assert not np.array_equal(a, c) and tc.to_json()["cells"] == ta.to_json()["cells"]
    assert np.abs(a.astype(int) - c.astype(int)).mean() < 10  # only the noise differs


def test_random_spec_with_camera_seed_keeps_the_camera():
    rng = np.random.default_rng(1)
    first = random_spec(rng, camera_seed=99)
    second = random_spec(rng, camera_seed=99)
    assert first.scene_key() == second.scene_key()
    assert first.cells != second.cells or first.seed != second.seed


def test_video_frames_share_the_scene_outside_the_new_chip():
    spec = clean(art="cards", tilt_deg=15, noise=0.0)
    a, t = render_frame(spec)
    b, _ = render_frame(spec.with_frame(cells=with_chips({(4, 4): "B"})))
    changed = np.abs(a.astype(int) - b.astype(int)).sum(axis=2) > 0
    ys, xs = np.nonzero(changed)
    center = t.cell_centers()[4, 4]
    assert len(xs) > 0
    cell = np.linalg.norm(t.cell_centers()[4, 5] - center)
    assert np.hypot(xs - center[0], ys - center[1]).max() < 1.5 * cell


def test_hand_marks_the_cells_it_covers():
    hand = HandSpec(tip=(5.0, 5.5), angle_deg=0.0, sleeve=None, skin=(40, 200, 40))
    spec = clean(art="text", hands=(hand,))
    img, t = render_frame(spec)
    assert t.occluded[5, 5] and t.occluded[5, 8]  # under the fingers and the arm
    assert not t.occluded[5, 3] and not t.occluded[0, 0] and not t.occluded[9, 9]
    # a (deliberately green) hand: a cell is marked iff enough of it is green skin
    skin = (img[..., 1].astype(int) - img[..., [0, 2]].astype(int).max(axis=2)) > 40
    share = changed_share(t, skin.astype(int) * 100)
    assert (share[t.occluded] >= 0.04).all()
    assert (share[~t.occluded] < 0.1).all()


def test_frames_without_a_board_have_no_board_truth(tmp_path):
    spec = random_spec(np.random.default_rng(3), board=False, size=SMALL, clutter=4)
    img, t = render_frame(spec)
    assert img.shape == (240, 320, 3)
    assert not t.board_found and t.cells is None and t.corners is None and t.occluded is None
    path = truth.save(t, tmp_path / "x.jpg")
    data = json.loads(path.read_text())
    assert data["board_found"] is False and data["cells"] is None
    assert not truth.load(tmp_path / "x.jpg").board_found


def test_truth_sidecar_round_trip(tmp_path):
    spec = random_spec(np.random.default_rng(11), size=SMALL, hand=True)
    _, t = render_frame(spec)
    path = truth.save(t, tmp_path / "frame.png")
    assert path.name == "frame.json"
    back = truth.load(tmp_path / "frame.png")
    assert back.cells == t.cells and back.orientation == t.orientation
    assert np.allclose(back.corners, t.corners, atol=1e-3)
    assert np.array_equal(back.occluded, t.occluded)
    assert RenderSpec.from_json(back.spec) == spec


def test_bad_truth_and_bad_spec_give_clear_errors(tmp_path):
    (tmp_path / "a.json").write_text("{not json")
    with pytest.raises(truth.TruthError, match="unreadable"):
        truth.load(tmp_path / "a.jpg")
    with pytest.raises(truth.TruthError, match="no truth sidecar"):
        truth.load(tmp_path / "missing.jpg")
    cells = list(EMPTY_BOARD)
    cells[0] = ".........*"
    with pytest.raises(SpecError, match="free corner"):
        RenderSpec(cells=tuple(cells))
    with pytest.raises(SpecError, match="art"):
        RenderSpec(art="photo")


def test_corner_cells_stay_free_in_random_specs():
    spec = random_spec(np.random.default_rng(5))
    for r, c in CORNERS:
        assert spec.cells[r][c] == "*"


def changed_share(t, diff: np.ndarray, n: int = 7) -> np.ndarray:
    """10x10: share of an n x n grid of points inside each cell where ``diff`` > 30."""
    import cv2

    u = (np.arange(n) + 0.5) / n
    out = np.zeros((10, 10))
    for r in range(10):
        for c in range(10):
            pts = np.array([[c + a, r + b] for a in u for b in u], np.float64).reshape(-1, 1, 2)
            xy = np.round(cv2.perspectiveTransform(pts, t.homography()).reshape(-1, 2)).astype(int)
            out[r, c] = (diff[xy[:, 1], xy[:, 0]] > 30).mean()
    return out


def test_loose_cards_on_the_board_cover_cells_over_the_chips():
    cells = with_chips({(r, c): "B" for r in range(1, 9) for c in range(1, 9)})
    spec = clean(art="cards", cells=cells, board_cards=2, camera_seed=8)
    img, t = render_frame(spec)
    plain, _ = render_frame(replace(spec, board_cards=0))
    assert 2 <= t.occluded.sum() <= 40
    share = changed_share(t, np.abs(img.astype(int) - plain.astype(int)).sum(axis=2))
    assert (share[t.occluded] >= 0.04).all()  # every hidden cell is partly covered...
    assert (share[~t.occluded] < 0.1).all()  # ...and no visible cell is


def test_a_held_chip_is_not_a_board_chip():
    hand = HandSpec(tip=(4.5, 5.5), angle_deg=60.0, holding="R", sleeve=None)
    img, t = render_frame(clean(art="text", hands=(hand,)))
    assert t.cells == list(EMPTY_BOARD)
    assert t.occluded[5, 4]
    reds = (img[..., 2].astype(int) - img[..., :2].astype(int).max(axis=2)) > 100
    x, y = np.round(t.cell_centers()[5, 4]).astype(int)
    cell = int(np.linalg.norm(t.cell_centers()[5, 5] - t.cell_centers()[5, 4]))
    assert reds[y - cell : y + cell, x - cell : x + cell].sum() > cell * cell * 0.3


@pytest.mark.parametrize("orientation", [0, 90, 180, 270])
def test_truth_corners_sit_on_the_printed_grid_border(orientation):
    """The text art prints a thick line on the grid's outer edge: the truth must land on it."""
    import cv2

    spec = clean(
        art="text",
        size=(640, 480),
        orientation=orientation,
        rotation_jitter=-8,
        tilt_deg=35,
        tilt_azimuth_deg=200,
        camera_distance=1.3,
    )
    img, t = render_frame(spec)
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(float)
    u = np.linspace(0.3, 9.7, 40)
    edge = (
        [(x, 0.0) for x in u]
        + [(10.0, y) for y in u]
        + [(x, 10.0) for x in u]
        + [(0.0, y) for y in u]
    )
    inside = (
        [(x, 0.12) for x in u]
        + [(9.88, y) for y in u]
        + [(x, 9.88) for x in u]
        + [(0.12, y) for y in u]
    )

    def sample(points):
        pts = np.array(points, np.float64).reshape(-1, 1, 2)
        xy = cv2.perspectiveTransform(pts, t.homography()).reshape(-1, 2)
        return np.array([grey[int(round(y)), int(round(x))] for x, y in xy])

    on_line, paper = sample(edge), sample(inside)
    assert np.median(on_line) < np.median(paper) - 60
    assert (on_line < paper).mean() > 0.9


def test_a_moving_hand_is_smeared_and_covers_its_path():
    still = HandSpec(tip=(5.0, 5.0), angle_deg=90.0, sleeve=None)
    moving = replace(still, motion=(2.0, 0.0))
    img_still, t_still = render_frame(clean(art="text", hands=(still,)))
    img_moving, t_moving = render_frame(clean(art="text", hands=(moving,)))
    assert (t_moving.occluded | ~t_still.occluded).all()  # covers at least the same cells
    # the smear reaches past the still hand's outline, sideways along the motion
    bare, _ = render_frame(clean(art="text"))

    def right_edge(img):
        return np.nonzero((np.abs(img.astype(int) - bare.astype(int)).sum(axis=2) > 40).any(0))[
            0
        ].max()

    cell = np.linalg.norm(t_still.cell_centers()[5, 6] - t_still.cell_centers()[5, 5])
    assert right_edge(img_moving) > right_edge(img_still) + 0.3 * cell
    with pytest.raises(SpecError, match="exposure"):
        clean(exposure=5.0)


def test_exposure_drift_changes_brightness_but_not_the_scene():
    spec = clean(art="cards")
    a, _ = render_frame(spec)
    b, _ = render_frame(spec.with_frame(exposure=1.2))
    assert spec.with_frame(exposure=1.2).scene_key() == spec.scene_key()
    assert b.astype(int).mean() > a.astype(int).mean() + 5


def test_glare_that_washes_chips_out_is_marked_hidden(tmp_path):
    cells = with_chips({(r, c): "R" for r in range(1, 9) for c in range(1, 9)})
    spec = clean(art="cards", cells=cells, glare=1.3, glare_spots=2, camera_seed=4)
    img, t = render_frame(spec)
    assert t.occluded.any() and not t.occluded.all()
    dull, _ = render_frame(replace(spec, glare=0.0))
    brighter = (img.astype(int) - dull.astype(int)).sum(axis=2)
    centers = np.round(t.cell_centers()).astype(int)
    lift = np.array([[brighter[y, x] for x, y in row] for row in centers])
    assert lift[t.occluded].max() > 3 * 100  # the glare is strongest on hidden cells
    assert np.median(lift[~t.occluded]) < np.median(lift[t.occluded])
    back = truth.load(truth.save(t, tmp_path / "g.jpg"))
    assert np.allclose(back.covered, t.covered) and (back.covered[t.occluded] >= 0.08).all()


def test_truth_gives_each_off_centre_chip_its_image_position():
    placed = {(1, 1): "B", (4, 6): "G", (8, 3): "R", (6, 8): "B"}
    spec = clean(art="cards", cells=with_chips(placed), chip_jitter=0.25, tilt_deg=35)
    img, t = render_frame(spec)
    assert set(t.chips) == {"B2", "G5", "D9", "I7"}
    centres = t.cell_centers()
    for (r, c), sym in placed.items():
        name = "ABCDEFGHIJ"[c] + str(r + 1)
        x, y = t.chips[name]
        b, g, red = img[round(y), round(x)].astype(int)
        assert {"B": b, "G": g, "R": red}[sym] == max(b, g, red)
        cell = np.linalg.norm(centres[r, c] - centres[r, c + 1 if c < 9 else c - 1])
        assert np.linalg.norm(np.array([x, y]) - centres[r, c]) < 0.5 * cell


def test_cells_outside_the_frame_are_hidden():
    img, t = render_frame(clean(art="text", board_offset=(1.8, 0.0), board_fraction=0.9))
    w, _ = SMALL
    assert t.corners[:, 0].max() > w  # the board runs off the right edge
    outside = t.cell_centers()[..., 0] > w
    assert outside.any() and t.occluded[outside].all()
    assert not t.occluded[t.cell_centers()[..., 0] < w - 20].any()


def test_the_table_edge_never_crosses_the_board():
    import cv2

    spec = clean(art="cards", board_fraction=0.5, board_offset=(0.6, -0.4), camera_seed=21)
    plain, t = render_frame(spec)
    edged, _ = render_frame(replace(spec, table_edge=True))
    changed = np.abs(edged.astype(int) - plain.astype(int)).sum(axis=2) > 0
    assert changed.mean() > 0.05  # the floor shows somewhere
    inside = np.zeros(changed.shape, np.uint8)
    cv2.fillPoly(inside, [np.round(t.corners).astype(np.int32)], 1)
    assert not changed[inside > 0].any()


@pytest.mark.parametrize("art, aspect", [("text", 1.15), ("cards", 0.0), ("cards", 1.45)])
def test_texture_size_is_known_before_drawing(art, aspect):
    from companion.render.art import build_art, texture_size

    built = build_art(art, 1, aspect, 24)
    assert built.image.shape[1::-1] == texture_size(art, aspect, 24)


# ---------------------------------------------------------------- lens and bent boards


def test_lens_maps_points_both_ways_and_keeps_the_frame_full():
    from companion.render.lens import Lens

    for k1, k2 in [(-0.15, 0.02), (0.08, -0.01)]:
        lens = Lens(k1, k2, (640, 480))
        pts = np.random.default_rng(0).uniform([0, 0], [640, 480], (200, 2))
        assert np.abs(lens.distort(lens.undistort(pts)) - pts).max() < 1e-4
        border = np.array([[0, 0], [639, 0], [639, 479], [0, 479], [320, 0], [0, 240]])
        src = lens.undistort(border)  # every output pixel comes from inside the pinhole frame
        assert ((src >= -0.5) & (src <= [639.5, 479.5])).all()


def test_barrel_lens_bows_the_grid_and_the_truth_follows_the_pixels():
    placed = {(0, 0 + 1): "B", (0, 5): "G", (9, 4): "R", (4, 9): "B", (5, 0): "G", (4, 4): "R"}
    spec = clean(art="cards", lens_k1=-0.15, board_fraction=0.95, cells=with_chips(placed))
    img, t = render_frame(spec)
    flat_img, flat = render_frame(replace(spec, lens_k1=0.0))
    assert t.lattice is not None and flat.lattice is None

    def bow(a, mid, b):  # distance of ``mid`` from the straight line a-b
        chord, off = b - a, mid - a
        return abs(chord[0] * off[1] - chord[1] * off[0]) / np.linalg.norm(chord)

    # row 1's middle sits off the straight line between its end corners (the edge bows out)
    assert bow(t.lattice[0, 0], t.lattice[0, 10], t.lattice[0, 20]) > 1.5
    fc = flat.cell_centers()
    assert bow(fc[0, 0], fc[0, 5], fc[0, 9]) < 0.05
    ys, xs = np.mgrid[0:21, 0:21] / 2
    by_corners = cv2.perspectiveTransform(
        np.stack([xs, ys], -1).reshape(-1, 1, 2).astype(np.float64), t.homography()
    ).reshape(21, 21, 2)
    assert np.linalg.norm(by_corners - t.lattice, axis=2).max() > 2  # no homography fits
    for name, (x, y) in t.chips.items():
        b, g, red = img[round(y), round(x)].astype(int)
        sym = next(s for (r, c), s in placed.items() if "ABCDEFGHIJ"[c] + str(r + 1) == name)
        assert {"B": b, "G": g, "R": red}[sym] == max(b, g, red), name
    assert np.allclose(t.cell_centers(), t.lattice[1::2, 1::2])


@pytest.mark.parametrize("bend", [dict(fold_deg=9, fold_bump=0.3), dict(waves=0.35)])
def test_a_bent_board_moves_chips_and_truth_together(bend):
    placed = {(r, c): "BGR"[(r + c) % 3] for r in range(1, 9, 2) for c in range(0, 10, 3)}
    spec = clean(art="cards", tilt_deg=35, tilt_azimuth_deg=20, cells=with_chips(placed), **bend)
    img, t = render_frame(spec)
    empty, _ = render_frame(spec.with_frame(cells=EMPTY_BOARD))
    _, flat = render_frame(replace(spec, fold_deg=0, fold_bump=0, waves=0))
    moved = np.linalg.norm(t.cell_centers() - flat.cell_centers(), axis=2)
    assert moved.max() > 1.5  # the relief shifts cells by pixels
    for (r, c), sym in placed.items():
        x, y = t.chips["ABCDEFGHIJ"[c] + str(r + 1)]
        b, g, red = img[round(y), round(x)].astype(int)
        assert {"B": b, "G": g, "R": red}[sym] == max(b, g, red)
        if sym != "R":  # (a red chip may lie on red ink)
            assert (
                np.abs(img[round(y), round(x)].astype(int) - empty[round(y), round(x)]).sum() > 40
            )


def test_a_fold_lifting_the_edges_shades_the_halves_differently():
    spec = clean(art="text", fold_deg=16, light_angle_deg=90, tilt_deg=0)
    img, t = render_frame(spec)
    flat_img, _ = render_frame(replace(spec, fold_deg=0))
    grey, flat_grey = img.mean(axis=2), flat_img.mean(axis=2)
    centres = np.round(t.cell_centers()).astype(int)
    ratio = [
        grey[centres[r, :, 1], centres[r, :, 0]].mean()
        / flat_grey[centres[r, :, 1], centres[r, :, 0]].mean()
        for r in (2, 7)
    ]
    assert abs(ratio[0] - ratio[1]) > 0.05  # one half faces the light, the other turns away


def test_a_barrel_lens_keeps_the_board_in_view_and_hides_what_bows_out():
    spec = clean(art="text", board_offset=(1.0, 0.0), board_fraction=0.9, lens_k1=-0.15)
    _, flat = render_frame(replace(spec, lens_k1=0.0))
    _, t = render_frame(spec)
    w, _ = SMALL
    # placed for the frame the lens shows: the same share of the frame, still all in view
    assert not t.occluded.any() and t.lattice[..., 0].max() < w
    assert abs(np.ptp(t.lattice[..., 1]) - np.ptp(flat.corners[:, 1])) < 0.1 * np.ptp(
        flat.corners[:, 1]
    )
    # pushed further, the right grid line bows out past the frame edge in the middle rows only
    _, t = render_frame(replace(spec, board_offset=(1.2, 0.0)))
    right_edge_mid = t.lattice[1::2, -1, 0]
    assert (t.occluded[:, -1] == (right_edge_mid > w + 1)).all()
    assert t.occluded[:, -1].sum() >= 4 and not t.occluded[:, -1][[0, -1]].any()
    assert not t.occluded[:, :-1].any()


def test_bent_truth_survives_the_sidecar(tmp_path):
    _, t = render_frame(clean(art="cards", waves=0.2, lens_k1=0.05))
    truth.save(t, tmp_path / "x.jpg")
    back = truth.load(tmp_path / "x.jpg")
    assert np.allclose(back.lattice, t.lattice, atol=0.01)
    assert np.allclose(back.cell_centers(), t.cell_centers(), atol=0.01)
    annotated = truth.annotate(np.zeros((240, 320, 3), np.uint8), back)
    lattice = np.round(back.lattice).astype(int)
    x, y = lattice[0, 7]  # a point on grid line row 0 between two cell corners
    assert annotated[y - 1 : y + 2, x - 1 : x + 2].any()


def test_random_lens_fold_and_waves_leave_the_rest_of_a_seed_alone():
    plain_spec = random_spec(5)
    bent = random_spec(5, lens=True, fold=True, waves=True)
    assert plain_spec.lens_k1 == 0 and plain_spec.fold_deg == 0 and plain_spec.waves == 0
    assert bent.lens_k1 != 0 and bent.fold_deg != 0 and bent.waves > 0
    again = replace(bent, lens_k1=0.0, lens_k2=0.0, fold_deg=0.0, fold_bump=0.0, waves=0.0)
    assert again == plain_spec
    shares = [random_spec(seed, lens=0.6).lens_k1 != 0 for seed in range(200)]
    assert 0.45 < np.mean(shares) < 0.75


def test_bad_lens_and_relief_fields_are_refused():
    with pytest.raises(SpecError, match="lens_k1"):
        clean(lens_k1=0.5)
    with pytest.raises(SpecError, match="fold_deg"):
        clean(fold_deg=45)
    with pytest.raises(SpecError, match="waves"):
        clean(waves=2.0)
    with pytest.raises(SpecError, match="lens"):
        random_spec(1, lens=3)


# ---------------------------------------------------------------- the held-out mat art


def test_the_mat_prints_the_classic_layout_in_red_and_black():
    from companion.render.art import build_art
    from companion.render.layout import card_at, is_free, is_red

    for palette in range(4):
        art = build_art("mat", palette, 1.4, 32)
        img = art.image.astype(int)
        red = (img[..., 2] - img[..., :2].max(axis=2)) > 80
        for r in range(10):
            for c in range(10):
                if is_free(r, c):
                    continue
                x0 = round(art.origin[0] + c * art.cell_w)
                y0 = round(art.origin[1] + r * art.cell_h)
                share = red[y0 : y0 + round(art.cell_h), x0 : x0 + round(art.cell_w)].mean()
                assert (share > 0.05) == is_red(card_at(r, c)), (palette, r, c, share)
        assert art.cell_w / art.cell_h == pytest.approx(1.4)
        # no title margin: the grid fills the mat but for a narrow border
        assert art.origin[1] < 0.3 * art.cell_h


def test_mixed_keeps_to_the_tuned_arts_and_the_mat_is_asked_for_by_name():
    arts = {random_spec(seed).art for seed in range(60)}
    assert arts == {"text", "cards"}
    spec = random_spec(3, art="mat", size=SMALL)
    assert spec.art == "mat" and 1.3 <= spec.cell_aspect <= 1.5
    _, t = render_frame(spec)
    assert t.board_found and t.art == "mat"


REALISM = Path(__file__).resolve().parent.parent / "sample_images" / "realism"


@pytest.mark.parametrize("name", ["lens", "fold", "waves", "mat"])
def test_committed_real_table_frames_render_again_from_their_specs(name):
    path = REALISM / f"{name}_0000.jpg"
    committed = truth.load(path)
    spec = RenderSpec.from_json(committed.spec)
    image, again = render_frame(spec)
    assert committed.lattice is not None
    assert np.allclose(again.lattice, committed.lattice, atol=0.01)
    assert np.allclose(again.corners, committed.corners, atol=0.001)
    assert again.chips.keys() == committed.chips.keys() and again.cells == committed.cells
    if spec.jpeg is None:  # `companion render` writes such frames at JPEG quality 95
        image = cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 95])[1], 1)
    stored = cv2.imread(str(path)).astype(int)
    assert np.abs(stored - image.astype(int)).mean() < 0.5
