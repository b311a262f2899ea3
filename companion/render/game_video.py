"""Render a scripted whole game as a video with a fixed camera, plus its ground truth.

A *script* is a list of :class:`Step` values: chips placed and removed by hands that enter the
picture from the player's side of the table, reach the cell, change the chip while covering it
and leave again; hands that only hover; short misreads (a wrong chip visible for a few frames,
which the tracker must reject). ``script_record`` runs the script's moves through the referee to
get the game record a perfect replay must reproduce; ``render_game`` writes the video and a
timeline (when each hand left the board, when hands were over it) for the benchmarks.

Only the renderer's public API (``RenderSpec``, ``HandSpec``, ``render_frame``) is used.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

import cv2
import numpy as np

from companion.cells import CORNERS, SIZE, cell_name, parse_cell
from companion.render import HandSpec, RenderSpec, render_frame

PLACE = "place"  # a chip of ``color`` is put on ``cell``
REMOVE = "remove"  # ``color`` (the side to move) takes the chip off ``cell``
PUT_BACK = "put_back"  # the chip of an illegal removal goes back on ``cell`` (no move)
HOVER = "hover"  # a hand moves over the board and leaves, nothing changes
MISREAD = "misread"  # ``symbol`` shows on ``cell`` for a few frames only (a flicker)
KINDS = (PLACE, REMOVE, PUT_BACK, HOVER, MISREAD)
SYMBOL = {"blue": "B", "green": "G", "red": "R"}
# where each seat reaches in from: the arm's direction from the fingertips, in board coordinates
SEAT_ANGLES = {"blue": 90.0, "green": 270.0, "red": 0.0}
SKIN = {"blue": (140, 170, 222), "green": (75, 105, 150), "red": (105, 140, 190)}
SLEEVE = {"blue": (120, 80, 40), "green": (60, 110, 60), "red": (50, 50, 140)}


@dataclass(frozen=True, slots=True)
class Step:
    kind: str
    color: str | None = None  # the hand's seat (and the chip colour for a placement)
    cell: str | None = None
    symbol: str | None = None  # for a misread

    def to_json(self) -> dict:
        return {k: v for k, v in asdict(self).items() if v is not None}


@dataclass(frozen=True, slots=True)
class Timing:
    """Frame counts of one hand visit and of the still board after it."""

    enter: int = 6
    hold: int = 3
    leave: int = 6
    still: int = 12
    misread: int = 3

    @classmethod
    def for_fps(cls, fps: float) -> Timing:
        """About 0.4 s in, 0.2 s over the cell, 0.4 s out, 0.8 s still, at any frame rate."""
        k = fps / 15.0
        return cls(
            enter=max(2, round(6 * k)),
            hold=max(1, round(3 * k)),
            leave=max(2, round(6 * k)),
            still=max(2, round(12 * k)),
            misread=max(1, round(3 * k)),
        )


@dataclass(slots=True)
class Timeline:
    """Ground truth over time, for latency and false-ruling figures."""

    fps: float
    frames: int = 0
    hand_left: list[float] = field(default_factory=list)  # per board change, hand-off time
    hand_entered: list[float] = field(default_factory=list)  # per hand visit, first motion time
    hands_over: list[tuple[float, float]] = field(default_factory=list)  # [start, end) intervals
    covered: list[tuple[int, int]] = field(default_factory=list)  # frame runs [a, b) with a hand
    # over at least one cell (from the renderer's occlusion truth)

    def to_json(self) -> dict:
        return {
            "fps": self.fps,
            "frames": self.frames,
            "hand_left": [round(t, 4) for t in self.hand_left],
            "hand_entered": [round(t, 4) for t in self.hand_entered],
            "hands_over": [[round(a, 4), round(b, 4)] for a, b in self.hands_over],
            "covered": [list(run) for run in self.covered],
        }

    @classmethod
    def from_json(cls, data: dict) -> Timeline:
        return cls(
            fps=float(data["fps"]),
            frames=int(data["frames"]),
            hand_left=list(data["hand_left"]),
            hand_entered=list(data["hand_entered"]),
            hands_over=[tuple(x) for x in data["hands_over"]],
            covered=[tuple(x) for x in data.get("covered", [])],
        )


# -- scripts ------------------------------------------------------------------------------------


def demo_script() -> list[Step]:
    """The bundled demo: blue completes row 1 twice (corners A1 and J1) and wins.

    On the way: green removes a blue chip with a one-eyed jack, green tries to remove a chip of
    blue's completed sequence (illegal, put back), a hand hovers without playing, and a green chip
    flickers on a cell for a few frames (a misread the tracker must reject).
    """
    b, g = "blue", "green"
    return [
        Step(PLACE, b, "B1"),
        Step(PLACE, g, "D5"),
        Step(PLACE, b, "C1"),
        Step(PLACE, g, "E5"),
        Step(PLACE, b, "D1"),
        Step(REMOVE, g, "D1"),  # one-eyed jack
        Step(PLACE, b, "E1"),
        Step(HOVER, g, "F6"),  # green thinks, no move
        Step(PLACE, g, "F5"),
        Step(PLACE, b, "D1"),  # A1 B1 C1 D1 E1: blue's first sequence
        Step(REMOVE, g, "C1"),  # illegal: C1 is locked in a sequence
        Step(PUT_BACK, g, "C1"),
        Step(PLACE, g, "E6"),
        Step(PLACE, b, "F1"),
        Step(MISREAD, None, "H8", "G"),  # a green chip flickers on H8 for 0.2 s
        Step(PLACE, g, "D7"),
        Step(PLACE, b, "G1"),
        Step(PLACE, g, "F8"),
        Step(PLACE, b, "H1"),
        Step(PLACE, g, "C8"),
        Step(PLACE, b, "I1"),  # F1 G1 H1 I1 J1: the second sequence, blue wins
    ]


def random_script(
    rng: np.random.Generator,
    moves: int = 10,
    colors=("blue", "green"),
    avoid: set[tuple[int, int]] | frozenset = frozenset(),
) -> list[Step]:
    """A random legal board-only game of ``moves`` moves with removals, hovers and misreads.

    ``avoid``: cells no chip goes to (e.g. under a card the scene leaves lying on the board).
    """
    from companion.referee import Game, Move

    game = Game(players=[(c.title(), c) for c in colors])
    script: list[Step] = []
    cleared = None
    for _ in range(moves):
        if game.is_over:
            break
        color = game.color_to_move
        roll = rng.random()
        if roll < 0.08:
            script.append(Step(HOVER, color, _random_cell(rng)))
        elif roll < 0.14:
            script.append(Step(MISREAD, None, _random_cell(rng), SYMBOL[colors[0]]))
        removable = game.removable_cells(color)
        if removable and rng.random() < 0.15:
            cell = removable[int(rng.integers(0, len(removable)))]
            move = Move.board_remove(color, cell)
            kind = REMOVE
        else:
            # not the cell the last move cleared: a camera cannot tell that from a put-back
            open_cells = [c for c in game.open_cells() if c != cleared and c not in avoid]
            cell = open_cells[int(rng.integers(0, len(open_cells)))]
            move = Move.board_place(color, cell)
            kind = PLACE
        if not game.push(move).legal:  # pragma: no cover - the choices above are legal
            raise AssertionError(f"random script made an illegal move {move}")
        cleared = cell if kind == REMOVE else None
        script.append(Step(kind, color, cell_name(cell)))
    return script


def covered_cells(spec: RenderSpec) -> set[tuple[int, int]]:
    """Cells the scene itself hides (cards or objects lying on the board), without hands."""
    _, truth = render_frame(spec.with_frame(hands=()))
    if truth.occluded is None:
        return set()
    return {(int(r), int(c)) for r, c in zip(*np.nonzero(truth.occluded), strict=True)}


def _random_cell(rng: np.random.Generator) -> str:
    while True:
        cell = (int(rng.integers(0, SIZE)), int(rng.integers(0, SIZE)))
        if cell not in CORNERS:
            return cell_name(cell)


def script_record(script: list[Step], players: list[dict] | None = None) -> dict:
    """The game record a perfect replay of ``script`` produces (moves judged board-only)."""
    from companion.referee import Game, Move

    players = players or [{"name": "Blue", "team": "blue"}, {"name": "Green", "team": "green"}]
    game = Game(players=players)
    for step in script:
        if step.kind == PLACE:
            game.push(Move.board_place(step.color, step.cell))
        elif step.kind == REMOVE:
            game.push(Move.board_remove(game.color_to_move, step.cell))
    return game.to_record()


def check_script(script: list[Step]) -> None:
    """Raise ValueError for a script that cannot be rendered (bad kind, cell or colour)."""
    for i, step in enumerate(script, 1):
        if step.kind not in KINDS:
            raise ValueError(f"step {i}: kind must be one of {KINDS}, not {step.kind!r}")
        if step.cell is None:
            raise ValueError(f"step {i}: a {step.kind} step needs a cell")
        if parse_cell(step.cell) in CORNERS:
            raise ValueError(f"step {i}: {step.cell} is a free corner")
        if step.kind != MISREAD and step.color not in SEAT_ANGLES:
            raise ValueError(f"step {i}: color must be one of {tuple(SEAT_ANGLES)}")


# -- frames -------------------------------------------------------------------------------------


def _set(cells: list[str], cell: str, symbol: str) -> list[str]:
    r, c = parse_cell(cell)
    row = cells[r]
    cells = list(cells)
    cells[r] = row[:c] + symbol + row[c + 1 :]
    return cells


def _hand(color: str, target: tuple[float, float], progress: float, wobble: float) -> HandSpec:
    """The hand of ``color``'s seat, ``progress`` 0 (off the board) .. 1 (tip on the target)."""
    angle = SEAT_ANGLES[color] + wobble
    a = math.radians(angle)
    reach = 9.0 * (1.0 - progress)  # how far back along the arm the tip still is
    tip = (target[0] + reach * math.cos(a), target[1] + reach * math.sin(a))
    return HandSpec(
        tip=(float(tip[0]), float(tip[1])),
        angle_deg=float(angle),
        skin=SKIN[color],
        sleeve=SLEEVE[color],
        sleeve_at=1.2,
        spread=0.3,
    )


