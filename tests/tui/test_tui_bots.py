"""Games against computer opponents, on this machine (R07-R14)."""

from __future__ import annotations

from setgame.rules.cards import parse_card
from setgame.rules.game import Join, Start
from setgame.rules.sets import find_sets
from setgame.tui.app import SetApp
from setgame.tui.local import LocalSession
from tui.tuikit import FakeClock, a_set, keys_for, make_app, me, message, not_a_set, scores, table


async def _tick(app: SetApp, clock: FakeClock, seconds: float) -> None:
    clock.now += seconds
    app.refresh_game()


async def test_r14_a_match_against_a_bot_to_the_end(clock: FakeClock) -> None:
    app = make_app(clock, "bots", bots=1, level=5, deck="beginner", seed=8)
    async with app.run_test(size=(80, 24)) as pilot:
        assert [p["name"] for p in app.view["players"]] == ["You", "Bot 1"]
        assert app.view["rounds"] == 2
        saw_bot_hold = saw_round_over = False
        for step in range(3000):
            await _tick(app, clock, 0.25)
            view = app.view
            if view["phase"] == "match_over":
                break
            if view["phase"] == "round_over":
                saw_round_over = True
                # said once, by the holder bar; the message gives the round's scores
                assert "Round over" in str(app.holder_bar.content)
                assert "Round over" not in message(app) and "Round 1 over: " in message(app)
                assert "(Σ " not in scores(app)
                await pilot.press("enter")
                assert app.view["round"] == 2 and "(Σ " in scores(app)  # match totals (R14)
                continue
            if view["holder"] == "bot1":
                saw_bot_hold = True
                assert str(app.holder_bar.content).startswith("Bot 1 holds the board: ")
            elif view["holder"] is None and step % 16 == 15:
                await _play_a_turn(app, pilot)
        assert app.view["phase"] == "match_over"
        assert saw_bot_hold and saw_round_over
        totals = {p["id"]: p["total"] for p in app.view["players"]}
        assert totals["you"] > 0 and totals["bot1"] > 0
        assert message(app).splitlines()[-1].startswith("Game over.") and "Winner" in message(app)
        assert "Round 2/2" in str(app.status_bar.content)
        await pilot.press("enter")  # a new match, same seats
        assert app.view["phase"] == "playing" and app.view["round"] == 1
        assert "Game over" not in message(app)  # the last match's result is gone
        assert [p["total"] for p in app.view["players"]] == [0, 0]


async def _play_a_turn(app: SetApp, pilot: object) -> None:
    triple = a_set(app)
    if triple is None:
        if not me(app)["declared"] and app.view["deck"]:
            await pilot.press("n")  # type: ignore[attr-defined]
        return
    await pilot.press("space")  # type: ignore[attr-defined]
    assert app.view["holder"] == "you"
    assert str(app.holder_bar.content).startswith("You hold the board")
    await pilot.press(*keys_for(app, triple))  # type: ignore[attr-defined]


async def test_r08_cards_cannot_be_picked_before_calling(clock: FakeClock) -> None:
    app = make_app(clock, "bots", bots=2, level=1, deck="full", seed=8)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("1")
        assert message(app) == "Press Space to call SET first"
        assert app.selected == []
        await pilot.press("space")
        assert app.view["holder"] == "you"
        await pilot.press("1")
        assert app.selected == table(app)[:1]


async def test_r10_wrong_call_against_bots_is_explained(clock: FakeClock) -> None:
    app = make_app(clock, "bots", bots=1, level=1, deck="full", seed=8)
    async with app.run_test(size=(80, 24)) as pilot:
        triple = not_a_set(app)
        await pilot.press("space", *keys_for(app, triple))
        assert message(app).startswith(" ".join(triple) + ": Not a set: ")
        assert app.view["holder"] is None and me(app)["wrong"] == 1


