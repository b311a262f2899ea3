"""``companion bench replay``: the live pipeline on rendered games, against ground truth.

Figures (one JSON object on stdout, progress on stderr):

- ``accuracy``: the bundled demo game plus ``--games`` rendered games (different camera seeds,
  both board arts, random light, tilt, noise, compression): moves recognised, records reproduced
  exactly, false rulings (any ruling the script does not call for: a board mismatch, or a move,
  legal or not, that is not one of the script's moves in the script's order), moves ruled while
  a hand was over the board, questions the session asked about cells it could not read. Three
  modes: ``vision`` (the real vision, questions unanswered), ``vision_table_answers`` (the same,
  with a table that answers each question by correcting the named cells whose real chip differs
  from the game's board) and ``perfect_reads`` (the renderer's truth: tracker and session alone);
- ``latency``: seconds from the hand leaving the board to the ruling (target < 1 s) and from a
  hand first covering a cell to the tracker saying ``watching`` (target < 0.1 s);
- ``throughput``: the demo script rendered at 1280x720, 30 fps, replayed by ``companion replay``
  in a child process pinned to one core with OpenCV single-threaded: speed in multiples of real
  time (target >= 4) and the child's peak memory (target < 300 MB);
- ``storage``: database size including evidence JPEGs, scaled to a 100-move game (target < 20 MB).

Rendered videos are cached in ``--work`` (default ``/tmp/companion-bench``) so a rerun only
replays. Everything is seeded: the same command gives the same games.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from companion.capture.sources import open_source
from companion.render.game_video import (
    Timeline,
    TruthReader,
    covered_cells,
    demo_script,
    demo_spec,
    random_script,
    render_game,
    script_record,
)
from companion.samples import demo_game_dir, demo_game_dirs
from companion.session import GameSession
from companion.store import Store
from companion.tracking.tracker import WATCHING

DEFAULT_WORK = Path(tempfile.gettempdir()) / "companion-bench"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=20, help="rendered games besides the demo")
    parser.add_argument("--moves", type=int, default=12, help="moves per rendered game")
    parser.add_argument("--seed", type=int, default=1, help="first camera seed of the games")
    parser.add_argument("--work", default=str(DEFAULT_WORK), help="cache of rendered videos")
    parser.add_argument(
        "--skip-throughput", action="store_true", help="skip the 720p one-core throughput run"
    )
    parser.add_argument("--quick", action="store_true", help="3 games of 6 moves, for a smoke run")


def _log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# -- rendering (cached) ----------------------------------------------------------------------


def _game_spec(seed: int, size=(640, 480)):
    from companion.render import random_spec
    from companion.render.spec import EMPTY_BOARD

    rng = np.random.default_rng(seed)
    art = ("text", "cards")[seed % 2]
    spec = random_spec(
        rng,
        camera_seed=seed,
        art=art,
        hand=False,
        size=size,
        board_fraction=float(rng.uniform(0.55, 0.8)),
    )
    return spec.with_frame(cells=EMPTY_BOARD, hands=(), seed=0)  # a game starts empty


def _random_game(seed: int, moves: int):
    spec = _game_spec(seed)
    script = random_script(np.random.default_rng(1000 + seed), moves, avoid=covered_cells(spec))
    return spec, script, 15.0


def _rendered(work: Path, name: str, make) -> tuple[Path, dict]:
    """``make() -> (spec, script, fps)``; renders once into ``work/name.mp4`` + ``.json``."""
    video, meta_path = work / f"{name}.mp4", work / f"{name}.json"
    if video.exists() and meta_path.exists():
        try:
            return video, json.loads(meta_path.read_text())
        except (OSError, ValueError):  # a cache broken by an interrupted run: render again
            _log(f"  {meta_path} is unreadable; rendering {name} again")
    spec, script, fps = make()
    started = time.perf_counter()
    reads: list[str] = []
    timeline = render_game(spec, script, video, fps=fps, perfect_reads=reads)
    meta = {
        "perfect_reads": reads,
        "script": [s.to_json() for s in script],
        "record": script_record(script),
        "timeline": timeline.to_json(),
        "spec": {k: spec.to_json()[k] for k in ("art", "size", "tilt_deg", "color_temp", "noise")},
    }
    meta_path.write_text(json.dumps(meta))
    _log(f"  rendered {name}: {timeline.frames} frames in {time.perf_counter() - started:.0f} s")
    return video, meta


# -- one replay against the truth ------------------------------------------------------------


def replay_against_truth(
    video: Path,
    meta: dict,
    db_path: Path | None = None,
    perfect: bool = False,
    answer: bool = False,
) -> dict:
    """Replay ``video`` and compare with its script. ``perfect`` swaps the vision for the
    renderer's truth (cells under a hand read ``?``): the tracker and session alone.
    ``answer``: a table that answers the session's questions ("cannot see E5 ...") by
    correcting the named cells whose real chip differs from the game's board (the truth of
    that frame), as players would; without it questions stay unanswered."""
    from companion.vision import BoardReader

    expected = meta["record"]
    reads = meta.get("perfect_reads") if perfect or answer else None
    if (perfect or answer) and not reads:
        raise ValueError("this video has no perfect reads stored; render it again")
    timeline = Timeline.from_json(meta["timeline"])
    store = Store(db_path or ":memory:")
    session = GameSession(
        store=store,
        setup={"players": expected["players"], "variant": expected["variant"]},
        reader=TruthReader() if perfect else BoardReader(),
    )
    events = session.subscribe()
    ruled_at: list[tuple[int, float, dict]] = []  # (frame index, timestamp, ruling)
    watching_frames: list[int] = []
    questions, answers = 0, 0
    source = open_source(str(video))
    for frame in source:
        if perfect:
            text = reads[frame.index]
            session.reader.cells = [text[r * 10 : r * 10 + 10] for r in range(10)]
        session.process_frame(frame)
        if session.tracker.status == WATCHING:
            watching_frames.append(frame.index)
        while not events.empty():
            event = events.get_nowait()
            if event["type"] == "ruling":
                ruled_at.append((frame.index, frame.timestamp, event["ruling"]))
            elif event["type"] == "unseen":
                questions += 1
                if answer:
                    answers += _answer(session, event["cells"], reads[frame.index])
    source.close()
    produced = session.export_record()

    referee_rulings = [(i, t, r) for i, t, r in ruled_at if r.get("move") is not None]
    mismatches = [r for _, _, r in ruled_at if r.get("code") == "board_mismatch"]
    want, got = expected["moves"], produced["moves"]
    recognised = sum(1 for a, b in zip(want, got, strict=False) if a == b)
    in_script = _common_moves(want, got)  # rulings in the script's order (missed ones skipped)
    # the first recognised prefix is what counts: after a wrong move everything shifts
    prefix = 0
    for a, b in zip(want, got, strict=False):
        if a != b:
            break
        prefix += 1
    # frame runs with a hand over a cell; older timelines only know the whole hand visits
    covered = timeline.covered or [
        (round(a * timeline.fps), round(b * timeline.fps)) for a, b in timeline.hands_over
    ]
    made_up_under_hand = sum(
        1 for index, _, _ in referee_rulings if any(a <= index < b for a, b in covered)
    )
    # latency: from the end of the last hand-over-the-board run before the ruling
    ends = sorted(b for _, b in covered)
    ruling_latency = []
    for index, t, _ in referee_rulings:
        before = [b for b in ends if b <= index]
        if before:
            ruling_latency.append(round(t - before[-1] / timeline.fps, 3))
    watching_latency = []
    watching_set = sorted(watching_frames)
    for start, _ in covered:
        later = next((i for i in watching_set if i >= start), None)
        if later is not None:
            watching_latency.append(round((later - start) / timeline.fps, 3))
    if db_path is not None:
        store.close()
    return {
        "frames": timeline.frames,
        "expected_moves": len(want),
        "replayed_moves": len(got),
        "moves_recognised": prefix,
        "moves_equal_anywhere": recognised,
        "exact_record": produced == expected,
        # any ruling the script does not call for: a mismatch, or a move (legal or not) that
        # is not one of the script's moves in the script's order
        "false_rulings": len(mismatches) + len(got) - in_script,
        "questions": questions,
        "answers": answers,
        "moves_under_hand": made_up_under_hand,
        "ruling_latency_s": ruling_latency,
        "watching_latency_s": watching_latency,
        "spec": meta.get("spec"),
        "exact_timing": bool(timeline.covered),
    }


def _common_moves(want: list, got: list) -> int:
    """Length of the longest common subsequence of two move lists."""
    table = [[0] * (len(got) + 1) for _ in range(len(want) + 1)]
    for i, a in enumerate(want):
        for j, b in enumerate(got):
            table[i + 1][j + 1] = (
                table[i][j] + 1 if a == b else max(table[i][j + 1], table[i + 1][j])
            )
    return table[-1][-1]


def _answer(session: GameSession, cells: list[str], truth: str) -> int:
    """The table answers a question: it corrects each named cell whose real chip (``truth``,
    100 symbols of the frame) differs from the game's board. Returns the cells corrected."""
    from companion.cells import parse_cell

    board = session.state()["board"]
    fixed = 0
    for name in cells:
        r, c = parse_cell(name)
        real = truth[r * 10 + c]
        if real in ".BGR" and real != board[r][c]:
            session.correct_cell(name, real)
            fixed += 1
    return fixed


