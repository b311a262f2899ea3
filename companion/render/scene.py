"""Render a frame: a cached static scene (table, clutter, board, light maps) plus per-frame
chips, hands, noise and JPEG. Frames whose specs share ``RenderSpec.scene_key()`` reuse one
scene, so a video of one camera costs one warp and a few blends per frame."""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from dataclasses import dataclass

import cv2
import numpy as np

from companion.cells import SIZE, cell_name
from companion.render import lighting
from companion.render.art import BoardArt, build_art, texture_size
from companion.render.camera import board_homography, place_through_lens, project, raised_shift
from companion.render.chips import CHIP_COLORS, THICKNESS, chip_sprite, paste_chip
from companion.render.coverage import OCCLUDED_FRACTION, covered_fraction, glare_cover
from companion.render.geometry import BoardGeometry
from companion.render.hands import draw_hands
from companion.render.lens import Lens
from companion.render.other_games import other_game_texture
from companion.render.overlay import Overlay, loose_cards
from companion.render.relief import Relief, SurfaceWarp, View, surface_warp
from companion.render.spec import RenderSpec
from companion.render.table import add_clutter, add_table_edge, background
from companion.render.truth import Truth

CELL_BUCKETS = (16, 20, 24, 28, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 200)


@dataclass
class Scene:
    """Everything static for one camera; board fields stay ``None`` on a board-free table."""

    spec: RenderSpec
    size: tuple[int, int]
    static: np.ndarray  # lit-less frame: table, clutter, board without chips
    gains: np.ndarray
    glare: np.ndarray | None
    art: BoardArt | None = None
    tex_to_image: np.ndarray | None = None
    grid_to_image: np.ndarray | None = None
    grid_patch: np.ndarray | None = None  # texture crop holding the grid
    patch_to_image: np.ndarray | None = None
    patch_origin: tuple[int, int] = (0, 0)
    chip_offsets: np.ndarray | None = None  # 10x10x2 in cells
    chip_sizes: np.ndarray | None = None  # 10x10 factors
    chip_colors: dict | None = None
    light_tex_deg: int = 0
    corners: np.ndarray | None = None
    board_share: float | None = None  # share of the frame the whole board covers (with margin)
    orientation: int | None = None
    base: np.ndarray | None = None  # static frame before the grid patch was warped onto it
    chip_lifts: np.ndarray | None = None  # 10x10x2 int texture pixels (chip side wall)
    overlay: Overlay | None = None  # loose cards lying on the board
    glare_cover: np.ndarray | None = None  # 10x10 share of each cell washed out by glare
    outside: np.ndarray | None = None  # 10x10 share of each cell outside the frame
    defocus: np.ndarray | None = None  # HxW 0..1 depth-of-field blur weight
    lens: Lens | None = None  # radial distortion applied to the whole lit frame
    geometry: BoardGeometry | None = None  # board points -> frame points (relief, lens)
    surface: SurfaceWarp | None = None  # a board that is not flat: per-pixel texture map
    patch_maps: tuple | None = None  # remap maps of the grid patch through ``surface``


_CACHE: OrderedDict[tuple, Scene] = OrderedDict()
CACHE_SIZE = 4


_CACHE_LOCK = threading.Lock()


def get_scene(spec: RenderSpec) -> Scene:
    """The cached scene of a spec's camera (built on first use; safe across threads)."""
    key = spec.scene_key()
    with _CACHE_LOCK:
        scene = _CACHE.get(key)
        if scene is None:
            scene = build_scene(spec)
            _CACHE[key] = scene
            while len(_CACHE) > CACHE_SIZE:
                _CACHE.popitem(last=False)
        else:
            _CACHE.move_to_end(key)
        return scene


def _roll(spec: RenderSpec) -> float:
    return spec.orientation + spec.rotation_jitter


