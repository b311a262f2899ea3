"""Which edge is canonical row 1: match the red/black ink of empty cells to the classic layout."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from companion.vision.geometry import ORIENTATIONS
from companion.vision.layout import CLASSIC_INK, ink_sign
from companion.vision.stats import median


@dataclass(frozen=True, slots=True)
class OrientationVote:
    orientation: int
    scores: dict[int, float]  # correlation per orientation, in [-1, 1]
    cells_used: int

    @property
    def margin(self) -> float:
        """How far the winner is ahead of the runner-up (0 = a tie)."""
        ranked = sorted(self.scores.values(), reverse=True)
        return ranked[0] - ranked[1]


def ink_redness(red_ink: np.ndarray, dark_ink: np.ndarray) -> np.ndarray:
    """Per cell in [-1, 1]: +1 all printed ink red, -1 all black."""
    return (red_ink - dark_ink) / (red_ink + dark_ink + 1e-3)


def vote_orientation(
    redness: np.ndarray, usable: np.ndarray, pattern: tuple[str, ...] = CLASSIC_INK
) -> OrientationVote:
    """Correlate the screen-order redness of usable (empty, visible) cells with the layout.

    For orientation ``o`` the layout appears on screen as ``np.rot90(layout, -o // 90)``.
    """
    r = np.where(usable, redness - median(redness[usable]) if usable.any() else 0, 0)
    scores = {}
    for o, (on_screen, printed) in zip(ORIENTATIONS, _on_screen(pattern), strict=True):
        w = usable & printed
        denom = np.sqrt((r[w] ** 2).sum() * (on_screen[w] ** 2).sum()) + 1e-9
        scores[o] = float((r[w] * on_screen[w]).sum() / denom)
    best = max(scores, key=scores.get)
    return OrientationVote(best, scores, int(usable.sum()))


@functools.lru_cache(maxsize=8)
def _on_screen(pattern: tuple[str, ...]) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """Per orientation (``ORIENTATIONS``), the layout's ink sign as it appears on screen and
    where it prints a suit (read-only; built once per pattern, not on every vote)."""
    out = []
    for o in ORIENTATIONS:
        on_screen = np.ascontiguousarray(np.rot90(ink_sign(pattern), -(o // 90)))
        printed = on_screen != 0
        on_screen.setflags(write=False)
        printed.setflags(write=False)
        out.append((on_screen, printed))
    return tuple(out)