# -- one-core throughput and memory (child process) ------------------------------------------

CHILD = """
import os, sys, cv2
cv2.setNumThreads(1)
if hasattr(os, "sched_setaffinity"):
    os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
from companion.cli import main
sys.exit(main(sys.argv[1:]))
"""


def throughput(video: Path, work: Path) -> dict:
    record = work / "throughput_record.json"
    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-c", CHILD, "replay", str(video), "--record", str(record), "--quiet"],
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - started
    if result.returncode != 0:
        return {"error": result.stderr.strip()[-500:]}
    summary = json.loads(result.stdout)
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return {
        "video": "demo script, 1280x720, 30 fps",
        "frames": summary["frames"],
        "video_seconds": summary["video_seconds"],
        "replay_seconds": summary["elapsed_seconds"],
        "speed_x_realtime": summary["speed"],
        "process_seconds_with_startup": round(wall, 2),
        "peak_memory_mb": round(peak_kb / 1024, 1),
        "moves": summary["record_moves"],
        "winner": summary["winner"],
    }


# -- the command ------------------------------------------------------------------------------


def _summary(values: list[float]) -> dict:
    if not values:
        return {"n": 0}
    arr = np.array(values, dtype=float)
    return {
        "n": int(arr.size),
        "median": round(float(np.median(arr)), 3),
        "p95": round(float(np.percentile(arr, 95)), 3),
        "max": round(float(arr.max()), 3),
    }


