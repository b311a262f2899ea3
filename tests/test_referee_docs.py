"""The examples in the referee's docstrings and in its README section run."""

from __future__ import annotations

import doctest

import pytest

import companion.referee
import companion.referee.game


@pytest.mark.parametrize("module", [companion.referee, companion.referee.game])
def test_docstring_examples_run(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


def test_readme_referee_example_runs(capsys):
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    section = readme.split("## The referee (`companion.referee`)", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    namespace: dict = {}
    exec(compile(code, "README.md", "exec"), namespace)  # noqa: S102 - our own README
    game = namespace["game"]
    assert game.chip_at("E5") is None  # pop() undid the camera move
    assert [r.code for r in game.rulings] == ["ok", "ok"]
    assert "A  B  C" in capsys.readouterr().out
