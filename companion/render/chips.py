"""Chip sprites: round plastic chips with a raised rim, shading, a specular highlight and a
soft cast shadow, composited onto the board texture (so perspective applies to them too).

A sprite is two float32 planes over a square patch: ``mul`` (what the board keeps: shadow and
coverage) and ``add`` (the chip's own light), so compositing is ``patch * mul + add``.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

# nominal chip colours (BGR) of a Jax set; scenes vary them a little
CHIP_COLORS = {"B": (176, 92, 28), "G": (78, 150, 34), "R": (44, 38, 196)}


THICKNESS = 0.1  # chip height / diameter


@lru_cache(maxsize=2048)
def chip_sprite(
    color: tuple[int, int, int], diameter: int, light_deg: int, lift: tuple[int, int] = (0, 0)
) -> tuple[np.ndarray, np.ndarray, int]:
    """``(mul, add, pad)`` for one chip centred on the patch; ``pad`` is the margin around the
    disc. ``lift`` is where the chip's top face appears relative to its base (texture pixels),
    so the side wall shows under a tilted camera."""
    d = max(4, diameter)
    rad = d / 2
    pad = max(2, round(d * 0.22)) + max(abs(lift[0]), abs(lift[1]))
    n = d + 2 * pad
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    c = (n - 1) / 2
    px, py = xx - c, yy - c  # pixels from the base centre
    lx_, ly_ = float(lift[0]), float(lift[1])
    x, y = (px - lx_) / rad, (py - ly_) / rad  # top face coordinates, radius 1
    r = np.sqrt(x * x + y * y)
    lx, ly = math.cos(math.radians(light_deg)), math.sin(math.radians(light_deg))
    top_a = np.clip((1 - r) * rad + 0.5, 0, 1)
    # side wall: everything within a radius of the segment from base to top
    seg2 = lx_ * lx_ + ly_ * ly_
    if seg2 > 0:
        s = np.clip((px * lx_ + py * ly_) / seg2, 0, 1)
        dist = np.hypot(px - s * lx_, py - s * ly_)
    else:
        dist = np.hypot(px, py)
    side_a = np.clip(rad - dist + 0.5, 0, 1)
    alpha = np.maximum(top_a, side_a)
    # face: gentle gradient towards the light; raised rim lit on the light side
    facing = (x * lx + y * ly) / np.maximum(r, 1e-3)
    shade = 1.0 + 0.06 * (x * lx + y * ly)
    rim = np.clip((r - 0.72) / 0.28, 0, 1)
    rim_profile = np.sin(np.pi * rim) * (r > 0.72)
    shade += 0.32 * rim_profile * facing
    groove = np.exp(-(((r - 0.72) / 0.035) ** 2))
    shade -= 0.22 * groove
    shade -= 0.35 * np.clip((r - 0.93) / 0.07, 0, 1)  # dark outer edge
    base_color = np.asarray(color, np.float32)[None, None, :]
    body = base_color * shade[..., None]
    spec = np.exp(-(((x - 0.5 * lx) ** 2 + (y - 0.5 * ly) ** 2) / (2 * 0.14**2)))
    spec += 0.6 * np.exp(-(((r - 0.86) / 0.05) ** 2)) * np.clip(facing, 0, 1) ** 4
    body += (90 * spec)[..., None]
    side_shade = 0.68 + 0.18 * np.clip((px * lx + py * ly) / rad, -1, 1)
    side = base_color * side_shade[..., None]
    top_w = (top_a / np.maximum(alpha, 1e-6))[..., None]
    body = np.clip(body * top_w + side * (1 - top_w), 0, 255)
    # soft cast shadow on the board, offset away from the light
    sx, sy = px / rad + (0.16 + 0.6 * THICKNESS) * lx, py / rad + (0.16 + 0.6 * THICKNESS) * ly
    sr = np.sqrt(sx * sx + sy * sy)
    shadow = 0.55 * np.clip((1.12 - sr) / 0.24, 0, 1)
    mul = (1 - shadow) * (1 - alpha)
    add = body * alpha[..., None]
    return mul[..., None].astype(np.float32), add.astype(np.float32), pad


def paste_chip(
    img: np.ndarray, center: tuple[float, float], sprite: tuple[np.ndarray, np.ndarray, int]
) -> None:
    """Composite a chip sprite centred on ``center`` (texture pixels) into ``img`` in place."""
    mul, add, _ = sprite
    n = mul.shape[0]
    x0 = round(center[0] - (n - 1) / 2)
    y0 = round(center[1] - (n - 1) / 2)
    h, w = img.shape[:2]
    sx0, sy0 = max(0, -x0), max(0, -y0)
    x1, y1 = min(w, x0 + n), min(h, y0 + n)
    if x1 <= max(0, x0) or y1 <= max(0, y0):
        return
    region = img[max(0, y0) : y1, max(0, x0) : x1]
    m = mul[sy0 : sy0 + region.shape[0], sx0 : sx0 + region.shape[1]]
    a = add[sy0 : sy0 + region.shape[0], sx0 : sx0 + region.shape[1]]
    region[:] = (region * m + a).astype(np.uint8)
