"""The page when the session cannot see some cells: the question reaches every phone as a
toast in the viewer's language, and the cells are marked (Chromium against the real server)."""

from __future__ import annotations

import pytest
from companion.web.app import create_app
from companion.web.server import serve_in_background
from test_browser_demo import CHROMIUM, CHROMIUM_ARGS, wait_for
from test_web_fake import FakeSession

pytestmark = [pytest.mark.browser]
sync_api = pytest.importorskip("playwright.sync_api")


def test_a_question_about_hidden_cells_is_shown_as_a_toast():
    session = FakeSession()
    session.play("B2")
    server = serve_in_background(create_app(session, "1357", heartbeat_s=0.5), viewers=2)
    try:
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page()
            page.goto(server.url + "/")
            wait_for(page, "document.getElementById('live-dot').classList.contains('on')", 15)
            session.mismatch = ["E5", "F5"]
            session.emit(
                {
                    "type": "unseen",
                    "cells": ["E5", "F5"],
                    "message": "Cannot see E5, F5: green's move may be there.",
                }
            )
            wait_for(
                page, "window.companionMetrics.toasts.some(m => m.startsWith('Cannot see E5 F5'))"
            )
            # the page fetched the state again: the cells asked about are marked on the board
            wait_for(page, "document.querySelectorAll('#board .mismatch').length === 2")
            # ... and with why the camera could not read them, each cell says it
            session.emit(
                {
                    "type": "unseen",
                    "cells": ["E5", "F5"],
                    "reasons": {"E5": "glare", "F5": "hand"},
                    "message": "Cannot see E5 (glare), F5 (a hand): green's move may be there.",
                }
            )
            wait_for(
                page,
                "window.companionMetrics.toasts.some("
                "m => m.startsWith('Cannot see E5 (glare) F5 (a hand)'))",
            )
            browser.close()
    finally:
        server.stop()
