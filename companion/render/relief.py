"""Boards that do not lie flat: a folding board whose halves meet at a slight angle, a bump along
its crease, and a soft vinyl mat with smooth wrinkles.

The board surface is a height field over the board texture (``Relief.height``, texture pixels,
towards the camera). A texture point ``q`` raised by ``z(q)`` appears in the image where the
board *plane* point ``q + shift(q, z)`` would (``surface_shift``: the camera ray through the
raised point, met with the plane), so ``frame = H(q + shift)`` with the flat board's homography
``H``. Rendering needs the inverse, per image pixel, which ``SurfaceWarp`` solves once per camera
(fixed-point iterations on a coarse grid, then upsampled): every layer drawn in texture space
(board art, chips) is resampled through it, so the truth (grid corners, chip centres, cells)
moves exactly with the pixels.

Shapes (``fold_deg``, ``fold_bump``, ``waves`` are ``RenderSpec`` fields):

- fold: the crease runs across the middle of the board (between rows 5 and 6); ``fold_deg > 0``
  lifts the two outer edges (a board that wants to close again, crease on the table),
  ``fold_deg < 0`` raises the crease (a tent); each half is tilted by ``|fold_deg| / 2``;
- bump: a ridge ``fold_bump`` cell heights high and about a third of a cell wide on the crease;
- waves: wrinkles of a soft mat, crests about ``waves`` cell heights high, 2.5-7 cells apart.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from companion.render.camera import project, texture_outline, tilt_rotation
from companion.vision.geometry import coarse_grid

WAVES = 7  # sinusoids summed into the wrinkle field
BUMP_SIGMA = 0.15  # crease bump width (Gaussian sigma) in cell heights
MAP_STEP = 6  # pixels between exactly solved points of the surface map
ITERATIONS = 8


@dataclass(frozen=True, slots=True)
class Relief:
    texture_size: tuple[int, int]  # (width, height) of the board texture
    cell_h: float  # texture pixels per cell height
    fold_deg: float = 0.0
    fold_bump: float = 0.0
    waves: float = 0.0
    seed: int = 0

    @property
    def is_flat(self) -> bool:
        return self.fold_deg == 0 and self.fold_bump == 0 and self.waves == 0

    def _wave_terms(self):
        rng = np.random.default_rng([self.seed, 31])
        angles = rng.uniform(0, math.pi, WAVES)
        lengths = rng.uniform(2.5, 7.0, WAVES) * self.cell_h
        phases = rng.uniform(0, 2 * math.pi, WAVES)
        k = 2 * math.pi / lengths
        return np.stack([np.cos(angles) * k, np.sin(angles) * k], 1), phases

    def height(self, points: np.ndarray) -> np.ndarray:
        """Height (texture pixels, towards the camera) of texture points (Nx2)."""
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        _, th = self.texture_size
        z = np.zeros(len(pts))
        from_crease = np.abs(pts[:, 1] - th / 2)
        if self.fold_deg > 0:  # outer edges lifted, crease on the table
            z += from_crease * math.tan(math.radians(self.fold_deg / 2))
        elif self.fold_deg < 0:  # crease raised, outer edges on the table
            z += np.clip(th / 2 - from_crease, 0, None) * math.tan(math.radians(-self.fold_deg / 2))
        if self.fold_bump > 0:
            sigma = BUMP_SIGMA * self.cell_h
            z += self.fold_bump * self.cell_h * np.exp(-0.5 * (from_crease / sigma) ** 2)
        if self.waves > 0:
            k, phases = self._wave_terms()
            s = np.sin(pts @ k.T + phases).sum(axis=1) / math.sqrt(WAVES / 2)
            z += self.waves * self.cell_h * (np.clip(s, 0, None) / 2) ** 2
        return z

    def slope(self, points: np.ndarray, eps: float = 0.5) -> np.ndarray:
        """Nx2 height gradient (dimensionless) by central differences."""
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        dx = self.height(pts + [eps, 0]) - self.height(pts - [eps, 0])
        dy = self.height(pts + [0, eps]) - self.height(pts - [0, eps])
        return np.stack([dx, dy], 1) / (2 * eps)


@dataclass(frozen=True, slots=True)
class View:
    """The camera pose relative to the board (what ``camera.board_homography`` uses)."""

    tilt_deg: float
    tilt_azimuth_deg: float
    camera_distance: float


def surface_shift(
    texture_size: tuple[int, int], points: np.ndarray, heights: np.ndarray, view: View
) -> np.ndarray:
    """Nx2 texture-pixel shifts: a point ``heights`` above texture ``points`` appears where the
    board-plane point ``points + shift`` does (closed form of ``camera.raised_shift``)."""
    tw, th = texture_size
    unit = max(tw, th)
    diag = math.hypot(tw, th) / unit
    rot = tilt_rotation(view.tilt_deg, view.tilt_azimuth_deg)
    cam = np.array([0.0, 0.0, view.camera_distance * diag])
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    local = np.column_stack(
        [(pts[:, 0] - tw / 2) / unit, (pts[:, 1] - th / 2) / unit, -np.asarray(heights) / unit]
    )
    top = local @ rot.T + cam  # camera coordinates of the raised point
    normal = rot[:, 2]
    s = (normal @ cam) / (top @ normal)  # the ray through ``top`` meets the plane at s * top
    uv = (s[:, None] * top - cam) @ rot[:, :2]
    return uv * unit + [tw / 2, th / 2] - pts


def seen_on_plane(relief: Relief, view: View, points: np.ndarray) -> np.ndarray:
    """Texture points on the raised surface -> the board-plane points seen at the same spot."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    return pts + surface_shift(relief.texture_size, pts, relief.height(pts), view)


