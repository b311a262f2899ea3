"""A small MJPEG-over-HTTP camera: serves frames the way phone camera apps do.

IP Webcam, DroidCam and most network cameras send ``multipart/x-mixed-replace`` over HTTP: one
JPEG per part, forever. :class:`MjpegServer` does the same from a video file, a frame folder or
any list of images, so the live path (``StreamSource``, reconnection, the session) can be tested
against a real socket, and ``companion serve --source http://...`` can be tried without a phone::

    python -m companion.capture.mjpeg_server sample_images/demo_game/game.mp4 --port 8080
    companion serve --source http://127.0.0.1:8080/video

Frames are paced by a :class:`FrameFeed`, a camera clock shared by successive servers: a server
that is stopped (the phone app killed) and started again on the same port carries on with the
frame the camera shows *now*, and the frames of the outage are lost, as with a real camera.
Only the standard library's ``http.server`` is used; it is a test and demo tool, not hardened
for the internet (it binds to 127.0.0.1 unless told otherwise).
"""

from __future__ import annotations

import argparse
import contextlib
import socket
import sys
import threading
import time
from collections.abc import Callable, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import cv2
import numpy as np

BOUNDARY = "frame"
STREAM_PATH = "/video"  # IP Webcam's path; DroidCam uses /mjpegfeed, both are served
STREAM_PATHS = (STREAM_PATH, "/mjpegfeed")
SHOT_PATH = "/shot.jpg"


