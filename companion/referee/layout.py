"""Board layouts as data: which card (or number) is printed on each of the 100 spaces.

A layout file is JSON with ``rows``: 10 strings of 10 space-separated labels, row 1 on top,
``W`` for a free corner. Classic ships in ``data/classic_layout.json``. The Sequence Numbers
board is not public: ``data/numbers_layout_template.json`` says how to fill it from a real board.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path

from companion.cells import CORNERS, SIZE, Cell
from companion.referee.cards import (
    ONE_EYED_JACKS,
    TWO_EYED_JACKS,
    Card,
    CardError,
    parse_classic_card,
    parse_numbers_card,
)

CORNER_LABEL = "W"


class LayoutError(ValueError):
    """A layout file that is missing, unfilled or malformed."""


@dataclass(frozen=True)
class Layout:
    """The printed board: ``labels[row][col]`` and the cells of every face."""

    name: str
    labels: tuple[tuple[str, ...], ...]
    card_style: str  # "classic" | "numbers"
    verified: bool = True
    deck_texts: tuple[str, ...] = ()
    special_cards: dict[str, int] = field(default_factory=dict)
    cells_by_face: dict[str, tuple[Cell, ...]] = field(default_factory=dict, compare=False)
    _parsed: dict[str, Card] = field(default_factory=dict, compare=False, repr=False)
    _deck: list[Card] = field(default_factory=list, compare=False, repr=False)

    def __post_init__(self) -> None:
        faces: dict[str, list[Cell]] = {}
        for r, row in enumerate(self.labels):
            for c, label in enumerate(row):
                if (r, c) not in CORNERS:
                    faces.setdefault(label, []).append((r, c))
        object.__setattr__(self, "cells_by_face", {k: tuple(v) for k, v in faces.items()})

    @property
    def parse_card_text(self) -> Callable[[str], Card]:
        return parse_numbers_card if self.card_style == "numbers" else parse_classic_card

    def parse_card(self, text: str | Card) -> Card:
        """Parse card text for this board; a plain card must match a face printed on it."""
        if isinstance(text, Card):
            card = text
        else:
            cached = self._parsed.get(text)
            if cached is not None:
                return cached
            card = self.parse_card_text(text)
        if card.is_plain and card.face not in self.cells_by_face:
            raise CardError(f"{card.symbol} is not printed on the {self.name} board")
        if isinstance(text, str):
            self._parsed[text] = card
        return card

    def label_at(self, cell: Cell) -> str:
        return self.labels[cell[0]][cell[1]]

    def cells_for(self, card: Card) -> tuple[Cell, ...]:
        """Spaces printed with this card's face (empty for jacks and special cards)."""
        if card.face is None:
            return ()
        return self.cells_by_face.get(card.face, ())

    def full_deck(self) -> list[Card]:
        """Every card of the game, unshuffled: classic is two 52-card decks without jokers."""
        if self._deck:
            return list(self._deck)
        # parse_card caches one Card per text, so equal cards are the same object (fast `in`)
        if self.deck_texts:
            cards = [self.parse_card(t) for t in self.deck_texts]
        else:
            cards = [
                self.parse_card(self.labels[r][c])
                for r in range(SIZE)
                for c in range(SIZE)
                if (r, c) not in CORNERS
            ]
        if self.card_style == "classic":
            jacks = sorted(TWO_EYED_JACKS | ONE_EYED_JACKS)
            cards += [self.parse_card(j) for j in jacks for _ in range(2)]
        else:
            for text, count in self.special_cards.items():
                cards += [self.parse_card(text)] * int(count)
        self._deck.extend(cards)
        return list(cards)


