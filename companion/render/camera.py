"""Camera pose -> homography from the board texture to the image.

The board lies in a plane; the camera looks at its centre from ``camera_distance`` board
diagonals away, tilted by ``tilt_deg`` towards ``tilt_azimuth_deg`` (in the board plane), then
rolled by ``orientation + rotation_jitter`` degrees clockwise on screen, and finally scaled and
shifted so that the board's bounding box spans ``board_fraction`` of the frame along its
tighter axis, placed by ``board_offset`` (-1..1 of the free space on each axis; beyond that the
board is pushed partly out of the frame).
"""

from __future__ import annotations

import math

import cv2
import numpy as np


def _rot_z(deg: float) -> np.ndarray:
    a = math.radians(deg)
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def _rot_x(deg: float) -> np.ndarray:
    a = math.radians(deg)
    c, s = math.cos(a), math.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def tilt_rotation(tilt_deg: float, tilt_azimuth_deg: float) -> np.ndarray:
    """Board plane -> camera axes: tilted by ``tilt_deg`` towards ``tilt_azimuth_deg``."""
    return _rot_z(tilt_azimuth_deg) @ _rot_x(tilt_deg) @ _rot_z(-tilt_azimuth_deg)


def project(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Apply a 3x3 homography to Nx2 points."""
    pts = np.asarray(pts, dtype=np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, h).reshape(-1, 2)


def board_homography(
    texture_size: tuple[int, int],
    frame_size: tuple[int, int],
    *,
    roll_deg: float,
    tilt_deg: float,
    tilt_azimuth_deg: float,
    camera_distance: float,
    board_fraction: float,
    board_offset: tuple[float, float],
) -> np.ndarray:
    """3x3 homography mapping texture pixels to image pixels."""
    tw, th = texture_size
    unit = max(tw, th)
    centre = np.array([[1 / unit, 0, -tw / 2 / unit], [0, 1 / unit, -th / 2 / unit], [0, 0, 1]])
    diag = math.hypot(tw, th) / unit
    rot = tilt_rotation(tilt_deg, tilt_azimuth_deg)
    t = np.array([0.0, 0.0, camera_distance * diag])
    plane_to_camera = np.column_stack([rot[:, 0], rot[:, 1], t])  # pinhole, focal length 1
    h = _rot_z(roll_deg) @ plane_to_camera @ centre
    outline = project(h, [[0, 0], [tw, 0], [tw, th], [0, th]])
    lo, hi = outline.min(0), outline.max(0)
    bw, bh = hi - lo
    fw, fh = frame_size
    scale = board_fraction / max(bw / fw, bh / fh)
    free = np.array([fw - bw * scale, fh - bh * scale])
    offset = np.clip(np.asarray(board_offset, dtype=np.float64), -2, 2)
    pos = free * (0.5 + 0.5 * offset) - lo * scale
    fit = np.array([[scale, 0, pos[0]], [0, scale, pos[1]], [0, 0, 1]])
    h = fit @ h
    return h / h[2, 2]


def raised_shift(
    texture_size: tuple[int, int],
    points: np.ndarray,
    height: float,
    *,
    tilt_deg: float,
    tilt_azimuth_deg: float,
    camera_distance: float,
) -> np.ndarray:
    """For objects ``height`` texture pixels tall standing at texture ``points`` (Nx2): where
    their tops appear, as Nx2 shifts in texture pixels (to the board-plane point seen at the same
    image spot). Roll, scale and placement in the frame do not change this."""
    tw, th = texture_size
    unit = max(tw, th)
    diag = math.hypot(tw, th) / unit
    rot = tilt_rotation(tilt_deg, tilt_azimuth_deg)
    cam = np.array([0.0, 0.0, camera_distance * diag])
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    local = np.column_stack([(pts[:, 0] - tw / 2) / unit, (pts[:, 1] - th / 2) / unit])
    top = np.column_stack([local, np.full(len(pts), -height / unit)]) @ rot.T + cam
    # the plane point on the camera ray through ``top``: rot @ (u, v, 0) + cam = s * top
    m = np.empty((len(pts), 3, 3))
    m[:, :, 0], m[:, :, 1], m[:, :, 2] = rot[:, 0], rot[:, 1], -top
    uvs = np.linalg.solve(m, np.broadcast_to(-cam, (len(pts), 3))[..., None])[..., 0]
    return uvs[:, :2] * unit + [tw / 2, th / 2] - pts


def texture_outline(texture_size: tuple[int, int], n: int) -> np.ndarray:
    """(4n)x2 points along the texture's outline, ``n`` per side (top, right, bottom, left)."""
    tw, th = texture_size
    t = np.linspace(0, 1, n)
    zero, one = np.zeros_like(t), np.ones_like(t)
    return np.concatenate(
        [
            np.stack([t * tw, zero], 1),
            np.stack([one * tw, t * th], 1),
            np.stack([t * tw, one * th], 1),
            np.stack([zero, t * th], 1),
        ]
    )


def place_through_lens(
    h: np.ndarray,
    texture_size: tuple[int, int],
    frame_size: tuple[int, int],
    *,
    board_fraction: float,
    board_offset: tuple[float, float],
    distort,
    undistort,
    iterations: int = 4,
) -> np.ndarray:
    """Re-place a board homography so that the board's outline *as the lens shows it* spans
    ``board_fraction`` of the frame and sits at ``board_offset`` (what ``board_homography`` does
    for a distortion-free camera). ``distort`` / ``undistort`` map Nx2 points through the lens."""
    outline = texture_outline(texture_size, 41)
    frame = np.asarray(frame_size, dtype=np.float64)
    offset = np.clip(np.asarray(board_offset, dtype=np.float64), -2, 2)
    for _ in range(iterations):
        seen = distort(project(h, outline))
        lo, hi = seen.min(0), seen.max(0)
        size = hi - lo
        scale = board_fraction / max(size / frame)
        want_lo = (frame - size * scale) * (0.5 + 0.5 * offset)
        here, there = undistort(np.array([(lo + hi) / 2, want_lo + size * scale / 2]))
        fit = np.array(
            [
                [scale, 0, there[0] - scale * here[0]],
                [0, scale, there[1] - scale * here[1]],
                [0, 0, 1],
            ]
        )
        h = fit @ h
    return h / h[2, 2]