def script_frames(
    spec: RenderSpec, script: list[Step], timing: Timing, fps: float, timeline: Timeline
) -> Iterator[tuple[tuple[str, ...], tuple[HandSpec, ...]]]:
    """(cells, hands) for every frame; fills ``timeline`` as it goes."""
    check_script(script)
    cells = list(spec.cells)
    taken: dict[str, str] = {}  # cell -> the chip a removal took from it (for a put-back)
    index = 0
    rng = np.random.default_rng(len(script))

    def still(n: int):
        nonlocal index
        for _ in range(n):
            index += 1
            yield tuple(cells), ()

    yield from still(timing.still)
    for step in script:
        if step.kind == MISREAD:
            flicker = _set(cells, step.cell, step.symbol)
            for _ in range(timing.misread):
                index += 1
                yield tuple(flicker), ()
            yield from still(timing.still)
            continue
        r, c = parse_cell(step.cell)
        target = (c + 0.5, r + 0.5)
        wobble = float(rng.normal(0, 12))
        start = index / fps
        timeline.hand_entered.append(start)
        visit = timing.enter + timing.hold + timing.leave
        for k in range(visit):
            if k < timing.enter:
                progress = (k + 1) / timing.enter
            elif k < timing.enter + timing.hold:
                progress = 1.0
                if k == timing.enter + timing.hold // 2:  # the chip changes under the hand
                    if step.kind == PLACE:
                        cells = _set(cells, step.cell, SYMBOL[step.color])
                    elif step.kind == PUT_BACK:  # the chip the removal took, not the remover's
                        cells = _set(cells, step.cell, taken.get(step.cell, "."))
                    elif step.kind == REMOVE:
                        r0, c0 = parse_cell(step.cell)
                        taken[step.cell] = cells[r0][c0]
                        cells = _set(cells, step.cell, ".")
            else:
                progress = 1.0 - (k - timing.enter - timing.hold + 1) / timing.leave
            # keep the hand moving a little while it holds, as real hands do
            jitter = 0.15 * math.sin(k * 1.7)
            hand = _hand(step.color, (target[0] + jitter, target[1] - jitter), progress, wobble)
            index += 1
            yield tuple(cells), ((hand,) if progress > 0 else ())
        end = index / fps
        timeline.hands_over.append((start, end))
        if step.kind in (PLACE, REMOVE, PUT_BACK):
            timeline.hand_left.append(end)
        yield from still(timing.still)