def _pick_cell_px(spec: RenderSpec) -> int:
    """Texture resolution: about 1.3 texture pixels per image pixel on the board."""
    tw, th = texture_size(spec.art, spec.cell_aspect, 32)
    h = _homography(spec, (tw, th))
    outline = project(h, [[0, 0], [tw, 0], [tw, th], [0, th]])
    span = max(np.ptp(outline[:, 0]) / tw, np.ptp(outline[:, 1]) / th)
    need = 32 * span * 1.3
    for bucket in CELL_BUCKETS:
        if bucket >= need:
            return bucket
    return CELL_BUCKETS[-1]


def _homography(spec: RenderSpec, texture: tuple[int, int]) -> np.ndarray:
    h = board_homography(
        texture,
        spec.size,
        roll_deg=_roll(spec),
        tilt_deg=spec.tilt_deg,
        tilt_azimuth_deg=spec.tilt_azimuth_deg,
        camera_distance=spec.camera_distance,
        board_fraction=spec.board_fraction,
        board_offset=spec.board_offset,
    )
    lens = _lens(spec)
    if lens is None:
        return h
    # the board's size and place hold for the frame the lens shows, as a user aims a camera
    return place_through_lens(
        h,
        texture,
        spec.size,
        board_fraction=spec.board_fraction,
        board_offset=spec.board_offset,
        distort=lens.distort,
        undistort=lens.undistort,
    )


def board_share_of(spec: RenderSpec) -> float:
    """Share of the frame the whole board (margin included) covers, from the camera alone
    (no drawing); lens distortion and bends are ignored, which moves it by a few percent."""
    tw, th = texture_size(spec.art, spec.cell_aspect, 32)
    outline = project(_homography(spec, (tw, th)), [[0, 0], [tw, 0], [tw, th], [0, th]])
    w, h = spec.size
    frame = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    area, _ = cv2.intersectConvexConvex(np.float32(outline), frame)
    return float(area) / float(w * h)


def with_board_share(spec: RenderSpec, share: float) -> RenderSpec:
    """The spec with ``board_fraction`` scaled so that the board covers about ``share`` of the
    frame (within 0.1..1.0 of the fraction's range; a board cut by the frame's edge is kept)."""
    from dataclasses import replace

    for _ in range(4):
        now = board_share_of(spec)
        if now <= 0 or abs(now - share) < 0.01:
            break
        fraction = float(np.clip(spec.board_fraction * math.sqrt(share / now), 0.1, 1.0))
        spec = replace(spec, board_fraction=fraction)
    return spec


def orientation_of(corners: np.ndarray) -> int:
    """Clockwise screen rotation of canonical row 1 from the A1->J1 edge direction."""
    dx, dy = corners[1] - corners[0]
    return int(round(math.degrees(math.atan2(dy, dx)) / 90.0)) % 4 * 90


def _lay_board(img, texture, mask, tex_to_image, cell_img: float, surface=None) -> None:
    """Composite the warped board art and its soft contact shadow onto the table, in place,
    working only in the board's bounding box (plus the shadow's reach)."""
    h, w = img.shape[:2]
    x, y, bw, bh = cv2.boundingRect((mask > 0).astype(np.uint8))
    reach = int(3 * max(1.0, cell_img * 0.25)) + 2
    x0, y0 = max(0, x - reach), max(0, y - reach)
    x1, y1 = min(w, x + bw + reach), min(h, y + bh + reach)
    if surface is None:
        shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
        board = cv2.warpPerspective(
            texture, shift @ tex_to_image, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR
        )
    else:
        full = np.zeros_like(img)
        sx0, sy0, sx1, sy1 = surface.box
        full[sy0:sy1, sx0:sx1] = surface.warp(texture, surface.maps())
        board = full[y0:y1, x0:x1]
    m = mask[y0:y1, x0:x1]
    shadow = lighting.soft_mask(m, max(1.0, cell_img * 0.25))
    region = img[y0:y1, x0:x1]
    a = (m.astype(np.float32) / 255)[..., None]
    shaded = region * (1 - 0.35 * shadow[..., None])
    region[:] = (board * a + shaded * (1 - a)).astype(np.uint8)


