"""Validate the JSON bodies of the write endpoints before they reach the session.

Pure functions: each takes the decoded body (any JSON value) and returns clean arguments or raises
``PayloadError`` whose message says exactly what is wrong, so the page and API users get a clear
400 instead of a traceback. Game rules (player counts, team sizes, seating) are the referee's job:
its ``SetupError`` comes back through the session with its own code and message.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from companion.cells import CellError, cell_name, parse_cell

COLORS = ("blue", "green", "red")
CELL_VALUES = (".", "B", "G", "R")
ORIENTATIONS = (0, 90, 180, 270)
MAX_PLAYERS = 12
MAX_NAME_LENGTH = 24
MAX_OPTIONS = 32
# Rule options the page may set. Others (a layout file path, hand sizes) are for records and the
# command line, never for a request from the network.
TABLE_OPTIONS = frozenset(
    {
        "overlap",
        "sequences_needed",
        "needed_by",
        "sequence_length",
        "corners_free",
        "dead_card_limit",
        "one_eyed_can_break_sequences",
        "deck_exhaustion",
        "forgotten_draw",
        "table_talk_penalty",
        "no_move_policy",
        "full_board",
    }
)
CARD_PATTERN = re.compile(r"^(10|[2-9TJQKA])[SHDC]$")
# Sequence Numbers cards: an equation ("3+4", "12-5"), a number, PLUS or MINUS.
NUMBERS_CARD_PATTERN = re.compile(r"^(\d{1,2}\s*[+-]\s*\d{1,2}|\d{1,2}|PLUS|MINUS)$")


class PayloadError(ValueError):
    """A request body that cannot be used; ``code`` is machine-readable, ``str()`` is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _require_object(body: Any) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise PayloadError("bad_body", "send a JSON object (or form fields) as the request body")
    return body


def _text(body: dict[str, Any], key: str, *, required: bool = True) -> str | None:
    value = body.get(key)
    if value is None or value == "":
        if required:
            raise PayloadError("missing_field", f"'{key}' is required")
        return None
    if not isinstance(value, str):
        raise PayloadError("bad_field", f"'{key}' must be a string")
    return value.strip()


def parse_card(value: Any) -> str:
    """``"7s"`` -> ``"7S"``; ``"10H"`` and ``"TH"`` are both accepted as given (upper-cased),
    as are Sequence Numbers cards (``"3+4"``, ``"PLUS"``). The session checks the card against
    the game being played."""
    text = value.strip().upper() if isinstance(value, str) else ""
    if not (CARD_PATTERN.match(text) or NUMBERS_CARD_PATTERN.match(text)):
        raise PayloadError(
            "bad_card",
            f"{value!r} is not a card; use rank then suit, e.g. 7S, 10H, QD, JC "
            "(suits S H D C), or in Sequence Numbers an equation such as 3+4, PLUS or MINUS",
        )
    return text.replace(" ", "")


def _cell(value: Any) -> str:
    try:
        return cell_name(parse_cell(value))
    except CellError as exc:
        raise PayloadError("bad_cell", str(exc)) from None


@dataclass(frozen=True, slots=True)
class CellCorrection:
    cell: str
    value: str


def parse_cell_correction(body: Any) -> CellCorrection:
    body = _require_object(body)
    if body.get("cell") in (None, ""):
        raise PayloadError("missing_field", "'cell' is required")
    cell = _cell(body["cell"])
    value = _text(body, "value")
    value = "." if value in ("", "empty") else value.upper()
    if value not in CELL_VALUES:
        raise PayloadError(
            "bad_value", f"'value' must be one of . B G R (empty, blue, green, red), not {value!r}"
        )
    return CellCorrection(cell, value)


@dataclass(frozen=True, slots=True)
class CardDeclaration:
    card: str
    player: str | None


def parse_card_declaration(body: Any) -> CardDeclaration:
    body = _require_object(body)
    card = parse_card(_text(body, "card"))
    player = _text(body, "player", required=False)
    return CardDeclaration(card, player)


@dataclass(frozen=True, slots=True)
class SequenceChoice:
    color: str
    cells: list[str]


def parse_sequence_choice(body: Any) -> SequenceChoice:
    body = _require_object(body)
    color = _text(body, "color")
    if color not in COLORS:
        raise PayloadError("bad_color", f"'color' must be one of {', '.join(COLORS)}")
    cells = body.get("cells")
    if isinstance(cells, str):
        cells = [c for c in re.split(r"[\s,]+", cells) if c]
    if not isinstance(cells, list) or len(cells) != 5:
        raise PayloadError("bad_cells", "'cells' must list exactly five cells, e.g. B2 C3 D4 E5 F6")
    names = [_cell(c) for c in cells]
    if len(set(names)) != 5:
        raise PayloadError("bad_cells", "'cells' names the same cell twice")
    return SequenceChoice(color, names)