async def test_r10_picking_nothing_in_time(clock: FakeClock) -> None:
    app = make_app(clock, "bots", bots=1, level=1, deck="full", seed=8)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("space", "1")
        clock.now += 4.0
        app.refresh_game()
        assert "1.0 s" in str(app.holder_bar.content)
        clock.now += 1.5
        app.refresh_game()
        assert message(app).startswith("You picked nothing in time.")  # (then the fair-call wait)
        assert app.view["holder"] is None and app.selected == []


async def test_r08_a_bot_holding_the_board_blocks_the_call(clock: FakeClock) -> None:
    app = make_app(clock, "bots", bots=1, level=5, deck="full", seed=8)
    async with app.run_test(size=(80, 24)) as pilot:
        while app.view["holder"] is None:
            await _tick(app, clock, 0.1)
        assert app.view["holder"] == "bot1"
        await pilot.press("space")
        assert "holds the board" in message(app)
        await pilot.press("1")
        assert message(app) == "Bot 1 holds the board"
        assert "▶ Bot 1" in scores(app)


async def test_r11_declaring_no_set_twice_is_refused_in_the_players_language(
    clock: FakeClock,
) -> None:
    app = make_app(clock, "bots", bots=1, level=1, deck="full", seed=8, lang="pl")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        assert me(app)["declared"] and "[nie ma SETa?]" in scores(app)
        await pilot.press("n")
        assert message(app) == "Twój głos „nie ma SETa” już się liczy."


async def test_r10_a_pick_after_the_window_closed_counts_as_picking_nothing(
    clock: FakeClock,
) -> None:
    app = make_app(clock, "bots", bots=1, level=1, deck="full", seed=8)
    async with app.run_test(size=(80, 24)) as pilot:
        triple = a_set(app)
        assert triple is not None
        keys = keys_for(app, triple)
        await pilot.press("space", *keys[:2])
        clock.now += 6.0  # past the 5 s window, before the app polls again
        await pilot.press(keys[2])
        assert message(app).startswith("You picked nothing in time.")  # (then the fair-call wait)
        assert me(app)["score"] == 0 and set(triple) <= set(table(app))


def _no_set_table_seed(bots: int, level: int) -> int:
    """A seed whose first table (full deck) holds no set: about one in thirty."""
    for seed in range(2000):
        session = LocalSession("bots", bots=bots, level=level, deck="full", seed=seed)
        session.game.apply(Join(0, "you", "You"))
        session.game.apply(Start(0, "you"))
        if not find_sets([parse_card(code) for code in session.view(0)["table"]]):
            return seed
    raise AssertionError("no seed deals a table without a set")


async def test_r12_bots_agree_with_no_set_promptly(clock: FakeClock) -> None:
    """Issue 21: after the player's "no set" the bots agree within seconds (they looked at
    this table already), not after the minute a beginner takes to declare first."""
    seed = _no_set_table_seed(3, 1)
    app = make_app(clock, "bots", bots=3, level=1, deck="full", seed=seed)
    async with app.run_test(size=(80, 24)) as pilot:
        assert len(table(app)) == 12
        await pilot.press("n")
        assert me(app)["declared"]
        while len(table(app)) == 12:
            await _tick(app, clock, 0.1)
            assert clock.now < 6.0, f"the bots have not agreed in {clock.now:.1f} s"
        assert len(table(app)) == 15 and "Three more cards" in message(app)


async def test_r12_a_bots_no_set_asks_the_player_to_press_n(clock: FakeClock) -> None:
    seed = _no_set_table_seed(1, 5)
    app = make_app(clock, "bots", bots=1, level=5, deck="full", seed=seed)
    async with app.run_test(size=(80, 24)) as pilot:
        while not any(p.get("declared") for p in app.view["players"]):
            await _tick(app, clock, 0.25)
            assert clock.now < 120
        assert message(app) == "Bot 1 says there is no set. Press n if you agree."
        await pilot.press("n")
        assert len(table(app)) == 15
