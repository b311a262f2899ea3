"""Validation of the write endpoints' bodies (pure functions)."""

from __future__ import annotations

import pytest
from companion.web.i18n import negotiate
from companion.web.payloads import (
    PayloadError,
    parse_calibration,
    parse_card,
    parse_cell_correction,
    parse_sequence_choice,
    parse_setup,
)


def players(*teams):
    return [{"name": f"P{i}", "team": team} for i, team in enumerate(teams)]


def test_setup_is_normalised_and_keeps_seating_order():
    setup = parse_setup({"players": players("blue", "green", "blue", "green")})
    assert setup["variant"] == "classic"
    assert setup["options"] == {}
    assert [p["name"] for p in setup["players"]] == ["P0", "P1", "P2", "P3"]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ("players", "bad_body"),
        ({"players": players("blue")}, "bad_players"),
        ({"players": players(*["blue", "green"] * 7)}, "bad_players"),
        (
            {"players": [{"name": "", "team": "blue"}, {"name": "B", "team": "green"}]},
            "bad_player_name",
        ),
        (
            {"players": [{"name": "x" * 25, "team": "blue"}, {"name": "B", "team": "green"}]},
            "bad_player_name",
        ),
        ({"players": ["Ann", "Bo"]}, "bad_players"),
        ({"variant": "Classic!", "players": players("blue", "green")}, "bad_variant"),
        ({"options": {"overlap": ["a"]}, "players": players("blue", "green")}, "bad_options"),
        ({"options": "fast", "players": players("blue", "green")}, "bad_options"),
        (
            {"options": {"layout": "/etc/passwd"}, "players": players("blue", "green")},
            "bad_options",
        ),
    ],
)
def test_bad_setups(body, code):
    with pytest.raises(PayloadError) as info:
        parse_setup(body)
    assert info.value.code == code
    assert info.value.message


def test_cell_correction_accepts_names_and_words():
    fix = parse_cell_correction({"cell": " j10 ", "value": "empty"})
    assert (fix.cell, fix.value) == ("J10", ".")
    assert parse_cell_correction({"cell": [0, 1], "value": "r"}).cell == "B1"


@pytest.mark.parametrize("card", ["7S", "7s", "10H", "TH", "JD", "AC", " qh ", "3+4", "plus"])
def test_cards_accepted(card):
    assert parse_card(card) == card.strip().upper()


@pytest.mark.parametrize("card", ["1S", "7X", "", "11H", "JOKER", None, 7, "3*4", "123+4"])
def test_cards_refused(card):
    with pytest.raises(PayloadError) as info:
        parse_card(card)
    assert info.value.code == "bad_card"


def test_sequence_choice_from_text_or_list():
    choice = parse_sequence_choice({"color": "green", "cells": "a2,b3 c4  d5 e6"})
    assert choice.cells == ["A2", "B3", "C4", "D5", "E6"]
    with pytest.raises(PayloadError, match="same cell twice"):
        parse_sequence_choice({"color": "green", "cells": ["A2", "A2", "C4", "D5", "E6"]})


def test_calibration_requests():
    assert parse_calibration({"orientation": "90"}).orientation == 90
    assert parse_calibration({"capture_empty": True}).capture_empty
    with pytest.raises(PayloadError):
        parse_calibration({"orientation": 45})
    with pytest.raises(PayloadError):
        parse_calibration({})


def test_calibration_corners_are_four_points_or_null():
    request = parse_calibration({"corners": [[140, 40], [540.5, 170], [455, 445], [55, 315]]})
    assert request.corners == ((140.0, 40.0), (540.5, 170.0), (455.0, 445.0), (55.0, 315.0))
    assert request.orientation is None and not request.capture_empty
    assert parse_calibration({"corners": None}).corners == ()  # found by the camera again
    assert parse_calibration({"corners": []}).corners == ()
    assert parse_calibration({"orientation": 0}).corners is None  # as before
    for bad in (
        [[1, 2], [3, 4], [5, 6]],
        [[1, 2], [3, 4], [5, 6], [7]],
        [[1, 2], [3, 4], [5, 6], ["7", 8]],
        [[1, 2], [3, 4], [5, 6], [True, 8]],
        [[1, 2], [3, 4], [5, 6], [1e9, 8]],
        "140,40 540,170 455,445 55,315",
        {"x": 1},
    ):
        with pytest.raises(PayloadError, match="'corners' must be four"):
            parse_calibration({"corners": bad})


@pytest.mark.parametrize(
    ("requested", "header", "expected"),
    [
        ("sv", "de", "sv"),
        (None, "fr-FR,fr;q=0.9,de;q=0.8,en;q=0.5", "de"),
        (None, "en;q=0.2,ro;q=0.9", "ro"),
        ("xx", "pt-BR", "en"),
        (None, None, "en"),
        ("da-DK", None, "da"),
    ],
)
def test_language_negotiation(requested, header, expected):
    assert negotiate(requested, header) == expected
