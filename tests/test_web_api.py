"""The HTTP API of the web layer, against a fake GameSession (tests/test_web_fake.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from companion.web.app import create_app
from test_web_fake import FakeSession

PIN = "246810"
WEB_DIR = Path(__file__).resolve().parent.parent / "web"


@pytest.fixture
def session():
    return FakeSession()


@pytest.fixture
def client(session):
    app = create_app(session, PIN)
    app.testing = True
    return app.test_client()


def post(client, path, body=None, pin=PIN):
    headers = {"X-Table-PIN": pin} if pin is not None else {}
    return client.post(path, json=body if body is not None else {}, headers=headers)


def test_state_has_the_contract_fields(client, session):
    session.play("B2")
    state = client.get("/api/state").get_json()
    for key in ("board", "turn", "sequences", "moves", "rulings", "to_move", "winner", "status"):
        assert key in state
    assert state["board"][1][1] == "B"
    assert state["turn"] == 2
    assert state["rulings"][0]["code"] == "ok"


def test_writes_need_the_pin(client, session):
    missing = post(client, "/api/correct", {"cell": "C3", "value": "G"}, pin=None)
    assert missing.status_code == 401
    assert missing.get_json()["error"]["code"] == "pin_required"
    wrong = post(client, "/api/correct", {"cell": "C3", "value": "G"}, pin="000000")
    assert wrong.status_code == 403
    assert wrong.get_json()["error"]["code"] == "pin_wrong"
    assert session.calls == []
    ok = post(client, "/api/correct", {"cell": "c3", "value": "g"})
    assert ok.status_code == 200
    assert session.calls == [("correct_cell", "C3", "G")]
    assert ok.get_json()["state"]["board"][2][2] == "G"


def test_pin_in_a_form_field(client, session):
    response = client.post("/api/correct", data={"cell": "D4", "value": ".", "pin": PIN})
    assert response.status_code == 200
    assert session.calls == [("correct_cell", "D4", ".")]


def test_repeated_wrong_pins_lock_the_client_out(client, session):
    for _ in range(5):
        assert post(client, "/api/undo", pin="111111").status_code == 403
    locked = post(client, "/api/undo")  # even the right PIN waits now
    assert locked.status_code == 429
    assert locked.get_json()["error"]["code"] == "pin_locked"
    assert int(locked.headers["Retry-After"]) >= 1
    assert session.calls == []


@pytest.mark.parametrize(
    ("path", "body", "code"),
    [
        ("/api/correct", {"cell": "K1", "value": "B"}, "bad_cell"),
        ("/api/correct", {"cell": "B2", "value": "X"}, "bad_value"),
        ("/api/correct", {"value": "B"}, "missing_field"),
        ("/api/correct", [1, 2], "bad_body"),
        ("/api/declare-card", {"card": "1S"}, "bad_card"),
        ("/api/choose-sequence", {"color": "blue", "cells": ["B2", "C3"]}, "bad_cells"),
        ("/api/choose-sequence", {"color": "pink", "cells": "B2 C3 D4 E5 F6"}, "bad_color"),
        ("/api/game", {"players": [{"name": "Ann", "team": "blue"}]}, "bad_players"),
        (
            "/api/game",
            {"players": [{"name": "Ann", "team": "blue"}, {"name": "ann", "team": "green"}]},
            "duplicate_player",
        ),
        (
            "/api/game",
            {"players": [{"name": "Ann", "team": "blue"}, {"name": "Bo", "team": "pink"}]},
            "bad_team",
        ),
    ],
)
def test_bad_bodies_get_clear_4xx_errors(client, session, path, body, code):
    response = post(client, path, body)
    assert 400 <= response.status_code < 500
    error = response.get_json()["error"]
    assert error["code"] == code
    assert error["message"]
    assert session.calls == []


def test_calibration_without_support_in_the_session_is_501(client):
    response = post(client, "/api/calibration", {"orientation": 90})
    assert response.status_code == 501
    assert response.get_json()["error"]["code"] == "not_supported"


def test_invalid_json_and_wrong_media_type(client):
    bad_json = client.post(
        "/api/correct",
        data="{nope",
        headers={"X-Table-PIN": PIN, "Content-Type": "application/json"},
    )
    assert bad_json.status_code == 400
    assert bad_json.get_json()["error"]["code"] == "bad_json"
    text = client.post(
        "/api/correct", data="cell=B2", headers={"X-Table-PIN": PIN, "Content-Type": "text/plain"}
    )
    assert text.status_code == 400
    assert text.get_json()["error"]["code"] == "unsupported_media_type"


def test_referee_setup_errors_come_back_as_400(client):
    players = [{"name": n, "team": t} for n, t in zip("ABCDE", ["blue", "green"] * 3, strict=False)]
    response = post(client, "/api/game", {"variant": "classic", "players": players})
    assert response.status_code == 400
    assert response.get_json()["error"] == {
        "code": "bad_player_count",
        "message": "5 players cannot be split into equal teams",
    }


def test_new_game_passes_a_clean_setup(client, session):
    body = {
        "variant": "set5",
        "options": {"overlap": "crossing_only"},
        "players": [{"name": " Ann ", "team": "blue"}, {"name": "Bo", "team": "green"}],
    }
    assert post(client, "/api/game", body).status_code == 200
    assert session.calls == [
        (
            "new_game",
            {
                "variant": "set5",
                "options": {"overlap": "crossing_only"},
                "players": [{"name": "Ann", "team": "blue"}, {"name": "Bo", "team": "green"}],
            },
        )
    ]


def test_session_refusals_are_conflicts_not_crashes(client):
    response = post(client, "/api/undo")
    assert response.status_code == 409
    assert "no move to undo" in response.get_json()["error"]["message"]
    corner = post(client, "/api/correct", {"cell": "A1", "value": "B"})
    assert corner.status_code == 400
    assert "corner" in corner.get_json()["error"]["message"]


def test_declarations_and_sequence_choice_reach_the_session(client, session):
    assert post(client, "/api/declare-card", {"card": "7s", "player": "Ann"}).status_code == 200
    assert post(client, "/api/declare-dead", {"card": "9C"}).status_code == 200
    cells = "b2, c3 d4 e5 f6"
    assert (
        post(client, "/api/choose-sequence", {"color": "blue", "cells": cells}).status_code == 200
    )
    assert session.calls == [
        ("declare_card", "7S", "Ann"),
        ("declare_dead", "9C", None),
        ("choose_sequence", "blue", ["B2", "C3", "D4", "E5", "F6"]),
    ]


def test_oversized_bodies_are_refused(client, session):
    response = client.post(
        "/api/correct",
        data=b'{"cell": "B2", "value": "' + b"B" * 70_000 + b'"}',
        headers={"X-Table-PIN": PIN, "Content-Type": "application/json"},
    )
    assert response.status_code == 413
    assert response.get_json()["error"]["code"] == "too_large"
    assert session.calls == []


def test_unknown_paths_and_methods_answer_json(client):
    missing = client.get("/api/nothing-here")
    assert missing.status_code == 404
    assert missing.get_json()["error"]["code"] == "not_found"
    wrong_method = client.get("/api/correct")
    assert wrong_method.status_code == 405
    assert wrong_method.get_json()["error"]["code"] == "method_not_allowed"


def test_check_my_card(client):
    assert client.get("/api/cards/9c").get_json() == {
        "card": "9C",
        "dead": True,
        "cells": [],
        "kind": "plain",
    }
    assert client.get("/api/cards/JH").get_json()["kind"] == "one_eyed"
    bad = client.get("/api/cards/ZZ")
    assert bad.status_code == 400
    assert bad.get_json()["error"]["code"] == "bad_card"


def test_evidence_pictures(client, session):
    session.play("B2")
    before = client.get("/api/evidence/1/before.jpg")
    assert before.status_code == 200
    assert before.mimetype == "image/jpeg"
    assert before.data[:2] == b"\xff\xd8"
    assert client.get("/api/evidence/1/after.jpg").data != before.data
    assert client.get("/api/evidence/2/before.jpg").get_json()["error"]["code"] == "no_evidence"
    assert client.get("/api/evidence/1/during.jpg").status_code == 404
    assert client.get("/api/board.jpg").data[:2] == b"\xff\xd8"
    assert client.get("/api/frame.jpg").data[:2] == b"\xff\xd8"


def test_every_ruling_has_pictures_by_its_id(client, session):
    session.play("B2")
    refused = session.play("B2", legal=False, code="cell_taken")
    ruling = client.get("/api/state").get_json()["rulings"][-1]
    assert ruling["id"] == refused["id"] and not ruling["legal"]
    before = client.get(f"/api/evidence/ruling/{ruling['id']}/before.jpg")
    after = client.get(f"/api/evidence/ruling/{ruling['id']}/after.jpg")
    assert before.status_code == after.status_code == 200
    assert before.mimetype == "image/jpeg" and before.data[:2] == b"\xff\xd8"
    assert after.data != before.data
    missing = client.get("/api/evidence/ruling/99/before.jpg")
    assert missing.status_code == 404 and missing.get_json()["error"]["code"] == "no_evidence"
    assert client.get(f"/api/evidence/ruling/{ruling['id']}/during.jpg").status_code == 404


def test_record_download(client, session):
    session.play("B2")
    response = client.get("/api/record?download=1")
    assert response.get_json()["moves"][0]["place"] == "B2"
    assert "attachment" in response.headers["Content-Disposition"]


def test_page_is_served_with_all_languages_and_a_strict_csp(client):
    page = client.get("/", headers={"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"})
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert '<html lang="de"' in html
    for code in ("en", "da", "de", "sv", "ro"):
        assert f'value="{code}"' in html
    csp = page.headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp
    assert "script-src 'self'" in csp
    assert page.headers["X-Content-Type-Options"] == "nosniff"


def test_the_remembered_language_wins_over_the_browser_setting(client):
    client.set_cookie("lang", "sv")
    page = client.get("/", headers={"Accept-Language": "de"})
    assert '<html lang="sv"' in page.get_data(as_text=True)


def test_no_asset_comes_from_another_site():
    """The table may have no internet: every script, style and image is shipped."""
    for path in [*WEB_DIR.glob("templates/*.html"), *WEB_DIR.glob("static/*")]:
        text = path.read_text(encoding="utf-8")
        external = re.findall(r"(?:src|href)\s*=\s*[\"']?(?:https?:)?//", text)
        external += re.findall(r"url\(\s*[\"']?(?:https?:)?//", text)
        external += re.findall(r"@import", text)
        assert not external, f"{path.name} loads something from another site: {external}"


def test_translations_endpoint_falls_back_to_english(client):
    danish = client.get("/api/i18n/da").get_json()
    assert danish["lang"] == "da"
    assert danish["ui"]["nav.game"] == "Spil"
    english = client.get("/api/i18n/en").get_json()
    assert english["codes"]["ok"] == "Legal move."  # straight from the referee
    assert set(english["ui"]) <= set(danish["ui"])
    assert client.get("/api/i18n/xx").status_code == 404


def test_layout_labels_the_cells(client):
    cells = client.get("/api/layout").get_json()["cells"]
    assert cells[0][0] == "*"
    assert cells[0][1] == "2S"  # B1 is the two of spades


def test_streams_beyond_the_limit_get_a_clear_503(session):
    app = create_app(session, PIN, max_streams=2)
    client = app.test_client()
    first = client.get("/api/events")
    second = client.get("/api/stream.mjpg")
    assert first.status_code == second.status_code == 200
    crowd = client.get("/api/events")
    assert crowd.status_code == 503
    assert crowd.get_json()["error"]["code"] == "too_many_viewers"
    assert crowd.headers["Retry-After"] == "5"
    assert client.get("/api/state").status_code == 200  # reads still work
    first.close()  # a viewer leaves: the slot is free again
    again = client.get("/api/events")
    assert again.status_code == 200
    again.close()
    second.close()
    assert app.extensions["companion"].streams.in_use == 0
