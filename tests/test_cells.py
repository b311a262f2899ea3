import pytest

from companion.cells import CORNERS, CellError, cell_name, parse_cell


def test_names_round_trip():
    assert parse_cell("A1") == (0, 0)
    assert parse_cell("b1") == (0, 1)
    assert parse_cell("J10") == (9, 9)
    assert parse_cell([1, 0]) == (1, 0)
    assert cell_name((0, 1)) == "B1"
    assert cell_name((9, 0)) == "A10"
    for r in range(10):
        for c in range(10):
            assert parse_cell(cell_name((r, c))) == (r, c)
    assert len(CORNERS) == 4


@pytest.mark.parametrize("bad", ["K1", "A0", "A11", "", "11", [10, 0], [0], "1A", [True, 1]])
def test_bad_cells_raise(bad):
    with pytest.raises(CellError):
        parse_cell(bad)