def build_scene(spec: RenderSpec) -> Scene:
    rng = np.random.default_rng(spec.camera_seed)
    w, h = spec.size
    img = background(spec.table, spec.size, rng)
    if not spec.board:
        cell_px = min(w, h) * spec.board_fraction / 12
        mask = None
        if spec.other_game:
            texture = other_game_texture(
                spec.other_game, np.random.default_rng([spec.camera_seed, 37])
            )
            to_image = _homography(spec, texture.shape[1::-1])
            mask = cv2.warpPerspective(
                np.full(texture.shape[:2], 255, np.uint8),
                to_image,
                spec.size,
                flags=cv2.INTER_LINEAR,
            )
            cell_px = float(np.sqrt(cv2.countNonZero(mask)) / 11)
        add_clutter(img, mask, spec.clutter, cell_px, rng)
        if mask is not None:
            _lay_board(img, texture, mask, to_image, cell_px)
        if spec.table_edge:
            add_table_edge(img, None, np.random.default_rng([spec.camera_seed, 11]))
        gains = _gains(spec, lighting.person_shadow(spec.size, spec.shadow, rng))
        glare = lighting.glare_map(spec.size, spec.glare_spots, spec.glare, (0, 0, w, h), rng)
        return Scene(spec, spec.size, img, gains, glare, lens=_lens(spec))
    art = build_art(spec.art, spec.palette, spec.cell_aspect, _pick_cell_px(spec))
    th, tw = art.image.shape[:2]
    tex_to_image = _homography(spec, (tw, th))
    grid_to_image = tex_to_image @ art.grid_to_texture()
    light_tex = int(round((spec.light_angle_deg - _roll(spec)) / 15) * 15) % 360
    geometry, surface = _board_geometry(spec, art, tex_to_image, light_tex)
    # the board lies on the table: soft contact shadow, then the warped art
    if surface is None:
        mask = cv2.warpPerspective(
            np.full((th, tw), 255, np.uint8), tex_to_image, spec.size, flags=cv2.INTER_LINEAR
        )
    else:
        mask = np.zeros((h, w), np.uint8)
        sx0, sy0, sx1, sy1 = surface.box
        mask[sy0:sy1, sx0:sx1] = surface.warp(np.full((th, tw), 255, np.uint8), surface.maps())
    cell_img = float(
        np.linalg.norm(
            project(grid_to_image, [[5, 5], [5, 6]])[1] - project(grid_to_image, [[5, 5]])[0]
        )
    )
    add_clutter(img, mask, spec.clutter, cell_img, rng)
    if spec.table_edge:
        add_table_edge(img, mask, np.random.default_rng([spec.camera_seed, 11]))
    _lay_board(img, art.image, mask, tex_to_image, cell_img, surface)
    # the grid crop re-warped per frame with chips on it
    gx0, gy0 = art.origin
    x0, y0 = max(0, int(gx0) - 2), max(0, int(gy0) - 2)
    x1 = min(tw, int(math.ceil(gx0 + SIZE * art.cell_w)) + 2)
    y1 = min(th, int(math.ceil(gy0 + SIZE * art.cell_h)) + 2)
    patch = art.image[y0:y1, x0:x1].copy()
    patch_to_image = tex_to_image @ np.array([[1, 0, x0], [0, 1, y0], [0, 0, 1]], np.float64)
    # warp the clean grid patch exactly as frames warp it with chips, so that a frame differs
    # from the static scene only where chips are
    base = img.copy()
    patch_maps = surface.maps((x0, y0)) if surface is not None else None
    _warp_patch(patch, patch_to_image, img, surface, patch_maps)
    overlay_rng = np.random.default_rng([spec.camera_seed, 7])  # own stream: chips unchanged
    overlay = loose_cards(spec.board_cards, grid_to_image, spec.size, overlay_rng)
    if overlay is not None:
        overlay.apply(img)
    grid_corners = [[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]]
    corners = geometry.grid_to_frame(grid_corners)
    # chips: where players put them (off-centre), a little size spread, the set's colours
    offsets = rng.uniform(-spec.chip_jitter, spec.chip_jitter, (SIZE, SIZE, 2))
    sizes = rng.uniform(0.95, 1.05, (SIZE, SIZE))
    colors = {
        k: tuple(int(np.clip(v * rng.uniform(0.9, 1.1), 0, 255)) for v in nominal)
        for k, nominal in CHIP_COLORS.items()
    }
    shading = board_shading(spec, art, tex_to_image, rng)
    if surface is not None:  # facets of a fold and wrinkles catch the light differently
        sx0, sy0, sx1, sy1 = surface.box
        on_board = mask[sy0:sy1, sx0:sx1].astype(np.float32) / 255
        shading[sy0:sy1, sx0:sx1] *= 1 + (surface.shade - 1) * on_board
    person = lighting.person_shadow(spec.size, spec.shadow, rng)
    if person is not None:
        shading *= person
    ys, xs = np.nonzero(mask > 127)
    region = (xs.min(), ys.min(), xs.max(), ys.max()) if len(xs) else (0, 0, w, h)
    glare = lighting.glare_map(spec.size, spec.glare_spots, spec.glare, region, rng)
    return Scene(
        spec=spec,
        size=spec.size,
        static=img,
        gains=_gains(spec, shading),
        glare=glare,
        art=art,
        tex_to_image=tex_to_image,
        grid_to_image=grid_to_image,
        grid_patch=patch,
        patch_to_image=patch_to_image,
        patch_origin=(x0, y0),
        chip_offsets=offsets,
        chip_sizes=sizes,
        chip_colors=colors,
        light_tex_deg=light_tex,
        corners=corners,
        board_share=len(xs) / float(w * h),
        orientation=orientation_of(corners),
        base=base,
        chip_lifts=_chip_lifts(spec, art),
        overlay=overlay,
        glare_cover=glare_cover(glare, geometry),
        outside=covered_fraction(np.zeros((h, w), np.uint8), geometry),
        defocus=_defocus(spec, grid_to_image, project(grid_to_image, grid_corners), geometry.lens),
        lens=geometry.lens,
        geometry=geometry,
        surface=surface,
        patch_maps=patch_maps,
    )


