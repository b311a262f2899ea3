"""Run the app under waitress (a production WSGI server), in the foreground or in a thread.

Every viewer holds two long-lived requests (the SSE events and the MJPEG camera stream), and
waitress serves one request per worker thread, so the thread count is sized for the viewers.
"""

from __future__ import annotations

import socket
import threading
from dataclasses import dataclass
from typing import Any

from waitress import wasyncore
from waitress.server import create_server

DEFAULT_VIEWERS = 20
STREAMS_PER_VIEWER = 2
SPARE_THREADS = 8
MAX_REQUEST_BODY = 64 * 1024
MAX_HEADER_BYTES = 16 * 1024


def streams_for(viewers: int) -> int:
    """Long-lived streams allowed at once: both streams of every viewer."""
    return viewers * STREAMS_PER_VIEWER


def threads_for(viewers: int) -> int:
    """Worker threads so ``viewers`` phones can each hold both streams and still load pages."""
    return streams_for(viewers) + SPARE_THREADS


def make_server(app: Any, host: str, port: int, *, viewers: int = DEFAULT_VIEWERS) -> Any:
    """A bound (not yet running) waitress server; ``port=0`` picks a free port.

    Raises ``OSError`` when the address is taken or not available on this machine.
    """
    return create_server(
        app,
        host=host,
        port=port,
        threads=threads_for(viewers),
        connection_limit=max(100, viewers * 4),
        channel_timeout=30,
        max_request_body_size=MAX_REQUEST_BODY,
        max_request_header_size=MAX_HEADER_BYTES,
        ident="sequence-companion",
        clear_untrusted_proxy_headers=True,
    )


def bound_port(server: Any) -> int:
    return int(server.effective_port)


@dataclass
class BackgroundServer:
    """A waitress server on a background thread (tests and benchmarks)."""

    server: Any
    thread: threading.Thread
    app: Any

    @property
    def url(self) -> str:
        host = self.server.effective_host
        return f"http://{host}:{self.server.effective_port}"

    def stop(self) -> None:
        shutdown(self.server, self.app)
        self.thread.join(timeout=5)


def serve_in_background(app: Any, host: str = "127.0.0.1", port: int = 0, **kwargs: Any):
    server = make_server(app, host, port, **kwargs)
    thread = threading.Thread(target=server.run, name="companion-web", daemon=True)
    thread.start()
    return BackgroundServer(server, thread, app)


def shutdown(server: Any, app: Any, timeout_s: float = 3.0, loop_running: bool = True) -> None:
    """Stop cleanly: end the long-lived streams, let the workers finish, close every socket."""
    app.extensions["companion"].stopping.set()
    server.task_dispatcher.shutdown(timeout=timeout_s)
    # Close the sockets from the server's own loop thread (closing them under a running
    # select() from another thread races with it); the loop ends when nothing is left.
    if not loop_running:  # e.g. run() in the foreground returned after Ctrl+C
        wasyncore.close_all(server._map)
        return
    try:
        server.trigger.pull_trigger(lambda: wasyncore.close_all(server._map))
    except OSError:  # the loop is gone already
        wasyncore.close_all(server._map)


def port_is_free(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True
