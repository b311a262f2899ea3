"""Score vision readings against ground truth (pure functions; the CLI is ``companion eval``).

Definitions (cells are compared in canonical order; free corners are not counted):
- *boards found*: frames with a board where a board was reported;
- *false boards*: board-free frames where a board was reported;
- *orientation accuracy*: among found boards, orientation equal to the truth;
- *confident error*: a visible (not under a hand) cell read as a value other than the truth,
  ``?`` excluded, over all visible cells of found boards;
- *abstention*: visible cells read ``?``;
- *full-board exact*: among frames whose board has no hidden cell (no hand, loose card, glare
  wash-out or frame edge over any cell), the share read with all 96 cells right; a board not
  found on such a frame counts as not exact;
- *occluded confident wrong*: cells under a hand read as a wrong value (not ``?``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from companion.vision.geometry import corner_error, quad_area
from companion.vision.reading import UNKNOWN, BoardReading

CORNER_MASK = np.zeros((10, 10), bool)
CORNER_MASK[[0, 0, 9, 9], [0, 9, 0, 9]] = True


@dataclass(slots=True)
class FrameScore:
    name: str
    has_board: bool
    found: bool
    orientation_ok: bool | None = None
    visible: int = 0
    visible_wrong: int = 0
    visible_unknown: int = 0
    occluded: int = 0
    occluded_wrong: int = 0
    exact: bool | None = None  # only for found boards with no hidden cell
    unobstructed: bool = False  # a board with no cell hidden (hand, card, glare, frame edge)
    corner_px: float | None = None
    ms: float = 0.0
    art: str | None = None
    area: float | None = None  # playing grid's share of the frame (truth)
    board_share: float | None = None  # the whole board's share of the frame (truth, if known)
    wrong_cells: list[str] = field(default_factory=list)
    # visible cells read `?`: canonical name -> its most telling cause (``BoardReading``'s
    # ``unknown_reasons``; "" when the reading names none)
    unknown_causes: dict[str, str] = field(default_factory=dict)


def score_frame(name: str, reading: BoardReading, truth, ms: float) -> FrameScore:
    """Compare one reading with one ``companion.render.Truth``."""
    s = FrameScore(name=name, has_board=bool(truth.board_found), found=reading.board_found, ms=ms)
    s.art = truth.art
    if truth.board_found and truth.corners is not None and truth.size and truth.size[0] > 0:
        s.area = quad_area(truth.corners) / float(truth.size[0] * truth.size[1])
    s.board_share = truth.board_share
    occl = (
        np.asarray(truth.occluded, bool) if truth.occluded is not None else np.zeros((10, 10), bool)
    )
    s.unobstructed = bool(truth.board_found) and not occl.any()
    if not truth.board_found or not reading.board_found:
        return s
    s.orientation_ok = reading.orientation == truth.orientation
    if reading.corners is not None and truth.corners is not None:
        s.corner_px = corner_error(reading.corners, truth.corners)
    got = np.array([list(r) for r in reading.cells])
    want = np.array([list(r) for r in truth.cells])
    counted = ~CORNER_MASK
    vis = counted & ~occl
    unknown = got == UNKNOWN
    wrong = (got != want) & ~unknown
    s.visible = int(vis.sum())
    s.visible_wrong = int((wrong & vis).sum())
    s.visible_unknown = int((unknown & vis).sum())
    s.occluded = int((occl & counted).sum())
    s.occluded_wrong = int((wrong & occl & counted).sum())
    if s.unobstructed:
        s.exact = bool(((got == want) | CORNER_MASK).all())
    cols = "ABCDEFGHIJ"
    s.wrong_cells = [
        f"{cols[c]}{r + 1}:{want[r, c]}->{got[r, c]}" for r, c in np.argwhere(wrong & counted)
    ]
    reasons = reading.unknown_reasons
    for r, c in np.argwhere(unknown & vis):
        name = f"{cols[c]}{r + 1}"
        s.unknown_causes[name] = reasons[name][0] if reasons.get(name) else ""
    return s


def _rate(num: float, den: float) -> float | None:
    return None if den == 0 else num / den


def summarize(scores: list[FrameScore]) -> dict:
    board = [s for s in scores if s.has_board]
    free = [s for s in scores if not s.has_board]
    found = [s for s in board if s.found]
    visible = sum(s.visible for s in found)
    exact = [s for s in found if s.exact is not None]
    # boards missed on frames with no hidden cell count against the full-board exact rate too
    clear_frames = [s for s in board if s.unobstructed]
    occl = sum(s.occluded for s in found)
    ms = np.array([s.ms for s in scores]) if scores else np.zeros(1)
    corners = [s.corner_px for s in found if s.corner_px is not None]
    return {
        "frames": len(scores),
        "board_frames": len(board),
        "board_free_frames": len(free),
        "boards_found": _rate(len(found), len(board)),
        "false_boards": sum(s.found for s in free),
        "orientation_accuracy": _rate(sum(bool(s.orientation_ok) for s in found), len(found)),
        "cells_visible": visible,
        "confident_cell_error": _rate(sum(s.visible_wrong for s in found), visible),
        "abstention_rate": _rate(sum(s.visible_unknown for s in found), visible),
        # visible `?` cells by their most telling cause, most frequent first
        "abstention_causes": dict(
            Counter(c or "unnamed" for s in found for c in s.unknown_causes.values()).most_common()
        ),
        "full_board_exact": _rate(sum(bool(s.exact) for s in exact), len(clear_frames)),
        "cells_occluded": occl,
        "occluded_confident_wrong": _rate(sum(s.occluded_wrong for s in found), occl),
        "corner_error_px_median": float(np.median(corners)) if corners else None,
        "corner_error_px_max": float(np.max(corners)) if corners else None,
        "ms_per_frame_mean": float(ms.mean()),
        "ms_per_frame_median": float(np.median(ms)),
        "ms_per_frame_p95": float(np.percentile(ms, 95)),
    }


def format_summary(summary: dict, title: str = "") -> str:
    def pct(v):
        return "n/a" if v is None else f"{100 * v:.3f} %"

    lines = [title] if title else []
    lines += [
        f"frames                    {summary['frames']} "
        f"({summary['board_frames']} with a board, {summary['board_free_frames']} without)",
        f"boards found              {pct(summary['boards_found'])}",
        f"false boards              {summary['false_boards']} of {summary['board_free_frames']}",
        f"orientation right         {pct(summary['orientation_accuracy'])}",
        f"confident cell error      {pct(summary['confident_cell_error'])} "
        f"of {summary['cells_visible']} visible cells",
        f"abstention (?)            {pct(summary['abstention_rate'])}",
        "  by cause                "
        + (
            ", ".join(f"{code} {n}" for code, n in list(summary["abstention_causes"].items())[:6])
            or "none"
        ),
        f"full board exact          {pct(summary['full_board_exact'])} (frames with no hidden cell)",
        f"occluded, confident wrong {pct(summary['occluded_confident_wrong'])} "
        f"of {summary['cells_occluded']} cells under hands",
        "corner error px           "
        + (
            "n/a"
            if summary["corner_error_px_median"] is None
            else f"median {summary['corner_error_px_median']:.1f}, "
            f"max {summary['corner_error_px_max']:.1f}"
        ),
        f"ms per frame              mean {summary['ms_per_frame_mean']:.1f}, "
        f"median {summary['ms_per_frame_median']:.1f}, p95 {summary['ms_per_frame_p95']:.1f}",
    ]
    return "\n".join(lines)


AREA_BUCKETS = ((0.0, 0.1), (0.1, 0.3), (0.3, 1.01))
# the range: "boards covering 30-95 % of the frame" (the whole board, margin included)
SPEC_RANGE = (0.3, 0.95)
SPEC_RANGE_LABEL = "board covering 30-95% of frame"


def in_spec_range(board_share: float | None) -> bool:
    """True for a frame whose whole board covers 30-95 % of it (the issue's stated range)."""
    return board_share is not None and SPEC_RANGE[0] <= board_share <= SPEC_RANGE[1]


def area_bucket(area: float | None) -> str | None:
    """``"grid 10-30% of frame"`` style label of a frame's board size, None without a board."""
    if area is None:
        return None
    for lo, hi in AREA_BUCKETS:
        if lo <= area < hi:
            return f"grid {int(lo * 100)}-{min(100, int(hi * 100))}% of frame"
    return None
