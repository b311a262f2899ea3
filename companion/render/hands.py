"""Hands and arms reaching over the board from the edge of the frame.

A hand is placed in board coordinates (``HandSpec``) and drawn in the image: fingers, palm and
thumb around the fingertip point, an arm running out of the frame, optionally a sleeve, and a
soft shadow on the board. ``draw_hands`` returns the coverage mask used for ``Truth.occluded``.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from companion.render.camera import project
from companion.render.spec import HandSpec

SHIFT = 4
ONE = 1 << SHIFT


def _capsule(a, b, width):
    """Polygon of a rounded stick from a to b (image points)."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    d = b - a
    n = np.linalg.norm(d) or 1.0
    d /= n
    p = np.array([-d[1], d[0]]) * width / 2
    ang0 = math.atan2(p[1], p[0])
    arc = np.linspace(0, math.pi, 8)
    cap_a = [a + width / 2 * np.array([math.cos(ang0 + t), math.sin(ang0 + t)]) for t in arc]
    cap_b = [
        b + width / 2 * np.array([math.cos(ang0 + math.pi + t), math.sin(ang0 + math.pi + t)])
        for t in arc
    ]
    return np.array(cap_a + cap_b)


def hand_polygons(hand: HandSpec, grid_to_image: np.ndarray, frame_size):
    """(skin polygons, sleeve polygons, shadow offset direction) in image pixels."""
    tip_img, ux, uy = project(
        grid_to_image, [hand.tip, (hand.tip[0] + 1, hand.tip[1]), (hand.tip[0], hand.tip[1] + 1)]
    )
    unit = math.sqrt(np.linalg.norm(ux - tip_img) * np.linalg.norm(uy - tip_img)) * hand.scale
    a = math.radians(hand.angle_deg)
    back_pt = project(grid_to_image, [(hand.tip[0] + math.cos(a), hand.tip[1] + math.sin(a))])[0]
    along = back_pt - tip_img
    along /= np.linalg.norm(along) or 1.0
    across = np.array([-along[1], along[0]])

    def at(s, t):  # s along the arm (from the fingertips), t across, in hand units
        return tip_img + along * s * unit + across * t * unit

    spread = hand.spread
    fingers = [(-1.05, 0.55, 0.62), (-0.36, 0.0, 0.7), (0.36, 0.2, 0.68), (1.02, 0.8, 0.58)]
    skin = []
    for off, start, wid in fingers:
        t0 = off * (1 + 0.5 * spread)
        skin.append(_capsule(at(start + 0.3, t0), at(3.2, off * 0.95), wid * 0.95 * 1.0))
    palm = [at(2.7, -1.6), at(2.6, 1.55), at(5.6, 1.5), at(6.2, 0.9), at(6.2, -1.1), at(5.6, -1.6)]
    skin.append(np.array(palm))
    side = -1 if hand.tip[0] * 7 % 2 < 1 else 1
    skin.append(_capsule(at(2.2 - spread, side * (2.0 + spread * 0.6)), at(5.2, side * 1.3), 0.85))
    far = 4 * max(frame_size) / unit
    sleeve_start = 6.0 + hand.sleeve_at * 5.0
    arm_end = sleeve_start if hand.sleeve is not None else far
    skin.append(np.array([at(5.8, -1.35), at(5.8, 1.35), at(arm_end, 1.6), at(arm_end, -1.6)]))
    sleeve = []
    if hand.sleeve is not None:
        sleeve.append(
            np.array([at(sleeve_start, -1.9), at(sleeve_start, 1.9), at(far, 2.4), at(far, -2.4)])
        )
    return skin, sleeve, along, unit


def draw_hands(img: np.ndarray, hands, grid_to_image, light_deg: float) -> np.ndarray:
    """Paint hands (with shadows) into ``img`` in place; returns their HxW uint8 coverage."""
    h, w = img.shape[:2]
    coverage = np.zeros((h, w), np.uint8)
    for hand in hands:
        skin, sleeve, along, unit = hand_polygons(hand, grid_to_image, (w, h))
        skin_mask = np.zeros((h, w), np.uint8)
        sleeve_mask = np.zeros((h, w), np.uint8)
        cv2.fillPoly(
            skin_mask, [np.round(p * ONE).astype(np.int32) for p in skin], 255, cv2.LINE_AA, SHIFT
        )
        if sleeve:
            cv2.fillPoly(
                sleeve_mask,
                [np.round(p * ONE).astype(np.int32) for p in sleeve],
                255,
                cv2.LINE_AA,
                SHIFT,
            )
        mask = cv2.max(skin_mask, sleeve_mask)
        ys, xs = np.nonzero(mask)
        if len(xs) == 0:
            continue
        # shadow: the hand floats above the board, light comes from light_deg
        lx, ly = math.cos(math.radians(light_deg)), math.sin(math.radians(light_deg))
        shift = np.float32([[1, 0, -lx * 1.4 * unit], [0, 1, -ly * 1.4 * unit]])
        shadow = cv2.warpAffine(mask, shift, (w, h))
        shadow = cv2.GaussianBlur(shadow, (0, 0), max(1.0, 0.9 * unit)).astype(np.float32) / 255
        img[:] = (img * (1 - 0.5 * shadow[..., None])).astype(np.uint8)
        # rounded shading from the distance to the outline
        dist = cv2.distanceTransform((mask > 127).astype(np.uint8), cv2.DIST_L2, 3)
        depth = np.sqrt(np.clip(dist / max(1.0, 1.2 * unit), 0, 1))
        shade = (0.55 + 0.5 * depth)[..., None]
        for part_mask, color in ((skin_mask, hand.skin), (sleeve_mask, hand.sleeve)):
            if color is None or not part_mask.any():
                continue
            a = (part_mask.astype(np.float32) / 255)[..., None]
            paint = np.asarray(color, np.float32)[None, None, :] * shade
            img[:] = (paint * a + img * (1 - a)).astype(np.uint8)
        coverage = cv2.max(coverage, mask)
    return coverage
