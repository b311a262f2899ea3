"""Hands and arms reaching over the board from the edge of the frame.

A hand is placed in board coordinates (``HandSpec``) and drawn in the image: four fingers, a
thumb, the palm, a forearm running out of the frame, optionally a sleeve, and a soft shadow on
the board. Sizes are in *hand units* = the image length of one board row at the fingertips
(about 3 cm on a real board), times ``HandSpec.scale``. ``draw_hands`` returns the coverage mask
used for ``Truth.occluded``.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from companion.render.camera import project
from companion.render.chips import CHIP_COLORS, chip_sprite, paste_chip
from companion.render.lighting import soft_mask
from companion.render.spec import HandSpec

SHIFT = 4
ONE = 1 << SHIFT
# (across offset, where the fingertip is along the hand, width) for the four fingers
FINGERS = ((-0.78, 0.5, 0.40), (-0.26, 0.08, 0.46), (0.26, 0.0, 0.47), (0.76, 0.22, 0.45))


def _capsule(a: np.ndarray, b: np.ndarray, width: float) -> np.ndarray:
    """Polygon of a stick with round ends from ``a`` to ``b`` (image points)."""
    d = b - a
    d = d / (np.linalg.norm(d) or 1.0)
    ang0 = math.atan2(d[0], -d[1])  # direction of the normal (-dy, dx)
    arc = np.linspace(0, math.pi, 10)
    r = width / 2
    cap_a = [a + r * np.array([math.cos(ang0 + t), math.sin(ang0 + t)]) for t in arc]
    cap_b = [
        b + r * np.array([math.cos(ang0 + math.pi + t), math.sin(ang0 + math.pi + t)]) for t in arc
    ]
    return np.array(cap_a + cap_b)


def hand_polygons(hand: HandSpec, grid_to_image: np.ndarray, frame_size):
    """``(finger polygons, palm+thumb+arm polygons, sleeve polygons, unit, at)`` in image
    pixels; ``at(s, t)`` maps hand units (along the arm from the fingertips, across) to pixels."""
    tx, ty = hand.tip
    tip_img, ux, uy = project(grid_to_image, [(tx, ty), (tx + 1, ty), (tx, ty + 1)])
    unit = min(np.linalg.norm(ux - tip_img), np.linalg.norm(uy - tip_img)) * hand.scale
    unit = max(unit, 1.0)
    a = math.radians(hand.angle_deg)
    back = project(grid_to_image, [(tx + 0.2 * math.cos(a), ty + 0.2 * math.sin(a))])[0]
    along = back - tip_img
    along = along / (np.linalg.norm(along) or 1.0)
    across = np.array([-along[1], along[0]])

    def at(s: float, t: float) -> np.ndarray:  # s along the arm from the fingertips, t across
        return tip_img + along * s * unit + across * t * unit

    spread = 1 + 0.45 * hand.spread
    side = 1 if hand.right_hand else -1  # seen from above, a right thumb is on the +across side
    fingers = [
        _capsule(at(start + 0.2, side * off * spread), at(2.5, side * off * 0.92), width * unit)
        for off, start, width in FINGERS
    ]
    thumb = _capsule(
        at(2.4 - 0.4 * hand.spread, side * (1.35 + 0.35 * hand.spread)),
        at(4.0, side * 0.7),
        0.56 * unit,
    )
    palm_s = np.array([2.1, 2.4, 3.2, 4.0, 4.6, 4.6, 4.0, 3.2, 2.4, 2.1])
    palm_t = np.array([1.05, 1.12, 1.12, 1.0, 0.86, -0.86, -1.0, -1.12, -1.12, -1.05])
    palm = np.array([at(s, t) for s, t in zip(palm_s, palm_t, strict=True)])
    far = 3.0 * max(frame_size) / unit + 20
    sleeve_start = 5.0 + 4.0 * hand.sleeve_at
    arm_end = sleeve_start + 0.3 if hand.sleeve is not None else far
    arm = np.array(
        [
            at(4.3, -0.84),
            at(4.3, 0.84),
            at(arm_end, 0.84 + 0.035 * (arm_end - 4.3)),
            at(arm_end, -0.84 - 0.035 * (arm_end - 4.3)),
        ]
    )
    sleeves = []
    if hand.sleeve is not None:
        w0 = 0.84 + 0.035 * (sleeve_start - 4.3) + 0.3
        sleeves.append(
            np.array(
                [
                    at(sleeve_start, -w0),
                    at(sleeve_start, w0),
                    at(far, w0 + 0.3 * far / 10),
                    at(far, -w0 - 0.3 * far / 10),
                ]
            )
        )
    return fingers, [palm, thumb, arm], sleeves, unit, at


def _fill(mask: np.ndarray, polys) -> None:
    for p in polys:  # one call each: overlapping polygons in one call cancel out
        cv2.fillPoly(mask, [np.round(p * ONE).astype(np.int32)], 255, cv2.LINE_AA, SHIFT)


def draw_hands(img: np.ndarray, hands, grid_to_image, light_deg: float) -> np.ndarray:
    """Paint hands (with shadows) into ``img`` in place; returns their HxW uint8 coverage."""
    h, w = img.shape[:2]
    coverage = np.zeros((h, w), np.uint8)
    lx, ly = math.cos(math.radians(light_deg)), math.sin(math.radians(light_deg))
    for hand in hands:
        fingers, body, sleeves, unit, at = hand_polygons(hand, grid_to_image, (w, h))
        spread = 1 + 0.45 * hand.spread
        skin_mask = np.zeros((h, w), np.uint8)
        _fill(skin_mask, body)
        for f in fingers:
            _fill(skin_mask, [f])
        sleeve_mask = np.zeros((h, w), np.uint8)
        if sleeves:
            _fill(sleeve_mask, sleeves)
        mask = cv2.max(skin_mask, sleeve_mask)
        x, y, bw, bh = cv2.boundingRect((mask > 0).astype(np.uint8))
        if bw == 0 or bh == 0:
            continue
        motion = _motion_pixels(hand, grid_to_image)
        pad = int(3 * unit + np.hypot(*motion))
        x0, y0, x1, y1 = (
            max(0, x - pad),
            max(0, y - pad),
            min(w, x + bw + pad),
            min(h, y + bh + pad),
        )
        roi = img[y0:y1, x0:x1]
        m = mask[y0:y1, x0:x1]
        # shadow: the hand floats a few centimetres above the board
        shift = np.float32([[1, 0, -lx * 1.1 * unit], [0, 1, -ly * 1.1 * unit]])
        shadow = soft_mask(cv2.warpAffine(m, shift, (x1 - x0, y1 - y0)), 0.7 * unit)
        keep = 1 - 0.45 * shadow
        behind = cv2.blendLinear(roi, np.zeros_like(roi), keep, 1 - keep)
        # rounded shading: brighter along the middle of each limb, lit side a bit brighter
        dist = cv2.distanceTransform((m > 127).astype(np.uint8), cv2.DIST_L2, 3)
        depth = np.sqrt(np.clip(dist / (0.45 * unit), 0, 1))
        gx = cv2.Sobel(dist, cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(dist, cv2.CV_32F, 0, 1, ksize=3)
        lit = np.clip(-(gx * lx + gy * ly) / (cv2.magnitude(gx, gy) + 1e-3), -1, 1) * (1 - depth)
        shade = np.clip((0.62 + 0.38 * depth + 0.15 * lit) * 128, 0, 255).astype(np.uint8)
        colour = np.empty_like(roi)
        colour[:] = hand.skin
        sleeve_roi = sleeve_mask[y0:y1, x0:x1]
        if hand.sleeve is not None:
            colour[sleeve_roi >= 128] = hand.sleeve
        paint = cv2.multiply(colour, cv2.merge([shade, shade, shade]), scale=1 / 128)
        a = m.astype(np.float32) / 255
        base = cv2.blendLinear(paint, behind, a, 1 - a)
        # creases between the fingers and the nail-side outline
        crease = tuple(float(v) * 0.6 for v in hand.skin)
        out = base
        offs = np.array([x0, y0], float)
        for f in fingers:
            pts = np.round((f - offs) * ONE).astype(np.int32)
            cv2.polylines(out, [pts], True, crease, 1, cv2.LINE_AA, SHIFT)
        if hand.holding is not None:  # a chip pinched under the thumb and index fingertips
            centre = at(0.05, -0.12 * (1 if hand.right_hand else -1)) - offs
            sprite = chip_sprite(
                CHIP_COLORS[hand.holding], max(4, round(0.8 * unit)), int(light_deg)
            )
            paste_chip(out, (centre[0], centre[1]), sprite)
            r = 0.45 * unit
            cv2.circle(
                mask, tuple(int(v) for v in np.round(centre + offs)), max(1, round(r)), 255, -1
            )
            for off, start, width in FINGERS[1:3]:  # fingertips over the chip's edge
                off *= 1 if hand.right_hand else -1
                tip = _capsule(at(start + 0.25, off * spread), at(0.9, off), width * unit) - offs
                skin = tuple(0.92 * v for v in hand.skin)
                cv2.fillPoly(out, [np.round(tip * ONE).astype(np.int32)], skin, cv2.LINE_AA, SHIFT)
        hand_mask = mask[y0:y1, x0:x1]
        if np.hypot(*motion) >= 1.0:
            out, hand_mask = _motion_blur(out, behind, hand_mask, motion)
            mask[y0:y1, x0:x1] = cv2.max(mask[y0:y1, x0:x1], hand_mask)
        roi[:] = out
        coverage = cv2.max(coverage, mask)
    return coverage


def _motion_pixels(hand: HandSpec, grid_to_image: np.ndarray) -> tuple[float, float]:
    """The hand's travel during the exposure, in image pixels."""
    if hand.motion == (0.0, 0.0):
        return (0.0, 0.0)
    tx, ty = hand.tip
    a, b = project(grid_to_image, [(tx, ty), (tx + hand.motion[0], ty + hand.motion[1])])
    return (float(b[0] - a[0]), float(b[1] - a[1]))


def _motion_blur(out, behind, hand_mask, motion):
    """Smear the hand layer along ``motion`` over what lies behind it."""
    dx, dy = motion
    n = int(math.ceil(max(abs(dx), abs(dy)))) * 2 + 1
    kernel = np.zeros((n, n), np.float32)
    c = n // 2
    p0 = (round((c - dx / 2) * ONE), round((c - dy / 2) * ONE))
    p1 = (round((c + dx / 2) * ONE), round((c + dy / 2) * ONE))
    cv2.line(kernel, p0, p1, 1.0, 1, cv2.LINE_AA, SHIFT)
    kernel /= max(kernel.sum(), 1e-6)
    a = hand_mask.astype(np.float32) / 255
    layer = out.astype(np.float32) * a[..., None]
    layer = cv2.filter2D(layer, -1, kernel, borderType=cv2.BORDER_CONSTANT)
    ab = cv2.filter2D(a, -1, kernel, borderType=cv2.BORDER_CONSTANT)
    mixed = layer + behind * (1 - ab[..., None])
    return np.clip(mixed, 0, 255).astype(np.uint8), np.clip(ab * 255, 0, 255).astype(np.uint8)