def _aggregate(runs: list[dict]) -> dict:
    return {
        "games": len(runs),
        "exact_records": sum(r["exact_record"] for r in runs),
        "moves_expected": sum(r["expected_moves"] for r in runs),
        "moves_recognised": sum(r["moves_recognised"] for r in runs),
        "false_rulings": sum(r["false_rulings"] for r in runs),
        "moves_under_hand": sum(r["moves_under_hand"] for r in runs),
        "questions": sum(r["questions"] for r in runs),
        "cells_corrected": sum(r["answers"] for r in runs),
        "failed_games": [
            {k: r[k] for k in ("name", "moves_recognised", "expected_moves", "spec")}
            for r in runs
            if not r["exact_record"]
        ],
    }


def _latency(runs: list[dict]) -> dict:
    runs = [r for r in runs if r["exact_timing"]]  # the demo's older timeline has visits only
    return {
        "ruling_after_hand_left_s": _summary([x for r in runs for x in r["ruling_latency_s"]]),
        "watching_after_hand_over_board_s": _summary(
            [x for r in runs for x in r["watching_latency_s"]]
        ),
    }


def _fail(message: str) -> int:
    print(f"companion bench replay: {message}", file=sys.stderr)
    return 2


def load_demo() -> tuple[Path, dict]:
    """The bundled demo video and its truth (script, record, timeline), wherever the package
    is installed. Raises ``LookupError`` with a one-line message when it is missing or broken."""
    folder = demo_game_dir()
    if folder is None:
        looked = ", ".join(str(p) for p in demo_game_dirs())
        raise LookupError(f"the demo game is not installed (looked in {looked})")
    try:
        timeline = json.loads((folder / "timeline.json").read_text())
        meta = {
            "script": timeline["script"],
            "record": json.loads((folder / "expected_record.json").read_text()),
            "timeline": timeline,
            "spec": {"art": "cards", "size": [640, 480], "name": "demo"},
        }
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise LookupError(f"the demo game in {folder} is incomplete: {exc}") from None
    return folder / "game.mp4", meta


