#!/usr/bin/env python
"""Independent synthetic photo renderer for Sequence boards (held-out test set).

python render_foreign.py OUTDIR --art {jax,paper,felt,wood,none,mixed} --count N --seed S [--hands F]
Writes OUTDIR/frame_NNNN.jpg + frame_NNNN.json (ground truth, canonical orientation; on a
board frame also the playing area's outer lattice on screen, ``grid``: TL, TR, BR, BL pixels).

Written by a separate session from a brief (the layout, the JSON contract, what public photos of
the retail board show), without reading companion/render or companion/vision, so that its frames
test the reader on board art, chips, light and photography it was never tuned on. Not part of
the package and not run by the test suite (tests/data/independent keeps two of its frames).
Needs Pillow (pip install pillow) and the DejaVu and Liberation fonts (Debian: fonts-dejavu-core
fonts-liberation). Known flaw: two chips pushed far off-centre can overlap so that one hides the
other while the truth still lists it (a few cells per 100 frames on the paper art).

The fifth art, ``wood``, was added later by a session that works on the reader, and drawn
before any of its frames was read: a lacquered wood, black, burgundy or navy board with cards
laid out as real playing cards (an index in two corners, the real pips), often a printed card
outline, narrow gaps, portrait or landscape cells, and chips of other shades per frame
(``WOOD_CHIPS``). ``mixed`` still draws from the first three arts only, so that earlier seeds
render the same frames.
"""

import argparse
import json
import math
import os
from multiprocessing import Pool

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

GRID = """
W  2S 3S 4S 5S 6S 7S 8S 9S W
6C 5C 4C 3C 2C AH KH QH TH TS
7C AS 2D 3D 4D 5D 6D 7D 9H QS
8C KS 6C 5C 4C 3C 2C 8D 8H KS
9C QS 7C 6H 5H 4H AH 9D 7H AS
TC TS 8C 7H 2H 3H KH TD 6H 2D
QC 9S 9C 8H 9H TH QH QD 5H 3D
KC 8S TC QC KC AC AD KD 4H 4D
AC 7S 6S 5S 4S 3S 2S 2H 3H 5D
W  AD KD QD TD 9D 8D 7D 6D W
"""
LAYOUT = [l.split() for l in GRID.strip().splitlines()]
CORNERS = {(0, 0), (0, 9), (9, 0), (9, 9)}
FD = "/usr/share/fonts/truetype/"
FONTS_BOLD = [
    FD + "dejavu/DejaVuSans-Bold.ttf",
    FD + "dejavu/DejaVuSerif-Bold.ttf",
    FD + "liberation/LiberationSans-Bold.ttf",
    FD + "liberation/LiberationSerif-Bold.ttf",
    FD + "dejavu/DejaVuSansCondensed-Bold.ttf",
    FD + "liberation/LiberationSansNarrow-Bold.ttf",
]
FONTS_REG = [
    FD + "dejavu/DejaVuSans.ttf",
    FD + "liberation/LiberationSans-Regular.ttf",
    FD + "liberation/LiberationSerif-Regular.ttf",
    FD + "dejavu/DejaVuSerif.ttf",
]
_fc = {}


def font(path, size):
    k = (path, int(size))
    if k not in _fc:
        _fc[k] = ImageFont.truetype(path, max(6, int(size)))
    return _fc[k]


def rank_txt(c):
    return "10" if c[0] == "T" else c[0]


RED_INK = (40, 30, 200)
BLACK_INK = (30, 25, 25)


def ink(card, rng=None):
    return RED_INK if card[1] in "HD" else BLACK_INK


# ---------------------------------------------------------------- suit shapes
def _heart_pts(n=48):
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    x = 16 * np.sin(t) ** 3
    y = -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t))
    y = y - (y.max() + y.min()) / 2
    s = 1.0 / (y.max() - y.min())
    return np.stack([x * s, y * s], 1)


HEART = _heart_pts()


def fill(img, pts, color):
    p = np.round(np.asarray(pts) * 16).astype(np.int32)
    cv2.fillPoly(img, [p], color, cv2.LINE_AA, shift=4)


def circ(img, c, r, color, thick=-1):
    cv2.circle(
        img,
        (int(round(c[0] * 16)), int(round(c[1] * 16))),
        int(round(r * 16)),
        color,
        thick,
        cv2.LINE_AA,
        shift=4,
    )


def draw_suit(img, cx, cy, size, suit, color, flip=False):
    """Filled suit symbol of height `size` centred at (cx, cy)."""
    sg = -1 if flip else 1

    def P(pts):
        return np.array([[cx + x * size, cy + sg * y * size] for x, y in pts])

    if suit == "H":
        fill(img, P(HEART), color)
    elif suit == "D":
        a = np.linspace(0, 2 * np.pi, 40, endpoint=False)
        x, y = np.sin(a), -np.cos(a)
        r = 1 / (np.abs(x) ** 0.8 + np.abs(y) ** 0.8) ** (1 / 0.8)
        fill(img, P(np.stack([0.36 * x * r, 0.5 * y * r], 1)), color)
    elif suit == "S":
        h = HEART.copy()
        h[:, 1] = -h[:, 1] * 0.8 - 0.08
        h[:, 0] *= 0.95
        fill(img, P(h), color)
        fill(img, P([(0, 0.1), (0.2, 0.5), (-0.2, 0.5)]), color)
    else:  # clubs
        r = 0.205 * size
        for dx, dy in [(0, -0.24), (-0.225, 0.06), (0.225, 0.06)]:
            cc = (cx + dx * size, cy + sg * dy * size)
            circ(img, cc, r, color)
        fill(img, P([(-0.12, -0.1), (0.12, -0.1), (0.12, 0.12), (-0.12, 0.12)]), color)
        fill(img, P([(0, 0.05), (0.18, 0.5), (-0.18, 0.5)]), color)


def star(img, cx, cy, r, color, n=5, inner=0.45, rot=0.0):
    a = np.arange(2 * n) * np.pi / n - np.pi / 2 + rot
    rr = np.where(np.arange(2 * n) % 2 == 0, r, r * inner)
    fill(img, np.stack([cx + rr * np.cos(a), cy + rr * np.sin(a)], 1), color)


def put_text(img, xy, text, fpath, size, color, anchor="mm", rot180=False):
    """Draw text on a numpy BGR image via PIL, small patch only."""
    f = font(fpath, size)
    x0, y0, x1, y1 = f.getbbox(text, anchor=anchor)
    pad = 2
    w, h = x1 - x0 + 2 * pad, y1 - y0 + 2 * pad
    X, Y = int(round(xy[0] + x0 - pad)), int(round(xy[1] + y0 - pad))
    if rot180:  # rotate about xy
        X, Y = int(round(xy[0] - x1 - pad)), int(round(xy[1] - y1 - pad))
    H, W = img.shape[:2]
    if X < 0 or Y < 0 or X + w > W or Y + h > H:
        return
    m = Image.new("L", (w, h), 0)
    ImageDraw.Draw(m).text((-x0 + pad, -y0 + pad), text, font=f, fill=255, anchor=anchor)
    a = np.asarray(m, np.float32)[..., None] / 255.0
    if rot180:
        a = a[::-1, ::-1]
    roi = img[Y : Y + h, X : X + w].astype(np.float32)
    img[Y : Y + h, X : X + w] = (roi * (1 - a) + np.array(color, np.float32) * a).astype(np.uint8)


