"""``companion serve``: the table's web page, served by waitress.

With no ``--source`` it replays the bundled demo game so a newcomer sees a working referee with one
command. Exit codes: 0 stopped normally (Ctrl+C), 2 bad option / source / database, 3 the address
cannot be used (port taken, host not on this machine).
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import sys
import threading
from pathlib import Path
from typing import Any

EXIT_OK = 0
EXIT_USAGE = 2
EXIT_ADDRESS = 3


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "serve",
        help="the table's web page (live board, rulings, disputes, corrections)",
        description="Serve the table's web page. Reading needs nothing; setup and corrections "
        "need the table PIN printed at start.",
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to bind (default 127.0.0.1; 0.0.0.0 shares the page on the local network)",
    )
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 = any free)")
    parser.add_argument(
        "--source",
        help="camera index (0), video file, frame folder or stream "
        "URL; default: replay the bundled demo game",
    )
    parser.add_argument(
        "--db",
        help="SQLite file that keeps the game (resumes an unfinished one); default: memory only",
    )
    parser.add_argument(
        "--calibration",
        help="calibration file of a fixed camera: used at start if it exists, written by the "
        "page's calibration step (default for the page: ./calibration.json)",
    )
    parser.add_argument("--pin", help="table PIN (default: $COMPANION_PIN or a random 6-digit PIN)")
    parser.add_argument(
        "--speed",
        type=float,
        default=1.0,
        help="replay speed for video files and frame folders (default 1 = real time)",
    )
    parser.add_argument(
        "--viewers", type=int, default=20, help="viewers to size the server for (default 20)"
    )
    parser.add_argument(
        "--follow",
        action="store_true",
        help="--source is a folder a phone app is still writing frames to: read new frames live",
    )
    parser.add_argument(
        "--stream-fps",
        type=float,
        default=5.0,
        help="camera stream frames per second sent to each viewer (default 5)",
    )
    parser.set_defaults(func=run)


class UsageError(Exception):
    """A bad option, source or database: printed as one line, exit code 2."""


def run(args: argparse.Namespace) -> int:
    try:
        check_options(args)
        session, source_text = build_session(args)
    except UsageError as exc:
        print(f"companion serve: {exc}", file=sys.stderr)
        return EXIT_USAGE

    from companion.web.app import create_app
    from companion.web.pin import generate_pin
    from companion.web.server import make_server, shutdown, streams_for

    pin = args.pin or os.environ.get("COMPANION_PIN") or generate_pin()
    app = create_app(
        session, pin, stream_fps=args.stream_fps, max_streams=streams_for(args.viewers)
    )
    try:
        server = make_server(app, args.host, args.port, viewers=args.viewers)
    except (OSError, ValueError) as exc:
        print(f"companion serve: cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return EXIT_ADDRESS

    session.start()
    print_banner(args.host, server.effective_port, pin, source_text, args.db, game_line(session))
    stopping = app.extensions["companion"].stopping
    stop_on_signals(stopping)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        print("stopping…", file=sys.stderr)
        shutdown(server, app, loop_running=False)
        session.stop()
    return EXIT_OK


def check_options(args: argparse.Namespace) -> None:
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port {args.port} is not a port number (0..65535)")
    if not args.speed > 0:
        raise UsageError("--speed must be above 0 (1 = real time)")
    if not 1 <= args.viewers <= 200:
        raise UsageError("--viewers must be between 1 and 200")
    if not 0 < args.stream_fps <= 30:
        raise UsageError("--stream-fps must be above 0 and at most 30")
    if args.pin is not None and not (4 <= len(args.pin) <= 12 and args.pin.isalnum()):
        raise UsageError("--pin must be 4 to 12 letters or digits")


def build_session(args: argparse.Namespace) -> tuple[Any, str]:
    """Open the source and the store and wrap them in a ``GameSession``."""
    try:
        from companion.capture import CaptureError, open_source
        from companion.session import GameSession
        from companion.store import Store
        from companion.store.store import StoreError
    except ImportError as exc:
        raise UsageError(f"this installation is incomplete ({exc})") from None

    from companion.web.replay import DemoMissing, PacedSource, demo_video

    try:
        spec = args.source if args.source is not None else str(demo_video())
    except DemoMissing as exc:
        raise UsageError(str(exc)) from None
    label = spec if args.source is not None else f"the bundled demo game ({spec})"
    if args.follow and (args.source is None or not Path(args.source).is_dir()):
        raise UsageError("--follow needs --source FOLDER (a folder that frames are written to)")
    try:
        source = open_source(spec, follow=args.follow)
    except CaptureError as exc:
        raise UsageError(f"cannot open source {spec}: {exc.message}") from None
    if not getattr(source, "live", False):
        source = PacedSource(source, speed=args.speed)
    try:
        store = Store(args.db or ":memory:")
    except StoreError as exc:
        raise UsageError(f"cannot use database {args.db}: {exc}") from None
    from companion.vision import BoardReader

    calibration = None
    if args.source is None and not args.calibration:
        calibration = demo_calibration()
        if calibration is not None:
            label += ", calibrated by its camera's profile"
    if args.calibration and Path(args.calibration).exists():
        from companion.calibration import CalibrationError, load

        try:
            calibration = load(args.calibration)
        except CalibrationError as exc:
            raise UsageError(f"cannot use calibration {args.calibration}: {exc}") from None
        label += f", calibrated by {args.calibration}"
    session = GameSession(
        store=store,
        source=source,
        reader=BoardReader(calibration=calibration),
        calibration_path=args.calibration or "calibration.json",  # the page's calibration step
    )
    return session, label


def demo_calibration() -> Any:
    """The demo camera's calibration (``calibration/profiles/demo_game.json``), if shipped."""
    from importlib import resources

    from companion.calibration import CalibrationError, load

    profile = resources.files("companion.calibration") / "profiles" / "demo_game.json"
    try:
        with resources.as_file(profile) as path:
            return load(path) if path.exists() else None
    except (CalibrationError, OSError):
        return None


def game_line(session: Any) -> str:
    """``new game 3`` or ``game 2 resumed at move 7`` (the table knows where it stands)."""
    state = session.state()
    if getattr(session, "resumed", False):
        line = f"game {state['game_id']} resumed at move {state['turn']}"
        return line + (f"; {state['status_message']}" if state["mismatch"] else "")
    return f"new game {state['game_id']}"


def print_banner(
    host: str, port: int, pin: str, source: str, db: str | None, game: str = ""
) -> None:
    shown_host = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    print(f"Sequence companion: http://{shown_host}:{port}/")
    if host in ("0.0.0.0", "::", ""):
        for address in lan_addresses():
            print(f"  on the local network: http://{address}:{port}/")
    print(f"Table PIN: {pin}   (needed to set up or correct the game)")
    print(f"Source: {source}")
    kept = f"Game kept in: {db}" if db else "Game kept in memory only (use --db FILE to keep it)"
    print(kept + (f" ({game})" if game else ""))
    print("Press Ctrl+C to stop.", flush=True)


def lan_addresses() -> list[str]:
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return []
    return sorted({info[4][0] for info in infos if not info[4][0].startswith("127.")})


def stop_on_signals(stopping: threading.Event) -> None:
    """Ctrl+C / SIGTERM: end the viewers' streams first, so the server stops at once."""
    if threading.current_thread() is not threading.main_thread():
        return

    def handler(signum: int, frame: Any) -> None:
        stopping.set()
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, handler)
    signal.signal(signal.SIGTERM, handler)
