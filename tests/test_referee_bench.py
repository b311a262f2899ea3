"""``companion bench referee`` runs, prints JSON and is reproducible (no timing asserts)."""

from __future__ import annotations

import json

from companion.cli import main


def bench(capsys, *args: str) -> dict:
    assert main(["bench", "referee", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_bench_is_reproducible_and_counts_real_games(capsys):
    first = bench(capsys, "--games", "4", "--seed", "7")
    again = bench(capsys, "--games", "4", "--seed", "7")
    for key in ("moves", "placements", "removals", "sequences", "winners"):
        assert first[key] == again[key]
    assert first["games"] == 4 and sum(first["winners"].values()) == 4
    assert first["placements"] > 4 * 20 and first["sequences"] >= 1
    assert first["games_per_s"] > 0 and first["push_us_per_move"] > 0


def test_bench_other_presets_and_bad_arguments(capsys):
    assert bench(capsys, "--games", "2", "--variant", "set5", "--players", "3")["players"] == 3
    assert main(["bench", "referee", "--games", "0"]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "bad_argument"
