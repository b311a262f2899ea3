"""Edge 21: who starts after the cut (option first_player_rule), in the API and in records."""

import pytest

from companion.referee import Game, Player, SetupError
from companion.referee.first_player import cut_value, seat_by_cut
from companion.referee.record import RecordError, setup_from_record

FOUR = [Player("Ann", "blue"), Player("Bo", "green"), Player("Cy", "blue"), Player("Di", "green")]
CUT = {"Ann": "AS", "Bo": "2H", "Cy": "KD", "Di": "10C"}


def names(players):
    return [p.name for p in players]


def test_aces_are_high_and_suits_do_not_matter():
    assert cut_value("2S") < cut_value("10H") < cut_value("JC") < cut_value("KD") < cut_value("AH")
    assert cut_value("7S") == cut_value("7♥")


def test_official_lowest_deals_and_the_dealers_left_starts():
    result = seat_by_cut(FOUR, CUT)
    assert result.dealer == "Bo"
    assert result.starter == "Cy"
    assert names(result.players) == ["Cy", "Di", "Ann", "Bo"]  # clockwise order kept


def test_dealer_in_the_last_seat_passes_the_start_round_to_the_first_seat():
    result = seat_by_cut(FOUR, {"Ann": "5S", "Bo": "9H", "Cy": "KD", "Di": "3C"})
    assert (result.dealer, result.starter) == ("Di", "Ann")


@pytest.mark.parametrize(("rule", "starter"), [("lowest_starts", "Bo"), ("highest_starts", "Ann")])
def test_third_party_variants(rule, starter):
    result = seat_by_cut(FOUR, CUT, rule)
    assert result.starter == starter and result.dealer is None


def test_tied_players_cut_again_and_only_they_do():
    first = {"Ann": "4S", "Bo": "4H", "Cy": "KD", "Di": "10C"}
    with pytest.raises(SetupError) as tie:
        seat_by_cut(FOUR, first, "lowest_starts")
    assert tie.value.code == "cut_tie" and "Ann and Bo" in tie.value.message
    result = seat_by_cut(FOUR, [first, {"Ann": "QS", "Bo": "3C"}], "lowest_starts")
    assert result.starter == "Bo"
    with pytest.raises(SetupError, match="only Ann, Bo cut"):
        seat_by_cut(FOUR, [first, {"Ann": "QS", "Bo": "3C", "Cy": "2D"}], "lowest_starts")


@pytest.mark.parametrize(
    ("cuts", "words"),
    [
        ({"Ann": "AS", "Bo": "2H", "Cy": "KD"}, "no card for Di"),
        ({**CUT, "Zed": "3S"}, "unknown player"),
        ({**CUT, "Ann": "ZZ"}, "cut card 'ZZ'"),
        ([], "at least one round"),
    ],
)
def test_bad_cuts_are_clear_errors(cuts, words):
    with pytest.raises(SetupError, match=words) as err:
        seat_by_cut(FOUR, cuts)
    assert err.value.code == "cut"


def test_a_teams_game_after_the_cut_still_alternates_and_green_may_start():
    result = seat_by_cut(FOUR, CUT)
    game = Game(result.players)
    assert game.to_move.name == "Cy"
    game2 = Game(seat_by_cut(FOUR, CUT, "lowest_starts").players)
    assert game2.to_move.color == "green"


def test_record_with_a_cut_seats_the_starter_first():
    record = {
        "players": [{"name": n, "team": p.color} for n, p in zip(CUT, FOUR, strict=True)],
        "options": {"first_player_rule": "highest_starts"},
        "cut": CUT,
    }
    assert setup_from_record(record).to_move.name == "Ann"
    record["options"] = {}
    assert setup_from_record(record).to_move.name == "Cy"
    record["cut"] = "Ann"
    with pytest.raises(RecordError) as err:
        setup_from_record(record)
    assert err.value.code == "bad_record"
    record["cut"] = {"Ann": "4S", "Bo": "4H", "Cy": "KD", "Di": "10C"}
    with pytest.raises(RecordError) as err:
        setup_from_record(record)
    assert err.value.code == "cut_tie"


def test_unknown_first_player_rule_is_an_option_error():
    with pytest.raises(SetupError) as err:
        Game(FOUR, options={"first_player_rule": "youngest_starts"})
    assert err.value.code == "option"
