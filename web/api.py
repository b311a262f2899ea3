"""The JSON API beside the page.

Reads (no PIN): ``GET /api/state``, ``/api/events`` (SSE), ``/api/stream.mjpg``, ``/api/frame.jpg``,
``/api/board.jpg``, ``/api/evidence/<move>/<before|after>.jpg``,
``/api/evidence/ruling/<id>/<before|after>.jpg``, ``/api/cards/<card>``,
``/api/record``, ``/api/i18n/<lang>``, ``/api/languages``.
Writes (PIN in ``X-Table-PIN`` or form field ``pin``): ``POST /api/pin`` (check only),
``/api/game`` (new game), ``/api/correct``, ``/api/undo``, ``/api/declare-card``,
``/api/declare-dead``, ``/api/choose-sequence``, ``/api/calibration``.
Errors are ``{"error": {"code", "message"}}`` with a 4xx status.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from companion.web import i18n, payloads
from companion.web.app import WebContext, error_response
from companion.web.pin import PinVerdict
from companion.web.streams import MJPEG_BOUNDARY, mjpeg_stream, sse_stream
from flask import Blueprint, Response, current_app, jsonify, request

api = Blueprint("api", __name__, url_prefix="/api")

PIN_HEADER = "X-Table-PIN"
EVIDENCE_KINDS = ("before", "after")


def context() -> WebContext:
    return current_app.extensions["companion"]


def request_body() -> Any:
    """The body as JSON if it is JSON, else the form fields as a dict (``{}`` when empty)."""
    if request.mimetype == "application/json":
        body = request.get_json(silent=True)
        if body is None and request.get_data():
            raise payloads.PayloadError("bad_json", "the request body is not valid JSON")
        return {} if body is None else body
    if request.form:
        return request.form.to_dict()
    if request.get_data():
        raise payloads.PayloadError(
            "unsupported_media_type", "send JSON (application/json) or form fields"
        )
    return {}


def supplied_pin() -> str | None:
    pin = request.headers.get(PIN_HEADER)
    if pin:
        return pin
    if request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
        return request.form.get("pin")
    return None


def requires_pin(view: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(view)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        guard = context().guard
        client = request.remote_addr or "unknown"
        verdict = guard.check(supplied_pin(), client)
        if verdict is PinVerdict.MISSING:
            return error_response(
                401, verdict.value, f"this changes the game: send the table PIN ({PIN_HEADER})"
            )
        if verdict is PinVerdict.WRONG:
            return error_response(403, verdict.value, "wrong table PIN")
        if verdict is PinVerdict.LOCKED:
            wait = guard.retry_after(client)
            return error_response(
                429,
                verdict.value,
                f"too many wrong PINs; try again in {wait} s",
                Retry_After=str(wait),
            )
        return view(*args, **kwargs)

    return guarded


CONFLICT_CODES = frozenset({"nothing_to_undo", "game_over", "conflict"})


def refusal(exc: Exception) -> Response | None:
    """A 4xx response for an error that is the request's fault, or ``None`` for a real bug.

    The session and the referee refuse with errors carrying ``code`` and ``message``
    (``SessionError``, ``SetupError``, ``RecordError``); plain ``ValueError``/``LookupError``
    mean a bad value too.
    """
    code = getattr(exc, "code", None)
    message = getattr(exc, "message", None)
    if isinstance(code, str) and isinstance(message, str):
        return error_response(409 if code in CONFLICT_CODES else 400, code, message)
    if isinstance(exc, ValueError | LookupError):
        return error_response(400, "bad_request", str(exc) or type(exc).__name__)
    if isinstance(exc, RuntimeError):
        return error_response(409, "conflict", str(exc))
    return None


def write(action: Callable[[Any], Any]) -> Response:
    """Parse the body, run ``action(body)`` against the session, answer with the new state."""
    try:
        body = request_body()
        result = action(body)
    except Exception as exc:
        response = refusal(exc)
        if response is None:
            raise
        return response
    payload = {"ok": True, "state": context().session.state()}
    if isinstance(result, dict):
        payload["result"] = result
    return jsonify(payload)


def jpeg_response(jpeg: bytes | None, missing_code: str, missing_message: str) -> Response:
    if not jpeg:
        return error_response(404, missing_code, missing_message)
    return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


# ---------------------------------------------------------------- reads


@api.get("/state")
def state():
    return jsonify(context().session.state())


@api.get("/events")
def events():
    ctx = context()
    if not ctx.streams.take():
        return too_many_viewers()
    stream = sse_stream(ctx.session, heartbeat_s=ctx.heartbeat_s, stopping=ctx.stopping)
    return Response(
        ctx.streams.hold(stream),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


@api.get("/stream.mjpg")
def camera_stream():
    ctx = context()
    if not ctx.streams.take():
        return too_many_viewers()
    max_seconds = request.args.get("seconds", type=float)
    stream = mjpeg_stream(ctx.camera, stopping=ctx.stopping, max_seconds=max_seconds)
    return Response(
        ctx.streams.hold(stream),
        mimetype=f"multipart/x-mixed-replace; boundary={MJPEG_BOUNDARY}",
        headers={"Cache-Control": "no-store"},
    )


def too_many_viewers() -> Response:
    limit = context().streams.limit
    return error_response(
        503,
        "too_many_viewers",
        f"all {limit} live streams are in use; close the page on another device and retry",
        Retry_After="5",
    )


@api.get("/frame.jpg")
def camera_frame():
    _, jpeg = context().camera.latest()
    return jpeg_response(jpeg, "no_frame", "no camera frame yet")


@api.get("/board.jpg")
def board_image():
    return jpeg_response(context().session.board_jpeg(), "no_board", "the board is not located yet")


@api.get("/evidence/<int:move_number>/<which>.jpg")
def evidence(move_number: int, which: str):
    if which not in EVIDENCE_KINDS:
        return error_response(404, "not_found", "evidence is 'before' or 'after'")
    if move_number < 1:
        return error_response(404, "not_found", "moves are numbered from 1")
    jpeg = context().session.evidence(move_number, which)
    return jpeg_response(jpeg, "no_evidence", f"no {which} picture for move {move_number}")


@api.get("/evidence/ruling/<int:ruling_id>/<which>.jpg")
def ruling_evidence(ruling_id: int, which: str):
    """Before/after pictures of any ruling, refused ones too, by the ruling's ``id``."""
    if which not in EVIDENCE_KINDS:
        return error_response(404, "not_found", "evidence is 'before' or 'after'")
    jpeg = context().session.ruling_evidence(ruling_id, which)
    return jpeg_response(jpeg, "no_evidence", f"no {which} picture for ruling {ruling_id}")


