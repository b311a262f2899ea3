"""A tiny hand-drawn board for vision tests (no renderer needed): not a test module itself.

It draws a grey board with a title margin, 10x10 white cards separated by grey gaps, a red or black
rank letter and pip per card following the classic ink pattern, round corner emblems, chips as
shaded discs placed off-centre, then puts the board in perspective on a wooden table.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from companion.vision.geometry import canonical_corners, order_quad
from companion.vision.layout import CLASSIC_INK

CHIP_BGR = {"B": (170, 70, 20), "G": (60, 140, 30), "R": (40, 30, 200)}

STRAIGHT_CELL = 24  # pixels per cell side of the straightened grids below

DATA = Path(__file__).resolve().parent / "data"


def spec_frame(name: str, written: bool = False):
    """The frame and truth of a render spec saved in ``tests/data`` (a seen frame's sidecar
    ``spec``); with ``written``, the image as ``companion render`` wrote it: a JPEG at the
    spec's quality, or 95."""
    from companion.render import RenderSpec, render_frame
    from companion.render.scene import render_raw

    spec = RenderSpec.from_json(json.loads((DATA / name).read_text()))
    if not written:
        return render_frame(spec)
    # (``companion render`` encodes the raw frame once; ``render_frame`` has already been
    # through the JPEG round trip, a second one would change the picture)
    image, truth = render_raw(spec)
    _, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(spec.jpeg or 95)])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR), truth


def straight_cards() -> np.ndarray:
    """An already straightened grid image: plain white cards on grey gaps, nothing printed."""
    n = STRAIGHT_CELL
    img = np.full((10 * n, 10 * n, 3), (120, 125, 125), np.uint8)  # grey gaps
    for r in range(10):
        for c in range(10):
            x, y = c * n, r * n
            cv2.rectangle(img, (x + 2, y + 2), (x + n - 3, y + n - 3), (232, 236, 238), -1)
    return img


def straight_sevens() -> np.ndarray:
    """:func:`straight_cards` with a red or black "7" printed on each card, in a checkerboard."""
    n, img = STRAIGHT_CELL, straight_cards()
    for r in range(10):
        for c in range(10):
            ink = (30, 30, 200) if (r + c) % 2 else (30, 30, 30)
            cv2.putText(img, "7", (c * n + 4, r * n + 16), cv2.FONT_HERSHEY_PLAIN, 0.9, ink, 1)
    return img


def without_the_retoned_look(monkeypatch) -> None:
    """The reader without its last look, at a copy of a bright frame with the highlights spread
    (``exposure.py``): since that look it finds the gingham board of the calibration tests
    (``tests/data/independent/jax10_frame_0012``) by itself (``test_vision_exposure``), and a
    board not found is what those tests need."""
    import companion.vision.pipeline as pipeline

    monkeypatch.setattr(pipeline, "exposure_gamma", lambda bgr: None)


def cli_frame(seed: int, index: int, art: str, hands: float = 0.0, **options):
    """Frame ``index`` of `companion render --seed SEED --art ART --hands HANDS --no-board 0`
    with its truth: the command's defaults (any size, tilt up to 40 degrees, a lens on 60 % of
    the cameras), ``options`` (``frame_spec``'s keywords) overriding them."""
    from companion.commands.render import frame_spec
    from companion.render import render_frame

    values = {"no_board": 0.0, "size": None, "max_tilt": 40.0, "lens": 0.6, **options}
    return render_frame(frame_spec(seed, index, art=art, hands=hands, **values))


def close_board_spec(art: str, seed: int, lens_k1: float = 0.0):
    """A rendered board filling most of an 800x600 frame, tilted 15 degrees, without glare
    or loose cards, seen through a radial lens ``lens_k1`` (0: none)."""
    from companion.render import random_spec

    return random_spec(
        np.random.default_rng(seed),
        art=art,
        hand=False,
        board_fraction=0.9,
        tilt_deg=15.0,
        size=(800, 600),
        glare=0.0,
        board_cards=0,
        lens_k1=lens_k1,
        lens_k2=0.0,
    )


def confidently_wrong(reading, truth_cells):
    """Cells the reading states with a value (not '?') that differs from the truth."""
    return [
        (r, c)
        for r in range(10)
        for c in range(10)
        if reading.cells[r][c] not in ("?", truth_cells[r][c])
    ]


def independent_image(name: str):
    """The independent renderer's frame ``name`` (``tests/data/independent``) and its truth
    (a dict: ``cells``, ``orientation``, ``hidden``)."""
    truth = json.loads((DATA / "independent" / f"{name}.json").read_text())
    return cv2.imread(str(DATA / "independent" / f"{name}.jpg")), truth


def independent_frame(name: str):
    """Read the independent renderer's frame ``name`` (``tests/data/independent``: its JPEG
    and its truth) from scratch and check the board is found and turned right; the reading and
    the truth (a dict: ``cells``, ``orientation``, ``hidden``)."""
    from companion.vision import analyze_image

    image, truth = independent_image(name)
    reading = analyze_image(image)
    assert reading.board_found
    assert reading.orientation == truth["orientation"]
    return reading, truth


def read_found_right(name: str, most_unknown: int):
    """Read the frame of render spec ``name`` (``tests/data``, as ``companion render`` wrote
    it) from scratch and check the board is found, turned right, with no cell confidently
    wrong and at most ``most_unknown`` cells ``?``; the reading."""
    from companion.vision import analyze_image

    image, truth = spec_frame(name, written=True)
    reading = analyze_image(image)
    assert reading.board_found
    assert reading.orientation == truth.orientation
    assert confidently_wrong(reading, truth.cells) == []
    assert sum(row.count("?") for row in reading.cells) <= most_unknown
    return reading


