"""The page when every live slot is taken: it still shows the game, then goes live when a slot
frees (Chromium against the real waitress server; the game is a scripted fake session)."""

from __future__ import annotations

import http.client

import pytest
from companion.web.app import create_app
from companion.web.server import serve_in_background
from test_browser_demo import CHROMIUM, CHROMIUM_ARGS, wait_for
from test_web_fake import FakeSession

pytestmark = [pytest.mark.browser]
sync_api = pytest.importorskip("playwright.sync_api")


def test_a_full_house_degrades_to_polling_then_goes_live():
    session = FakeSession()
    session.play("B2")
    server = serve_in_background(
        create_app(session, "1357", max_streams=1, heartbeat_s=0.5), viewers=2
    )
    port = server.server.effective_port
    hog = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    hog.request("GET", "/api/events")
    held = hog.getresponse()  # keep a reference: dropping it may close the socket
    assert held.status == 200  # the only live slot is taken
    try:
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page()
            page.goto(server.url + "/")
            wait_for(page, "document.querySelectorAll('#rulings li').length === 1")
            assert not page.evaluate("document.getElementById('live-dot').classList.contains('on')")
            held.close()  # a viewer leaves
            hog.close()
            wait_for(page, "document.getElementById('live-dot').classList.contains('on')", 15)
            session.play("C3")
            wait_for(page, "document.querySelectorAll('#rulings li').length === 2", 5)
            browser.close()
    finally:
        hog.close()
        server.stop()
