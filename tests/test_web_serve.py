"""``companion serve``: options, clear errors with documented exit codes, a real start and stop."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from companion.cli import main


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--port", "70000"], "--port 70000 is not a port number"),
        (["--speed", "0"], "--speed must be above 0"),
        (["--viewers", "0"], "--viewers must be between 1 and 200"),
        (["--pin", "12"], "--pin must be 4 to 12 letters or digits"),
        (["--source", "/no/such/video.mp4"], "cannot open source /no/such/video.mp4"),
        (["--db", "/no/such/folder/game.db"], "cannot use database"),
        (["--follow"], "--follow needs --source FOLDER"),
        (["--follow", "--source", "/no/such/video.mp4"], "--follow needs --source FOLDER"),
    ],
)
def test_bad_options_exit_2_with_one_clear_line(argv, message, capsys):
    assert main(["serve", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_follow_reads_a_frame_folder_live(tmp_path):
    from companion.cli import build_parser
    from companion.commands.serve import build_session

    args = build_parser().parse_args(["serve", "--source", str(tmp_path), "--follow"])
    session, label = build_session(args)
    try:
        assert str(tmp_path) in label
        assert session.source.live  # read as it arrives, not paced like a recording
    finally:
        session.source.close()


def test_a_taken_port_exits_3(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port), "--pin", "1234"]) == 3
    err = capsys.readouterr().err
    assert f"cannot listen on 127.0.0.1:{port}" in err


def test_serve_starts_prints_url_and_pin_and_stops_on_ctrl_c():
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "serve", "--port", "0", "--pin", "7391"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        lines = [process.stdout.readline() for _ in range(3)]
        url = re.search(r"http://127\.0\.0\.1:\d+/", lines[0]).group(0)
        assert "Table PIN: 7391" in lines[1]
        assert "demo game" in lines[2]
        state = json.load(urllib.request.urlopen(url + "api/state", timeout=10))
        assert len(state["board"]) == 10
        page = urllib.request.urlopen(url, timeout=10).read().decode()
        assert "Sequence companion" in page
        refused = urllib.request.Request(url + "api/undo", method="POST", data=b"")
        with pytest.raises(urllib.error.HTTPError) as info:
            urllib.request.urlopen(refused, timeout=10)
        assert info.value.code == 401
        # an open event stream must not keep the server from stopping
        events = urllib.request.urlopen(url + "api/events", timeout=10)
        assert events.readline().startswith(b"retry:")
        started = time.monotonic()
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=15) == 0
        assert time.monotonic() - started < 10
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_the_page_calibration_step_writes_a_calibration_file_and_uses_it(tmp_path):
    """Through the API: the table confirms the orientation, the file is written and loads, and
    the running game reads the board with it from now on."""
    from companion.calibration import load
    from companion.web.app import create_app
    from companion.web.replay import demo_video

    from companion.capture import open_source
    from companion.session import GameSession
    from companion.store import Store
    from companion.vision import BoardReader

    path = tmp_path / "table.json"
    session = GameSession(store=Store(), reader=BoardReader(), calibration_path=path)
    with open_source(str(demo_video())) as source:
        for _ in range(3):
            session.process_frame(source.read())
    app = create_app(session, "5555")
    client = app.test_client()
    refused = client.post("/api/calibration", json={"orientation": 0})
    assert refused.status_code == 401
    answer = client.post(
        "/api/calibration", json={"orientation": 0}, headers={"X-Table-PIN": "5555"}
    )
    assert answer.status_code == 200
    assert answer.get_json()["result"]["file"] == str(path)
    assert answer.get_json()["result"]["in_use"] is True
    assert session.reader.calibration is not None
    calibration = load(path)
    assert calibration.orientation == 0
    assert calibration.corners.shape == (4, 2)


def test_calibration_without_a_camera_frame_is_a_clear_400(tmp_path):
    from companion.web.app import create_app

    from companion.session import GameSession
    from companion.store import Store

    session = GameSession(store=Store(), calibration_path=tmp_path / "c.json")
    app = create_app(session, "5555")
    answer = app.test_client().post(
        "/api/calibration", json={"capture_empty": True}, headers={"X-Table-PIN": "5555"}
    )
    assert answer.status_code == 400
    assert "no camera frame yet" in answer.get_json()["error"]["message"]


def test_the_page_calibrates_at_corners_the_table_marked(tmp_path):
    """A jax-like board on blue gingham: the table taps its four corners, the calibration is
    made there and kept for the orientation and the empty board that follow, and ``corners:
    null`` lets the camera find the board by itself again (where it shows none: a clear 400)."""
    import cv2
    import numpy as np
    from companion.calibration import load
    from companion.web.app import create_app

    from companion.capture import open_source
    from companion.session import GameSession
    from companion.store import Store
    from companion.vision import BoardReader

    image = Path(__file__).parent / "data" / "independent" / "jax10_frame_0012.jpg"
    truth = json.loads(image.with_suffix(".json").read_text())
    path = tmp_path / "table.json"
    session = GameSession(store=Store(), reader=BoardReader(), calibration_path=path)
    with open_source(str(image)) as source:
        session.process_frame(source.read())
    client = create_app(session, "5555").test_client()
    pin = {"X-Table-PIN": "5555"}
    corners = [[140, 40], [540, 170], [455, 445], [55, 315]]
    answer = client.post("/api/calibration", json={"corners": corners}, headers=pin)
    assert answer.status_code == 200, answer.get_json()
    result = answer.get_json()["result"]
    assert result["placed"] is True and result["orientation"] == truth["orientation"]
    assert load(path).placed
    assert session.reader.read(session._latest.image).cells == truth["cells"]
    # the orientation confirmed next is calibrated at the same corners
    answer = client.post("/api/calibration", json={"orientation": 0}, headers=pin)
    assert answer.get_json()["result"]["placed"] is True
    # four points that make no board: a clear 400, the calibration in use stays
    bad = [[0, 0], [10, 0], [20, 0], [30, 0]]
    answer = client.post("/api/calibration", json={"corners": bad}, headers=pin)
    assert answer.status_code == 400
    assert "convex" in answer.get_json()["error"]["message"]
    assert load(path).placed
    # back to finding the board by itself: it does (since the chips on its landscape cards
    # count in the check that they sit inside their cells: a grid off the cards is refused)
    answer = client.post("/api/calibration", json={"corners": None}, headers=pin)
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["result"]["placed"] is False
    assert session.reader.read(session._latest.image).cells == truth["cells"]
    # ... and where the camera shows no board, the page says so
    blank = tmp_path / "table_only.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 120, np.uint8))
    with open_source(str(blank)) as source:
        session.process_frame(source.read())
    answer = client.post("/api/calibration", json={"corners": None}, headers=pin)
    assert answer.status_code == 400
    assert answer.get_json()["error"]["code"] == "calibration_failed"