MAX_CORNER_PIXELS = 100_000  # a corner farther out than this is no camera's pixel


@dataclass(frozen=True, slots=True)
class CalibrationRequest:
    orientation: int | None
    capture_empty: bool
    # the board's four outer corners the table marked on the camera picture (frame pixels);
    # ``()`` to locate the board by itself again; None: as before
    corners: tuple[tuple[float, float], ...] | None = None


def parse_calibration(body: Any) -> CalibrationRequest:
    body = _require_object(body)
    corners = _corners(body["corners"]) if "corners" in body else None
    orientation = body.get("orientation")
    if orientation in (None, ""):
        orientation = None
    else:
        try:
            orientation = int(orientation)
        except (TypeError, ValueError):
            orientation = -1
        if orientation not in ORIENTATIONS:
            raise PayloadError("bad_orientation", "'orientation' must be 0, 90, 180 or 270")
    capture = body.get("capture_empty", False)
    capture = capture in (True, "1", "true", "on", "yes")
    if orientation is None and not capture and corners is None:
        raise PayloadError(
            "nothing_to_do",
            "send 'orientation' (0/90/180/270), 'corners' and/or 'capture_empty': true",
        )
    return CalibrationRequest(orientation, capture, corners)


def _corners(value: Any) -> tuple[tuple[float, float], ...]:
    """``corners``: four [x, y] frame pixels (the board's outer corners, any order), or null
    or [] to let the camera find the board by itself again."""
    if value is None or value == []:
        return ()
    message = "'corners' must be four [x, y] points in camera pixels, or null"
    if not isinstance(value, list) or len(value) != 4:
        raise PayloadError("bad_corners", message)
    points = []
    for point in value:
        if not isinstance(point, list) or len(point) != 2:
            raise PayloadError("bad_corners", message)
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in point):
            raise PayloadError("bad_corners", message)
        x, y = float(point[0]), float(point[1])
        if not (abs(x) <= MAX_CORNER_PIXELS and abs(y) <= MAX_CORNER_PIXELS):
            raise PayloadError("bad_corners", message)  # (NaN fails this too)
        points.append((x, y))
    return tuple(points)


def parse_setup(body: Any) -> dict[str, Any]:
    """Check the shape of a new-game setup and return it normalised for ``session.new_game``.

    ``{"variant": "classic", "options": {...}, "players": [{"name": "Ann", "team": "blue"}, ...]}``;
    the list order is the seating order (clockwise from the first player).
    """
    body = _require_object(body)
    variant = _text(body, "variant", required=False) or "classic"
    if not re.fullmatch(r"[a-z0-9_]{1,24}", variant):
        raise PayloadError("bad_variant", f"'variant' {variant!r} is not a preset name")
    options = body.get("options") or {}
    if not isinstance(options, dict) or len(options) > MAX_OPTIONS:
        raise PayloadError("bad_options", "'options' must be an object of option: value")
    for key, value in options.items():
        if key not in TABLE_OPTIONS:
            raise PayloadError(
                "bad_options",
                f"option {key!r} cannot be set from the page; options: "
                + ", ".join(sorted(TABLE_OPTIONS)),
            )
        if not isinstance(value, str | int | float | bool) or isinstance(value, dict | list):
            raise PayloadError("bad_options", f"option {key!r} must be a string, number or boolean")
    players = body.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= MAX_PLAYERS:
        raise PayloadError(
            "bad_players", f"'players' must list 2 to {MAX_PLAYERS} players in seating order"
        )
    seen: set[str] = set()
    clean = []
    for seat, player in enumerate(players, start=1):
        if not isinstance(player, dict):
            raise PayloadError("bad_players", f"player {seat} must be an object with name and team")
        name = player.get("name")
        if not isinstance(name, str) or not name.strip():
            raise PayloadError("bad_player_name", f"player {seat} needs a name")
        name = name.strip()
        if len(name) > MAX_NAME_LENGTH:
            raise PayloadError(
                "bad_player_name", f"player {seat}'s name is longer than {MAX_NAME_LENGTH} letters"
            )
        if name.casefold() in seen:
            raise PayloadError("duplicate_player", f"two players are called {name!r}")
        seen.add(name.casefold())
        team = player.get("team")
        if team not in COLORS:
            raise PayloadError(
                "bad_team", f"player {seat} ({name}) needs a team colour: {', '.join(COLORS)}"
            )
        clean.append({"name": name, "team": team})
    return {"variant": variant, "options": dict(options), "players": clean}