@dataclass(frozen=True)
class SurfaceWarp:
    """For the pixels of ``box`` = (x0, y0, x1, y1) in the frame: which texture point each shows
    (``tex``: HxWx2 float32, texture pixels), and the light factor of the surface's slope."""

    box: tuple[int, int, int, int]
    tex: np.ndarray
    shade: np.ndarray  # HxW float32

    def maps(self, origin: tuple[float, float] = (0.0, 0.0)):
        """Fixed-point remap maps into a crop of the texture whose pixel (0, 0) is ``origin``."""
        shifted = self.tex - np.float32(origin)
        return cv2.convertMaps(shifted, None, cv2.CV_16SC2)

    def warp_into(self, src: np.ndarray, maps, frame: np.ndarray) -> None:
        """Resample ``src`` (through ``maps`` from ``self.maps``) onto ``frame`` in place; pixels
        that show no point of ``src`` keep their value."""
        x0, y0, x1, y1 = self.box
        region = frame[y0:y1, x0:x1]
        out = cv2.remap(
            src,
            maps[0],
            maps[1],
            cv2.INTER_LINEAR,
            dst=region.copy(),
            borderMode=cv2.BORDER_TRANSPARENT,
        )
        region[:] = out

    def warp(self, src: np.ndarray, maps, fill=0) -> np.ndarray:
        """``src`` resampled over ``box`` (pixels showing no point of ``src`` get ``fill``)."""
        return cv2.remap(
            src,
            maps[0],
            maps[1],
            cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=fill,
        )


def surface_warp(
    relief: Relief,
    view: View,
    tex_to_image: np.ndarray,
    frame_size: tuple[int, int],
    light_deg_texture: float,
) -> SurfaceWarp | None:
    """Solve, for the frame pixels around the board, which texture point each shows; ``None``
    when the board is entirely outside the frame."""
    tw, th = relief.texture_size
    w, h = frame_size
    # the board's outline, flat and raised, bounds the pixels that can show it
    outline = texture_outline((tw, th), 101)
    inner = np.stack(np.meshgrid(np.linspace(0, tw, 21), np.linspace(0, th, 21)), -1)
    pts = np.concatenate([outline, inner.reshape(-1, 2)])
    seen = project(tex_to_image, np.concatenate([pts, seen_on_plane(relief, view, pts)]))
    x0, y0 = np.floor(seen.min(0)).astype(int) - 3
    x1, y1 = np.ceil(seen.max(0)).astype(int) + 4
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 <= x0 or y1 <= y0:
        return None
    size = (x1 - x0, y1 - y0)
    pix, upsample = coarse_grid((x0, y0), size, MAP_STEP)
    on_plane = project(np.linalg.inv(tex_to_image), pix)
    q = on_plane.copy()
    for _ in range(ITERATIONS):  # q + shift(q, z(q)) = on_plane
        q = on_plane - surface_shift(relief.texture_size, q, relief.height(q), view)
    a = math.radians(light_deg_texture)
    towards_light = relief.slope(q) @ np.array([math.cos(a), math.sin(a)])
    # a facet rising towards the light faces it: brighter (light about 45 degrees up)
    shade = np.clip(1 + 0.9 * towards_light, 0.6, 1.4)
    return SurfaceWarp((int(x0), int(y0), int(x1), int(y1)), upsample(q), upsample(shade))
