"""``companion bench web``: does serving many viewers cost the referee frames?

The real server (waitress, ``create_app``) runs the real ``GameSession`` on the demo game, paced
in real time, twice: once with nobody watching, once with ``--viewers`` viewers, each holding the
live events (SSE) and the camera stream (MJPEG) open, as a phone showing the page would. The
viewers run in a separate process so they do not share the server's interpreter lock.

Figures (JSON on stdout):
- ``missed_frames``: frames handed to the referee more than one frame interval late, which a live
  camera would have dropped (per run), also counted after the first 2 s (locating the board from
  scratch is slow whoever watches); ``late_ms``: p95 and max lateness; ``server_cpu_s``: CPU
  time of the server process (session + web) during the run.
- ``rulings``: rulings the referee made in each run (the same game must give the same rulings).
- ``sse_latency_ms``: from the session emitting a ruling to a viewer reading it off the socket.
- ``mjpeg_fps``: camera frames per second each viewer received.
- with ``--browser``, ``page_latency_ms``: from the session emitting a ruling to the page in
  Chromium having drawn it (the issue's target is 300 ms).
Exit codes: 0 measured, 2 bad option or no demo game / session.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import queue
import statistics
import threading
import time
from dataclasses import dataclass, field
from typing import Any

DEFAULT_VIEWERS = 20
DEFAULT_STREAM_FPS = 5.0
SETTLE_S = 1.0  # let the viewers connect before the game starts
WARM_UP_S = 2.0  # the first frames locate the board from scratch (slow, with or without viewers)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--viewers", type=int, default=DEFAULT_VIEWERS, help="viewers (default 20)")
    parser.add_argument(
        "--seconds",
        type=float,
        default=0.0,
        help="stop each run after this long (default 0 = the whole demo game, about 38 s)",
    )
    parser.add_argument("--speed", type=float, default=1.0, help="replay speed (default 1)")
    parser.add_argument("--source", help="video or frame folder to replay (default: demo game)")
    parser.add_argument(
        "--stream-fps",
        type=float,
        default=DEFAULT_STREAM_FPS,
        help=f"camera stream cap per viewer (default {DEFAULT_STREAM_FPS:g}, as companion serve)",
    )
    parser.add_argument(
        "--browser",
        action="store_true",
        help="also open the page in Chromium and time rulings reaching the screen",
    )
    parser.add_argument(
        "--skip-baseline", action="store_true", help="only the run with viewers (faster)"
    )


def run(args: argparse.Namespace) -> int:
    if not 0 <= args.viewers <= 200 or args.speed <= 0 or args.seconds < 0:
        return fail("bad_argument", "--viewers 0..200, --speed > 0, --seconds >= 0")
    from companion.web.replay import DemoMissing, demo_video

    try:
        source = args.source or str(demo_video())
    except DemoMissing as exc:
        return fail("no_demo", str(exc))
    report: dict[str, Any] = {
        "source": source,
        "speed": args.speed,
        "viewers": args.viewers,
        "stream_fps": args.stream_fps,
    }
    try:
        if not args.skip_baseline:
            report["without_viewers"] = measure(
                source, 0, args.speed, args.seconds, False, args.stream_fps
            )
        report["with_viewers"] = measure(
            source, args.viewers, args.speed, args.seconds, args.browser, args.stream_fps
        )
    except BenchError as exc:
        return fail(exc.code, str(exc))
    print(json.dumps(report, indent=2))
    return 0


def fail(code: str, message: str) -> int:
    print(json.dumps({"error": {"code": code, "message": message}}))
    return 2


class BenchError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class RulingClock:
    """Records when the session emitted each ruling (epoch seconds), keyed by its content."""

    emitted: dict[str, float] = field(default_factory=dict)
    count: int = 0

    def follow(self, session: Any, stop: threading.Event) -> threading.Thread:
        events = session.subscribe()

        def loop() -> None:
            try:
                while not stop.is_set():
                    try:
                        event = events.get(timeout=0.2)
                    except queue.Empty:
                        continue
                    if event.get("type") == "ruling":
                        self.emitted.setdefault(ruling_key(event["ruling"]), time.time())
                        self.count += 1
            finally:
                session.unsubscribe(events)

        thread = threading.Thread(target=loop, daemon=True)
        thread.start()
        return thread


def ruling_key(ruling: dict) -> str:
    """The same key the page uses (``JSON.stringify([move, code, message])``)."""
    fields = [ruling.get("move"), ruling.get("code"), ruling.get("message")]
    return json.dumps(fields, separators=(",", ":"), ensure_ascii=False)


def measure(
    source_spec: str,
    viewers: int,
    speed: float,
    seconds: float,
    browser: bool,
    stream_fps: float = 5.0,
) -> dict:
    from companion.web.app import create_app
    from companion.web.replay import PacedSource
    from companion.web.server import serve_in_background, streams_for

    from companion.capture import CaptureError, open_source
    from companion.session import GameSession
    from companion.store import Store

    try:
        source = PacedSource(open_source(source_spec), speed=speed)
    except CaptureError as exc:
        raise BenchError("bad_source", exc.message) from None
    session = GameSession(store=Store(":memory:"), source=source)
    watchers = viewers + (1 if browser else 0)
    app = create_app(
        session, "000000", max_streams=streams_for(max(watchers, 1)), stream_fps=stream_fps
    )
    server = serve_in_background(app, viewers=max(watchers, 1))
    stop = threading.Event()
    clock = RulingClock()
    follower = clock.follow(session, stop)
    frames = getattr(source, "frame_count", None) or 0
    duration = seconds or (frames / (source.fps * speed) + 3.0 if frames else 60.0)
    client = None
    page = None
    results: dict = {}
    try:
        if viewers:
            client = start_viewers(server.url, viewers, duration + SETTLE_S + 2.0)
        if browser:
            page = BrowserPage(server.url)
        time.sleep(SETTLE_S if (viewers or browser) else 0.0)
        cpu_started = time.process_time()
        started = time.monotonic()
        session.start()
        while time.monotonic() - started < duration:
            if session._thread is None or not session._thread.is_alive():  # the file ended
                break
            time.sleep(0.2)
        elapsed = time.monotonic() - started
        cpu = time.process_time() - cpu_started
        time.sleep(0.5)  # let the last ruling reach everyone
        if page is not None:
            results["page_latency_ms"] = latency_summary(page.shown_at(), clock.emitted)
        if client is not None:
            results.update(collect_viewers(client, clock.emitted))
    finally:
        stop.set()
        if page is not None:
            page.close()
        session.stop()
        server.stop()
        follower.join(timeout=2)
    late = sorted(source.lateness) or [0.0]
    warm = int(WARM_UP_S * source.fps * speed)
    return {
        "seconds": round(elapsed, 1),
        "server_cpu_s": round(cpu, 1),
        "frames": len(source.lateness),
        "frames_in_source": frames,
        "missed_frames": source.missed_frames(),
        "missed_frames_after_warm_up": source.missed_frames(skip=warm),
        "late_ms": {
            "p95": round(1000 * late[int(0.95 * (len(late) - 1))], 1),
            "max": round(1000 * late[-1], 1),
        },
        "rulings": clock.count,
        **results,
    }


def latency_summary(received: dict[str, float], emitted: dict[str, float]) -> dict:
    delays = [1000 * (received[k] - emitted[k]) for k in received if k in emitted]
    missing = [k for k in emitted if k not in received]
    if not delays:
        return {"samples": 0, "not_shown": missing}
    delays.sort()
    return {
        "not_shown": missing,
        "samples": len(delays),
        "median": round(statistics.median(delays), 1),
        "p95": round(delays[int(0.95 * (len(delays) - 1))], 1),
        "max": round(delays[-1], 1),
    }


# ---------------------------------------------------------------- viewers (separate process)


def start_viewers(url: str, viewers: int, seconds: float) -> tuple[Any, Any]:
    """Start the viewer process and wait until every viewer is watching (or 30 s)."""
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    ready = context.Event()
    process = context.Process(
        target=viewer_process, args=(url, viewers, seconds, results, ready), daemon=True
    )
    process.start()
    if not ready.wait(timeout=30):
        raise BenchError("viewers_failed", "the viewers could not all connect within 30 s")
    return process, results


def collect_viewers(client: tuple[Any, Any], emitted: dict[str, float]) -> dict:
    process, results = client
    try:
        viewers = results.get(timeout=60)
    except queue.Empty:
        raise BenchError("viewers_failed", "the viewer process did not report") from None
    process.join(timeout=5)
    received: dict[str, list[float]] = {}
    for viewer in viewers:
        for key, at in viewer["rulings"].items():
            received.setdefault(key, []).append(at)
    delays = sorted(
        1000 * (at - emitted[key])
        for key, times in received.items()
        if key in emitted
        for at in times
    )
    fps = [v["mjpeg_frames"] / v["seconds"] for v in viewers if v.get("seconds", 0) > 0]
    errors = [v["error"] for v in viewers if v.get("error")]
    summary = {
        "viewers_connected": sum(1 for v in viewers if v["connected"]),
        "viewer_errors": errors[:5],
        "sse_events_per_viewer": round(statistics.mean(v["events"] for v in viewers), 1),
        "mjpeg_fps": {
            "mean": round(statistics.mean(fps), 2) if fps else 0.0,
            "min": round(min(fps), 2) if fps else 0.0,
        },
        "mjpeg_mb_per_viewer": round(statistics.mean(v["mjpeg_bytes"] for v in viewers) / 1e6, 2),
    }
    unseen = [key for key in emitted if len(received.get(key, [])) < len(viewers)]
    summary["rulings_not_received_by_every_viewer"] = unseen
    if delays:
        summary["sse_latency_ms"] = {
            "samples": len(delays),
            "median": round(statistics.median(delays), 1),
            "p95": round(delays[int(0.95 * (len(delays) - 1))], 1),
            "max": round(delays[-1], 1),
        }
    return summary


def viewer_process(url: str, viewers: int, seconds: float, results: Any, ready: Any) -> None:
    host, port = url.removeprefix("http://").split(":")
    deadline = time.monotonic() + seconds + 30
    reports = [
        {
            "connected": False,
            "camera": False,
            "events": 0,
            "rulings": {},
            "mjpeg_frames": 0,
            "mjpeg_bytes": 0,
        }
        for _ in range(viewers)
    ]
    threads = []
    for report in reports:
        for target in (watch_events, watch_camera):
            thread = threading.Thread(
                target=target, args=(host, int(port), deadline, report), daemon=True
            )
            thread.start()
            threads.append(thread)
    started = time.monotonic()
    while not all(r["connected"] and r["camera"] for r in reports):
        if time.monotonic() - started > 30:
            break
        time.sleep(0.05)
    ready.set()
    deadline = time.monotonic() + seconds
    for report in reports:
        report["deadline"] = deadline
    for thread in threads:
        thread.join(timeout=max(0.0, deadline - time.monotonic()) + 5)
    results.put(reports)


def watching(report: dict, first_deadline: float) -> bool:
    """Until the deadline set once every viewer is connected (the first one is only a cap)."""
    return time.monotonic() < report.get("deadline", first_deadline)


def watch_events(host: str, port: int, deadline: float, report: dict) -> None:
    try:
        conn = http.client.HTTPConnection(host, port, timeout=60)
        conn.request("GET", "/api/state")
        conn.getresponse().read()
        conn.request("GET", "/api/events", headers={"Accept": "text/event-stream"})
        response = conn.getresponse()
        report["connected"] = response.status == 200
        kind = None
        while watching(report, deadline):
            line = response.readline()
            if not line:
                break
            text = line.decode("utf-8").rstrip("\n")
            if text.startswith("event: "):
                kind = text[7:]
            elif text.startswith("data: "):
                report["events"] += 1
                if kind == "ruling":
                    ruling = json.loads(text[6:])["ruling"]
                    report["rulings"].setdefault(ruling_key(ruling), time.time())
        conn.close()
    except (OSError, http.client.HTTPException, ValueError) as exc:
        report["error"] = f"events: {exc}"


def watch_camera(host: str, port: int, deadline: float, report: dict) -> None:
    first_part = None
    try:
        conn = http.client.HTTPConnection(host, port, timeout=60)
        conn.request("GET", "/api/stream.mjpg")
        report["camera"] = True  # the stream answers with its first frame, once there is one
        response = conn.getresponse()
        marker = b"Content-Type: image/jpeg"
        tail = b""
        while watching(report, deadline):
            chunk = response.read1(65536)
            if not chunk:
                break
            first_part = first_part or time.monotonic()
            report["mjpeg_bytes"] += len(chunk)
            data = tail + chunk
            report["mjpeg_frames"] += data.count(marker)
            tail = data[-(len(marker) - 1) :]
        conn.close()
    except (OSError, http.client.HTTPException) as exc:
        report["error"] = f"camera: {exc}"
    report["seconds"] = time.monotonic() - first_part if first_part else 0.0


# ---------------------------------------------------------------- the page in a real browser

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def wait_for_page(page: Any, expression: str, timeout_s: float = 20.0) -> Any:
    """Poll a JS expression until it is truthy (the page's CSP forbids wait_for_function's eval)."""
    deadline = time.monotonic() + timeout_s
    while True:
        value = page.evaluate(expression)
        if value:
            return value
        if time.monotonic() > deadline:
            raise BenchError("page_timeout", f"the page never satisfied: {expression}")
        time.sleep(0.05)


class BrowserPage:
    """The page open in headless Chromium; reads when each ruling was drawn."""

    def __init__(self, url: str, executable: str = "/usr/bin/chromium") -> None:
        from playwright.sync_api import sync_playwright

        self._playwright = sync_playwright().start()
        self._browser = self._playwright.chromium.launch(
            executable_path=executable, args=CHROMIUM_ARGS
        )
        self.page = self._browser.new_page()
        self.page.goto(url + "/")
        wait_for_page(
            self.page, "window.companionMetrics && window.companionMetrics.stateRenders > 0"
        )

    def shown_at(self) -> dict[str, float]:
        """Ruling key -> epoch seconds when the page drew it."""
        shown = self.page.evaluate("window.companionMetrics.rulingShownAtByContent")
        return {key: at for key, at in shown.items()}

    def close(self) -> None:
        self._browser.close()
        self._playwright.stop()
