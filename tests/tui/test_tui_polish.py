"""Issue 13 (8), the terminal: stale messages, the clock between rounds, Ctrl+Q, the
layout of a short table, cards lined up and growing, no color where none is wanted."""

from __future__ import annotations

import re
from typing import Any

import pytest
from rich.segment import Segment
from rich.style import Style
from textual.color import Color

from setgame.rules.cards import parse_card
from setgame.rules.sets import explain
from setgame.tui.app import SetApp, no_color_wanted
from setgame.tui.widgets import CardView
from tui.tuikit import FakeClock, make_app, message, table, wait_shown_whole

TABLE = ["1RSD", "2GTO", "3POS", "1GSD", "2PTO", "3ROS", "1PSD", "2RTO", "3GOS", "1RTS", "2GOD"]


class ScriptedSession:
    """A session that shows the views and events a test sets, one poll at a time."""

    def __init__(self) -> None:
        self.state: dict[str, Any] = {
            "phase": "playing",
            "mode": "multi",
            "round": 1,
            "rounds": 2,
            "table": TABLE[:9],
            "deck": 0,
            "clock": 0.0,
            "you": "a",
            "holder": None,
            "players": [{"id": "a", "name": "Ann", "score": 0}, {"id": "b", "name": "Ben"}],
        }
        self.events: list[dict[str, Any]] = []
        self.closed = False

    async def open(self, now: float) -> None: ...
    async def start(self, now: float) -> None: ...
    async def again(self, now: float) -> None: ...
    async def call(self, now: float) -> None: ...
    async def pick(self, codes: tuple[str, ...], now: float) -> None: ...
    async def no_set(self, now: float) -> None: ...

    async def hint(self, now: float) -> list[str]:
        return []

    async def close(self) -> None:
        self.closed = True

    async def hang_up(self) -> None: ...

    def poll(self, now: float) -> list[dict[str, Any]]:
        events, self.events = self.events, []
        return events

    def view(self, now: float) -> dict[str, Any]:
        return dict(self.state)

    def move(self, app: SetApp, events: list[dict[str, Any]], **state: Any) -> None:
        self.state.update(state)
        self.events += events
        app.refresh_game()


def scripted(lang: str = "en") -> tuple[SetApp, ScriptedSession]:
    session = ScriptedSession()
    return SetApp(session, lang=lang, clock=FakeClock(), poll_seconds=3600), session


async def test_round_over_is_said_once_and_gone_in_the_next_round() -> None:
    app, session = scripted()
    async with app.run_test(size=(80, 24)):
        taken = {"type": "set_taken", "player": "b", "cards": TABLE[:3]}
        over = {"type": "round_over", "round": 1, "scores": {"a": 2, "b": 5}}
        session.move(app, [taken, over], phase="round_over", clock=30.0)
        holder, said = str(app.holder_bar.content), message(app)
        assert holder == "Round over. Press Enter for the next round"
        assert "Round over" not in said and said.endswith("Round 1 over: You 2, Ben 5")
        assert "Ben found a set" in said  # the last set of the round, still readable
        session.move(app, [{"type": "dealt"}], phase="playing", round=2, clock=45.0)
        assert message(app) == "" and "Round" not in str(app.holder_bar.content)


async def test_game_over_is_gone_once_a_new_game_starts() -> None:
    app, session = scripted("it")
    async with app.run_test(size=(80, 24)):
        result = {"type": "match_over", "winners": ["b"]}
        session.move(app, [result], phase="match_over", clock=90.0)
        assert message(app) == "Partita finita. Vince Ben." or "Ben" in message(app)
        assert "Partita finita" in str(app.holder_bar.content)
        session.move(app, [], phase="playing", round=1, clock=0.5)
        assert message(app) == "" and "finita" not in str(app.holder_bar.content)


