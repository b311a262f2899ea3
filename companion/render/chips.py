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


@lru_cache(maxsize=64)
def chip_sprite(
    color: tuple[int, int, int], diameter: int, light_deg: int
) -> tuple[np.ndarray, np.ndarray, int]:
    """``(mul, add, pad)`` for one chip; ``pad`` is the margin around the disc."""
    d = max(4, diameter)
    pad = max(2, round(d * 0.22))
    n = d + 2 * pad
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    c = (n - 1) / 2
    x, y = (xx - c) / (d / 2), (yy - c) / (d / 2)
    r = np.sqrt(x * x + y * y)
    lx, ly = math.cos(math.radians(light_deg)), math.sin(math.radians(light_deg))
    # coverage, anti-aliased over one pixel
    alpha = np.clip((1 - r) * d / 2 + 0.5, 0, 1)
    # face: gentle gradient towards the light; raised rim lit on the light side
    facing = (x * lx + y * ly) / np.maximum(r, 1e-3)
    shade = 1.0 + 0.06 * (x * lx + y * ly)
    rim = np.clip((r - 0.72) / 0.28, 0, 1)
    rim_profile = np.sin(np.pi * rim) * (r > 0.72)
    shade += 0.32 * rim_profile * facing
    groove = np.exp(-(((r - 0.72) / 0.035) ** 2))
    shade -= 0.22 * groove
    shade -= 0.35 * np.clip((r - 0.93) / 0.07, 0, 1)  # dark outer edge
    body = np.asarray(color, np.float32)[None, None, :] * shade[..., None]
    spec = np.exp(-(((x - 0.5 * lx) ** 2 + (y - 0.5 * ly) ** 2) / (2 * 0.14**2)))
    spec += 0.6 * np.exp(-(((r - 0.86) / 0.05) ** 2)) * np.clip(facing, 0, 1) ** 4
    body += (90 * spec)[..., None]
    body = np.clip(body, 0, 255)
    # soft cast shadow, offset away from the light
    sx, sy = x + 0.16 * lx, y + 0.16 * ly
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
