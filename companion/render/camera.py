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
    rot = _rot_z(tilt_azimuth_deg) @ _rot_x(tilt_deg) @ _rot_z(-tilt_azimuth_deg)
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
    frame_size: tuple[int, int],
    point: tuple[float, float],
    height: float,
    **pose,
) -> tuple[float, float]:
    """Where the top of an object ``height`` texture pixels tall standing at texture ``point``
    appears, as a shift in texture pixels (the board-plane point seen at the same image spot)."""
    tw, th = texture_size
    unit = max(tw, th)
    diag = math.hypot(tw, th) / unit
    a, t = pose["tilt_azimuth_deg"], pose["tilt_deg"]
    rot = _rot_z(a) @ _rot_x(t) @ _rot_z(-a)
    cam = np.array([0.0, 0.0, pose["camera_distance"] * diag])
    x, y = (point[0] - tw / 2) / unit, (point[1] - th / 2) / unit
    top = rot @ np.array([x, y, -height / unit]) + cam
    # the plane point on the camera ray through ``top``: solve rot @ (u, v, 0) + cam = s * top
    m = np.column_stack([rot[:, 0], rot[:, 1], -top])
    u, v, _ = np.linalg.solve(m, -cam)
    return (u * unit + tw / 2 - point[0], v * unit + th / 2 - point[1])
