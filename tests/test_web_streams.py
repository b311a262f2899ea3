"""SSE and MJPEG generators, the shared camera feed and the PIN guard, without a server."""

from __future__ import annotations

import json
import threading

import pytest
from companion.web.pin import PinGuard, PinVerdict, generate_pin, pins_match
from companion.web.streams import (
    MJPEG_BOUNDARY,
    JpegFeed,
    format_sse,
    mjpeg_stream,
    sse_stream,
)
from test_web_fake import FakeSession


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def parse_sse(text: str) -> tuple[str, dict]:
    fields = dict(line.split(": ", 1) for line in text.strip().splitlines())
    return fields["event"], json.loads(fields["data"])


def test_format_sse_is_one_json_line():
    text = format_sse("ruling", {"message": "two\nlines", "name": "Søren"}, 7)
    assert text == 'id: 7\nevent: ruling\ndata: {"message":"two\\nlines","name":"Søren"}\n\n'


def test_sse_sends_state_then_rulings_and_skips_frame_ticks():
    session = FakeSession()
    stream = sse_stream(session, heartbeat_s=0.05)
    assert next(stream).startswith("retry:")
    kind, data = parse_sse(next(stream))
    assert kind == "state"
    assert data["state"]["turn"] == 1
    session.emit({"type": "frame", "index": 3})
    session.play("B2")
    kind, data = parse_sse(next(stream))
    assert kind == "ruling"
    assert data["ruling"]["move"] == 1
    assert data["sent_at"] > 0
    kind, data = parse_sse(next(stream))
    assert kind == "state"
    assert data["state"]["board"][1][1] == "B"
    assert next(stream) == ": keep-alive\n\n"  # nothing happened for a heartbeat
    assert len(session.subscribers) == 1
    stream.close()  # the viewer left
    assert session.subscribers == []


def test_sse_stops_when_the_server_stops():
    session = FakeSession()
    stopping = threading.Event()
    stream = sse_stream(session, heartbeat_s=0.01, stopping=stopping)
    next(stream), next(stream)
    stopping.set()
    assert list(stream) in ([], [": keep-alive\n\n"])
    assert session.subscribers == []


def test_jpeg_feed_fetches_at_most_max_fps_for_all_viewers():
    clock = FakeClock()
    frames = iter([b"one", b"one", b"two"])
    feed = JpegFeed(lambda: next(frames), max_fps=10, clock=clock)
    assert feed.latest() == (1, b"one")
    for _ in range(20):  # twenty viewers in the same tenth of a second
        assert feed.latest() == (1, b"one")
    assert feed.fetches == 1
    clock.now += 0.1
    assert feed.latest() == (1, b"one")  # same bytes: same frame number
    clock.now += 0.1
    assert feed.latest() == (2, b"two")
    assert feed.fetches == 3


def test_jpeg_feed_rejects_a_silly_rate():
    with pytest.raises(ValueError):
        JpegFeed(lambda: None, max_fps=0)


def test_mjpeg_sends_each_new_frame_once_and_repeats_when_idle():
    clock = FakeClock()
    shots = {"n": 0}

    def fetch():
        shots["n"] += 1
        return b"\xff\xd8frame-a" if shots["n"] < 5 else b"\xff\xd8frame-b"

    feed = JpegFeed(fetch, max_fps=10, clock=clock)
    parts = list(
        mjpeg_stream(feed, max_seconds=3.0, resend_after_s=2.0, sleep=clock.sleep, clock=clock)
    )
    bodies = [part.split(b"\r\n\r\n", 1)[1] for part in parts]
    # frame a, frame b when it arrives, then b again after 2 s without news
    assert bodies == [b"\xff\xd8frame-a\r\n", b"\xff\xd8frame-b\r\n", b"\xff\xd8frame-b\r\n"]
    head = parts[0].split(b"\r\n\r\n", 1)[0].decode()
    assert head.startswith(f"--{MJPEG_BOUNDARY}\r\nContent-Type: image/jpeg")
    assert "Content-Length: 9" in head


def test_mjpeg_waits_for_a_first_frame():
    clock = FakeClock()
    feed = JpegFeed(lambda: None, max_fps=5, clock=clock)
    assert list(mjpeg_stream(feed, max_seconds=1.0, sleep=clock.sleep, clock=clock)) == []


def test_generated_pins_are_six_digits_and_vary():
    pins = {generate_pin() for _ in range(50)}
    assert all(len(p) == 6 and p.isdigit() for p in pins)
    assert len(pins) > 40


def test_pins_match_exactly_ignoring_surrounding_space():
    assert pins_match("123456", " 123456 ")
    assert not pins_match("123456", "12345")
    assert not pins_match("123456", "1234567")


def test_pin_guard_locks_out_and_forgives_after_the_window():
    clock = FakeClock()
    guard = PinGuard("4242", max_failures=3, window_s=60, clock=clock)
    assert guard.check(None, "phone") is PinVerdict.MISSING
    for _ in range(3):
        assert guard.check("0000", "phone") is PinVerdict.WRONG
    assert guard.check("4242", "phone") is PinVerdict.LOCKED
    assert guard.check("4242", "laptop") is PinVerdict.OK  # other clients are not punished
    assert 1 <= guard.retry_after("phone") <= 61
    clock.now += 61
    assert guard.check("4242", "phone") is PinVerdict.OK


def test_pin_guard_refuses_an_empty_pin():
    with pytest.raises(ValueError):
        PinGuard("  ")


def test_stream_slots_are_freed_even_when_a_stream_never_started():
    from companion.web.streams import StreamSlots

    slots = StreamSlots(1)
    assert slots.take()
    assert not slots.take()
    held = slots.hold(iter(["a", "b"]))
    held.close()  # the client vanished before the first byte
    held.close()  # closing twice frees once
    assert slots.in_use == 0
    assert slots.take()
    with pytest.raises(ValueError):
        StreamSlots(0)
