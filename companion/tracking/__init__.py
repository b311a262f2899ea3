"""companion.tracking: stillness gate, per-cell hysteresis, board changes -> moves. No images.

The tracker gets a motion score and (sometimes) a ``BoardReading`` per frame and settles boards;
``changes`` explains a settled board against the game's board as at most one move.
"""

from companion.tracking.changes import (
    MISMATCH,
    NONE,
    PLACE,
    REMOVE,
    BoardChange,
    CellChange,
    Interpretation,
    interpret,
    interpret_catch_up,
)
from companion.tracking.tracker import (
    NO_BOARD,
    SETTLING,
    STILL,
    WATCHING,
    BoardTracker,
    TrackerConfig,
    TrackerUpdate,
)

__all__ = [
    "MISMATCH",
    "NONE",
    "NO_BOARD",
    "PLACE",
    "REMOVE",
    "SETTLING",
    "STILL",
    "WATCHING",
    "BoardChange",
    "BoardTracker",
    "CellChange",
    "Interpretation",
    "TrackerConfig",
    "TrackerUpdate",
    "interpret",
    "interpret_catch_up",
]
