"""Reading image files with clear errors (OpenCV returns None without saying why)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np


class ImageReadError(ValueError):
    """An image file that does not exist or cannot be decoded; the message says which."""


def read_image(path: str | Path) -> np.ndarray:
    """Read an image file as BGR uint8 (grey and alpha images are converted)."""
    p = Path(path)
    if not p.exists():
        raise ImageReadError(f"no such file: {path}")
    if p.is_dir():
        raise ImageReadError(f"is a directory, not an image: {path}")
    try:
        data = np.fromfile(str(p), dtype=np.uint8)
    except OSError as exc:
        raise ImageReadError(f"cannot read {path}: {exc.strerror or exc}") from exc
    img = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if img is None:
        raise ImageReadError(f"not a readable image (unknown or damaged format): {path}")
    return img
