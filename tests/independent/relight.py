#!/usr/bin/env python
"""Re-expose a folder of rendered frames under other light, their truth copied unchanged.

python tests/independent/relight.py SRC OUT KIND
KIND: dim (0.38 of the light, grain of sigma 4), tungsten (a 2700 K bulb without white
balance), cool (north light), green (a fluorescent tube's cast), knee (+1/3 stop with a
camera's soft shoulder above 80 % grey), bright (+1/2 stop, clipped), flat (a haze: 40 % of
a light grey blended in), small (the long side at 640 px), shadow (someone beside the table
casts a shadow: a soft straight edge across the frame, 0.4-0.7 of the light beyond it, lit
by the bluer light of the room), phone (a phone's processing: colours boosted by a third and
an unsharp mask of radius 1.5-3 px, amount 0.8-1.5). Each frame SRC/*.jpg is written to OUT
as a JPEG of quality 88 (45 for phone) with its SRC/*.json beside it; the cells' truth does
not change (every kind keeps the geometry). Not part of the package and not run by the test
suite: the light sweep of the README's vision round is these kinds over two independent sets.
"""

import glob
import os
import shutil
import sys

import cv2
import numpy as np

KINDS = ("dim", "tungsten", "cool", "green", "knee", "bright", "flat", "small", "shadow", "phone")


def cast_shadow(size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """Per-pixel BGR gains of a cast shadow: a straight edge at a random angle through the
    middle half of the frame, blurred over 0.5-3 % of the frame's long side (a penumbra), the
    shadowed side kept at 0.4-0.7 of the light and tinted blue (the fill light of the room)."""
    h, w = size
    angle = rng.uniform(0, 2 * np.pi)
    cx, cy = rng.uniform(0.25, 0.75) * w, rng.uniform(0.25, 0.75) * h
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    side = (xx - cx) * np.cos(angle) + (yy - cy) * np.sin(angle)
    soft = rng.uniform(0.005, 0.03) * max(h, w)
    inside = 1.0 / (1.0 + np.exp(-side / (soft / 4)))
    keep = rng.uniform(0.4, 0.7)
    tint = np.array([1.08, 1.0, 0.9], np.float32)  # (B, G, R): the shade is bluer
    gains = 1.0 - inside[..., None] * (1.0 - keep * tint)
    return gains.astype(np.float32)


def relit(img: np.ndarray, kind: str, rng: np.random.Generator) -> np.ndarray:
    img = img.astype(np.float32)
    if kind == "dim":
        img = img * 0.38 + rng.normal(0, 4, img.shape)
    elif kind == "tungsten":
        img = img * np.array([0.55, 0.82, 1.08], np.float32)
    elif kind == "cool":
        img = img * np.array([1.1, 0.98, 0.72], np.float32)
    elif kind == "green":
        img = img * np.array([0.85, 1.08, 0.82], np.float32)
    elif kind == "bright":
        img = 255 * (np.clip(img / 255 * 1.45, 0, 1) ** 0.8)
    elif kind == "knee":
        x = img / 255 * 1.35
        img = 255 * np.where(x < 0.8, x, 0.8 + 0.2 * (1 - np.exp(-(x - 0.8) / 0.2)))
    elif kind == "flat":
        img = img * 0.6 + 80
    elif kind == "small":
        f = 640 / max(img.shape[:2])
        img = cv2.resize(img, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    elif kind == "shadow":
        img = img * cast_shadow(img.shape[:2], rng)
    elif kind == "phone":
        hsv = cv2.cvtColor(np.clip(img, 0, 255).astype(np.uint8), cv2.COLOR_BGR2HSV)
        hsv[..., 1] = np.clip(hsv[..., 1].astype(np.float32) * 1.33, 0, 255).astype(np.uint8)
        img = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR).astype(np.float32)
        soft = cv2.GaussianBlur(img, (0, 0), rng.uniform(1.5, 3.0))
        img = img + rng.uniform(0.8, 1.5) * (img - soft)
    else:
        raise SystemExit(f"unknown kind {kind!r}: one of {', '.join(KINDS)}")
    return np.clip(img, 0, 255).astype(np.uint8)


def main() -> None:
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    src, out, kind = sys.argv[1:4]
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(7)
    for path in sorted(glob.glob(os.path.join(src, "*.jpg"))):
        img = cv2.imread(path)
        if img is None:
            continue
        target = os.path.join(out, os.path.basename(path))
        quality = 45 if kind == "phone" else 88
        cv2.imwrite(target, relit(img, kind, rng), [cv2.IMWRITE_JPEG_QUALITY, quality])
        shutil.copy(path[:-4] + ".json", target[:-4] + ".json")


if __name__ == "__main__":
    main()