async def test_the_clock_stands_still_between_rounds() -> None:
    app, session = scripted()
    async with app.run_test(size=(80, 24)):
        session.move(app, [], clock=75.0)
        assert "Time: 1:15" in str(app.status_bar.content)
        session.move(app, [{"type": "round_over", "round": 1}], phase="round_over", clock=75.2)
        for later in (90.0, 200.0):  # the engine's match clock runs on: ours does not
            session.move(app, [], clock=later)
            assert "Time: 1:15" in str(app.status_bar.content)
        session.move(app, [], phase="playing", round=2, clock=210.0)
        session.move(app, [], clock=220.0)
        assert "Time: 1:25" in str(app.status_bar.content)  # 75.2 + 10 s of play


async def test_ctrl_q_asks_like_q_and_a_second_ctrl_q_leaves() -> None:
    app, session = scripted()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert type(app.screen).__name__ == "QuitScreen" and app.is_running
        await pilot.press("n")
        await pilot.pause()
        assert type(app.screen).__name__ != "QuitScreen" and app.is_running
        await pilot.press("ctrl+q", "ctrl+q")
        await pilot.pause()
    assert session.closed and app.return_code == 0


async def test_the_last_nine_cards_lie_three_by_three() -> None:
    app, session = scripted()
    async with app.run_test(size=(80, 24)) as pilot:
        for count, rows in ((9, 3), (6, 2), (3, 1), (11, 4)):
            session.move(app, [], table=TABLE[:count])
            await pilot.pause()
            cards = sorted(
                (card for card in app.query(CardView) if card.code), key=lambda c: c.position
            )
            assert [c.code for c in cards] == TABLE[:count]
            lines = {card.region.y for card in cards}
            columns = {card.region.x for card in cards}
            assert len(columns) == rows and len(lines) == min(3, -(-count // rows)), count
            # read row by row: the key order follows the lines
            assert [c.region.y for c in cards] == sorted(c.region.y for c in cards)


def _code_and_symbol_lines(card: CardView) -> tuple[int, int]:
    lines = str(card.render()).split("\n")
    code = next(i for i, line in enumerate(lines) if card.code and card.code in line)
    symbol = next(i for i, line in enumerate(lines) if i > code and line.strip())
    return code, symbol


@pytest.mark.parametrize("lang", ["ru", "de", "pl"])
async def test_cards_of_a_row_line_up_when_names_wrap_at_200x60(lang: str) -> None:
    app = make_app(FakeClock(), "solo", deck="full", seed=3, lang=lang)
    async with app.run_test(size=(200, 60)) as pilot:
        await pilot.press("n", "n", "n")  # 21 narrower cards: names wrap to 1-3 lines
        await pilot.pause()
        rows: dict[int, set[tuple[int, int]]] = {}
        for card in app.query(CardView):
            if card.code:
                rows.setdefault(card.region.y, set()).add(_code_and_symbol_lines(card))
        assert len(rows) == 3 and all(len(places) == 1 for places in rows.values()), rows


async def test_symbols_grow_with_the_terminal() -> None:
    app = make_app(FakeClock(), "solo", deck="full", seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        code = table(app)[0]
        card = app.query_one("#card-0", CardView)
        glyph = re.sub(r"[\s\d\w]", "", str(card.render()))[0]
        small = str(card.render()).count(glyph)
        assert small == int(code[0])
        await pilot.resize_terminal(200, 60)
        await pilot.pause()
        assert str(card.render()).count(glyph) >= 9 * int(code[0])  # a figure of its glyph


async def test_fifteen_cards_keep_off_the_borders_at_100x32() -> None:
    app = make_app(FakeClock(), "solo", deck="full", seed=3)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        cards = [card for card in app.query(CardView) if card.code]
        assert len(cards) == 15
        assert min(c.region.x for c in cards) >= 1 and max(c.region.right for c in cards) <= 99
        for card in cards:  # nothing written touches a card's border
            width = card.content_size.width
            for line in str(card.render()).split("\n"):
                if line.strip():
                    assert line.startswith(" ") and len(line.rstrip()) < width, (card.code, line)


@pytest.mark.parametrize(
    ("environ", "mono"),
    [
        ({"TERM": "xterm-mono"}, True),
        ({"TERM": "xterm-256color", "NO_COLOR": "1"}, True),
        ({"TERM": "xterm-256color"}, False),
    ],
)
async def test_no_color_codes_for_no_color_or_a_mono_terminal(
    monkeypatch: pytest.MonkeyPatch, environ: dict[str, str], mono: bool
) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    assert no_color_wanted(environ) is mono
    app = make_app(FakeClock(), "solo", deck="full", seed=3)
    async with app.run_test(size=(80, 24)):
        red = [Segment("◆", Style(color="#d01c1c", bgcolor="#f7f5ee", bold=True))]
        for line_filter in app._filters:
            red = line_filter.apply(red, Color(0, 0, 0))
        colors = {str(red[0].style.color), str(red[0].style.bgcolor)} if red[0].style else set()
        assert (colors <= {"Color('default', ColorType.DEFAULT)"}) is mono, colors
        assert red[0].style is not None and red[0].style.bold  # bold and reverse stay


FULL_TABLE = [
    "1RSD", "2GTO", "3POS", "1GSD", "2PTO", "3ROS", "1PSD", "2RTO", "3GOS", "1RTS", "2GOD",
    "3PSO", "1GTS", "2RSD", "3GTO", "1POD", "2PSS", "3RTD", "1ROO", "2GSS", "3PTD",
]  # fmt: skip


@pytest.mark.parametrize("size", [(80, 24), (100, 32), (120, 36), (160, 48), (200, 60)])
@pytest.mark.parametrize("lang", ["en", "ru", "pl", "it", "de"])
async def test_the_longest_message_is_read_whole_at_every_size(
    size: tuple[int, int], lang: str
) -> None:
    """Issue 13 (7): another player's wrong pick in three attributes, their lost point,
    their lockout and their fair-call wait, with 21 cards on the table."""
    cards = ("3RTS", "2POS", "1PTO")
    flaws = [
        {"attribute": f.attribute, "common": f.common, "odd": f.odd}
        for f in explain(*(parse_card(c) for c in cards))
    ]
    assert len(flaws) == 3
    wrong = {
        "type": "wrong_call", "player": "b", "cards": list(cards), "flaws": flaws,
        "point_lost": True, "locked": True, "cooldown": 12.5,
    }  # fmt: skip
    app, session = scripted(lang)
    async with app.run_test(size=size) as pilot:
        session.state["players"][1]["name"] = "Bartholomew"
        session.move(app, [wrong], table=FULL_TABLE, settings={"lockout_lift": "set_or_cards"})
        assert await wait_shown_whole(app, pilot)
        assert len(message(app).splitlines()) == 2  # the explanation, then what it costs
        cards_shown = [card for card in app.query(CardView) if card.code]
        assert len(cards_shown) == 21
        assert all(app.screen.region.contains_region(card.region) for card in cards_shown)


async def test_a_burst_of_messages_keeps_the_latest_and_the_table() -> None:
    app, session = scripted("ru")
    async with app.run_test(size=(80, 24)) as pilot:
        burst = [
            {"type": "set_taken", "player": "b", "cards": [f"{n}RSD", "2GTO", "3POS"]}
            for n in (1, 2, 3, 1, 2)
        ]
        session.move(app, [*burst, {"type": "no_set_declared", "player": "b"}])
        await pilot.pause()
        lines = message(app).splitlines()
        assert len(lines) == 3 and lines[-1] == "Ben: «Сета нет». Нажмите n, если согласны."
        assert await wait_shown_whole(app, pilot)
        assert all(app.screen.region.contains_region(c.region) for c in app.query(CardView))
