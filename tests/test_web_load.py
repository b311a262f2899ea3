"""Twenty viewers at once on the real server (waitress, loopback): everyone gets the live events
and the camera, and the page still loads while all forty streams are open. Bounded in time; the
cost to the referee in missed frames is measured by ``companion bench web``, not asserted here."""

from __future__ import annotations

import http.client
import threading
import time

import pytest
from companion.web.app import create_app
from companion.web.server import serve_in_background, streams_for
from test_web_fake import FakeSession

VIEWERS = 20


@pytest.fixture
def crowd_server():
    session = FakeSession()
    app = create_app(session, "2468", max_streams=streams_for(VIEWERS), heartbeat_s=1.0)
    server = serve_in_background(app, viewers=VIEWERS)
    yield session, server
    server.stop()


def open_stream(
    port: int, path: str
) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", path)
    return conn, conn.getresponse()


def read_until(response: http.client.HTTPResponse, marker: bytes, limit: int = 2_000_000) -> bytes:
    seen = b""
    while marker not in seen and len(seen) < limit:
        chunk = response.read1(65536)
        if not chunk:
            break
        seen += chunk
    return seen


def test_twenty_viewers_with_events_and_camera(crowd_server):
    session, server = crowd_server
    port = server.server.effective_port
    streams = []
    for _ in range(VIEWERS):
        streams.append(open_stream(port, "/api/events"))
        streams.append(open_stream(port, "/api/stream.mjpg"))
    assert all(response.status == 200 for _, response in streams)

    # a newcomer's page and a correction are still served while 40 streams are held
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/")
    assert conn.getresponse().read().startswith(b"<!doctype html>")
    conn.request(
        "POST",
        "/api/correct",
        body='{"cell": "C3", "value": "G"}',
        headers={"X-Table-PIN": "2468", "Content-Type": "application/json"},
    )
    corrected = conn.getresponse()
    assert corrected.status == 200
    corrected.read()
    # one stream too many is told so at once instead of hanging
    conn.request("GET", "/api/events")
    crowded = conn.getresponse()
    assert crowded.status == 503
    crowded.read()
    conn.close()

    # every viewer gets the camera and, live, the next ruling
    received = {}

    def follow(index: int, response: http.client.HTTPResponse) -> None:
        received[index] = read_until(response, b"event: ruling")

    events = [response for i, (_, response) in enumerate(streams) if i % 2 == 0]
    cameras = [response for i, (_, response) in enumerate(streams) if i % 2 == 1]
    threads = [threading.Thread(target=follow, args=(i, r)) for i, r in enumerate(events)]
    for thread in threads:
        thread.start()
    time.sleep(0.3)
    session.play("B2")
    for thread in threads:
        thread.join(timeout=15)
    assert len(received) == VIEWERS
    assert all(b'"place":"B2"' in text or b'"move":1' in text for text in received.values())
    for camera in cameras:
        assert b"Content-Type: image/jpeg" in read_until(camera, b"\xff\xd9")
    for conn, _ in streams:
        conn.close()
