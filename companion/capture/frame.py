"""The unit that flows out of every frame source."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, slots=True)
class Frame:
    """One camera frame.

    ``image`` is BGR uint8 (OpenCV order). ``timestamp`` is seconds on the source's clock: the
    capture time for a live camera, ``index / fps`` for a video or a frame folder, so replays are
    deterministic and independent of how fast the machine is.
    """

    image: np.ndarray
    timestamp: float
    index: int
    source: str = ""