def _lens(spec: RenderSpec) -> Lens | None:
    if spec.lens_k1 == 0 and spec.lens_k2 == 0:
        return None
    return Lens(spec.lens_k1, spec.lens_k2, spec.size)


def _board_geometry(spec: RenderSpec, art: BoardArt, tex_to_image, light_tex: float):
    """``(BoardGeometry, SurfaceWarp | None)`` of a spec: the relief and the lens, if any."""
    th, tw = art.image.shape[:2]
    relief = Relief(
        (tw, th), art.cell_h, spec.fold_deg, spec.fold_bump, spec.waves, spec.camera_seed
    )
    view = View(spec.tilt_deg, spec.tilt_azimuth_deg, spec.camera_distance)
    surface = None
    if relief.is_flat:
        relief = None
    else:
        surface = surface_warp(relief, view, tex_to_image, spec.size, light_tex)
    geometry = BoardGeometry(tex_to_image, art.grid_to_texture(), relief, view, _lens(spec))
    return geometry, surface


def _defocus(spec: RenderSpec, grid_to_image, corners, lens=None) -> np.ndarray | None:
    if spec.focus_falloff <= 0:
        return None
    if lens is not None:
        return lens.apply(_defocus(spec, grid_to_image, corners))
    # local scale at each grid corner: image length of one cell edge there
    steps = [(1, 0), (-1, 0), (-1, 0), (1, 0)]
    grid = [(0, 0), (SIZE, 0), (SIZE, SIZE), (0, SIZE)]
    scales = np.array(
        [
            np.linalg.norm(project(grid_to_image, [(gx + dx, gy)])[0] - corner)
            for (gx, gy), (dx, _), corner in zip(grid, steps, corners, strict=True)
        ]
    )
    return lighting.defocus_map(spec.size, corners, scales, spec.focus_falloff)


