"""Morphology on a packed colour code (``colour.colour_code``: one class per bit of a uint8
image): every class eroded at once by bitwise ands of shifted copies, the same masks as one
``cv2.erode`` per class, for the price of about one. Pure function."""

from __future__ import annotations

import cv2
import numpy as np


def erode_bits_ellipse5(code: np.ndarray) -> np.ndarray:
    """Every bit of a uint8 code image eroded by the 5x5 ellipse
    (``cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))``): bit k of the result is set
    where bit k is set under the whole ellipse around the pixel, pixels beyond the image
    counting as set (``cv2.erode``'s default border).

    The ellipse is a 5 wide x 3 tall rectangle joined with a 1 wide x 5 tall one: each is an
    and along rows, then along columns (runs doubled: 2, 4, then 5 or 3 pixels), and an
    erosion by the two joined is the and of the two erosions."""
    h, w = code.shape
    pad = cv2.copyMakeBorder(code, 2, 2, 2, 2, cv2.BORDER_CONSTANT, value=255)
    run2 = cv2.bitwise_and(pad[:, :-1], pad[:, 1:])
    run4 = cv2.bitwise_and(run2[:, : w + 1], run2[:, 2 : w + 3])
    run5 = cv2.bitwise_and(run4[:, :w], pad[:, 4 : w + 4])  # columns x-2 .. x+2
    wide = cv2.bitwise_and(cv2.bitwise_and(run5[1 : h + 1], run5[2 : h + 2]), run5[3 : h + 3])
    centre = pad[:, 2 : w + 2]
    tall2 = cv2.bitwise_and(centre[:-1], centre[1:])
    tall4 = cv2.bitwise_and(tall2[: h + 1], tall2[2 : h + 3])
    tall = cv2.bitwise_and(tall4[:h], centre[4 : h + 4])  # rows y-2 .. y+2
    return cv2.bitwise_and(wide, tall)
