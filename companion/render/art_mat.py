"""The ``mat`` board art: a vinyl roll-up game mat, held out from tuning the vision.

Bright landscape card faces (a big rank and one large suit pip, hearts and diamonds in red,
spades and clubs in black, in the classic layout) on a green, blue, black or teal vinyl
background, thin gaps, cells about 1.4x wider than tall, no title margin (a narrow hemmed
border), a yellow "FREE" card on each free corner, and on some palettes a printed grid of thin
lines over the gaps. Nothing in the vision pipeline was tuned on it: ``companion eval`` on mat
frames measures how well the vision generalises to a board it has never seen.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.cells import SIZE
from companion.render.layout import card_at, is_free, is_red, rank_label
from companion.render.suits import draw_suit

RED = (40, 24, 214)
BLACK = (24, 22, 20)
MARGIN = 0.25  # cell heights of vinyl around the grid (no title band)
GAP = 0.035  # cell heights between neighbouring cards


@dataclass(frozen=True, slots=True)
class MatStyle:
    vinyl: tuple[int, int, int]  # BGR background
    face: tuple[int, int, int]  # card face colour
    grid: tuple[int, int, int] | None  # printed grid line colour, or no grid
    hem: tuple[int, int, int]  # stitched border stripe


MAT_STYLES = [
    MatStyle((48, 120, 30), (250, 252, 252), None, (30, 80, 20)),  # casino green
    MatStyle((140, 80, 24), (248, 250, 252), (60, 200, 235), (90, 50, 10)),  # blue, gold grid
    MatStyle((28, 26, 26), (246, 248, 250), (220, 220, 220), (60, 160, 200)),  # black, white
    MatStyle((120, 120, 20), (250, 250, 246), None, (70, 70, 10)),  # teal
]


def _face(card: str, w: int, h: int, colour) -> np.ndarray:
    """A landscape card face: the rank large on the left, one large pip on the right."""
    img = np.empty((h, w, 3), np.uint8)
    img[:] = colour
    ink = RED if is_red(card) else BLACK
    label = rank_label(card)
    font = cv2.FONT_HERSHEY_DUPLEX
    (tw, th), _ = cv2.getTextSize(label, font, 1.0, 1)
    scale = min(0.5 * h / th, 0.36 * w / tw)
    thick = max(1, round(0.07 * h))
    (tw, th), _ = cv2.getTextSize(label, font, scale, thick)
    org = (round(0.27 * w - tw / 2), round(0.5 * h + th / 2))
    cv2.putText(img, label, org, font, scale, ink, thick, cv2.LINE_AA)
    draw_suit(img, card[1], (0.7 * w, 0.5 * h), 0.62 * h, ink)
    return img


def _free_card(w: int, h: int) -> np.ndarray:
    img = np.empty((h, w, 3), np.uint8)
    img[:] = (40, 200, 250)  # yellow
    font = cv2.FONT_HERSHEY_DUPLEX
    (tw, th), _ = cv2.getTextSize("FREE", font, 1.0, 1)
    scale = min(0.42 * h / th, 0.8 * w / tw)
    thick = max(1, round(0.06 * h))
    (tw, th), _ = cv2.getTextSize("FREE", font, scale, thick)
    org = (round(w / 2 - tw / 2), round(h / 2 + th / 2))
    cv2.putText(img, "FREE", org, font, scale, BLACK, thick, cv2.LINE_AA)
    return img


def mat_board(palette: int, aspect: float, cell_h: int, texture_size) -> tuple:
    """``(texture, origin, cell_w, cell_h, chip_diameter)`` of the mat art."""
    style = MAT_STYLES[palette % len(MAT_STYLES)]
    rng = np.random.default_rng(3000 + palette)
    cw, ch = cell_h * aspect, float(cell_h)
    m = MARGIN * ch
    w, h = texture_size
    img = np.empty((h, w, 3), np.float32)
    img[:] = style.vinyl
    # vinyl: a faint low-frequency sheen and fine grain
    small = rng.normal(0, 1, (max(2, h // 40), max(2, w // 40))).astype(np.float32)
    img += (cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC) * 3)[..., None]
    img += rng.normal(0, 1.5, (h, w, 1)).astype(np.float32)
    img = np.clip(img, 0, 255).astype(np.uint8)
    hem = max(1, round(0.06 * ch))
    cv2.rectangle(img, (hem, hem), (w - 1 - hem, h - 1 - hem), style.hem, hem, cv2.LINE_AA)
    gap = GAP * ch
    card_w, card_h = round(cw - 2 * gap), round(ch - 2 * gap)
    faces: dict[str, np.ndarray] = {}
    for r in range(SIZE):
        for c in range(SIZE):
            x0, y0 = round(m + c * cw + gap), round(m + r * ch + gap)
            if is_free(r, c):
                face = _free_card(card_w, card_h)
            else:
                card = card_at(r, c)
                if card not in faces:
                    faces[card] = _face(card, card_w, card_h, style.face)
                face = faces[card]
            img[y0 : y0 + card_h, x0 : x0 + card_w] = face
    if style.grid is not None:
        t = max(1, round(0.03 * ch))
        for i in range(SIZE + 1):
            x, y = round(m + i * cw), round(m + i * ch)
            cv2.line(img, (x, round(m)), (x, round(m + SIZE * ch)), style.grid, t, cv2.LINE_AA)
            cv2.line(img, (round(m), y), (round(m + SIZE * cw), y), style.grid, t, cv2.LINE_AA)
    return img, (m, m), cw, ch, 0.8 * min(cw, ch)  # (a portrait cell: its width)