def layout_from_data(data: dict, *, card_style: str, origin: str = "layout") -> Layout:
    """Build and validate a Layout from parsed JSON; raise LayoutError saying what is wrong."""
    if not isinstance(data, dict) or not isinstance(data.get("rows"), list):
        raise LayoutError(f"{origin}: a layout is a JSON object with 'rows' (10 strings)")
    if data.get("filled") is False:
        raise LayoutError(
            f"{origin} is the unfilled template: the Sequence Numbers board layout is not public; "
            "fill 'rows' and 'deck' from a real board (see its description) or pass options.layout"
        )
    rows = data["rows"]
    if len(rows) != SIZE:
        raise LayoutError(f"{origin}: 'rows' has {len(rows)} rows; a board has 10")
    labels: list[tuple[str, ...]] = []
    for r, row in enumerate(rows):
        parts = row.split() if isinstance(row, str) else row
        if not isinstance(parts, list) or len(parts) != SIZE:
            raise LayoutError(f"{origin}: row {r + 1} must hold 10 labels")
        labels.append(tuple(str(p).strip().upper() for p in parts))
    parse = parse_numbers_card if card_style == "numbers" else parse_classic_card
    counts: dict[str, int] = {}
    for r in range(SIZE):
        for c in range(SIZE):
            label = labels[r][c]
            if (r, c) in CORNERS:
                if label != CORNER_LABEL:
                    raise LayoutError(f"{origin}: corner row {r + 1} col {c + 1} must be 'W'")
                continue
            try:
                card = parse(label)
            except CardError as exc:
                raise LayoutError(f"{origin}: row {r + 1} col {c + 1}: {exc}") from None
            if not card.is_plain or card.text != label:
                raise LayoutError(
                    f"{origin}: row {r + 1} col {c + 1}: {label!r} must be a plain face in "
                    "canonical form"
                )
            counts[label] = counts.get(label, 0) + 1
    uneven = sorted(k for k, n in counts.items() if n != 2)
    if uneven:
        raise LayoutError(
            f"{origin}: every face must be printed exactly twice; not so for {uneven}"
        )
    deck = tuple(str(t) for t in data.get("deck") or ())
    special = data.get("special_cards") or {}
    if not isinstance(special, dict) or not all(
        isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 104 for n in special.values()
    ):
        raise LayoutError(
            f"{origin}: 'special_cards' maps a card to how many copies are in the deck, "
            'e.g. {"PLUS": 2, "MINUS": 2}'
        )
    layout = Layout(
        name=str(data.get("name") or card_style),
        labels=tuple(labels),
        card_style=card_style,
        verified=bool(data.get("verified", False)),
        deck_texts=deck,
        special_cards={str(k): n for k, n in special.items()},
    )
    for text in (*deck, *layout.special_cards):
        try:
            layout.parse_card(text)
        except CardError as exc:
            raise LayoutError(f"{origin}: deck card {text!r}: {exc}") from None
    return layout


def _read_json(path: Path | str, origin: str) -> dict:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise LayoutError(f"{origin}: file not found") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise LayoutError(f"{origin}: not readable JSON ({exc})") from None


def _packaged(name: str) -> Path:
    return Path(str(resources.files("companion.referee").joinpath("data", name)))


@cache
def classic_layout() -> Layout:
    return layout_from_data(
        _read_json(_packaged("classic_layout.json"), "classic_layout.json"),
        card_style="classic",
        origin="classic_layout.json",
    )


def numbers_layout(source: dict | str | Path | None = None) -> Layout:
    """The Sequence Numbers layout: inline data, a path, or the packaged numbers_layout.json.

    Without a filled ``numbers_layout.json`` next to the template this raises LayoutError that
    explains how to fill it.
    """
    if isinstance(source, dict):
        return layout_from_data(source, card_style="numbers", origin="options.layout")
    if source is not None:
        return layout_from_data(
            _read_json(source, str(source)), card_style="numbers", origin=str(source)
        )
    filled = _packaged("numbers_layout.json")
    path = filled if filled.exists() else _packaged("numbers_layout_template.json")
    return layout_from_data(_read_json(path, path.name), card_style="numbers", origin=path.name)