def game_frames(
    spec: RenderSpec,
    script: list[Step],
    fps: float = 15.0,
    timing: Timing | None = None,
    timeline: Timeline | None = None,
) -> Iterator[tuple[np.ndarray, list[str]]]:
    """Rendered frames of ``script`` with what a perfect reader would say about each:
    ``(image, cells)`` where cells under a hand are ``?``."""
    timing = timing or Timing.for_fps(fps)
    timeline = timeline if timeline is not None else Timeline(fps=fps)
    run_start = None
    static = None  # cells hidden by the scene itself (a card lying on the board), not by hands
    for n, (cells, hands) in enumerate(script_frames(spec, script, timing, fps, timeline)):
        image, truth = render_frame(spec.with_frame(cells=cells, hands=hands, seed=n + 1))
        timeline.frames = n + 1
        occluded = truth.occluded if truth.occluded is not None else np.zeros((SIZE, SIZE), bool)
        if not hands and static is None:
            static = occluded.copy()
        covered = bool(hands) and bool((occluded & ~static).any()) if static is not None else False
        if covered and run_start is None:
            run_start = n
        elif not covered and run_start is not None:
            timeline.covered.append((run_start, n))
            run_start = None
        yield image, _perfect_reading(truth)
    if run_start is not None:
        timeline.covered.append((run_start, timeline.frames))