def run(args: argparse.Namespace) -> int:
    games, moves = (3, 6) if args.quick else (args.games, args.moves)
    if games < 0 or moves < 1:
        return _fail("--games must be 0 or more and --moves 1 or more")
    if args.seed < 0:
        return _fail(f"--seed must be 0 or more, not {args.seed}")
    try:
        demo_video, demo_meta = load_demo()
    except LookupError as exc:
        return _fail(str(exc))
    work = Path(args.work)
    try:
        work.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=work):  # the cache must be writable, not just exist
            pass
    except OSError as exc:
        return _fail(f"cannot use --work {work}: {exc.strerror or exc}")

    out: dict = {"games": games, "moves_per_game": moves}
    if not args.skip_throughput:
        _log("throughput: rendering the demo script at 1280x720, 30 fps (cached)")
        video, _ = _rendered(
            work, "demo_720p30", lambda: (demo_spec((1280, 720)), demo_script(), 30.0)
        )
        _log("throughput: replaying on one core")
        out["throughput"] = throughput(video, work)

    runs: dict[str, list[dict]] = {"vision": [], "perfect_reads": [], "vision_table_answers": []}
    db = work / "demo.db"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    _log("accuracy: the demo game")
    demo = replay_against_truth(demo_video, demo_meta, db_path=db)
    runs["vision"].append({"name": "demo", **demo})
    runs["vision_table_answers"].append({"name": "demo", **demo})  # no truth per frame to answer
    db_bytes = sum(
        Path(f"{db}{s}").stat().st_size for s in ("", "-wal") if Path(f"{db}{s}").exists()
    )
    out["storage"] = {
        "demo_db_bytes": db_bytes,
        "demo_moves": demo["expected_moves"],
        "mb_per_100_moves": round(db_bytes / max(1, demo["expected_moves"]) * 100 / 2**20, 2),
    }

    for k in range(games):
        seed = args.seed + k
        name = f"game_s{seed}_m{moves}"
        _log(f"accuracy: game {k + 1}/{games} (camera seed {seed})")
        video, meta = _rendered(
            work,
            name,
            lambda seed=seed: _random_game(seed, moves),
        )
        seen = replay_against_truth(video, meta)
        runs["vision"].append({"name": name, **seen})
        # the same game with a table that answers the session's questions (only where it
        # asked any: elsewhere the run would be the same)
        answered = replay_against_truth(video, meta, answer=True) if seen["questions"] else seen
        runs["vision_table_answers"].append({"name": name, **answered})
        runs["perfect_reads"].append(
            {"name": name, **replay_against_truth(video, meta, perfect=True)}
        )

    out["accuracy"] = {mode: _aggregate(rs) for mode, rs in runs.items()}
    out["latency"] = {mode: _latency(rs) for mode, rs in runs.items()}
    out["runs"] = {
        mode: [
            {k: v for k, v in r.items() if k not in ("ruling_latency_s", "watching_latency_s")}
            for r in rs
        ]
        for mode, rs in runs.items()
    }
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":  # pragma: no cover
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    sys.exit(run(parser.parse_args()))