def draw_flat_board(cells, cell_w=40, cell_h=28, gap=4, margin=(30, 14), seed=0):
    """Flat top-down board image and the playing-area rectangle (x0, y0, x1, y1)."""
    rng = np.random.default_rng(seed)
    mx, my = margin
    w = 10 * cell_w + 11 * gap + 2 * mx
    h = 10 * cell_h + 11 * gap + 2 * my + 20  # title margin at the bottom
    board = np.full((h, w, 3), (150, 152, 150), np.uint8)
    cv2.putText(board, "SEQUENCE", (w // 3, h - 12), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (90, 90, 90), 2)
    x0, y0 = mx, my
    for r in range(10):
        for c in range(10):
            cx = x0 + gap + c * (cell_w + gap)
            cy = y0 + gap + r * (cell_h + gap)
            cv2.rectangle(board, (cx, cy), (cx + cell_w - 1, cy + cell_h - 1), (235, 238, 240), -1)
            ink = CLASSIC_INK[r][c]
            if ink == "*":
                cv2.circle(
                    board, (cx + cell_w // 2, cy + cell_h // 2), cell_h // 3, (60, 120, 160), 2
                )
                continue
            col = (30, 30, 190) if ink == "r" else (25, 25, 25)
            cv2.putText(
                board, "7", (cx + 3, cy + cell_h // 2 + 2), cv2.FONT_HERSHEY_SIMPLEX, 0.35, col, 1
            )
            cv2.circle(
                board, (cx + cell_w * 2 // 3, cy + cell_h // 2), max(2, cell_h // 7), col, -1
            )
            sym = cells[r][c]
            if sym in CHIP_BGR:
                jx, jy = rng.uniform(-0.12, 0.12, 2) * cell_h
                centre = (int(cx + cell_w / 2 + jx), int(cy + cell_h / 2 + jy))
                rad = int(cell_h * 0.42)
                base = np.array(CHIP_BGR[sym], float)
                cv2.circle(board, centre, rad, tuple(int(v) for v in base * 0.7), -1)
                cv2.circle(board, centre, int(rad * 0.8), tuple(int(v) for v in base), -1)
    x1 = x0 + 10 * cell_w + 11 * gap
    y1 = y0 + 10 * cell_h + 11 * gap
    return board, (x0 + gap / 2, y0 + gap / 2, x1 - gap / 2, y1 - gap / 2)


def make_frame(cells, orientation=0, size=(640, 480), tilt=0.15, fraction=0.6, seed=0):
    """Board in perspective on a table. Returns (bgr, canonical grid corners A1,J1,J10,A10)."""
    rng = np.random.default_rng(seed)
    board, (gx0, gy0, gx1, gy1) = draw_flat_board(cells, seed=seed)
    k = orientation // 90
    board = np.ascontiguousarray(np.rot90(board, -k))  # rotate clockwise by orientation
    bh, bw = board.shape[:2]
    w, h = size
    bg = np.zeros((h, w, 3), np.uint8)
    bg[:] = (40, 80, 130)
    bg = cv2.add(bg, (rng.normal(0, 8, (h, w, 1)).repeat(3, 2)).clip(0, 255).astype(np.uint8))
    scale = np.sqrt(fraction * w * h / (bw * bh))
    dw, dh = bw * scale, bh * scale
    cx, cy = w / 2, h / 2
    squeeze = tilt * dw / 2
    dst = np.array(
        [
            [cx - dw / 2 + squeeze, cy - dh / 2],
            [cx + dw / 2 - squeeze, cy - dh / 2],
            [cx + dw / 2, cy + dh / 2],
            [cx - dw / 2, cy + dh / 2],
        ],
        np.float32,
    )
    dst += rng.uniform(-0.02, 0.02, dst.shape).astype(np.float32) * min(w, h)
    src = np.array([[0, 0], [bw, 0], [bw, bh], [0, bh]], np.float32)
    hom = cv2.getPerspectiveTransform(src, dst)
    warped = cv2.warpPerspective(board, hom, (w, h))
    mask = cv2.warpPerspective(np.full((bh, bw), 255, np.uint8), hom, (w, h))
    frame = np.where(mask[..., None] > 127, warped, bg)
    # grid corners in the rotated flat board, screen order TL, TR, BR, BL
    rect = np.array([[gx0, gy0], [gx1, gy0], [gx1, gy1], [gx0, gy1]], np.float64)
    rot = _rotate_points(rect, k, board_unrot_shape=(bh, bw) if k % 2 == 0 else (bw, bh))
    pts = cv2.perspectiveTransform(rot.reshape(-1, 1, 2).astype(np.float32), hom).reshape(4, 2)
    canonical = canonical_corners(order_quad(pts), orientation)
    return frame, canonical


def _rotate_points(pts, k, board_unrot_shape):
    """Map points of the unrotated flat board into the board rotated clockwise k quarter turns."""
    h, w = board_unrot_shape
    out = np.array(pts, float)
    for _ in range(k):
        x, y = out[:, 0].copy(), out[:, 1].copy()
        out[:, 0], out[:, 1] = h - y, x  # clockwise quarter turn of an image h tall
        h, w = w, h
    return out


EMPTY = ["*........*"] + ["." * 10] * 8 + ["*........*"]
SOME = [
    "*B.......*",
    ".G....R...",
    "..B.......",
    "...GG.....",
    "....R.....",
    "..........",
    "......B...",
    ".R.....G..",
    "........B.",
    "*R.......*",
]
