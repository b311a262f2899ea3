"""The per-frame shortcuts of the fast path give exactly the masks and counts of the plain
OpenCV calls they replace (the speed itself is measured by `companion bench vision`)."""

import cv2
import numpy as np
import pytest

from companion.vision import chips
from companion.vision.packed import erode_bits_ellipse5


@pytest.mark.parametrize("shape", [(5, 5), (6, 9), (27, 21), (290, 200)])
def test_eroding_a_packed_code_erodes_each_of_its_bits_like_cv2(shape):
    rng = np.random.default_rng(shape[0] * shape[1])
    # blobs and specks of several classes, touching the image's borders
    code = rng.integers(0, 256, shape, dtype=np.uint8)
    code |= (rng.random(shape) < 0.8).astype(np.uint8) * 0b1000_0001
    eroded = erode_bits_ellipse5(code)
    assert eroded.shape == code.shape and eroded.dtype == np.uint8
    for bit in range(8):
        mask = cv2.compare(cv2.bitwise_and(code, 1 << bit), 0, cv2.CMP_GT)
        want = cv2.erode(mask, chips.ERODE)  # outside the image counts as set
        got = cv2.compare(cv2.bitwise_and(eroded, 1 << bit), 0, cv2.CMP_GT)
        assert np.array_equal(got, want), bit


def test_a_lone_disc_keeps_its_core_and_loses_its_rim():
    code = np.zeros((24, 24), np.uint8)
    cv2.circle(code, (12, 12), 6, 4, -1)  # one class (bit 2): a disc 13 pixels wide
    eroded = erode_bits_ellipse5(code)
    assert eroded[12, 12] == 4 and eroded[12, 6] == eroded[12, 8] == 0 and eroded[12, 9] == 4
    assert np.count_nonzero(eroded) == np.count_nonzero(cv2.erode(code, chips.ERODE))


@pytest.mark.parametrize("cell", [(24, 24), (29, 20), (20, 29), (30, 30)])
def test_per_cell_shares_are_the_plain_inner_part_counts(cell):
    w, h = cell
    shape = chips.cell_shape(w, h)
    rng = np.random.default_rng(w * h)
    density = rng.random((4, 1, 1))  # from nearly empty to nearly full masks
    planes = (rng.random((4, 10 * h, 10 * w)) < density).astype(np.uint8) * 255
    got = chips._per_cell_planes(planes, shape)
    ix, iy = shape.inner_x, shape.inner_y
    cells = planes.reshape(4, 10, h, 10, w)[:, :, iy : h - iy, :, ix : w - ix]
    want = (cells > 0).sum(axis=(2, 4)) / float((h - 2 * iy) * (w - 2 * ix))
    assert got.dtype == np.float32 and got.shape == (4, 10, 10)
    assert np.allclose(got, want, rtol=0, atol=1e-7)
    assert np.array_equal(chips._per_cell(planes[2], shape), got[2])
    assert shape.count_shares[0] == 0.0 and shape.count_shares[-1] == np.float32(1.0)
