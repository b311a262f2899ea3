"""The Flask app: ``create_app(session, pin)``.

The app talks only to a ``companion.session.GameSession`` (or anything with the same methods).
Pages and reads are open to everyone at the table; every request that changes the game must carry
the table PIN (header ``X-Table-PIN`` or form field ``pin``).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from companion.web import i18n
from companion.web.pin import PinGuard
from companion.web.streams import JpegFeed, StreamSlots
from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

DEFAULT_MAX_BODY_BYTES = 64 * 1024
DEFAULT_STREAM_FPS = 5.0  # enough to watch the table; halves the cost of 20 streams vs 10
DEFAULT_MAX_STREAMS = 40  # 20 viewers, each with the events and the camera stream

SECURITY_HEADERS = {
    # Everything is served from this origin: no CDN, no inline script.
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self'; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


@dataclass
class WebContext:
    """What the request handlers share; stored in ``app.extensions["companion"]``."""

    session: Any
    guard: PinGuard
    camera: JpegFeed
    stopping: threading.Event
    heartbeat_s: float
    streams: StreamSlots


def create_app(
    session: Any,
    pin: str,
    *,
    stream_fps: float = DEFAULT_STREAM_FPS,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    heartbeat_s: float = 5.0,
    max_streams: int = DEFAULT_MAX_STREAMS,
) -> Flask:
    """Build the web app around a running ``GameSession`` and the table PIN.

    The page's calibration step calls ``session.calibrate(orientation=..., capture_empty=...)``;
    a session without that method answers it with 501.
    """
    from companion.web.api import api

    app = Flask(__name__, static_folder="static", template_folder="templates")
    app.config.update(
        MAX_CONTENT_LENGTH=max_body_bytes,
        MAX_FORM_MEMORY_SIZE=max_body_bytes,
        MAX_FORM_PARTS=64,
        SEND_FILE_MAX_AGE_DEFAULT=300,
    )
    app.json.ensure_ascii = False
    app.json.sort_keys = False
    app.extensions["companion"] = WebContext(
        session=session,
        guard=PinGuard(pin),
        camera=JpegFeed(lambda: session.latest_jpeg(annotated=True), max_fps=stream_fps),
        stopping=threading.Event(),
        heartbeat_s=heartbeat_s,
        streams=StreamSlots(max_streams),
    )
    app.register_blueprint(api)

    @app.get("/")
    def page():
        chosen = request.args.get("lang") or request.cookies.get("lang")
        lang = i18n.negotiate(chosen, request.headers.get("Accept-Language"))
        return render_template(
            "index.html", lang=lang, languages=i18n.languages(), catalog=i18n.catalog_for(lang)
        )

    @app.after_request
    def add_headers(response):
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        if request.path.startswith("/api/"):
            response.headers.setdefault("Cache-Control", "no-store")
        return response

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        code = {
            400: "bad_request",
            401: "pin_required",
            403: "forbidden",
            404: "not_found",
            405: "method_not_allowed",
            413: "too_large",
            415: "unsupported_media_type",
            429: "too_many_requests",
            503: "unavailable",
        }.get(exc.code or 500, "http_error")
        message = exc.description or exc.name
        if exc.code == 413:
            message = f"request body is larger than the {max_body_bytes // 1024} KB limit"
        if exc.code == 404 and not request.path.startswith("/api/"):
            return f"Not found: {request.path}\n", 404, {"Content-Type": "text/plain"}
        return error_response(exc.code or 500, code, message)

    @app.errorhandler(Exception)
    def internal_error(exc: Exception):
        app.logger.exception("unexpected error in %s %s", request.method, request.path)
        return error_response(500, "internal_error", "the companion hit an internal error")

    return app


def error_response(status: int, code: str, message: str, **headers: str):
    response = jsonify({"error": {"code": code, "message": message}})
    response.status_code = status
    for name, value in headers.items():
        response.headers[name.replace("_", "-")] = value
    return response
