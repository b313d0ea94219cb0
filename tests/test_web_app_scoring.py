"""The final total line by line (``State.final_parts``, shown by the browser's end-of-game
screen): the parts of each seat add up to ``final_totals`` in every variant and shutout rule."""

from __future__ import annotations

import pytest

from ginrummy.scoring import game_final, game_final_parts
from ginrummy.session import Session


@pytest.mark.parametrize("shutout", ["double_game_bonus", "double_total", "none"])
def test_the_parts_add_up_to_the_final_total(shutout: str) -> None:
    for points, won in (([120, 0], [4, 0]), ([104, 37], [5, 2]), ([0, 100], [0, 3])):
        parts = game_final_parts(points, won, game_bonus=100, box_bonus=25, shutout=shutout)
        sums = [sum(part.points for part in seat) for seat in parts]
        assert sums == game_final(points, won, game_bonus=100, box_bonus=25, shutout=shutout)
        winner = 0 if points[0] > points[1] else 1
        assert any(part.what.startswith("game bonus") for part in parts[winner])
        assert (parts[winner][0].what, parts[winner][0].points) == ("points of the hands", points[winner])
    shut = game_final_parts([120, 0], [4, 0], game_bonus=100, box_bonus=25, shutout=shutout)[0]
    lines = [(part.what, part.points) for part in shut]
    assert lines[1] == ("box bonus: 4 hands won × 25", 100)
    if shutout == "double_game_bonus":
        assert ("game bonus, doubled for a shutout: 2 × 100", 200) in lines
    elif shutout == "double_total":
        assert lines[-1] == ("shutout: the total doubled", 120 + 100 + 100)


@pytest.mark.parametrize("variant", ["classic", "oklahoma", "hollywood", "three", "solitaire"])
def test_finished_games_parts_match_final_totals(variant: str) -> None:
    options = {"game_target": 30} if variant not in ("hollywood", "solitaire") else {}
    if variant == "hollywood":
        options = {"hollywood_target": 30}
    if variant == "three":
        options["end_bonuses"] = True
    seats = {"three": ["greedy"] * 3, "solitaire": ["random", "joker"]}.get(variant, ["greedy", "greedy"])
    if variant == "solitaire":
        options = {"scoring": "none"}
    for seed in range(3):
        s = Session.new(variant, options, seats=seats, deal_seed=300 + seed)
        while not s.state.game_over:
            s.start_hand()
            s.run_computers()
        parts = s.state.final_parts()
        assert [sum(part.points for part in seat) for seat in parts] == s.state.final_totals()
        if variant == "hollywood":
            assert any(part.game == 3 and part.what.startswith("game 3: ") for part in parts[0])
