"""Every word the page shows exists in English, Danish, German, Swedish and Romanian."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from companion.web import i18n

from companion.referee import CODE_TEXTS, RULE_TEXTS
from companion.session import SESSION_CODE_TEXTS, SESSION_RULE_TEXTS

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
OTHER_LANGUAGES = [lang for lang in i18n.LANGUAGES if lang != "en"]
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def test_the_five_languages_are_shipped():
    assert set(i18n.LANGUAGES) == {"en", "da", "de", "sv", "ro"}
    names = {item["code"]: item["name"] for item in i18n.languages()}
    assert names == {
        "en": "English",
        "da": "Dansk",
        "de": "Deutsch",
        "sv": "Svenska",
        "ro": "Română",
    }


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_every_referee_code_and_rule_is_translated(lang):
    english = i18n.english_catalog()
    codes = set(CODE_TEXTS) | set(SESSION_CODE_TEXTS) | set(english["codes"])
    rules = set(RULE_TEXTS) | set(SESSION_RULE_TEXTS) | set(english["rules"])
    assert i18n.missing_texts(lang, codes, rules) == {"ui": [], "codes": [], "rules": []}


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_translations_are_not_english_copies(lang):
    catalog = i18n.load_catalog(lang)
    english = i18n.english_catalog()
    same = [
        key
        for section in ("codes", "rules")
        for key, text in catalog[section].items()
        if text == english[section].get(key)
    ]
    assert same == []


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_placeholders_survive_translation(lang):
    english = i18n.load_catalog("en")["ui"]
    own = i18n.load_catalog(lang)["ui"]
    for key, text in own.items():
        assert text.strip(), f"{lang}: {key} is empty"
        assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(english[key])), key


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_session_status_has_words(lang):
    from companion.session import CAMERA_LOST, GAME_OVER, SOURCE_ENDED, WAITING_FOR_BOARD
    from companion.tracking.tracker import NO_BOARD, STILL, WATCHING

    statuses = {WATCHING, STILL, NO_BOARD, WAITING_FOR_BOARD, CAMERA_LOST, SOURCE_ENDED, GAME_OVER}
    ui = i18n.load_catalog(lang)["ui"]
    assert {s for s in statuses if not ui.get(f"status.{s}")} == set()


def test_every_key_the_page_uses_exists_in_english():
    html = (WEB_DIR / "templates" / "index.html").read_text(encoding="utf-8")
    script = (WEB_DIR / "static" / "app.js").read_text(encoding="utf-8")
    used = set(re.findall(r'data-i18n(?:-placeholder|-title)?="([^"]+)"', html))
    used |= {k for k in re.findall(r'\bt\("([^"]+)"', script) if not k.endswith(".")}
    assert used - set(i18n.load_catalog("en")["ui"]) == set()


def test_unknown_language_is_refused_clearly():
    with pytest.raises(i18n.CatalogError, match="unknown language"):
        i18n.load_catalog("fr")


def test_catalog_files_are_valid_json_objects():
    for path in (WEB_DIR / "i18n").glob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        assert set(data) == {"language", "ui", "codes", "rules"}, path.name