def _chip_points(scene: Scene, cells) -> dict[str, tuple[float, float]]:
    """Image position of each chip's top-face centre, by cell name."""
    art = scene.art
    names, pts = [], []
    for r in range(SIZE):
        for c in range(SIZE):
            if cells[r][c] in "BGR":
                dx, dy = scene.chip_offsets[r, c]
                lx, ly = scene.chip_lifts[r, c]
                pts.append(
                    (
                        art.origin[0] + (c + 0.5 + dx) * art.cell_w + lx,
                        art.origin[1] + (r + 0.5 + dy) * art.cell_h + ly,
                    )
                )
                names.append(cell_name((r, c)))
    if not pts:
        return {}
    xy = scene.geometry.texture_to_frame(pts)
    return {
        n: (round(float(x), 2), round(float(y), 2)) for n, (x, y) in zip(names, xy, strict=True)
    }


def _chip_lifts(spec: RenderSpec, art: BoardArt) -> np.ndarray:
    """Per cell, where a chip's top face appears relative to its base (texture pixels)."""
    th, tw = art.image.shape[:2]
    rows, cols = np.mgrid[0:SIZE, 0:SIZE]
    centres = np.stack(
        [art.origin[0] + (cols + 0.5) * art.cell_w, art.origin[1] + (rows + 0.5) * art.cell_h], -1
    ).reshape(-1, 2)
    shifts = raised_shift(
        (tw, th),
        centres,
        THICKNESS * art.chip_diameter,
        tilt_deg=spec.tilt_deg,
        tilt_azimuth_deg=spec.tilt_azimuth_deg,
        camera_distance=spec.camera_distance,
    )
    return np.round(shifts).astype(np.int32).reshape(SIZE, SIZE, 2)


def _warp_patch(
    patch: np.ndarray, patch_to_image: np.ndarray, frame: np.ndarray, surface=None, maps=None
) -> None:
    if surface is not None:
        surface.warp_into(patch, maps, frame)
        return
    h, w = frame.shape[:2]
    cv2.warpPerspective(
        patch,
        patch_to_image,
        (w, h),
        dst=frame,
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_TRANSPARENT,
    )


