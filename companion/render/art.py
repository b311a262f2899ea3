"""Board arts drawn top-down: ``text`` (printable home-made board), ``cards`` (miniature
playing cards lying sideways on a folding board, like the Jax board) and ``mat`` (a vinyl
roll-up mat, held out from tuning; see ``art_mat``).

``build_art(art, palette, cell_aspect, cell_h)`` returns a ``BoardArt``: the texture plus where
its 10x10 grid lies. A grid unit (one cell) is ``cell_w x cell_h`` texture pixels and grid point
``(gx, gy)`` is texture pixel ``origin + (gx * cell_w, gy * cell_h)``. Cards are drawn in a cell
centred inside its grid unit, so the grid's outer corners are half a gap outside the outer cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from companion.cells import SIZE
from companion.render.art_mat import MARGIN as MAT_MARGIN
from companion.render.art_mat import MAT_STYLES, mat_board
from companion.render.layout import card_at, is_free, is_red, rank_label
from companion.render.suits import draw_suit

RED_INK = (38, 30, 196)
BLACK_INK = (30, 28, 26)
DEFAULT_ASPECT = {"text": 1.0, "cards": 1.5, "mat": 1.4}

# (board colour, card/paper colour, emblem colour) per palette, BGR
CARDS_BOARDS = [
    ((150, 150, 146), (246, 246, 244), (70, 70, 70)),  # grey folding board
    ((178, 178, 172), (242, 244, 246), (60, 60, 150)),  # light grey
    ((62, 96, 48), (240, 244, 244), (40, 160, 200)),  # green
    ((96, 58, 34), (244, 244, 240), (40, 170, 220)),  # navy
    ((40, 36, 112), (238, 242, 246), (60, 180, 220)),  # burgundy
]


@dataclass(frozen=True, slots=True)
class BoardArt:
    image: np.ndarray  # BGR uint8 texture, top-down, canonical orientation
    origin: tuple[float, float]  # texture pixel of grid point (0, 0) = outer corner of A1
    cell_w: float
    cell_h: float
    chip_diameter: float  # texture pixels

    def grid_to_texture(self) -> np.ndarray:
        """3x3 affine map from grid units to texture pixels."""
        x0, y0 = self.origin
        return np.array([[self.cell_w, 0, x0], [0, self.cell_h, y0], [0, 0, 1]], dtype=np.float64)


# (side, top/bottom) in cell heights
MARGINS = {"text": (0.45, 0.45), "cards": (0.55, 1.0), "mat": (MAT_MARGIN, MAT_MARGIN)}


def texture_size(art: str, cell_aspect: float, cell_h: int) -> tuple[int, int]:
    """(width, height) of ``build_art(art, *, cell_aspect, cell_h)`` without drawing it."""
    aspect = cell_aspect or DEFAULT_ASPECT[art]
    mx, my = MARGINS[art]
    return round(SIZE * cell_h * aspect + 2 * mx * cell_h), round(SIZE * cell_h + 2 * my * cell_h)


def style_count(art: str) -> int:
    """How many palettes (styles) ``art`` has, those held out of random frames included."""
    return {"text": len(TEXT_STYLES), "cards": len(CARDS_BOARDS), "mat": len(MAT_STYLES)}[art]


def palette_count(art: str) -> int:
    """How many palettes (styles) of ``art`` random frames draw from."""
    return DRAWN_TEXT_STYLES if art == "text" else style_count(art)


@lru_cache(maxsize=8)
def build_art(art: str, palette: int, cell_aspect: float, cell_h: int) -> BoardArt:
    """The texture of one board art; cached because scenes of a video share it."""
    aspect = cell_aspect or DEFAULT_ASPECT[art]
    if art == "text":
        return _text_board(palette % len(TEXT_STYLES), aspect, cell_h)
    if art == "cards":
        return _cards_board(palette % len(CARDS_BOARDS), aspect, cell_h)
    if art == "mat":
        img, origin, cw, ch, chip = mat_board(
            palette, aspect, cell_h, texture_size("mat", aspect, cell_h)
        )
        return BoardArt(img, origin, cw, ch, chip_diameter=chip)
    raise ValueError(f"unknown board art {art!r}")


def _ink(card: str) -> tuple[int, int, int]:
    return RED_INK if is_red(card) else BLACK_INK


def _text_size(text: str, font: int, height: float, thickness_ratio: float = 0.12):
    """Font scale and thickness for text ``height`` pixels tall (cap height)."""
    (_, h), _ = cv2.getTextSize(text, font, 1.0, 1)
    scale = height / max(h, 1)
    return scale, max(1, round(height * thickness_ratio))


def _put_centered(img, text, center, height, color, font=cv2.FONT_HERSHEY_DUPLEX, ratio=0.12):
    scale, thick = _text_size(text, font, height, ratio)
    (w, h), _ = cv2.getTextSize(text, font, scale, thick)
    org = (round(center[0] - w / 2), round(center[1] + h / 2))
    cv2.putText(img, text, org, font, scale, color, thick, cv2.LINE_AA)


def _paper_texture(shape, base, rng, amount=4.0):
    h, w = shape
    small = rng.normal(0, 1, (max(2, h // 24), max(2, w // 24))).astype(np.float32)
    low = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC) * amount
    fine = rng.normal(0, amount * 0.5, (h, w)).astype(np.float32)
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    img += (low + fine)[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def _star(img, center, radius, color):
    angles = np.deg2rad(np.arange(10) * 36 - 90)
    radii = np.where(np.arange(10) % 2 == 0, radius, radius * 0.42)
    pts = np.stack([center[0] + radii * np.cos(angles), center[1] + radii * np.sin(angles)], 1)
    cv2.fillPoly(img, [np.round(pts * 16).astype(np.int32)], color, cv2.LINE_AA, 4)


# ---------------------------------------------------------------- text art


@dataclass(frozen=True, slots=True)
class TextStyle:
    """How one home-made board was printed."""

    paper: tuple[int, int, int]
    font: int
    # "stacked": rank over suit; "side": rank left, suit right; "corner": big suit; "bold": a
    # suit as wide as a chip (most of the cell's shorter side), a small rank in the corner
    layout: str
    lines: tuple[int, int, int]
    free: str  # "star", "free", "ring"
    sheets: bool = False  # printed on four sheets taped together


TEXT_STYLES = [
    TextStyle((238, 242, 244), cv2.FONT_HERSHEY_DUPLEX, "stacked", (30, 28, 26), "star"),
    TextStyle((214, 232, 242), cv2.FONT_HERSHEY_SIMPLEX, "side", (90, 90, 90), "free"),
    TextStyle((226, 228, 226), cv2.FONT_HERSHEY_TRIPLEX, "corner", (30, 28, 26), "ring", True),
    TextStyle((205, 222, 232), cv2.FONT_HERSHEY_COMPLEX, "stacked", (120, 60, 20), "free"),
    TextStyle((244, 244, 244), cv2.FONT_HERSHEY_SIMPLEX, "side", (30, 28, 26), "ring", True),
    TextStyle((200, 236, 236), cv2.FONT_HERSHEY_DUPLEX, "corner", (70, 70, 70), "star"),
    # held out of random frames (as the mat art is): a printable board whose hearts and
    # diamonds are as big as a chip, for the vision's tests
    TextStyle((242, 244, 244), cv2.FONT_HERSHEY_SIMPLEX, "bold", (30, 28, 26), "ring"),
]
DRAWN_TEXT_STYLES = 6  # random frames draw their style from the first six


def _text_cell(img, card, x0, y0, cw, ch, style: TextStyle) -> None:
    ink = _ink(card)
    label = rank_label(card)
    cx = x0 + cw / 2
    if style.layout == "stacked":
        _put_centered(img, label, (cx, y0 + 0.33 * ch), 0.3 * ch, ink, style.font)
        draw_suit(img, card[1], (cx, y0 + 0.7 * ch), 0.34 * ch, ink)
    elif style.layout == "side":
        _put_centered(img, label, (x0 + 0.32 * cw, y0 + 0.5 * ch), 0.34 * ch, ink, style.font)
        draw_suit(img, card[1], (x0 + 0.72 * cw, y0 + 0.5 * ch), 0.4 * ch, ink)
    elif style.layout == "bold":
        _put_centered(img, label, (x0 + 0.16 * cw, y0 + 0.16 * ch), 0.18 * ch, ink, style.font)
        draw_suit(img, card[1], (cx + 0.05 * cw, y0 + 0.55 * ch), 0.68 * min(cw, ch), ink)
    else:  # small rank in the corner, a big suit in the middle
        _put_centered(img, label, (x0 + 0.2 * cw, y0 + 0.2 * ch), 0.2 * ch, ink, style.font)
        draw_suit(img, card[1], (cx + 0.06 * cw, y0 + 0.56 * ch), 0.52 * ch, ink)


def _text_free(img, x0, y0, cw, ch, style: TextStyle) -> None:
    cx, cy = x0 + cw / 2, y0 + ch / 2
    if style.free == "star":
        _star(img, (cx, cy - 0.1 * ch), 0.28 * ch, (40, 150, 210))
        _put_centered(img, "FREE", (cx, y0 + 0.82 * ch), 0.13 * ch, BLACK_INK, style.font)
    elif style.free == "free":
        _put_centered(img, "FREE", (cx, cy), 0.22 * ch, BLACK_INK, style.font, ratio=0.16)
    else:
        r = round(0.32 * ch)
        cv2.circle(img, (round(cx), round(cy)), r, BLACK_INK, max(1, round(0.05 * ch)), cv2.LINE_AA)
        cv2.circle(img, (round(cx), round(cy)), max(1, r // 3), RED_INK, -1, cv2.LINE_AA)


def _text_board(palette: int, aspect: float, cell_h: int) -> BoardArt:
    style = TEXT_STYLES[palette]
    rng = np.random.default_rng(1000 + palette)
    cw, ch = cell_h * aspect, float(cell_h)
    margin = MARGINS["text"][0] * ch
    w, h = texture_size("text", aspect, cell_h)
    img = _paper_texture((h, w), style.paper, rng)
    line = max(1, round(ch * 0.025))
    for r in range(SIZE):
        for c in range(SIZE):
            x0, y0 = margin + c * cw, margin + r * ch
            if is_free(r, c):
                _text_free(img, x0, y0, cw, ch, style)
            else:
                _text_cell(img, card_at(r, c), x0, y0, cw, ch, style)
    for i in range(SIZE + 1):
        x = round(margin + i * cw)
        y = round(margin + i * ch)
        t = line * 2 if i in (0, SIZE) else line
        cv2.line(img, (x, round(margin)), (x, round(margin + SIZE * ch)), style.lines, t)
        cv2.line(img, (round(margin), y), (round(margin + SIZE * cw), y), style.lines, t)
    if style.sheets:
        _taped_sheets(img, ch, rng)
    return BoardArt(img, (margin, margin), cw, ch, chip_diameter=0.78 * min(cw, ch))


def _taped_sheets(img: np.ndarray, ch: float, rng: np.random.Generator) -> None:
    """Seams of four printed pages and strips of clear tape across them."""
    h, w = img.shape[:2]
    xm = round(w * rng.uniform(0.45, 0.55))
    ym = round(h * rng.uniform(0.45, 0.55))
    seam = (150, 150, 150)
    cv2.line(img, (xm, 0), (xm, h), seam, 1, cv2.LINE_AA)
    cv2.line(img, (0, ym), (w, ym), seam, 1, cv2.LINE_AA)
    tape = np.zeros((h, w), np.float32)
    half = 0.18 * ch
    for _ in range(6):
        if rng.random() < 0.5:  # across the vertical seam
            y = rng.uniform(0.05, 0.95) * h
            box = ((xm, y), (2.2 * ch, 2 * half), rng.uniform(-8, 8))
        else:
            x = rng.uniform(0.05, 0.95) * w
            box = ((x, ym), (2 * half, 2.2 * ch), rng.uniform(-8, 8))
        pts = cv2.boxPoints(box)
        cv2.fillPoly(tape, [np.round(pts * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
    tint = np.array([200, 235, 245], np.float32)  # clear tape yellows a little
    a = (0.18 * tape)[..., None]
    img[:] = np.clip(img * (1 - a) + tint * a + 10 * tape[..., None], 0, 255).astype(np.uint8)


# ---------------------------------------------------------------- cards art

PIPS = {
    2: [(0.5, 0), (0.5, 1)],
    3: [(0.5, 0), (0.5, 0.5), (0.5, 1)],
    4: [(0, 0), (1, 0), (0, 1), (1, 1)],
    5: [(0, 0), (1, 0), (0.5, 0.5), (0, 1), (1, 1)],
    6: [(0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    7: [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    8: [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0.5, 0.75), (0, 1), (1, 1)],
    9: [(0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (0.5, 0.5), (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1)],
    10: [
        (0, 0),
        (1, 0),
        (0.5, 1 / 6),
        (0, 1 / 3),
        (1, 1 / 3),
        (0, 2 / 3),
        (1, 2 / 3),
        (0.5, 5 / 6),
        (0, 1),
        (1, 1),
    ],
}
RANK_VALUE = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13}


def _card_face(card: str, w: int, h: int, paper) -> np.ndarray:
    """An upright (portrait) miniature card ``w x h`` pixels, drawn on its paper colour."""
    img = np.empty((h, w, 3), np.uint8)
    img[:] = paper
    ink = _ink(card)
    rank, suit = card[0], card[1]
    idx_h = 0.16 * h
    # corner index, top-left and (rotated) bottom-right
    for _ in range(2):
        _put_centered(img, rank_label(card), (0.16 * w, 0.12 * h), idx_h * 0.75, ink, ratio=0.14)
        draw_suit(img, suit, (0.16 * w, 0.27 * h), idx_h * 0.6, ink)
        img = np.ascontiguousarray(img[::-1, ::-1])
    value = RANK_VALUE.get(rank) or int(rank)
    if value == 1:
        draw_suit(img, suit, (w / 2, h / 2), 0.42 * h, ink)
    elif value <= 10:
        bx0, bx1, by0, by1 = 0.34 * w, 0.66 * w, 0.19 * h, 0.81 * h
        pip_h = (0.15 if value <= 6 else 0.12) * h
        for px, py in PIPS[value]:
            cx, cy = bx0 + px * (bx1 - bx0), by0 + py * (by1 - by0)
            draw_suit(img, suit, (cx, cy), pip_h, ink, flip=py > 0.5)
    else:
        _face_picture(img, card, w, h, ink)
    return img


def _face_picture(img, card, w, h, ink) -> None:
    x0, y0, x1, y1 = round(0.3 * w), round(0.14 * h), round(0.7 * w), round(0.86 * h)
    cv2.rectangle(img, (x0, y0), (x1, y1), (60, 190, 230), -1)  # gold robe
    cv2.rectangle(img, (x0, round(0.5 * h)), (x1, y1), (150, 60, 30), -1)  # blue
    cv2.rectangle(img, (x0, round(0.6 * h)), (round(0.5 * w), y1), ink, -1)
    cx = (x0 + x1) / 2
    r = max(1, round(0.08 * h))
    cv2.circle(img, (round(cx), round(0.33 * h)), r, (150, 190, 235), -1, cv2.LINE_AA)
    crown = np.array([[cx - r, 0.24 * h], [cx + r, 0.24 * h], [cx + r, 0.17 * h], [cx, 0.21 * h]])
    crown = np.vstack([crown, [[cx - r, 0.17 * h]]])
    cv2.fillPoly(img, [np.round(crown * 16).astype(np.int32)], (30, 170, 230), cv2.LINE_AA, 4)
    cv2.rectangle(img, (x0, y0), (x1, y1), ink, max(1, round(0.012 * h)))


def _rounded_rect_mask(w: int, h: int, radius: float) -> np.ndarray:
    mask = np.zeros((h, w), np.uint8)
    r = max(1, round(radius))
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return mask


def _paste(img, patch, mask, x, y) -> None:
    h, w = mask.shape
    region = img[y : y + h, x : x + w]
    a = (mask.astype(np.float32) / 255.0)[..., None]
    region[:] = (patch * a + region * (1 - a)).astype(np.uint8)


def _emblem(img, center, radius, board, accent) -> None:
    cx, cy = round(center[0]), round(center[1])
    r = round(radius)
    dark = tuple(int(v * 0.55) for v in board)
    cv2.circle(img, (cx, cy), r, dark, -1, cv2.LINE_AA)
    cv2.circle(img, (cx, cy), round(r * 0.86), accent, max(1, round(r * 0.1)), cv2.LINE_AA)
    cv2.circle(img, (cx, cy), round(r * 0.62), (236, 236, 236), -1, cv2.LINE_AA)
    _star(img, (cx, cy), r * 0.5, accent)


def _cards_board(palette: int, aspect: float, cell_h: int) -> BoardArt:
    board, paper, accent = CARDS_BOARDS[palette]
    rng = np.random.default_rng(2000 + palette)
    cw, ch = cell_h * aspect, float(cell_h)
    mx, my = (m * ch for m in MARGINS["cards"])
    w, h = texture_size("cards", aspect, cell_h)
    img = _paper_texture((h, w), board, rng, amount=3.0)
    gap = 0.07 * ch
    card_w, card_h = round(cw - 2 * gap), round(ch - 2 * gap)
    mask = _rounded_rect_mask(card_w, card_h, 0.08 * ch)
    faces: dict[str, np.ndarray] = {}
    for r in range(SIZE):
        for c in range(SIZE):
            x0, y0 = mx + c * cw, my + r * ch
            if is_free(r, c):
                _emblem(img, (x0 + cw / 2, y0 + ch / 2), 0.44 * ch, board, accent)
                continue
            card = card_at(r, c)
            if card not in faces:
                upright = _card_face(card, card_h, card_w, paper)  # portrait, then sideways
                faces[card] = np.ascontiguousarray(np.rot90(upright, 1))
            _paste(img, faces[card], mask, round(x0 + gap), round(y0 + gap))
    _margin_print(img, w, h, mx, my, ch, accent, paper)
    _fold_crease(img, h)
    return BoardArt(img, (mx, my), cw, ch, chip_diameter=0.8 * min(cw, ch))


REMINDERS = (("TWO-EYED JACKS WILD", ("JC", "JD")), ("ONE-EYED JACKS REMOVE", ("JH", "JS")))


def _margin_band(band, w, mx, my, ch, accent, paper) -> None:
    """One margin band (drawn upright): the title in the middle, a jack reminder at each end
    (two little jack cards and the rule)."""
    _put_centered(band, "SEQUENCE", (w / 2, my / 2), 0.42 * my, paper, ratio=0.16)
    card_h = round(0.72 * my)
    card_w = round(card_h * 0.7)
    mask = _rounded_rect_mask(card_w, card_h, 0.08 * card_h)
    y = round((my - card_h) / 2)
    for side, (text, jacks) in zip((0, 1), REMINDERS, strict=True):
        xs = [mx + 0.1 * ch, mx + 0.1 * ch + card_w * 1.15]
        if side == 1:
            xs = [w - mx - 0.1 * ch - card_w * (1 + 1.15 * k) for k in (1, 0)]
        for x, jack in zip(xs, jacks, strict=True):
            _paste(band, _card_face(jack, card_w, card_h, paper), mask, round(x), y)
        text_x = xs[1] + card_w * 1.2 if side == 0 else xs[0] - card_w * 0.2
        (tw, _), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, 1.0, 1)
        scale, _ = _text_size(text, cv2.FONT_HERSHEY_DUPLEX, 0.16 * my)
        half = tw * scale / 2
        cx = text_x + half if side == 0 else text_x - half
        _put_centered(band, text, (cx, my * 0.5), 0.16 * my, accent, ratio=0.14)


def _margin_print(img, w, h, mx, my, ch, accent, paper) -> None:
    """Top and bottom margins; the bottom one is printed for the player across the table."""
    rows = round(my)
    _margin_band(img[:rows], w, mx, my, ch, accent, paper)
    bottom = np.ascontiguousarray(img[h - rows :][::-1, ::-1])
    _margin_band(bottom, w, mx, my, ch, accent, paper)
    img[h - rows :] = bottom[::-1, ::-1]


def _fold_crease(img, h) -> None:
    y = h // 2
    t = max(1, round(h * 0.002))
    img[y - t : y, :] = (img[y - t : y, :] * 0.7).astype(np.uint8)
    img[y : y + t, :] = np.clip(img[y : y + t, :] * 1.15, 0, 255).astype(np.uint8)