def rrect(img, x0, y0, x1, y1, r, color):
    x0, y0, x1, y1 = float(x0), float(y0), float(x1), float(y1)
    r = max(0.5, min(r, (x1 - x0) / 2, (y1 - y0) / 2))
    fill(img, [(x0 + r, y0), (x1 - r, y0), (x1 - r, y1), (x0 + r, y1)], color)
    fill(img, [(x0, y0 + r), (x1, y0 + r), (x1, y1 - r), (x0, y1 - r)], color)
    for c in [(x0 + r, y0 + r), (x1 - r, y0 + r), (x1 - r, y1 - r), (x0 + r, y1 - r)]:
        circ(img, c, r, color)


# pip positions on a portrait card, (x in -1..1, y in -1..1)
PIPS = {
    "2": [(0, -1), (0, 1)],
    "3": [(0, -1), (0, 0), (0, 1)],
    "4": [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    "5": [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    "6": [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
    "7": [(-1, -1), (1, -1), (0, -0.5), (-1, 0), (1, 0), (-1, 1), (1, 1)],
    "8": [(-1, -1), (1, -1), (0, -0.5), (-1, 0), (1, 0), (0, 0.5), (-1, 1), (1, 1)],
    "9": [
        (-1, -1),
        (1, -1),
        (-1, -1 / 3),
        (1, -1 / 3),
        (0, 0),
        (-1, 1 / 3),
        (1, 1 / 3),
        (-1, 1),
        (1, 1),
    ],
    "T": [
        (-1, -1),
        (1, -1),
        (0, -2 / 3),
        (-1, -1 / 3),
        (1, -1 / 3),
        (-1, 1 / 3),
        (1, 1 / 3),
        (0, 2 / 3),
        (-1, 1),
        (1, 1),
    ],
}


def face_figure(img, x0, y0, x1, y1, card, rng):
    """Colourful court-card-like figure in box, mirrored top/bottom like real court cards."""
    w, h = x1 - x0, y1 - y0
    half = np.full((int(h / 2) + 1, int(w), 3), 255, np.uint8)
    hw, hh = half.shape[1], half.shape[0]
    cols = [(40, 50, 190), (160, 80, 30), (30, 180, 220), (40, 40, 40), (60, 130, 40)]
    c1, c2, c3 = [cols[i] for i in rng.choice(len(cols), 3, replace=False)]
    # body (robe) trapezoid with stripes
    fill(
        half, [(hw * 0.12, hh), (hw * 0.88, hh), (hw * 0.75, hh * 0.55), (hw * 0.25, hh * 0.55)], c1
    )
    fill(
        half, [(hw * 0.42, hh), (hw * 0.58, hh), (hw * 0.56, hh * 0.55), (hw * 0.44, hh * 0.55)], c2
    )
    fill(
        half,
        [
            (hw * 0.25, hh * 0.6),
            (hw * 0.75, hh * 0.6),
            (hw * 0.74, hh * 0.7),
            (hw * 0.26, hh * 0.7),
        ],
        c3,
    )
    # head
    circ(half, (hw * 0.5, hh * 0.4), hh * 0.16, (150, 190, 235))
    # hair / beard
    fill(
        half,
        [
            (hw * 0.36, hh * 0.38),
            (hw * 0.64, hh * 0.38),
            (hw * 0.6, hh * 0.56),
            (hw * 0.4, hh * 0.56),
        ],
        (30, 120, 200) if card[0] == "Q" else (60, 60, 70),
    )
    circ(half, (hw * 0.5, hh * 0.41), hh * 0.12, (150, 190, 235))
    # crown or hat
    if card[0] in "KQ":
        fill(
            half,
            [
                (hw * 0.37, hh * 0.27),
                (hw * 0.63, hh * 0.27),
                (hw * 0.66, hh * 0.06),
                (hw * 0.58, hh * 0.17),
                (hw * 0.5, hh * 0.03),
                (hw * 0.42, hh * 0.17),
                (hw * 0.34, hh * 0.06),
            ],
            (30, 190, 235),
        )
    else:
        fill(
            half,
            [
                (hw * 0.3, hh * 0.28),
                (hw * 0.7, hh * 0.28),
                (hw * 0.62, hh * 0.12),
                (hw * 0.38, hh * 0.12),
            ],
            c2,
        )
    # side item: small suit
    draw_suit(half, hw * 0.2, hh * 0.35, hh * 0.22, card[1], ink(card))
    full = np.concatenate([half, half[::-1, ::-1]], 0)[: int(h), : int(w)]
    cv2.rectangle(full, (0, 0), (full.shape[1] - 1, full.shape[0] - 1), c1, max(1, int(h * 0.03)))
    X0, Y0 = int(x0), int(y0)
    img[Y0 : Y0 + full.shape[0], X0 : X0 + full.shape[1]] = full


# ---------------------------------------------------------------- arts
def board_jax(ch, rng):
    """Retail board: grey margin, landscape mini-cards with grey gaps, emblem corners, crease."""
    cw = 1.5 * ch
    gap = ch * rng.uniform(0.08, 0.13)
    mx, my = ch * rng.uniform(0.7, 1.0), ch * rng.uniform(0.75, 1.0)
    W = int(2 * mx + 10 * cw + 11 * gap)
    H = int(2 * my + 10 * ch + 11 * gap)
    g = rng.uniform(150, 200)
    base = np.array([g + rng.uniform(0, 18), g + rng.uniform(-3, 8), g - rng.uniform(0, 6)])
    img = np.empty((H, W, 3), np.float32)
    img[:] = base
    img += rng.normal(0, 2.5, (H, W, 1)).astype(np.float32)
    img = np.clip(img, 0, 255).astype(np.uint8)
    # darker frame band around grid
    band = tuple(int(v) for v in base * 0.78)
    cv2.rectangle(
        img,
        (int(mx - gap * 1.2), int(my - gap * 1.2)),
        (int(W - mx + gap * 1.2), int(H - my + gap * 1.2)),
        band,
        max(1, int(gap * 0.5)),
        cv2.LINE_AA,
    )
    fb = FONTS_BOLD[rng.integers(len(FONTS_BOLD))]
    tcol = (int(rng.uniform(20, 90)), int(rng.uniform(20, 60)), int(rng.uniform(20, 60)))
    put_text(img, (W / 2, my * 0.45), "SEQUENCE", fb, my * 0.5, tcol)
    put_text(img, (W / 2, H - my * 0.45), "SEQUENCE", fb, my * 0.5, tcol, rot180=True)
    fr = FONTS_REG[rng.integers(len(FONTS_REG))]
    put_text(img, (mx + 1.8 * cw, my * 0.5), "TWO-EYED JACKS ARE WILD", fr, my * 0.17, (50, 50, 50))
    put_text(
        img, (W - mx - 1.8 * cw, my * 0.5), "ONE-EYED JACKS REMOVE", fr, my * 0.17, (50, 50, 50)
    )
    put_text(
        img,
        (mx + 1.8 * cw, H - my * 0.5),
        "ONE-EYED JACKS REMOVE",
        fr,
        my * 0.17,
        (50, 50, 50),
        rot180=True,
    )
    cream = np.array([rng.uniform(225, 240), rng.uniform(238, 250), rng.uniform(245, 255)])
    cells = []
    for r in range(10):
        for c in range(10):
            x0 = mx + gap + c * (cw + gap)
            y0 = my + gap + r * (ch + gap)
            cells.append((x0, y0, x0 + cw, y0 + ch))
            card = LAYOUT[r][c]
            X0, Y0 = int(round(x0)), int(round(y0))
            pw, ph = int(round(x0 + cw)) - X0, int(round(y0 + ch)) - Y0
            p = np.empty((ph, pw, 3), np.uint8)
            p[:] = np.clip(cream + rng.normal(0, 2, 3), 0, 255)
            if card == "W":
                p[:] = (base * 0.95).astype(np.uint8)
                cx, cy, R = pw / 2, ph / 2, ph * 0.44
                circ(p, (cx, cy), R, (90, 40, 20))
                circ(p, (cx, cy), R * 0.86, (60, 180, 220))
                circ(p, (cx, cy), R * 0.74, (250, 250, 250))
                star(p, cx, cy, R * 0.6, (50, 50, 190), n=5)
                put_text(p, (cx, cy + R * 0.02), "S", fb, R * 0.6, (250, 250, 250))
            else:
                col = ink(card)
                rt = rank_txt(card)
                fs = ch * 0.27
                for flip in (False, True):
                    ix, iy = (ch * 0.14, ch * 0.2) if not flip else (pw - ch * 0.14, ph - ch * 0.2)
                    put_text(p, (ix, iy), rt, fb, fs, col, rot180=flip)
                    dy = ch * 0.22 * (-1 if flip else 1)
                    draw_suit(p, ix, iy + dy, ch * 0.15, card[1], col, flip=flip)
                bx0, bx1, by0, by1 = pw * 0.22, pw * 0.78, ph * 0.1, ph * 0.9
                if card[0] in "KQJ":
                    face_figure(p, bx0 + pw * 0.03, by0, bx1 - pw * 0.03, by1, card, rng)
                elif card[0] == "A":
                    draw_suit(p, pw / 2, ph / 2, ph * 0.5, card[1], col)
                else:
                    for px, py in PIPS[card[0]]:  # card lies sideways: swap axes
                        X = pw / 2 + py * (bx1 - bx0) * 0.4
                        Y = ph / 2 + px * (by1 - by0) * 0.33
                        draw_suit(p, X, Y, ph * 0.2, card[1], col, flip=py > 0.01)
            img[Y0 : Y0 + ph, X0 : X0 + pw] = p
    # fold crease(s)
    img = img.astype(np.float32)
    for axis in [1] if rng.random() < 0.5 else [0, 1]:
        if axis == 1:
            y = H // 2
            img[y - 1 : y + 1] *= 0.82
            img[y + 1 : y + 3] *= 1.05
        else:
            x = W // 2
            img[:, x - 1 : x + 1] *= 0.82
            img[:, x + 1 : x + 3] *= 1.05
    return np.clip(img, 0, 255).astype(np.uint8), cells, 0.25


def board_paper(ch, rng):
    """Home-made printable board: paper, black grid lines, rank + suit per cell."""
    aspect = rng.uniform(0.8, 1.0)  # w/h: square or slightly portrait
    cw = ch * aspect
    m = ch * rng.uniform(0.3, 0.7)
    top = m + (ch * 0.7 if rng.random() < 0.5 else 0)
    W = int(2 * m + 10 * cw)
    H = int(top + m + 10 * ch)
    tone = rng.uniform(228, 252)
    img = np.empty((H, W, 3), np.float32)
    img[:] = (tone - rng.uniform(0, 12), tone - rng.uniform(0, 5), tone)
    img += cv2.GaussianBlur(rng.normal(0, 6, (H, W)).astype(np.float32), (0, 0), 1.5)[..., None]
    img = np.clip(img, 0, 255).astype(np.uint8)
    if top > m + 1:
        put_text(
            img,
            (W / 2, m + ch * 0.3),
            rng.choice(["SEQUENCE", "Sequence Board", "SEQUENCE - print & play"]),
            FONTS_BOLD[rng.integers(len(FONTS_BOLD))],
            ch * 0.45,
            (20, 20, 20),
        )
    style = rng.integers(3)
    fb = FONTS_BOLD[rng.integers(len(FONTS_BOLD))]
    cells = []
    for r in range(10):
        for c in range(10):
            x0 = m + c * cw
            y0 = top + r * ch
            cells.append((x0, y0, x0 + cw, y0 + ch))
            card = LAYOUT[r][c]
            cx, cy = x0 + cw / 2, y0 + ch / 2
            if card == "W":
                if rng.random() < 0.5 or style == 2:
                    star(
                        img,
                        cx,
                        cy,
                        min(cw, ch) * 0.38,
                        (20, 20, 20) if rng.random() < 0.6 else (30, 140, 220),
                    )
                else:
                    put_text(img, (cx, cy), "FREE", fb, cw * 0.27, (20, 20, 20))
                continue
            col = ink(card)
            rt = rank_txt(card)
            if style == 0:  # big rank, suit below
                put_text(img, (cx, cy - ch * 0.17), rt, fb, ch * 0.38, col)
                draw_suit(img, cx, cy + ch * 0.22, ch * 0.3, card[1], col)
            elif style == 1:  # rank beside suit
                put_text(
                    img, (cx - cw * 0.2, cy), rt, fb, ch * 0.36 * (0.8 if rt == "10" else 1), col
                )
                draw_suit(img, cx + cw * 0.22, cy, ch * 0.3, card[1], col)
            else:  # small corner rank, big suit centre
                put_text(img, (x0 + cw * 0.08, y0 + ch * 0.07), rt, fb, ch * 0.26, col, anchor="lt")
                draw_suit(img, cx + cw * 0.08, cy + ch * 0.1, ch * 0.45, card[1], col)
    t = max(1, int(round(ch * rng.uniform(0.015, 0.07))))
    lc = (int(rng.uniform(0, 50)),) * 3
    for i in range(11):
        x = int(round(m + i * cw))
        y = int(round(top + i * ch))
        ti = t * (2 if (i in (0, 10) and rng.random() < 0.5) else 1)
        cv2.line(img, (x, int(top)), (x, int(top + 10 * ch)), lc, ti)
        cv2.line(img, (int(m), y), (int(m + 10 * cw), y), lc, ti)
    return img, cells, 0.0


def spaced_cells(m, cw, ch, gap):
    """(row, column, left, top) of each cell, row by row, of a grid of ``cw`` x ``ch`` cards
    ``gap`` apart inside a margin ``m``."""
    return [(r, c, m + c * (cw + gap), m + r * (ch + gap)) for r in range(10) for c in range(10)]


def board_felt(ch, rng):
    """Soft mat: dark green / navy fabric, portrait rounded cards, thin gaps, wrinkles."""
    cw = ch * rng.uniform(0.66, 0.76)
    gap = cw * rng.uniform(0.04, 0.09)
    m = ch * rng.uniform(0.35, 0.7)
    W = int(2 * m + 10 * cw + 9 * gap)
    H = int(2 * m + 10 * ch + 9 * gap)
    base = np.array(
        [(40, 85, 25), (75, 40, 20), (30, 60, 20), (90, 50, 30)][rng.integers(4)], np.float32
    ) * rng.uniform(0.8, 1.2)
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    weave = 0.03 * np.sin(xx * 1.9) * np.sin(yy * 1.9)
    tex = 1 + weave + cv2.GaussianBlur(rng.normal(0, 0.08, (H, W)).astype(np.float32), (0, 0), 0.8)
    img = np.clip(base[None, None] * tex[..., None], 0, 255).astype(np.uint8)
    cream = np.array([rng.uniform(215, 240), rng.uniform(230, 248), rng.uniform(238, 255)])
    fb = FONTS_BOLD[rng.integers(len(FONTS_BOLD))]
    style = rng.integers(2)
    cells = []
    for r, c, x0, y0 in spaced_cells(m, cw, ch, gap):
        cells.append((x0, y0, x0 + cw, y0 + ch))
        card = LAYOUT[r][c]
        cx, cy = x0 + cw / 2, y0 + ch / 2
        rrect(img, x0, y0, x0 + cw, y0 + ch, cw * 0.12, tuple(float(v) for v in cream))
        if card == "W":
            star(img, cx, cy, cw * 0.36, (40, 160, 220))
            put_text(img, (cx, cy + ch * 0.35), "FREE", fb, cw * 0.2, (30, 30, 30))
            continue
        col = ink(card)
        rt = rank_txt(card)
        if style == 0:
            put_text(img, (x0 + cw * 0.1, y0 + ch * 0.06), rt, fb, ch * 0.2, col, anchor="lt")
            draw_suit(img, x0 + cw * 0.2, y0 + ch * 0.36, ch * 0.13, card[1], col)
            draw_suit(img, cx + cw * 0.1, cy + ch * 0.15, ch * 0.36, card[1], col)
        else:
            put_text(img, (cx, cy - ch * 0.15), rt, fb, ch * 0.32, col)
            draw_suit(img, cx, cy + ch * 0.22, ch * 0.28, card[1], col)
    # fabric texture over print, wrinkles: slight remap + low-frequency brightness
    img = img.astype(np.float32) * (1 + 0.5 * (tex[..., None] - 1))
    amp = ch * 0.025
    dx = (
        amp
        * np.sin(yy / H * rng.uniform(2, 6) + rng.uniform(0, 6))
        * np.sin(xx / W * rng.uniform(1, 4))
    )
    dy = amp * np.sin(xx / W * rng.uniform(2, 6) + rng.uniform(0, 6))
    img = cv2.remap(img, xx + dx, yy + dy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    wave = np.zeros((H, W), np.float32)
    for _ in range(4):
        a = rng.uniform(0, np.pi)
        f = rng.uniform(1.5, 6) * 2 * np.pi / max(W, H)
        wave += rng.uniform(0.02, 0.06) * np.sin(
            (xx * np.cos(a) + yy * np.sin(a)) * f + rng.uniform(0, 6)
        )
    img *= (1 + wave)[..., None]
    return np.clip(img, 0, 255).astype(np.uint8), cells, 0.06


def board_wood(ch, rng):
    """Lacquered board (wood grain, black, burgundy or navy): cards as real playing cards, an
    index in two corners and the real pips, often a printed outline; narrow gaps."""
    portrait = rng.random() < 0.6
    cw = ch * (rng.uniform(0.68, 0.78) if portrait else rng.uniform(1.25, 1.45))
    gap = ch * rng.uniform(0.02, 0.06)
    m = ch * rng.uniform(0.25, 0.6)
    W = int(2 * m + 10 * cw + 9 * gap)
    H = int(2 * m + 10 * ch + 9 * gap)
    kind = rng.choice(["wood", "black", "burgundy", "navy"])
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    if kind == "wood":
        base = np.array([40, 90, 150], np.float32) * rng.uniform(0.7, 1.2)
        grain = (
            1
            + 0.12 * np.sin(yy / ch * rng.uniform(3, 8) + 2 * np.sin(xx / ch * 0.7))
            + 0.05 * np.sin(yy * 0.9)
        )
        img = base[None, None] * grain[..., None]
    else:
        base = np.array(
            {"black": (28, 28, 30), "burgundy": (40, 30, 110), "navy": (90, 40, 25)}[kind],
            np.float32,
        ) * rng.uniform(0.8, 1.2)
        img = np.empty((H, W, 3), np.float32)
        img[:] = base
        img += rng.normal(0, 2, (H, W, 1))
    img = np.clip(img, 0, 255).astype(np.uint8)
    fb = FONTS_BOLD[rng.integers(len(FONTS_BOLD))]
    white = np.array([rng.uniform(225, 250), rng.uniform(232, 252), rng.uniform(238, 255)])
    outline = rng.random() < 0.6
    cells = []
    for r, c, x0, y0 in spaced_cells(m, cw, ch, gap):
        cells.append((x0, y0, x0 + cw, y0 + ch))
        card = LAYOUT[r][c]
        X0, Y0 = int(round(x0)), int(round(y0))
        pw, ph = int(round(x0 + cw)) - X0, int(round(y0 + ch)) - Y0
        p = np.empty((ph, pw, 3), np.uint8)
        p[:] = base.clip(0, 255).astype(np.uint8)
        rrect(p, 0, 0, pw - 1, ph - 1, min(pw, ph) * 0.08, tuple(float(v) for v in white))
        if outline:
            rrect(p, 0, 0, pw - 1, ph - 1, min(pw, ph) * 0.08, (60, 60, 60))
            rrect(
                p,
                1.2,
                1.2,
                pw - 2.2,
                ph - 2.2,
                min(pw, ph) * 0.07,
                tuple(float(v) for v in white),
            )
        if card == "W":
            cx, cy, R = pw / 2, ph / 2, min(pw, ph) * 0.4
            circ(p, (cx, cy), R, (20, 20, 20))
            circ(p, (cx, cy), R * 0.8, (40, 170, 230))
            put_text(p, (cx, cy), "FREE", fb, R * 0.45, (20, 20, 20))
        else:
            col = ink(card)
            rt = rank_txt(card)
            s = min(pw, ph)
            for flip in (False, True):
                ix, iy = (s * 0.13, s * 0.15) if not flip else (pw - s * 0.13, ph - s * 0.15)
                put_text(p, (ix, iy), rt, fb, s * 0.2, col, rot180=flip)
                draw_suit(
                    p,
                    ix,
                    iy + s * 0.17 * (-1 if flip else 1),
                    s * 0.12,
                    card[1],
                    col,
                    flip=flip,
                )
            bx0, bx1, by0, by1 = pw * 0.25, pw * 0.75, ph * 0.12, ph * 0.88
            if card[0] in "KQJ":
                face_figure(p, bx0, by0, bx1, by1, card, rng)
            elif card[0] == "A":
                draw_suit(p, pw / 2, ph / 2, s * 0.4, card[1], col)
            else:
                for px, py in PIPS[card[0]]:
                    if portrait:
                        X = pw / 2 + px * (bx1 - bx0) * 0.42
                        Y = ph / 2 + py * (by1 - by0) * 0.4
                    else:
                        X = pw / 2 + py * (bx1 - bx0) * 0.42
                        Y = ph / 2 + px * (by1 - by0) * 0.33
                    draw_suit(p, X, Y, s * 0.17, card[1], col, flip=(py if portrait else px) > 0.01)
        img[Y0 : Y0 + ph, X0 : X0 + pw] = p
    return img, cells, 0.05


ARTS = {"jax": (board_jax, None), "paper": (board_paper, None), "felt": (board_felt, None)}


def board_units(art, rng_state):
    """Board size in cell-height units, computed by rendering at tiny scale (cheap)."""
    r = np.random.default_rng(rng_state)
    img, _, _ = {"jax": board_jax, "paper": board_paper, "felt": board_felt}[art](10, r)
    return img.shape[1] / 10.0, img.shape[0] / 10.0


# ---------------------------------------------------------------- chips
CHIP_BASE = {"B": (170, 90, 20), "G": (60, 140, 30), "R": (40, 40, 200)}
# the wood art's chip sets, one shade of each colour drawn per frame: navy to sky blue, dark to
# yellowish green (lit by a cool light these reach teal), and crimson to orange red
WOOD_CHIPS = {
    "B": [(170, 90, 20), (120, 50, 10), (210, 140, 60), (180, 110, 40)],
    "G": [(60, 140, 30), (90, 150, 10), (100, 170, 60), (50, 110, 20)],
    "R": [(40, 40, 200), (50, 30, 160), (30, 70, 220), (60, 40, 180)],
}


def draw_chip(img, cx, cy, r, color, light):
    """Plastic disc with bevel rim, shading, specular highlight and soft drop shadow (in-place)."""
    H, W = img.shape[:2]
    R = int(r * 1.6) + 3
    # (clipped to the picture: a chip by the edge of a board without a margin is still drawn)
    X0, Y0 = max(0, int(cx) - R), max(0, int(cy) - R)
    X1, Y1 = min(W, int(cx) + R), min(H, int(cy) + R)
    if X0 >= X1 or Y0 >= Y1:
        return
    yy, xx = np.mgrid[Y0:Y1, X0:X1].astype(np.float32)
    lx, ly = light
    # shadow
    sd = np.hypot(xx - cx + lx * r * 0.18, yy - cy + ly * r * 0.18)
    sh = np.clip((r * 1.08 - sd) / (r * 0.25), 0, 1) * 0.5
    roi = img[Y0:Y1, X0:X1].astype(np.float32) * (1 - sh[..., None])
    d = np.hypot(xx - cx, yy - cy) / r
    a = np.clip((1 - d) * r + 0.5, 0, 1)[..., None]
    base = np.array(color, np.float32)
    # shading: brighter toward light
    proj = ((xx - cx) * -lx + (yy - cy) * -ly) / r
    shade = 1 + 0.18 * proj - 0.1 * d**2
    rim = np.exp(-(((d - 0.86) / 0.06) ** 2)) * 0.22 - np.exp(-(((d - 0.74) / 0.04) ** 2)) * 0.12
    edge = -np.clip((d - 0.95) / 0.05, 0, 1) * 0.25
    col = base[None, None] * (shade + rim + edge)[..., None]
    col += 255 * 0.25 * rim.clip(0)[..., None]
    hx, hy = cx - lx * r * 0.45, cy - ly * r * 0.45
    spec = np.exp(-(((xx - hx) / (r * 0.22)) ** 2 + ((yy - hy) / (r * 0.13)) ** 2)) * 0.75
    col = col * (1 - spec[..., None]) + 255 * spec[..., None]
    roi = roi * (1 - a) + np.clip(col, 0, 255) * a
    img[Y0:Y1, X0:X1] = roi.astype(np.uint8)


def place_chips(img, cells, rng, light, art_shape_min, base=None):
    cells_truth = [["*" if (r, c) in CORNERS else "." for c in range(10)] for r in range(10)]
    n = int(rng.integers(0, 61))
    cols = list(rng.choice(["B", "G", "R"], int(rng.integers(2, 4)), replace=False))
    cand = [(r, c) for r in range(10) for c in range(10) if (r, c) not in CORNERS]
    idx = rng.choice(len(cand), n, replace=False)
    tone = {
        k: np.array(v, np.float32) * rng.uniform(0.8, 1.15) + rng.normal(0, 8, 3)
        for k, v in (base or CHIP_BASE).items()
    }
    dfrac = rng.uniform(0.75, 0.9)
    for i in idx:
        r, c = cand[i]
        k = cols[int(rng.integers(len(cols)))]
        x0, y0, x1, y1 = cells[r * 10 + c]
        s = min(x1 - x0, y1 - y0)
        cx = (x0 + x1) / 2 + rng.uniform(-0.12, 0.12) * (x1 - x0)
        cy = (y0 + y1) / 2 + rng.uniform(-0.12, 0.12) * (y1 - y0)
        colr = np.clip(tone[k] + rng.normal(0, 5, 3), 0, 255)
        draw_chip(img, cx, cy, s * dfrac / 2 * rng.uniform(0.97, 1.03), colr, light)
        cells_truth[r][c] = k
    return ["".join(row) for row in cells_truth]


# ---------------------------------------------------------------- tables / photography
def table(fw, fh, rng):
    yy, xx = np.mgrid[0:fh, 0:fw].astype(np.float32)
    kind = rng.choice(["wood", "cloth", "check", "stripes"], p=[0.45, 0.25, 0.18, 0.12])
    if kind == "wood":
        a = rng.uniform(0, np.pi)
        u = xx * np.cos(a) + yy * np.sin(a)
        v = -xx * np.sin(a) + yy * np.cos(a)
        warp = cv2.resize(
            rng.normal(0, 1, (5, 5)).astype(np.float32), (fw, fh), interpolation=cv2.INTER_CUBIC
        )
        period = rng.uniform(10, 30) * fw / 1280
        knots = rng.normal(0, 1, 12)
        w1 = np.interp(u, np.linspace(u.min(), u.max(), 12), knots)
        g = np.sin((v + warp * period * 0.6 + w1 * period * 1.2) / period * 2 * np.pi)
        g = 0.6 * g + 0.4 * np.sin((v + warp * period * 0.3) / (period * 0.37) * 2 * np.pi)
        fine = cv2.GaussianBlur(rng.normal(0, 1, (fh, fw)).astype(np.float32), (0, 0), 1)
        t = 0.5 + 0.25 * g + 0.06 * fine
        dark = np.array([rng.uniform(15, 40), rng.uniform(35, 70), rng.uniform(60, 110)])
        light = dark * rng.uniform(1.6, 2.6)
        if rng.random() < 0.3:  # pale / grey wood
            dark, light = dark + 60, light + 60
        img = dark[None, None] + (light - dark)[None, None] * t[..., None]
        # planks
        pw = rng.uniform(0.15, 0.4) * max(fw, fh)
        seam = np.abs(((u / pw) % 1) - 0.5) > 0.497
        img[seam] *= 0.5
    elif kind == "cloth":
        c = rng.uniform(40, 220, 3)
        n = cv2.GaussianBlur(rng.normal(0, 1, (fh, fw)).astype(np.float32), (0, 0), 0.7)
        img = c[None, None] * (1 + 0.05 * n + 0.03 * np.sin(xx * 2.2) * np.sin(yy * 2.2))[..., None]
    else:
        c1 = rng.uniform(150, 250, 3)
        c2 = rng.uniform(20, 200, 3)
        a = rng.uniform(-0.3, 0.3)
        p = rng.uniform(20, 60) * fw / 1280
        u = xx * np.cos(a) + yy * np.sin(a)
        v = -xx * np.sin(a) + yy * np.cos(a)
        if kind == "check":
            m = (((u // p) % 2 == 0).astype(np.float32) + ((v // p) % 2 == 0)) / 2
        else:
            m = ((u // p) % 2 == 0).astype(np.float32)
        m = cv2.GaussianBlur(m, (0, 0), 1.2)
        img = c1[None, None] * (1 - m[..., None]) + c2[None, None] * m[..., None]
        img *= (
            1 + 0.04 * cv2.GaussianBlur(rng.normal(0, 1, (fh, fw)).astype(np.float32), (0, 0), 0.7)
        )[..., None]
    # gentle low-frequency folds / unevenness
    lf = cv2.resize(
        rng.normal(0, 1, (4, 4)).astype(np.float32), (fw, fh), interpolation=cv2.INTER_CUBIC
    )
    img *= (1 + 0.05 * lf)[..., None]
    return np.clip(img, 0, 255).astype(np.float32)


def project_quad(wu, hu, fw, fh, angle_deg, rng, area_frac):
    """Corners TL,TR,BR,BL of a wu x hu rectangle, rotated, tilted, projected and fitted into the frame."""
    s = 1.0 / max(wu, hu)
    P = np.array([[-wu / 2, -hu / 2], [wu / 2, -hu / 2], [wu / 2, hu / 2], [-wu / 2, hu / 2]]) * s
    t = math.radians(angle_deg)
    Rz = np.array(
        [[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]]
    )  # clockwise on screen (y down)
    P = P @ Rz.T
    P3 = np.c_[P, np.zeros(4)]
    tilt = math.radians(rng.uniform(0, 40))
    phi = rng.uniform(0, 2 * np.pi)
    k = np.array([math.cos(phi), math.sin(phi), 0.0])
    K = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    R = np.eye(3) + math.sin(tilt) * K + (1 - math.cos(tilt)) * K @ K
    P3 = P3 @ R.T
    D = rng.uniform(1.6, 3.5)
    Q = P3[:, :2] / (P3[:, 2:3] + D)
    area = 0.5 * abs(np.dot(Q[:, 0], np.roll(Q[:, 1], 1)) - np.dot(Q[:, 1], np.roll(Q[:, 0], 1)))
    sc = math.sqrt(area_frac * fw * fh / area)
    mg = 0.02 * min(fw, fh)
    bw, bh = np.ptp(Q[:, 0]), np.ptp(Q[:, 1])
    sc = min(sc, (fw - 2 * mg) / bw, (fh - 2 * mg) / bh)
    Q = (Q - Q.min(0)) * sc
    bw, bh = Q[:, 0].max(), Q[:, 1].max()
    off = np.array(
        [
            rng.uniform(mg, max(mg + 1e-3, fw - mg - bw)),
            rng.uniform(mg, max(mg + 1e-3, fh - mg - bh)),
        ]
    )
    return (Q + off).astype(np.float32)


def skin_tone(rng):
    pale, mid, dark = (
        np.array([170, 190, 235.0]),
        np.array([105, 145, 200.0]),
        np.array([45, 70, 105.0]),
    )
    t = rng.uniform(0, 1)
    c = pale + (mid - pale) * (t * 2) if t < 0.5 else mid + (dark - mid) * (t * 2 - 1)
    return c + rng.normal(0, 6, 3)


def hand_mask(fw, fh, target, P, rng):
    """Arm from a frame edge with palm, four fingers and thumb, fingertips near `target`."""
    m = np.zeros((fh, fw), np.uint8)
    sh = 4

    def S(p):
        return (int(round(p[0] * 16)), int(round(p[1] * 16)))

    edge = rng.integers(4)
    if edge == 0:
        e = np.array([rng.uniform(0, fw), fh + P])
    elif edge == 1:
        e = np.array([rng.uniform(0, fw), -P])
    elif edge == 2:
        e = np.array([-P, rng.uniform(0, fh)])
    else:
        e = np.array([fw + P, rng.uniform(0, fh)])
    d = target - e
    L = np.linalg.norm(d)
    if L < 1:
        d = np.array([0.0, -1.0])
        L = 1
    d = d / L
    n = np.array([-d[1], d[0]])
    tip = target
    C = tip - d * P * 1.05
    Wr = C - d * P * 0.55
    far = e - d * P * 2
    aw0, aw1 = P * 0.36, P * 0.5
    arm = np.array([Wr + n * aw0, Wr - n * aw0, far - n * aw1, far + n * aw1])
    cv2.fillPoly(m, [np.round(arm * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=sh)
    ang = math.degrees(math.atan2(d[1], d[0]))
    cv2.ellipse(m, S(C), S((P * 0.55, P * 0.48)), ang, 0, 360, 255, -1, cv2.LINE_AA, shift=sh)
    curl = rng.uniform(0.5, 1.1)
    for off, spread, ln in zip(
        [-0.33, -0.11, 0.11, 0.33], [-14, -5, 4, 13], [0.58, 0.72, 0.78, 0.68], strict=False
    ):
        a = math.radians(spread + rng.normal(0, 4))
        dd = d * math.cos(a) + n * math.sin(a)
        b = C + d * P * 0.3 + n * off * P
        e2 = b + dd * ln * P * curl * rng.uniform(0.85, 1.1)
        cv2.line(m, S(b), S(e2), 255, max(2, int(P * 0.19)), cv2.LINE_AA, shift=sh)
    side = rng.choice([-1, 1])
    a = math.radians(side * rng.uniform(35, 65))
    dd = d * math.cos(a) + n * math.sin(a)
    b = C + n * side * P * 0.35 - d * P * 0.15
    cv2.line(m, S(b), S(b + dd * 0.55 * P), 255, max(2, int(P * 0.23)), cv2.LINE_AA, shift=sh)
    return m, d


def photograph(flat, cells, truth_cells, rng, fw, fh, orient, hands, light, edge_t):
    Hf, Wf = flat.shape[:2]
    img = table(fw, fh, rng)
    angle = orient + rng.uniform(-20, 20)
    quad = project_quad(Wf, Hf, fw, fh, angle, rng, rng.uniform(0.3, 0.95))
    src = np.float32([[0, 0], [Wf, 0], [Wf, Hf], [0, Hf]])
    Hm = cv2.getPerspectiveTransform(src, quad)
    warped = cv2.warpPerspective(
        flat, Hm, (fw, fh), flags=cv2.INTER_AREA if Wf > fw else cv2.INTER_LINEAR
    )
    alpha = (
        cv2.warpPerspective(np.full((Hf, Wf), 255, np.uint8), Hm, (fw, fh)).astype(np.float32) / 255
    )
    bsz = math.sqrt(cv2.contourArea(quad))
    # drop shadow of the board
    sh_off = (np.array(light) * -1 * bsz * 0.012).astype(np.float32)
    sm = cv2.warpAffine(alpha, np.float32([[1, 0, sh_off[0]], [0, 1, sh_off[1]]]), (fw, fh))
    sm = cv2.GaussianBlur(sm, (0, 0), bsz * 0.01 + 1)
    img *= (1 - 0.45 * sm)[..., None]
    if edge_t > 0:  # board thickness: darker edge band below
        t = bsz * 0.006 * edge_t / 0.25
        em = cv2.warpAffine(alpha, np.float32([[1, 0, 0], [0, 1, t]]), (fw, fh))
        ec = np.array([40, 40, 45], np.float32) * rng.uniform(0.6, 1.5)
        img = img * (1 - em[..., None]) + ec * em[..., None]
    img = img * (1 - alpha[..., None]) + warped.astype(np.float32) * alpha[..., None]
    hidden = []
    if hands:
        P = bsz * rng.uniform(0.15, 0.22)
        r, c = rng.integers(0, 10, 2)
        x0, y0, x1, y1 = cells[r * 10 + c]
        tp = cv2.perspectiveTransform(np.float32([[[(x0 + x1) / 2, (y0 + y1) / 2]]]), Hm)[0, 0]
        m, d = hand_mask(fw, fh, tp.astype(np.float64), P, rng)
        mf = cv2.GaussianBlur(m.astype(np.float32) / 255, (0, 0), 0.8)
        # shadow of the hand (hand held a bit above the board)
        so = (-np.array(light) * P * 0.25).astype(np.float32)
        hs = cv2.GaussianBlur(
            cv2.warpAffine(mf, np.float32([[1, 0, so[0]], [0, 1, so[1]]]), (fw, fh)),
            (0, 0),
            P * 0.12,
        )
        img *= (1 - 0.5 * hs)[..., None]
        small = cv2.resize(m, (fw // 2, fh // 2), interpolation=cv2.INTER_AREA)
        dist = cv2.distanceTransform((small > 127).astype(np.uint8), cv2.DIST_L2, 5)
        dist = cv2.resize(dist, (fw, fh)) * 2
        yy, xx = np.mgrid[0:fh, 0:fw].astype(np.float32)
        lin = ((xx - tp[0]) * -light[0] + (yy - tp[1]) * -light[1]) / (P * 4)
        shade = 0.6 + 0.4 * np.clip(dist / (P * 0.22), 0, 1) ** 0.6 + 0.1 * np.clip(lin, -1, 1)
        tex = 1 + 0.03 * cv2.GaussianBlur(rng.normal(0, 1, (fh, fw)).astype(np.float32), (0, 0), 2)
        skin = skin_tone(rng)[None, None] * (shade * tex)[..., None]
        img = img * (1 - mf[..., None]) + skin * mf[..., None]
        # hidden cells: coverage in flat-board coordinates
        back = (
            cv2.warpPerspective(m, np.linalg.inv(Hm), (Wf, Hf), flags=cv2.INTER_LINEAR).astype(
                np.float32
            )
            / 255
        )
        for rr in range(10):
            for cc in range(10):
                x0, y0, x1, y1 = [int(round(v)) for v in cells[rr * 10 + cc]]
                if back[y0:y1, x0:x1].mean() > 0.25:
                    hidden.append([rr, cc])
    return img, hidden, grid_quad(cells, Hm)


def grid_quad(cells, hom):
    """The playing area's outer lattice lines (half a gap outside the outer cards) on screen:
    TL, TR, BR, BL in the frame's pixels, for measuring how far a located grid lies off."""
    (ax0, ay0, ax1, ay1), (bx0, by0) = cells[0], cells[11][:2]
    gx, gy = (bx0 - ax1) / 2, (by0 - ay1) / 2  # half the gap between cards
    x0, y0 = ax0 - gx, ay0 - gy
    x1, y1 = cells[99][2] + gx, cells[99][3] + gy
    pts = np.float32([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]])
    return cv2.perspectiveTransform(pts, hom)[0].round(2).tolist()


def finish(img, rng):
    fh, fw = img.shape[:2]
    yy, xx = np.mgrid[0:fh, 0:fw].astype(np.float32)
    a = rng.uniform(0, 2 * np.pi)
    g = ((xx - fw / 2) * math.cos(a) + (yy - fh / 2) * math.sin(a)) / max(fw, fh)
    img *= (1 + rng.uniform(0.1, 0.5) * g)[..., None] * rng.uniform(0.75, 1.15)
    k = rng.uniform(-1, 1)  # colour temperature: + warm, - cool
    img *= np.array([1 - 0.22 * k, 1 + 0.03 * k, 1 + 0.2 * k], np.float32)
    r2 = ((xx - fw / 2) ** 2 + (yy - fh / 2) ** 2) / ((fw / 2) ** 2 + (fh / 2) ** 2)
    img *= (1 - rng.uniform(0.1, 0.45) * r2)[..., None]
    if rng.random() < 0.3:  # glare
        cx, cy = rng.uniform(0.2, 0.8) * fw, rng.uniform(0.2, 0.8) * fh
        ax, ay = rng.uniform(0.04, 0.15) * fw, rng.uniform(0.03, 0.1) * fh
        t = rng.uniform(0, np.pi)
        u = ((xx - cx) * math.cos(t) + (yy - cy) * math.sin(t)) / ax
        v = (-(xx - cx) * math.sin(t) + (yy - cy) * math.cos(t)) / ay
        gl = np.exp(-(u * u + v * v)) * rng.uniform(0.4, 0.9)
        img = img * (1 - gl[..., None]) + 255 * gl[..., None]
    s = rng.uniform(0.3, 1.4) * fw / 1280
    img = cv2.GaussianBlur(img, (0, 0), max(0.3, s))
    img += rng.normal(0, rng.uniform(1.5, 7), img.shape).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def loose_card(rng, h):
    w = int(h * 0.7)
    h = int(h)
    im = np.zeros((h + 4, w + 4, 3), np.uint8)
    al = np.zeros((h + 4, w + 4), np.uint8)
    rrect(im, 2, 2, w + 2, h + 2, w * 0.08, (235, 240, 245))
    rrect(al, 2, 2, w + 2, h + 2, w * 0.08, 255)
    card = LAYOUT[rng.integers(1, 9)][rng.integers(10)]
    col = ink(card)
    put_text(im, (w * 0.15, h * 0.12), rank_txt(card), FONTS_BOLD[0], h * 0.14, col)
    draw_suit(im, w * 0.15 + 2, h * 0.25, h * 0.09, card[1], col)
    draw_suit(im, w / 2 + 2, h / 2 + 2, h * 0.35, card[1], col)
    return im, al


def paste_warped(img, im, al, rng, fw, fh, size_frac):
    h, w = im.shape[:2]
    quad = project_quad(w, h, fw, fh, rng.uniform(0, 360), rng, size_frac)
    Hm = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), quad)
    wi = cv2.warpPerspective(im, Hm, (fw, fh)).astype(np.float32)
    wa = cv2.warpPerspective(al, Hm, (fw, fh)).astype(np.float32)[..., None] / 255
    sa = cv2.GaussianBlur(wa[..., 0], (0, 0), 4)
    img *= (1 - 0.3 * sa)[..., None]
    return img * (1 - wa) + wi * wa


def no_board(rng, fw, fh):
    img = table(fw, fh, rng)
    kind = rng.choice(["cards", "chess", "empty", "chips"])
    if kind == "cards":
        for _ in range(int(rng.integers(1, 7))):
            im, al = loose_card(rng, 200)
            img = paste_warped(img, im, al, rng, fw, fh, rng.uniform(0.01, 0.05))
    elif kind == "chess":
        n = 8
        s = 60
        im = np.zeros((n * s + 40, n * s + 40, 3), np.uint8)
        im[:] = (40, 60, 90)
        for i in range(n):
            for j in range(n):
                c = (200, 225, 235) if (i + j) % 2 == 0 else (60, 90, 120)
                im[20 + i * s : 20 + (i + 1) * s, 20 + j * s : 20 + (j + 1) * s] = c
        img = paste_warped(
            img, im, np.full(im.shape[:2], 255, np.uint8), rng, fw, fh, rng.uniform(0.2, 0.6)
        )
    if kind in ("chips", "cards") and rng.random() < 0.7:
        tmp = img.copy()
        for _ in range(int(rng.integers(3, 15))):
            k = rng.choice(list(CHIP_BASE))
            r = rng.uniform(0.015, 0.03) * min(fw, fh)
            draw_chip_f(
                tmp,
                rng.uniform(0.1, 0.9) * fw,
                rng.uniform(0.1, 0.9) * fh,
                r,
                CHIP_BASE[k],
                (0.5, 0.7),
            )
        img = tmp
    return img


def draw_chip_f(imgf, cx, cy, r, color, light):
    u8 = np.clip(imgf, 0, 255).astype(np.uint8)
    draw_chip(u8, cx, cy, r, color, light)
    imgf[:] = u8


SIZES = [
    (640, 480),
    (800, 600),
    (1024, 768),
    (1280, 720),
    (1280, 960),
    (1600, 900),
    (1920, 1080),
    (1440, 1080),
]


def render_one(job):
    out, i, art, seed, hands_frac = job
    rng = np.random.default_rng([seed, i])
    base = None  # the chips' colours: the usual ones but on the wood art
    if art == "wood":
        base = {k: v[int(rng.integers(len(v)))] for k, v in WOOD_CHIPS.items()}
    if art == "mixed":
        art = ["jax", "paper", "felt"][rng.integers(3)]
    fw, fh = SIZES[rng.integers(len(SIZES))]
    if rng.random() < 0.2:
        fw, fh = fh, fw
    la = rng.uniform(0, 2 * np.pi)
    light = (math.cos(la) * 0.7, math.sin(la) * 0.7)
    if art == "none":
        img = no_board(rng, fw, fh)
        truth = {"board_found": False}
    else:
        fn = {"jax": board_jax, "paper": board_paper, "felt": board_felt, "wood": board_wood}[art]
        hands = rng.random() < hands_frac
        orient = int(rng.choice([0, 90, 180, 270]))
        # flat resolution ~ matched to the on-screen size of the board
        ch = max(24, int(rng.uniform(0.9, 1.3) * max(fw, fh) / 15 * rng.uniform(0.7, 1.0)))
        art_seed = int(rng.integers(1 << 30))
        flat, cells, edge_t = fn(ch, np.random.default_rng(art_seed))
        # light direction on the flat board must follow the screen light: rotate back by orient
        t = -math.radians(orient)
        fl = (
            light[0] * math.cos(t) - light[1] * math.sin(t),
            light[0] * math.sin(t) + light[1] * math.cos(t),
        )
        truth_cells = place_chips(flat, cells, rng, fl, None, base)
        img, hidden, quad = photograph(
            flat, cells, truth_cells, rng, fw, fh, orient, hands, light, edge_t
        )
        truth = {
            "board_found": True,
            "orientation": orient,
            "cells": truth_cells,
            "hidden": hidden,
            "art": art,
            "grid": quad,
        }
    img = finish(img, rng)
    name = os.path.join(out, "frame_%04d" % i)
    cv2.imwrite(name + ".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(60, 96))])
    with open(name + ".json", "w") as f:
        json.dump(truth, f)
    return i


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument(
        "--art", default="jax", choices=["jax", "paper", "felt", "wood", "none", "mixed"]
    )
    ap.add_argument("--count", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--hands", type=float, default=0.0)
    ap.add_argument("--start", type=int, default=0, help="first frame index")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    jobs = [(a.outdir, i, a.art, a.seed, a.hands) for i in range(a.start, a.start + a.count)]
    if a.jobs > 1:
        with Pool(a.jobs) as p:
            for _ in p.imap_unordered(render_one, jobs):
                pass
    else:
        for j in jobs:
            render_one(j)


if __name__ == "__main__":
    main()