def board_shading(spec: RenderSpec, art: BoardArt, tex_to_image, rng) -> np.ndarray:
    """HxW float32 factor over the board: a soft uneven surface and the fold creases' facets
    (the halves of a folded board catch the light differently)."""
    th, tw = art.image.shape[:2]
    sh, sw = 48, max(8, round(48 * tw / th))
    small = rng.normal(0, 1, (6, max(2, round(6 * tw / th)))).astype(np.float32)
    field = cv2.resize(small, (sw, sh), interpolation=cv2.INTER_CUBIC)
    fine = cv2.resize(
        rng.normal(0, 1, (14, max(2, round(14 * tw / th)))).astype(np.float32),
        (sw, sh),
        interpolation=cv2.INTER_CUBIC,
    )
    amp = 0.035 if spec.art == "cards" else 0.02
    shade = 1 + spec.wrinkles * (amp * field + 0.5 * amp * fine)
    if spec.art == "cards":  # a board folded in half (and sometimes in quarters)
        facet = rng.uniform(-0.04, 0.04) * spec.wrinkles
        shade[: sh // 2] *= 1 + facet
        shade[sh // 2 :] *= 1 - facet
        if rng.random() < 0.5:
            facet2 = rng.uniform(-0.03, 0.03) * spec.wrinkles
            shade[:, : sw // 2] *= 1 + facet2
            shade[:, sw // 2 :] *= 1 - facet2
    scale = np.array([[sw / tw, 0, 0], [0, sh / th, 0], [0, 0, 1]])
    to_image = tex_to_image @ np.linalg.inv(scale)
    return cv2.warpPerspective(
        shade.astype(np.float32),
        to_image,
        spec.size,
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=1.0,
    )


def _gains(spec: RenderSpec, shading: np.ndarray | None = None) -> np.ndarray:
    return lighting.gain_map(
        spec.size,
        kelvin=spec.color_temp,
        brightness=spec.brightness,
        gradient=spec.gradient,
        gradient_angle_deg=spec.gradient_angle_deg,
        vignette=spec.vignette,
        shading=shading,
        kelvin_far=spec.color_temp_far,
    )


def _place_chips(scene: Scene, cells) -> np.ndarray | None:
    chips = [(r, c, cells[r][c]) for r in range(SIZE) for c in range(SIZE) if cells[r][c] in "BGR"]
    if not chips:
        return None
    art = scene.art
    patch = scene.grid_patch.copy()
    px0, py0 = scene.patch_origin
    for r, c, sym in chips:
        dx, dy = scene.chip_offsets[r, c]
        cx = art.origin[0] + (c + 0.5 + dx) * art.cell_w - px0
        cy = art.origin[1] + (r + 0.5 + dy) * art.cell_h - py0
        d = int(round(art.chip_diameter * scene.chip_sizes[r, c]))
        lift = tuple(int(v) for v in scene.chip_lifts[r, c])
        sprite = chip_sprite(scene.chip_colors[sym], d, scene.light_tex_deg, lift)
        paste_chip(patch, (cx, cy), sprite)
    return patch


def render_raw(spec: RenderSpec) -> tuple[np.ndarray, Truth]:
    """The frame before the JPEG round trip (the CLI encodes it once, at ``spec.jpeg``)."""
    scene = get_scene(spec)
    frame = scene.static.copy()
    if spec.board:
        patch = _place_chips(scene, spec.cells)
        if patch is not None:
            frame = scene.base.copy()
            _warp_patch(patch, scene.patch_to_image, frame, scene.surface, scene.patch_maps)
            if scene.overlay is not None:
                scene.overlay.apply(frame)
    grid_to_image = scene.grid_to_image
    if grid_to_image is None:  # no board: hands still placed as if a board were centred
        w, h = spec.size
        s = min(w, h) / 12
        grid_to_image = np.array([[s, 0, w / 2 - 5 * s], [0, s, h / 2 - 5 * s], [0, 0, 1]])
    coverage = None
    if spec.hands:
        coverage = draw_hands(frame, spec.hands, grid_to_image, spec.light_angle_deg)
    frame = lighting.apply_light(frame, scene.gains, scene.glare, spec.exposure)
    if scene.lens is not None:
        frame = scene.lens.apply(frame)
    frame = lighting.apply_camera(
        frame, blur=spec.blur, noise=spec.noise, jpeg=None, seed=spec.seed, defocus=scene.defocus
    )
    if not spec.board:
        return frame, Truth(False, size=spec.size, spec=spec.to_json())
    if scene.overlay is not None:
        mask = scene.overlay.mask
        coverage = mask if coverage is None else cv2.max(coverage, mask)
    covered = scene.outside.copy()
    if coverage is not None:
        covered = np.maximum(covered, covered_fraction(coverage, scene.geometry))
    if scene.glare_cover is not None:
        covered = np.maximum(covered, scene.glare_cover)
    truth = Truth(
        chips=_chip_points(scene, spec.cells),
        board_found=True,
        orientation=scene.orientation,
        cells=list(spec.cells),
        corners=scene.corners.copy(),
        board_share=scene.board_share,
        occluded=covered >= OCCLUDED_FRACTION,
        covered=np.round(covered, 2),
        lattice=None if scene.geometry.is_plain else _lattice(scene.geometry),
        size=spec.size,
        art=spec.art,
        spec=spec.to_json(),
    )
    return frame, truth


def _lattice(geometry: BoardGeometry) -> np.ndarray:
    """21x21x2 frame points of the grid at half-cell steps (grid lines and cell centres)."""
    ys, xs = np.mgrid[0 : 2 * SIZE + 1, 0 : 2 * SIZE + 1] / 2
    pts = np.stack([xs.ravel(), ys.ravel()], 1)
    return geometry.grid_to_frame(pts).reshape(2 * SIZE + 1, 2 * SIZE + 1, 2)


def render_frame(spec: RenderSpec) -> tuple[np.ndarray, Truth]:
    """Render one frame: ``(BGR uint8 image, Truth)``; deterministic for a spec."""
    frame, truth = render_raw(spec)
    if spec.jpeg is not None:
        frame = lighting.apply_camera(frame, blur=0, noise=0, jpeg=spec.jpeg, seed=0)
    return frame, truth