class FrameFeed:
    """JPEG frames on a clock: frame ``k`` is due ``k / fps`` seconds after the first request.

    ``next_jpeg(after)`` blocks until a frame newer than ``after`` is due and returns
    ``(index, jpeg)``, skipping frames that fell due while nobody was reading (an outage);
    ``None`` once the last frame has been served (``loop`` starts again instead). An ``fps``
    above the frames' own rate plays them faster.
    """

    def __init__(
        self,
        frames: Sequence[np.ndarray],
        fps: float = 15.0,
        quality: int = 85,
        loop: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not frames:
            raise ValueError("a frame feed needs at least one frame")
        if not fps > 0:
            raise ValueError(f"fps must be above 0, not {fps}")
        self.fps = float(fps)
        self.loop = loop
        self._clock = clock
        self._jpegs: list[bytes | None] = [None] * len(frames)
        self._frames = list(frames)
        self._quality = int(quality)
        self._lock = threading.Lock()
        self._started: float | None = None
        self._stopped = threading.Event()

    def __len__(self) -> int:
        return len(self._frames)

    def jpeg(self, index: int) -> bytes:
        """Frame ``index`` as JPEG (encoded once, then cached)."""
        with self._lock:
            data = self._jpegs[index]
            if data is None:
                ok, buf = cv2.imencode(
                    ".jpg", self._frames[index], [cv2.IMWRITE_JPEG_QUALITY, self._quality]
                )
                if not ok:  # pragma: no cover - imencode fails only on invalid images
                    raise ValueError(f"frame {index} cannot be encoded as JPEG")
                data = self._jpegs[index] = buf.tobytes()
            return data

    def due(self) -> int:
        """The index of the frame the camera shows now (may be past the end)."""
        now = self._clock()
        with self._lock:
            if self._started is None:
                self._started = now
            return int((now - self._started) * self.fps)

    def next_jpeg(self, after: int = -1) -> tuple[int, bytes] | None:
        """The next frame after ``after`` once it is due, or ``None`` at the end."""
        while not self._stopped.is_set():
            index = self.due()
            if index > after:
                if index >= len(self._frames):
                    if not self.loop:
                        return None
                    index %= len(self._frames)
                return index, self.jpeg(index)
            with self._lock:
                start = self._started or self._clock()
            wait = start + (after + 1) / self.fps - self._clock()
            self._stopped.wait(max(0.001, min(wait, 0.05)))
        return None

    def close(self) -> None:
        """Wake and end every client (used when the process shuts down)."""
        self._stopped.set()


class MjpegServer:
    """Serve a :class:`FrameFeed` on ``http://HOST:PORT/video`` (port 0: the OS picks one).

    ``stop()`` drops every open connection at once, like a phone app that is killed; ``start()``
    again (a new object on the same ``port``) brings the camera back.
    """

    def __init__(self, feed: FrameFeed, host: str = "127.0.0.1", port: int = 0) -> None:
        self.feed = feed
        self._clients: set[socket.socket] = set()
        self._clients_lock = threading.Lock()
        self._httpd = ThreadingHTTPServer((host, port), self._handler_class())
        self._httpd.daemon_threads = True
        self.host, self.port = self._httpd.server_address[:2]
        self._thread: threading.Thread | None = None
        self.frames_sent = 0

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}{STREAM_PATH}"

    def start(self) -> MjpegServer:
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop listening and cut every client off mid-stream."""
        if self._thread is not None:
            self._httpd.shutdown()  # waits for serve_forever, so only once it runs
        self._httpd.server_close()
        with self._clients_lock:
            clients = list(self._clients)
            self._clients.clear()
        for conn in clients:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
            conn.close()
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None

    def __enter__(self) -> MjpegServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"

            def do_GET(self) -> None:  # noqa: N802 - the http.server API
                path = self.path.split("?", 1)[0]
                if path in STREAM_PATHS:
                    server._stream(self)
                elif path == SHOT_PATH:
                    server._shot(self)
                else:
                    self.send_error(404, f"try {STREAM_PATH} or {SHOT_PATH}")

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002
                pass  # a camera does not log every request

        return Handler

    def _shot(self, handler: BaseHTTPRequestHandler) -> None:
        index = min(self.feed.due(), len(self.feed) - 1)
        data = self.feed.jpeg(index)
        handler.send_response(200)
        handler.send_header("Content-Type", "image/jpeg")
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)

    def _stream(self, handler: BaseHTTPRequestHandler) -> None:
        conn = handler.connection
        with self._clients_lock:
            self._clients.add(conn)
        try:
            handler.send_response(200)
            handler.send_header("Content-Type", f"multipart/x-mixed-replace; boundary={BOUNDARY}")
            handler.send_header("Cache-Control", "no-cache")
            handler.end_headers()
            last = -1
            while (item := self.feed.next_jpeg(last)) is not None:
                last, data = item
                part = (
                    f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\n"
                    f"Content-Length: {len(data)}\r\n\r\n"
                ).encode("ascii")
                handler.wfile.write(part + data + b"\r\n")
                handler.wfile.flush()
                self.frames_sent += 1
        except OSError:
            pass  # the client left, or stop() cut the connection
        finally:
            with self._clients_lock:
                self._clients.discard(conn)


def load_frames(path: str, limit: int | None = None) -> tuple[list[np.ndarray], float]:
    """Frames (and their rate) of a video file or a frame folder, through ``open_source``."""
    from companion.capture.sources import open_source

    frames = []
    with open_source(path) as source:
        fps = source.fps
        for frame in source:
            frames.append(frame.image)
            if limit is not None and len(frames) >= limit:
                break
    return frames, fps


def main(argv: list[str] | None = None) -> int:
    from companion.capture.sources import CaptureError

    parser = argparse.ArgumentParser(
        prog="python -m companion.capture.mjpeg_server",
        description="Serve a video or a frame folder as an MJPEG stream, like a phone camera app.",
    )
    parser.add_argument("source", help="video file or folder of frames")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8080, help="0 lets the OS pick one")
    parser.add_argument("--fps", type=float, default=None, help="default: the video's own rate")
    parser.add_argument("--loop", action="store_true", help="start again at the end")
    args = parser.parse_args(argv)
    try:
        frames, fps = load_frames(args.source)
        feed = FrameFeed(frames, fps=args.fps or fps, loop=args.loop)
        server = MjpegServer(feed, args.host, args.port)
    except CaptureError as exc:
        print(f"mjpeg_server: {exc.message}", file=sys.stderr)
        return 2
    except (ValueError, OSError) as exc:
        print(f"mjpeg_server: {exc}", file=sys.stderr)
        return 2
    print(f"serving {len(frames)} frames at {feed.fps:g} fps on {server.url}", flush=True)
    server.start()
    try:
        while server._thread is not None and server._thread.is_alive():
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        feed.close()
        server.stop()
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
