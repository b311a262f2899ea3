"""Why a cell reads ``?``: the classifier's cause codes, and what each means at the table.

``chips.classify(..., why={})`` names, per cause, the cells it holds (10x10 masks, screen order).
A reading keeps, for each cell it reports as ``?``, the causes found there (canonical cell names,
most telling first), so that a player asking "why is D4 not read?" gets an answer such as
"its boundary lines are hidden (a hand or a loose card)", and so that a diagnosis needs no
second run of the classifier.
"""

from __future__ import annotations

import numpy as np

from companion.cells import cell_name
from companion.vision.geometry import to_canonical_grid

# most telling first: what lies on the cell, then what the light did, then the weaker signs
CAUSE_TEXT: dict[str, str] = {
    "pale_hand": "a hand over it",
    "pale_patch": "a pale hand over it and the cells beside it",
    "dark_hand": "a hand over it (dark skin, or fingers in shadow)",
    "hand_over_chip": "fingers over it, a sliver of a chip showing",
    "hand_at_chip": "a hand at the chip",
    "held_chip": "part of a chip held in the hand beside it",
    "fingers_at_edge": "fingers reaching in over the board's edge (their skin reads red)",
    "boundaries_gone": "its boundary lines are hidden (a hand or a loose card)",
    "slanted_edge": "a loose card's straight side runs through or beside it",
    "blank": "no printing shows (something plain lies over it)",
    "print_gone": "its printing and a boundary line are gone (a loose card)",
    "no_card_white": "no card white shows (something lies over it)",
    "dark_object": "a dark object lies over it",
    "foreign_border": "something that is not the board shows on its border",
    "colour_across_boundaries": "chip colour runs across its boundaries (a card or a sleeve)",
    "colour_everywhere": "one colour fills the whole cell (a card back or a sleeve)",
    "colour_over_corners": "chip colour over the grid corner it shares with like cells (a card back)",
    "pattern": "a patterned card back",
    "cover_colour": "the colour of the card back or sleeve beside it",
    "colour_on_border": "chip colour over its border",
    "glare": "glare washes it out",
    "washed_chip": "a chip's pale disc under glare",
    "washed_red": "a red chip's rim under a veil of glare",
    "pink_disc": "a red chip turned pink by glare",
    "washed_unmeasured": "a chip may be washed out by glare",
    "washed_taken": "a chip's pale tint left where glare was taken off",
    "part_chip": "part of a chip shows (between fingers, or at a cover's edge)",
    "part_chip_bg": "part of a blue or green chip shows (between fingers)",
    "undecided": "neither clearly a chip nor clearly the card's printing",
    "red_print": "red as big as a chip but not round (a bold printed heart or diamond?)",
    "red_on_black": "red where its card prints none, but not a chip's round disc",
    "rust_disc": "a chip's round disc in orange-red on a card printed red",
    "next_to_cover": "beside a covered cell, with signs of the same cover",
    "unlike_twin": "it looks unlike its twin card: something lies on one of them",
    "exposure_disagrees": "read otherwise with the frame's light or dark tones spread",
}


# what the table can do about it: a hand to move, something lying there, the light, or none
CAUSE_KIND: dict[str, str] = {
    **dict.fromkeys(
        (
            "pale_hand",
            "pale_patch",
            "dark_hand",
            "hand_over_chip",
            "hand_at_chip",
            "held_chip",
            "fingers_at_edge",
            "part_chip_bg",
        ),
        "hand",
    ),
    **dict.fromkeys(
        ("glare", "washed_chip", "washed_red", "pink_disc", "washed_unmeasured", "washed_taken"),
        "glare",
    ),
    "undecided": "unclear",
    "red_print": "unclear",
    "red_on_black": "unclear",
    "rust_disc": "unclear",
    "unlike_twin": "unclear",
    "exposure_disagrees": "glare",
}
KINDS = ("hand", "cover", "glare", "unclear")
GLARE_CAUSES = frozenset(code for code, kind in CAUSE_KIND.items() if kind == "glare")


def cause_kind(codes: tuple[str, ...]) -> str | None:
    """The kind of a ``?`` cell's most telling cause: ``"hand"``, ``"glare"``, ``"unclear"``
    (neither chip nor printing), or ``"cover"`` (something lying over it, the default); None
    without causes."""
    return CAUSE_KIND.get(codes[0], "cover") if codes else None


def cause_text(code: str) -> str:
    """The plain words for a cause code (an unknown code: the code itself, spaced)."""
    return CAUSE_TEXT.get(code, code.replace("_", " "))


def cause_masks(why: dict) -> dict[str, np.ndarray]:
    """The cause masks of ``why`` (``chips.classify``'s, screen order) as 10x10 bool arrays;
    diagnostic entries (names starting with ``_``) are left out."""
    masks = {}
    for code, mask in why.items():
        if code.startswith("_"):
            continue
        # (the masks are bool arrays already: taken as they are, without numpy's generic
        # np.ndim and np.asarray, which a reading pays for ~25 causes, six times over)
        if not isinstance(mask, np.ndarray):
            mask = np.asarray(mask)
        if mask.ndim == 2:
            masks[code] = mask.astype(bool, copy=False)
    return masks


def held_only_by(why: dict, codes) -> np.ndarray:
    """The cells (10x10 bool, screen order) that some of the causes ``codes`` hold and no other
    cause of ``why`` does."""
    held = held_by(why, codes)
    if not held.any():
        return held  # (the other causes are looked at only where these hold some cell)
    # (the other causes' masks or'ed by one reduction rather than one or per cause)
    other = [mask for code, mask in cause_masks(why).items() if code not in codes]
    return held & ~_union(other)


def held_by(why: dict, codes) -> np.ndarray:
    """The cells (10x10 bool, screen order) that some of the causes ``codes`` hold."""
    return _union(list(cause_masks({code: why[code] for code in codes if code in why}).values()))


def _union(masks: list[np.ndarray]) -> np.ndarray:
    """The cells (10x10 bool) any of ``masks`` holds."""
    return np.logical_or.reduce(masks) if masks else np.zeros((10, 10), bool)


def unknown_reasons(
    cells: list[str], why: dict[str, np.ndarray], orientation: int
) -> dict[str, tuple[str, ...]]:
    """For each ``?`` cell of a canonical reading (``cells``: 10 strings), the cause codes of
    ``why`` (screen-order masks from ``chips.classify``) that hold it, most telling first.
    Diagnostic masks (names starting with ``_``) are left out."""
    unknown = [(r, c) for r, row in enumerate(cells) for c, ch in enumerate(row) if ch == "?"]
    if not unknown:
        return {}
    order = {code: i for i, code in enumerate(CAUSE_TEXT)}
    masks = {
        code: to_canonical_grid(mask, orientation)
        for code, mask in cause_masks(why).items()
        if mask.any()
    }
    out = {}
    for r, c in unknown:
        codes = [code for code, mask in masks.items() if mask[r, c]]
        codes.sort(key=lambda code: order.get(code, len(order)))
        out[cell_name((r, c))] = tuple(codes)
    return out


def describe(codes: tuple[str, ...]) -> str:
    """One line for a ``?`` cell: its most telling cause in words (``"not read"`` if none)."""
    return cause_text(codes[0]) if codes else "not read"