@api.get("/cards/<card>")
def check_card(card: str):
    try:
        clean = payloads.parse_card(card)
    except payloads.PayloadError as exc:
        return error_response(400, exc.code, exc.message)
    try:
        return jsonify(context().session.check_card(clean))
    except Exception as exc:
        response = refusal(exc)
        if response is None:
            raise
        return response


@api.get("/record")
def record():
    response = jsonify(context().session.export_record())
    if request.args.get("download"):
        response.headers["Content-Disposition"] = 'attachment; filename="sequence-game.json"'
    return response


@api.get("/languages")
def languages():
    return jsonify(i18n.languages())


@api.get("/i18n/<lang>")
def catalog(lang: str):
    if lang not in i18n.LANGUAGES:
        return error_response(404, "unknown_language", f"languages: {', '.join(i18n.LANGUAGES)}")
    response = jsonify(i18n.catalog_for(lang))
    response.headers["Cache-Control"] = "max-age=300"
    return response


# ---------------------------------------------------------------- writes (PIN)


@api.post("/pin")
@requires_pin
def check_pin():
    return jsonify({"ok": True})


@api.post("/game")
@requires_pin
def new_game():
    def action(body: Any) -> None:
        context().session.new_game(payloads.parse_setup(body))

    return write(action)


@api.post("/correct")
@requires_pin
def correct_cell():
    def action(body: Any) -> None:
        fix = payloads.parse_cell_correction(body)
        context().session.correct_cell(fix.cell, fix.value)

    return write(action)


@api.post("/undo")
@requires_pin
def undo():
    return write(lambda body: context().session.undo())


@api.post("/declare-card")
@requires_pin
def declare_card():
    def action(body: Any) -> Any:
        declared = payloads.parse_card_declaration(body)
        return context().session.declare_card(declared.card, declared.player)

    return write(action)


@api.post("/declare-dead")
@requires_pin
def declare_dead():
    def action(body: Any) -> Any:
        declared = payloads.parse_card_declaration(body)
        return context().session.declare_dead(declared.card, declared.player)

    return write(action)


@api.post("/choose-sequence")
@requires_pin
def choose_sequence():
    def action(body: Any) -> Any:
        choice = payloads.parse_sequence_choice(body)
        return context().session.choose_sequence(choice.color, choice.cells)

    return write(action)


@api.post("/calibration")
@requires_pin
def calibration():
    session = context().session
    calibrate = getattr(session, "calibrate", None)
    if calibrate is None:
        return error_response(
            501, "not_supported", "this session cannot be calibrated from the page"
        )

    def action(body: Any) -> Any:
        request_ = payloads.parse_calibration(body)
        return calibrate(
            orientation=request_.orientation,
            capture_empty=request_.capture_empty,
            corners=request_.corners,
        )

    return write(action)


@api.get("/layout")
def layout():
    variant = (context().session.state() or {}).get("variant") or "classic"
    labels = board_labels(variant)
    if labels is None:
        return error_response(404, "no_layout", f"no printed layout known for {variant!r}")
    return jsonify({"variant": variant, "cells": labels})


def board_labels(variant: str) -> list[list[str]] | None:
    """The card printed on each cell (``"*"`` for a corner), from the referee's layout data."""
    if variant == "numbers":
        return None  # the Sequence Numbers board is not public; show cell names only
    try:
        from companion.referee.layout import CORNER_LABEL, classic_layout

        labels = classic_layout().labels
    except (ImportError, AttributeError, ValueError):
        return None
    return [["*" if label == CORNER_LABEL else label for label in row] for row in labels]
