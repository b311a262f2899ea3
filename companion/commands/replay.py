"""``companion replay SOURCE --record OUT.json``: referee a recorded game headless.

Runs every frame of SOURCE (a video file, a folder of frames, a stream URL or a camera index)
through the same ``GameSession`` the web page uses, shows a progress bar on stderr, writes the
game record (the format ``companion check`` reads) and prints a JSON summary on stdout.

A live source (camera, stream) runs until Ctrl-C, which still writes the record, or until it has
stayed lost for ``--give-up`` seconds; a camera that drops out is reopened with back-off.

With ``--db FILE`` the game is kept in SQLite; ``--resume`` continues the unfinished game kept
there (after a crash or a Ctrl-C) with its players, rules and any open question, instead of
starting a new one.

Exit codes: 0 the source was replayed (or interrupted) and the record written; 2 bad input (a
source that cannot be opened, a bad ``--players`` or setup, an unusable ``--db`` or
``--calibration``, ``--resume`` with nothing to resume, a record path that cannot be written),
always with a one-line message and never a traceback.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

from companion.capture.reconnect import CaptureEvent, Reconnecting
from companion.capture.sources import CaptureError, open_source
from companion.referee import SetupError
from companion.session import GameSession, SessionError, parse_players
from companion.store import Store, StoreError
from companion.tracking import TrackerConfig

EXIT_OK = 0
EXIT_BAD_INPUT = 2
DEFAULT_PLAYERS = "Blue:blue,Green:green"


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "replay",
        help="referee a recorded game headless and write its game record",
        description="Referee a recorded game (video, frame folder, stream URL or camera index) "
        "headless and write the game record that `companion check` reads.",
        epilog="exit codes: 0 replayed (or stopped with Ctrl-C) and the record written; "
        "2 bad input (unreadable source, bad --players/setup/option, unusable --db, "
        "--calibration or --record folder, --resume with nothing to resume)",
    )
    parser.add_argument("source", help="video file, folder of frames, http(s)/rtsp URL, or 0")
    parser.add_argument("--record", required=True, help="where to write the JSON game record")
    parser.add_argument(
        "--players",
        default=None,
        help="names and teams in seating order, first to move first (default: Blue:blue,Green:green)",
    )
    parser.add_argument("--variant", default=None, help="rules preset (default: classic)")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="rule option, repeatable (e.g. --option overlap=crossing_only)",
    )
    parser.add_argument("--db", default=":memory:", help="SQLite file to keep the game in")
    parser.add_argument(
        "--resume",
        action="store_true",
        help="continue the unfinished game kept in --db (after a crash or Ctrl-C) with its "
        "players, rules and open question, instead of starting a new game",
    )
    parser.add_argument("--fps", type=float, default=None, help="frame rate of a frame folder")
    parser.add_argument(
        "--follow",
        action="store_true",
        help="the frame folder is still being written (a phone app dropping JPEGs): read new "
        "frames as they arrive, live",
    )
    parser.add_argument("--calibration", help="calibration file of this camera")
    parser.add_argument(
        "--window", type=float, default=0.5, help="seconds the board must be still (default 0.5)"
    )
    parser.add_argument(
        "--give-up",
        type=float,
        default=None,
        metavar="SECONDS",
        help="end when a camera or stream stays lost this long (default: keep trying until Ctrl-C)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


def _fail(message: str) -> int:
    print(f"companion replay: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def _options(pairs: list[str]) -> dict:
    options: dict = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise SessionError("bad_option", f"{pair!r}: write rule options as KEY=VALUE")
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value
    return options


def run(args: argparse.Namespace) -> int:
    if args.resume and (args.players is not None or args.variant is not None or args.option):
        return _fail(
            "--resume continues the game kept in --db with its own players and rules; "
            "leave out --players, --variant and --option"
        )
    if args.resume and args.db == ":memory:":
        return _fail("--resume needs --db FILE, the database that keeps the unfinished game")
    try:
        setup = {
            "variant": args.variant or "classic",
            "options": _options(args.option),
            "players": parse_players(args.players or DEFAULT_PLAYERS),
        }
    except SessionError as exc:
        return _fail(exc.message)
    if not (math.isfinite(args.window) and args.window >= 0):
        return _fail(f"--window must be a finite number of seconds, 0 or more, not {args.window}")
    if args.fps is not None and not (math.isfinite(args.fps) and args.fps > 0):
        return _fail(f"--fps must be a finite number above 0, not {args.fps}")
    if args.give_up is not None and not (math.isfinite(args.give_up) and args.give_up > 0):
        return _fail(f"--give-up must be a finite number of seconds above 0, not {args.give_up}")
    record_path = Path(args.record)
    if not record_path.parent.exists():
        return _fail(f"folder {record_path.parent} for --record does not exist")
    calibration = None
    if args.calibration:
        try:
            from companion.calibration import load

            calibration = load(args.calibration)
        except Exception as exc:  # the calibration module raises its own error types
            return _fail(f"calibration {args.calibration}: {exc}")
    try:
        source = open_source(args.source, fps=args.fps, follow=args.follow)
    except CaptureError as exc:
        return _fail(exc.message)
    try:
        from companion.vision import BoardReader

        store = Store(args.db)
        unfinished = store.active_game_id()
        if args.resume and unfinished is None:
            raise SessionError("nothing_to_resume", f"{args.db} keeps no unfinished game to resume")
        session = GameSession(
            store=store,
            setup=None if args.resume else setup,
            reader=BoardReader(calibration=calibration),
            tracker_config=TrackerConfig(still_window=args.window),
        )
    except (StoreError, SessionError) as exc:
        source.close()
        return _fail(exc.message)
    except SetupError as exc:
        source.close()
        return _fail(f"bad setup: {exc}")

    started = time.perf_counter()
    bar = ProgressBar(source.frame_count, enabled=not args.quiet)
    if args.resume:
        print(f"resuming game {session.game_id} of {args.db} at {session.state_brief()}",
              file=sys.stderr)  # fmt: skip
    elif unfinished is not None:  # kept in the database, marked abandoned by the new game
        print(f"game {unfinished} of {args.db} was unfinished: a new game starts "
              "(--resume continues it)", file=sys.stderr)  # fmt: skip

    # a live camera that drops out is reopened with back-off; files simply end
    def on_event(event: CaptureEvent) -> None:
        bar.note(event.message)
        session.on_capture_event(event)  # the tracker must know about the gap

    capture = Reconnecting(source, on_event=on_event, give_up_after=args.give_up)
    events = session.subscribe()
    questions: list[dict] = []  # the session's questions about cells it could not read
    frames = 0
    first_stamp = last_stamp = 0.0
    skipped = 0
    interrupted = False
    try:
        while (frame := capture.read()) is not None:
            try:
                session.process_frame(frame)
            except Exception as exc:  # a frame the pipeline chokes on is skipped, not fatal
                if not skipped:
                    bar.note(f"frame {frame.index} skipped: {type(exc).__name__}: {exc}")
                skipped += 1
            _collect_questions(events, frame.index, questions, bar)
            if not frames:
                first_stamp = frame.timestamp
            last_stamp = frame.timestamp
            frames += 1
            bar.update(frames, session.state_brief())
    except CaptureError as exc:
        bar.close()
        return _fail(exc.message)
    except KeyboardInterrupt:  # Ctrl-C ends a live replay; the game so far is still written
        interrupted = True
    finally:
        capture.close()
    bar.close()
    elapsed = time.perf_counter() - started
    if frames == 0 and not interrupted:
        return _fail(f"{args.source} gave no frame to replay")

    record = session.export_record()
    try:
        record_path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        return _fail(f"cannot write {record_path}: {exc.strerror or exc}")
    state = session.state()
    if source.live:  # live frames carry the clock: the span of the session, outages included
        video_seconds = last_stamp - first_stamp + (1.0 / source.fps if frames else 0.0)
    else:
        video_seconds = frames / source.fps if source.fps else 0.0
    summary = {
        "source": args.source,
        "record": str(record_path),
        "frames": frames,
        "video_seconds": round(video_seconds, 2),
        "elapsed_seconds": round(elapsed, 2),
        "speed": round(video_seconds / elapsed, 2) if elapsed > 0 else None,
        "moves_applied": len(state["moves"]),
        "record_moves": len(record["moves"]),
        "rulings": [
            {k: r.get(k) for k in ("move", "legal", "code", "message", "cells") if k in r}
            for r in state["rulings"]
        ],
        "questions": questions,
        "sequences": state["sequences"],
        "winner": state["winner"],
        "status": state["status"],
        "status_message": state["status_message"],
        "interrupted": interrupted,
        "frames_skipped": skipped,
        "camera_outages": capture.outages,
        "gave_up": capture.gave_up,
    }
    print(json.dumps(summary, indent=1))
    return EXIT_OK


def _collect_questions(events, index: int, questions: list[dict], bar) -> None:
    """Drain the session's events; keep (and show) each question it asked the table."""
    while not events.empty():
        event = events.get_nowait()
        if event["type"] == "unseen":
            questions.append({"frame": index, "cells": event["cells"], "message": event["message"]})
            bar.note(event["message"])


class ProgressBar:
    """``[#####.....] 312/633 frames  move 9  still`` on stderr, redrawn in place."""

    WIDTH = 30

    def __init__(self, total: int | None, enabled: bool = True, stream=None) -> None:
        self.total = total
        self.stream = stream or sys.stderr
        self.enabled = enabled
        self._last = 0.0

    def update(self, done: int, note: str = "") -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._last < 0.1 and done != self.total:
            return
        self._last = now
        if self.total:
            filled = round(self.WIDTH * done / self.total)
            bar = "#" * filled + "." * (self.WIDTH - filled)
            text = f"[{bar}] {done}/{self.total} frames"
        else:
            text = f"{done} frames"
        self.stream.write(f"\r{text}  {note}".ljust(79)[:79])
        self.stream.flush()

    def note(self, message: str) -> None:
        """A line of its own (e.g. the camera was lost), then the bar goes on."""
        if self.enabled:
            self.stream.write("\r" + message.ljust(79) + "\n")
            self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()
