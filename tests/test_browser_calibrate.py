"""The page's calibration step in a real browser (Chromium against the real server): the table
taps the four corners of a board the camera does not find, and the camera reads it there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from companion.web.app import create_app
from companion.web.server import serve_in_background
from test_browser_demo import CHROMIUM, CHROMIUM_ARGS, wait_for
from test_vision_support import without_the_retoned_look

from companion.capture import open_source
from companion.session import GameSession
from companion.store import Store
from companion.vision import BoardReader

pytestmark = [pytest.mark.browser]
sync_api = pytest.importorskip("playwright.sync_api")

PIN = "246810"
# a jax-like board on blue gingham that no locator finds in the frame as it is, and its
# corners marked by eye
GINGHAM = Path(__file__).parent / "data" / "independent" / "jax10_frame_0012.jpg"
CORNERS = [(140, 40), (540, 170), (455, 445), (55, 315)]


def _tap(page, x: float, y: float) -> None:
    """Tap the camera picture at its own pixel (x, y), wherever the page has scaled it."""
    box = page.evaluate(
        "(() => { const i = document.getElementById('calibrate-frame');"
        " const r = i.getBoundingClientRect();"
        " return [r.left, r.top, r.width, r.height, i.naturalWidth, i.naturalHeight]; })()"
    )
    left, top, width, height, natural_w, natural_h = box
    scale = min(width / natural_w, height / natural_h)
    left += (width - natural_w * scale) / 2
    top += (height - natural_h * scale) / 2
    page.mouse.click(left + x * scale, top + y * scale)


@pytest.mark.parametrize("viewport", [(1280, 900), (390, 844)])  # desktop and a phone
def test_corners_tapped_on_the_camera_picture_calibrate_the_board(tmp_path, viewport, monkeypatch):
    without_the_retoned_look(monkeypatch)  # (a board not found by itself)
    truth = json.loads(GINGHAM.with_suffix(".json").read_text())
    session = GameSession(store=Store(), reader=BoardReader(), calibration_path=tmp_path / "c.json")
    with open_source(str(GINGHAM)) as source:
        session.process_frame(source.read())
    assert not session.reader.read(session._latest.image).board_found  # not found by itself
    server = serve_in_background(create_app(session, PIN), viewers=2)
    try:
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            width, height = viewport
            page = browser.new_page(viewport={"width": width, "height": height})
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(server.url + "/#calibrate")
            wait_for(page, "document.getElementById('calibrate-frame').naturalWidth > 0", 15)
            assert page.is_disabled("#use-corners")
            _tap(page, 300, 300)  # a slip: the fifth tap starts the four again
            for x, y in CORNERS:
                _tap(page, x, y)
            wait_for(page, "document.querySelectorAll('#mark-area .mark').length === 1")
            for x, y in CORNERS[:3]:  # (the last corner, tapped fifth, is the first now)
                _tap(page, x, y)
            wait_for(page, "document.querySelectorAll('#mark-area .mark').length === 4")
            assert page.text_content("#marks-status") == "4 of 4 corners marked"
            page.click("#use-corners")
            page.fill("#pin-input", PIN)
            page.click("#pin-form button[value='ok']")
            wait_for(
                page, "window.companionMetrics.toasts.some(m => m.startsWith('Corners saved'))"
            )
            wait_for(page, "document.querySelectorAll('#mark-area .mark').length === 0")
            assert errors == []
            browser.close()
    finally:
        server.stop()
    calibration = session.reader.calibration
    assert calibration is not None and calibration.placed
    # the tapped corners (a pixel or so off after the page's scaling) snapped to the grid
    assert session.reader.read(session._latest.image).cells == truth["cells"]
