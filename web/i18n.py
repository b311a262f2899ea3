"""Translations of the page, the ruling codes and the rule texts.

``web/i18n/<lang>.json`` holds ``{"language": "Dansk", "ui": {...}, "codes": {...},
"rules": {...}}``. English texts for codes and rules come from the referee itself
(``companion.referee.CODE_TEXTS`` / ``RULE_TEXTS``), so English never drifts from the rules code;
``en.json`` holds the page's own words. Any text missing in a language falls back to English.
"""

from __future__ import annotations

import importlib
import json
from functools import lru_cache
from importlib import resources
from typing import Any

LANGUAGES = ("en", "da", "de", "sv", "ro")
DEFAULT_LANGUAGE = "en"
SECTIONS = ("ui", "codes", "rules")


class CatalogError(ValueError):
    """A translation file that is missing or malformed."""


@lru_cache(maxsize=len(LANGUAGES))
def load_catalog(lang: str) -> dict[str, Any]:
    """The raw catalog of one language as shipped (no fallback applied)."""
    if lang not in LANGUAGES:
        raise CatalogError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    path = resources.files("companion.web") / "i18n" / f"{lang}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise CatalogError(f"translation file {lang}.json cannot be read: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("language"), str):
        raise CatalogError(f"translation file {lang}.json needs a 'language' name")
    for section in SECTIONS:
        texts = data.setdefault(section, {})
        if not isinstance(texts, dict) or not all(isinstance(v, str) for v in texts.values()):
            raise CatalogError(f"{lang}.json: '{section}' must map keys to strings")
    return data


def referee_texts() -> dict[str, dict[str, str]]:
    """English code and rule texts: the referee's, plus the session's own (board mismatch)."""
    texts: dict[str, dict[str, str]] = {"codes": {}, "rules": {}}
    for module_name, codes, rules in (
        ("companion.referee", "CODE_TEXTS", "RULE_TEXTS"),
        ("companion.session", "SESSION_CODE_TEXTS", "SESSION_RULE_TEXTS"),
    ):
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        texts["codes"].update(getattr(module, codes, None) or {})
        texts["rules"].update(getattr(module, rules, None) or {})
    return texts


def english_catalog() -> dict[str, Any]:
    base = load_catalog(DEFAULT_LANGUAGE)
    texts = referee_texts()
    return {
        "language": base["language"],
        "ui": dict(base["ui"]),
        # The referee is the source of truth; en.json may only fill gaps.
        "codes": {**base["codes"], **texts["codes"]},
        "rules": {**base["rules"], **texts["rules"]},
    }


def catalog_for(lang: str) -> dict[str, Any]:
    """The catalog the page uses: ``lang``'s texts over English for anything missing."""
    english = english_catalog()
    if lang == DEFAULT_LANGUAGE:
        return {"lang": lang, **english}
    own = load_catalog(lang)
    merged: dict[str, Any] = {"lang": lang, "language": own["language"]}
    for section in SECTIONS:
        merged[section] = {**english[section], **own[section]}
    return merged


def languages() -> list[dict[str, str]]:
    return [{"code": code, "name": load_catalog(code)["language"]} for code in LANGUAGES]


def negotiate(requested: str | None, accept_language: str | None = None) -> str:
    """Pick a supported language: an explicit choice, then the browser's list, then English."""
    for candidate in [requested or "", *(_accept_list(accept_language or ""))]:
        code = candidate.strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return DEFAULT_LANGUAGE


def _accept_list(header: str) -> list[str]:
    weighted = []
    for index, item in enumerate(header.split(",")):
        lang, _, params = item.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        if lang:
            weighted.append((-quality, index, lang))
    return [lang for _, _, lang in sorted(weighted)]


def missing_texts(lang: str, codes: set[str], rules: set[str]) -> dict[str, list[str]]:
    """Keys a language lacks: page words present in English, and the referee's codes and rules."""
    own = load_catalog(lang)
    english_ui = set(load_catalog(DEFAULT_LANGUAGE)["ui"])
    return {
        "ui": sorted(english_ui - set(own["ui"])),
        "codes": sorted(codes - set(own["codes"])) if lang != DEFAULT_LANGUAGE else [],
        "rules": sorted(rules - set(own["rules"])) if lang != DEFAULT_LANGUAGE else [],
    }
