"""Long-lived responses: Server-Sent Events and the MJPEG camera stream.

Both are plain generators so they can be tested without a server. Each viewer holds one server
thread per stream, so the generators never busy-wait: SSE blocks on the viewer's event queue and
MJPEG sleeps between frames. Camera JPEGs are shared by every viewer through ``JpegFeed``, so the
session is asked for at most ``max_fps`` frames a second however many phones are watching.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

# Events the page never needs: a tick per camera frame would only cost bandwidth.
SILENT_EVENT_TYPES = frozenset({"frame"})
MJPEG_BOUNDARY = "companionframe"
STOP_POLL_S = 1.0  # how often a waiting stream checks whether the server is stopping (few wake-ups)


def format_sse(event: str, data: Any, event_id: int | None = None) -> str:
    """One SSE message; ``data`` is sent as a single line of JSON."""
    lines = []
    if event_id is not None:
        lines.append(f"id: {event_id}")
    lines.append(f"event: {event}")
    lines.append("data: " + json.dumps(data, separators=(",", ":"), ensure_ascii=False))
    return "\n".join(lines) + "\n\n"


def sse_stream(
    session: Any,
    *,
    heartbeat_s: float = 5.0,
    stopping: threading.Event | None = None,
    clock: Callable[[], float] = time.time,
) -> Iterator[str]:
    """Yield SSE text for one viewer: the full state first, then every session event.

    Each message carries ``sent_at`` (server epoch seconds) so the page can show how fresh it is.
    A comment line every ``heartbeat_s`` keeps proxies from closing the stream and lets the server
    notice a viewer that went away (the write fails and the generator is closed).
    """
    events = session.subscribe()
    counter = 0
    poll_s = min(heartbeat_s, STOP_POLL_S)
    try:
        yield "retry: 2000\n\n"
        counter += 1
        yield format_sse("state", {"type": "state", "state": session.state()}, counter)
        quiet_since = time.monotonic()
        while stopping is None or not stopping.is_set():
            try:
                event = events.get(timeout=poll_s)
            except queue.Empty:
                if time.monotonic() - quiet_since >= heartbeat_s:
                    quiet_since = time.monotonic()
                    yield ": keep-alive\n\n"
                continue
            quiet_since = time.monotonic()
            kind = str(event.get("type", "message")) if isinstance(event, dict) else "message"
            if kind in SILENT_EVENT_TYPES:
                continue
            counter += 1
            payload = dict(event) if isinstance(event, dict) else {"type": kind, "value": event}
            payload["sent_at"] = clock()
            yield format_sse(kind, payload, counter)
    finally:
        session.unsubscribe(events)


class JpegFeed:
    """The latest camera JPEG, fetched from the session at most ``max_fps`` times a second.

    ``fetch`` is e.g. ``session.latest_jpeg``. Every viewer calls ``latest()``; only the first
    caller after the interval pays for a fetch. ``sequence`` grows when the bytes change, so a
    viewer sends each distinct frame once.
    """

    def __init__(
        self,
        fetch: Callable[[], bytes | None],
        max_fps: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if max_fps <= 0:
            raise ValueError("max_fps must be positive")
        self.fetch = fetch
        self.interval = 1.0 / max_fps
        self.clock = clock
        self._lock = threading.Lock()
        self._jpeg: bytes | None = None
        self._sequence = 0
        self._fetched_at: float | None = None
        self.fetches = 0

    def latest(self) -> tuple[int, bytes | None]:
        with self._lock:
            now = self.clock()
            if self._fetched_at is None or now - self._fetched_at >= self.interval:
                self._fetched_at = now
                self.fetches += 1
                jpeg = self.fetch()
                if jpeg is not None and jpeg != self._jpeg:
                    self._jpeg = jpeg
                    self._sequence += 1
            return self._sequence, self._jpeg


def mjpeg_part(jpeg: bytes) -> bytes:
    head = (
        f"--{MJPEG_BOUNDARY}\r\nContent-Type: image/jpeg\r\nContent-Length: {len(jpeg)}\r\n\r\n"
    ).encode("ascii")
    return head + jpeg + b"\r\n"


def mjpeg_stream(
    feed: JpegFeed,
    *,
    stopping: threading.Event | None = None,
    max_seconds: float | None = None,
    resend_after_s: float = 2.0,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> Iterator[bytes]:
    """Yield multipart/x-mixed-replace parts, one per new frame, until the viewer leaves.

    An unchanged frame is sent again after ``resend_after_s`` so a paused camera still lets the
    server notice a viewer who closed the page (the write fails) and free its thread.
    """
    started = clock()
    last_sequence = -1
    last_sent = started
    while stopping is None or not stopping.is_set():
        now = clock()
        if max_seconds is not None and now - started >= max_seconds:
            return
        sequence, jpeg = feed.latest()
        if jpeg is not None and (sequence != last_sequence or now - last_sent >= resend_after_s):
            last_sequence = sequence
            last_sent = now
            yield mjpeg_part(jpeg)
        sleep(feed.interval)


class StreamSlots:
    """At most ``limit`` long-lived streams at once.

    Each stream holds a server thread for as long as a viewer watches; keeping a few threads out
    of their reach means page loads, the API and corrections are always answered, and a crowd
    beyond the limit gets a clear 503 instead of a hanging page.
    """

    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise ValueError("the stream limit must be at least 1")
        self.limit = limit
        self._free = threading.BoundedSemaphore(limit)
        self._lock = threading.Lock()
        self.in_use = 0

    def take(self) -> bool:
        if not self._free.acquire(blocking=False):
            return False
        with self._lock:
            self.in_use += 1
        return True

    def _release(self) -> None:
        with self._lock:
            self.in_use -= 1
        self._free.release()

    def hold(self, stream: Iterator[Any]) -> HeldStream:
        """Wrap a stream taken with ``take()``; its slot is freed when the server closes it."""
        return HeldStream(stream, self._release)


class HeldStream:
    """An iterator that frees its stream slot on ``close()``, even if it never started."""

    def __init__(self, stream: Iterator[Any], release: Callable[[], None]) -> None:
        self._stream = stream
        self._release = release
        self._closed = False

    def __iter__(self) -> HeldStream:
        return self

    def __next__(self) -> Any:
        return next(self._stream)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            close = getattr(self._stream, "close", None)
            if close is not None:
                close()
        finally:
            self._release()
