"""Table backgrounds (wood, cloth, felt, laminate) and clutter lying on the table off the board:
loose playing cards, stray chips and a pen. Everything here is static for one scene."""

from __future__ import annotations

import math

import cv2
import numpy as np

from companion.render.chips import CHIP_COLORS, chip_sprite, paste_chip
from companion.render.suits import draw_suit

WOODS = [(96, 150, 196), (70, 110, 160), (120, 170, 215), (60, 96, 140)]
DARK_WOODS = [(34, 52, 78), (28, 40, 58), (45, 64, 92)]
CLOTHS = [(200, 200, 205), (70, 70, 150), (150, 110, 60), (90, 130, 90), (210, 225, 235)]
FELTS = [(60, 110, 30), (110, 70, 30), (40, 50, 120)]
LAMINATES = [(210, 212, 214), (185, 190, 195), (230, 232, 232)]


def _smooth_noise(rng, h, w, cells, amount):
    small = rng.normal(0, 1, (max(2, cells), max(2, round(cells * w / h)))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC) * amount


def background(kind: str, size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A table texture ``size`` = (w, h), BGR uint8."""
    w, h = size
    sw, sh = max(32, w // 3), max(32, h // 3)  # draw at a third and scale up: grain stays soft
    if kind in ("wood", "dark_wood"):
        base = np.array(
            (WOODS if kind == "wood" else DARK_WOODS)[rng.integers(0, 4 if kind == "wood" else 3)],
            np.float32,
        )
        angle = rng.uniform(0, math.pi)
        yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
        u = xx * math.cos(angle) + yy * math.sin(angle)
        v = -xx * math.sin(angle) + yy * math.cos(angle)
        warp = _smooth_noise(rng, sh, sw, 4, 1.0)
        warp2 = _smooth_noise(rng, sh, sw, 9, 1.0)
        period = rng.uniform(5, 10)
        grain = 0.6 * np.sin(v * 2 * np.pi / period + 2.5 * warp) + 0.4 * np.sin(
            v * 2 * np.pi / (period * 0.37) + 1.5 * warp2
        )
        plank = max(12.0, sh / rng.uniform(2.5, 5))
        index = np.floor((v + 1000) / plank).astype(int)
        tones = rng.uniform(-0.12, 0.12, index.max() + 1).astype(np.float32)
        to_seam = plank / 2 - np.abs(((v + 1000) % plank) - plank / 2)
        seam = np.exp(-((to_seam / 0.7) ** 2))
        shade = 1 + 0.07 * grain + tones[index] - 0.35 * seam + 0.02 * (u / max(sw, sh))
        img = base[None, None, :] * shade[..., None]
    elif kind == "cloth":
        base = np.array(CLOTHS[rng.integers(0, len(CLOTHS))], np.float32)
        img = np.empty((sh, sw, 3), np.float32)
        img[:] = base
        if rng.random() < 0.5:  # checked tablecloth
            period = rng.uniform(sh / 10, sh / 4)
            yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
            check = ((xx // period + yy // period) % 2).astype(np.float32)
            other = np.array(CLOTHS[rng.integers(0, len(CLOTHS))], np.float32)
            img = img * (1 - 0.5 * check[..., None]) + other * 0.5 * check[..., None]
        img *= (1 + _smooth_noise(rng, sh, sw, 4, 0.05))[..., None]
    elif kind == "felt":
        base = np.array(FELTS[rng.integers(0, len(FELTS))], np.float32)
        img = base[None, None, :] * (1 + _smooth_noise(rng, sh, sw, 6, 0.06))[..., None]
    else:
        base = np.array(LAMINATES[rng.integers(0, len(LAMINATES))], np.float32)
        img = base[None, None, :] * (1 + _smooth_noise(rng, sh, sw, 3, 0.03))[..., None]
    img = cv2.resize(img, (w, h), interpolation=cv2.INTER_LINEAR)
    fine = np.empty((h, w), np.float32)
    cv2.setRNGSeed(int(rng.integers(0, 2**31)))  # cv2's RNG is global: seed it from the scene
    cv2.randn(fine, 0, 4.0 if kind in ("cloth", "felt") else 2.0)
    img += fine[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def card_patch(rng, w, h):
    """A loose playing card (face or back), upright, with its own alpha mask."""
    img = np.full((h, w, 3), 244, np.uint8)
    if rng.random() < 0.4:  # back: a red or blue lattice inside a white border
        color = (40, 40, 170) if rng.random() < 0.5 else (150, 70, 30)
        b = max(2, w // 12)
        cv2.rectangle(img, (b, b), (w - b, h - b), color, -1)
        step = max(3, w // 8)
        for k in range(-h, w + h, step):
            cv2.line(img, (k, b), (k + h, h - b), (235, 235, 235), 1, cv2.LINE_AA)
            cv2.line(img, (k, h - b), (k + h, b), (235, 235, 235), 1, cv2.LINE_AA)
        cv2.rectangle(img, (0, 0), (b, h), (244, 244, 244), -1)
        cv2.rectangle(img, (w - b, 0), (w, h), (244, 244, 244), -1)
        cv2.rectangle(img, (0, 0), (w, b), (244, 244, 244), -1)
        cv2.rectangle(img, (0, h - b), (w, h), (244, 244, 244), -1)
    else:
        suit = "SCHD"[rng.integers(0, 4)]
        ink = (38, 30, 196) if suit in "HD" else (30, 28, 26)
        draw_suit(img, suit, (w / 2, h / 2), 0.35 * h, ink)
        draw_suit(img, suit, (0.15 * w, 0.2 * h), 0.1 * h, ink)
        cv2.putText(
            img,
            "KQJ9875"[rng.integers(0, 7)],
            (round(0.06 * w), round(0.11 * h)),
            cv2.FONT_HERSHEY_DUPLEX,
            max(0.2, h / 260),
            ink,
            max(1, h // 90),
            cv2.LINE_AA,
        )
    return img


FLOORS = [(40, 50, 60), (70, 80, 90), (30, 30, 34), (90, 110, 130)]


def add_table_edge(img: np.ndarray, board_mask: np.ndarray | None, rng) -> bool:
    """The table ends inside the frame: beyond a straight edge lies the floor, darker and out of
    focus. The edge never crosses the board. Returns whether an edge was drawn."""
    h, w = img.shape[:2]
    board = np.argwhere(board_mask > 0)[:, ::-1] if board_mask is not None else np.empty((0, 2))
    for _ in range(20):
        angle = rng.uniform(0, 2 * np.pi)
        normal = np.array([np.cos(angle), np.sin(angle)])
        # the edge line: points p with (p - c) . normal = 0; the floor is on the + side
        c = np.array([w / 2, h / 2]) + normal * rng.uniform(0.3, 0.48) * np.hypot(w, h) / 2
        if len(board) and ((board - c) @ normal).max() > -0.02 * max(w, h):
            continue
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        side = (xx - c[0]) * normal[0] + (yy - c[1]) * normal[1]
        floor = np.empty_like(img)
        floor[:] = FLOORS[rng.integers(0, len(FLOORS))]
        floor = cv2.GaussianBlur(
            (floor.astype(np.float32) * (1 + _smooth_noise(rng, h, w, 5, 0.15))[..., None]),
            (0, 0),
            2.0,
        )
        a = np.clip(side / 1.5, 0, 1)[..., None]  # anti-aliased edge
        rim = np.exp(-(((side + 2.5) / 1.8) ** 2))[..., None] * 40  # lit table rim
        out = img.astype(np.float32) * (1 - a) + floor * a + rim
        img[:] = np.clip(out, 0, 255).astype(np.uint8)
        return True
    return False


def _box(cx: float, cy: float, half: float, w: int, h: int):
    """Integer box around a point, clipped to the frame; ``None`` if fully outside."""
    x0, y0 = max(0, int(cx - half)), max(0, int(cy - half))
    x1, y1 = min(w, int(cx + half) + 1), min(h, int(cy + half) + 1)
    return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None


def add_clutter(
    img: np.ndarray, board_mask: np.ndarray | None, count: int, cell_px: float, rng
) -> None:
    """Scatter ``count`` objects on the table in place, never over the board (``board_mask``).
    Each object is drawn inside its own small box, so large frames cost no more per object."""
    h, w = img.shape[:2]
    keep_out = None
    if board_mask is not None:
        keep_out = cv2.dilate(board_mask, np.ones((5, 5), np.uint8), iterations=2) > 0
    for _ in range(count):
        for _attempt in range(25):
            kind = rng.choice(["card", "card", "chip", "chip", "pen"])
            cx, cy = rng.uniform(-0.05 * w, 1.05 * w), rng.uniform(-0.05 * h, 1.05 * h)
            angle = rng.uniform(0, 180)
            if kind == "chip":
                d = max(4, round(0.8 * cell_px * rng.uniform(0.95, 1.05)))
                color = CHIP_COLORS["BGR"[rng.integers(0, 3)]]
                sprite = chip_sprite(color, d, int(rng.integers(0, 360)))
                box = _box(cx, cy, sprite[0].shape[0] / 2 + 1, w, h)
                if box is None:
                    break
                x0, y0, x1, y1 = box
                if keep_out is not None and keep_out[y0:y1, x0:x1].any():
                    continue
                paste_chip(img, (cx, cy), sprite)
                break
            if kind == "card":
                patch = card_patch(rng, max(8, round(2.4 * cell_px)), max(10, round(3.4 * cell_px)))
            else:
                patch = np.zeros(
                    (max(3, round(0.35 * cell_px)), max(12, round(5 * cell_px)), 3), np.uint8
                )
                patch[:] = [(30, 30, 30), (160, 60, 20), (40, 40, 180)][rng.integers(0, 3)]
            ph, pw = patch.shape[:2]
            sigma = max(1.0, cell_px * 0.12)
            drop = max(1, round(cell_px * 0.06))
            box = _box(cx, cy, np.hypot(pw, ph) / 2 + 3 * sigma + drop + 2, w, h)
            if box is None:
                break
            x0, y0, x1, y1 = box
            bw, bh = x1 - x0, y1 - y0
            m = cv2.getRotationMatrix2D((pw / 2, ph / 2), angle, 1.0)
            m[:, 2] += (cx - pw / 2 - x0, cy - ph / 2 - y0)
            mask = cv2.warpAffine(np.full((ph, pw), 255, np.uint8), m, (bw, bh))
            keep = keep_out[y0:y1, x0:x1] if keep_out is not None else None
            if keep is not None and ((mask > 0) & keep).any():
                continue
            warped = cv2.warpAffine(patch, m, (bw, bh))
            # soft contact shadow, then the object
            shadow = cv2.GaussianBlur(mask, (0, 0), sigma).astype(np.float32)
            shadow = np.roll(shadow, (drop, drop), axis=(0, 1)) / 255.0
            if keep is not None:
                shadow[keep] = 0
            region = img[y0:y1, x0:x1]
            a = (mask.astype(np.float32) / 255.0)[..., None]
            shaded = region * (1 - 0.35 * shadow[..., None])
            region[:] = (warped * a + shaded * (1 - a)).astype(np.uint8)
            break