def _perfect_reading(truth) -> list[str]:
    if truth.occluded is None or not truth.occluded.any():
        return list(truth.cells)
    return [
        "".join("?" if truth.occluded[r][c] and ch != "*" else ch for c, ch in enumerate(row))
        for r, row in enumerate(truth.cells)
    ]


class TruthReader:
    """A stand-in for the vision that reads the renderer's ground truth (cells under a hand are
    ``?``): replays with it measure the tracker and session alone. Set ``cells`` before each
    frame."""

    def __init__(self) -> None:
        self.cells: list[str] | None = None

    def read(self, image: np.ndarray):
        from companion.vision.reading import BoardReading

        if self.cells is None:
            return BoardReading(board_found=False)
        return BoardReading(True, 0, list(self.cells), np.ones((SIZE, SIZE)), None)

    def straighten(self, image: np.ndarray) -> np.ndarray:
        return cv2.resize(image, (200, 200), interpolation=cv2.INTER_AREA)


def render_game(
    spec: RenderSpec,
    script: list[Step],
    out_video: str | Path,
    fps: float = 15.0,
    timing: Timing | None = None,
    progress: Callable[[int], None] | None = None,
    perfect_reads: list[str] | None = None,
) -> Timeline:
    """Render ``script`` with the fixed camera of ``spec`` into ``out_video`` (mp4v or MJPG).

    ``perfect_reads``, when given, receives each frame's perfect reading as one 100-character
    string (``?`` under hands), for replays that take the vision out of the measurement.
    """
    out_video = Path(out_video)
    timeline = Timeline(fps=fps)
    fourcc = "MJPG" if out_video.suffix.lower() == ".avi" else "mp4v"
    writer = cv2.VideoWriter(str(out_video), cv2.VideoWriter_fourcc(*fourcc), fps, spec.size)
    if not writer.isOpened():
        raise OSError(f"cannot write video {out_video} with codec {fourcc}")
    try:
        for n, (image, cells) in enumerate(game_frames(spec, script, fps, timing, timeline)):
            writer.write(image)
            if perfect_reads is not None:
                perfect_reads.append("".join(cells))
            if progress is not None:
                progress(n + 1)
    finally:
        writer.release()
    return timeline


def demo_spec(size: tuple[int, int] = (640, 480)) -> RenderSpec:
    """The demo game's camera: straight above a cards-art board, warm light, mild noise."""
    return RenderSpec(
        art="cards",
        size=size,
        orientation=0,
        rotation_jitter=3.0,
        tilt_deg=12.0,
        tilt_azimuth_deg=80.0,
        board_fraction=0.75,
        table="wood",
        color_temp=4200.0,
        gradient=0.25,
        vignette=0.2,
        noise=1.5,
        camera_seed=2026,
    )


def write_demo(out_dir: str | Path, size=(640, 480), fps: float = 15.0) -> dict:
    """Write the demo game: ``game.mp4``, ``expected_record.json``, ``timeline.json``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    script = demo_script()
    timeline = render_game(demo_spec(size), script, out / "game.mp4", fps=fps)
    record = script_record(script)
    (out / "expected_record.json").write_text(json.dumps(record, indent=1) + "\n")
    (out / "timeline.json").write_text(
        json.dumps({"script": [s.to_json() for s in script], **timeline.to_json()}, indent=1) + "\n"
    )
    return {"frames": timeline.frames, "moves": len(record["moves"])}


if __name__ == "__main__":  # python -m companion.render.game_video [OUT_DIR]
    import sys

    target = sys.argv[1] if len(sys.argv) > 1 else "sample_images/demo_game"
    print(json.dumps(write_demo(target)))
