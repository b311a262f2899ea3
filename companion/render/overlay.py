"""Loose playing cards lying on the board (a player put a card down): static objects that
cover cells, drawn over the chips and marked in ``Truth.occluded``."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from companion.render.table import card_patch

CARD_ROWS = (1.8, 2.5)  # a real card measured in board rows (about 6.3 x 8.8 cm)


@dataclass(frozen=True, slots=True)
class Overlay:
    box: tuple[int, int, int, int]  # x0, y0, x1, y1 in the frame
    image: np.ndarray  # BGR crop of the box
    alpha: np.ndarray  # float32 crop, 0..1
    mask: np.ndarray  # full-frame uint8 coverage, for the truth

    def apply(self, frame: np.ndarray) -> None:
        x0, y0, x1, y1 = self.box
        region = frame[y0:y1, x0:x1]
        a = self.alpha[..., None]
        region[:] = (self.image * a + region * (1 - a)).astype(np.uint8)


def loose_cards(count: int, grid_to_image: np.ndarray, size, rng) -> Overlay | None:
    """``count`` cards at random places and angles on the board (grid units), or ``None``."""
    if count <= 0:
        return None
    w, h = size
    canvas = np.zeros((h, w, 3), np.uint8)
    cover = np.zeros((h, w), np.float32)
    shade = np.ones((h, w), np.float32)
    for _ in range(count):
        px = 120  # card texture resolution (pixels per card width)
        patch = card_patch(rng, px, round(px * CARD_ROWS[1] / CARD_ROWS[0]))
        ph, pw = patch.shape[:2]
        angle = rng.uniform(0, 2 * math.pi)
        cx, cy = rng.uniform(1, 9), rng.uniform(1, 9)
        k = CARD_ROWS[0] / pw  # grid units per card pixel
        c, s = math.cos(angle) * k, math.sin(angle) * k
        place = np.array(
            [
                [c, -s, cx - (c * pw / 2 - s * ph / 2)],
                [s, c, cy - (s * pw / 2 + c * ph / 2)],
                [0, 0, 1],
            ]
        )
        to_image = grid_to_image @ place
        warped = cv2.warpPerspective(patch, to_image, (w, h), flags=cv2.INTER_LINEAR)
        m = cv2.warpPerspective(np.full((ph, pw), 1.0, np.float32), to_image, (w, h))
        # a soft contact shadow under the card
        blur = max(1.0, 0.004 * max(w, h))
        shade *= 1 - 0.3 * cv2.GaussianBlur(m, (0, 0), blur) * (1 - m)
        canvas = np.where(
            m[..., None] > 0, (warped * m[..., None] + canvas * (1 - m[..., None])), canvas
        ).astype(np.uint8)
        cover = np.maximum(cover, m)
    alpha = np.clip(np.maximum(cover, 1 - shade), 0, 1)
    ys, xs = np.nonzero(alpha > 0.003)
    if len(xs) == 0:
        return None
    x0, y0, x1, y1 = xs.min(), ys.min(), xs.max() + 1, ys.max() + 1
    # where only the shadow falls, the overlay "colour" is black at the shadow's strength
    image = np.where(
        cover[..., None] > 0, canvas / np.maximum(alpha, 1e-6)[..., None] * cover[..., None], 0
    )
    return Overlay(
        (int(x0), int(y0), int(x1), int(y1)),
        np.clip(image[y0:y1, x0:x1], 0, 255).astype(np.float32),
        alpha[y0:y1, x0:x1].astype(np.float32),
        (cover > 0.5).astype(np.uint8) * 255,
    )
