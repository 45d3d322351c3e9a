"""Chat under attack (issue 20, finding 6): one address with many sockets, many spectators,
one address filling a game's history, and characters that hide or pile up. In process, with
the real rooms and storage: each sender's address is given as the socket layer gives it."""

from __future__ import annotations

from pathlib import Path

import pytest

from setgame.rules.errors import GameError
from setgame.server import chat
from setgame.server.chat import ChatBounds, check_text, stored_lines
from setgame.server.chat import chat_of as room_chat
from setgame.server.limits import Limits
from setgame.server.protocol import RoomSettings
from setgame.server.registry import Rooms
from setgame.server.rooms import Room

from .roomkit import FakeConnection, registry

ATTACKER = "203.0.113.6"


async def _room(rooms: Rooms) -> tuple[Room, FakeConnection]:
    """A room with Ann seated from her own address."""
    room = await rooms.create(RoomSettings(), "198.51.100.1")
    ann = FakeConnection()
    room.attach(ann)
    await room.join(ann, "Ann", "198.51.100.1")
    return room, ann


def _watchers(room: Room, n: int) -> list[FakeConnection]:
    found = [FakeConnection() for _ in range(n)]
    for conn in found:
        room.attach(conn)
    return found


async def _flood(
    room: Room, conns: list[FakeConnection], bounds: ChatBounds, hosts: list[str]
) -> list[str]:
    """Every connection says one line; the codes of the refusals, in order."""
    refused = []
    for i, (conn, host) in enumerate(zip(conns, hosts, strict=True)):
        try:
            await room_chat(room).say(conn, f"spam {i}", bounds, host)
        except GameError as exc:
            refused.append(exc.code)
    return refused


async def test_150_spectator_sockets_of_one_address_get_its_burst_not_150_lines(
    tmp_path: Path,
) -> None:
    limits = Limits(chat_client_burst=20, chat_client_per_minute=60)
    async with registry(tmp_path / "c.db", limits) as rooms:
        room, ann = await _room(rooms)
        bounds = ChatBounds(limits)
        refused = await _flood(room, _watchers(room, 150), bounds, [ATTACKER] * 150)
        assert len(refused) >= 150 - 21 and set(refused) == {"chat_too_fast"}
        await room_chat(room).say(ann, "still mine to say", bounds, "198.51.100.1")
        texts = [line["text"] for line in await stored_lines(rooms.storage, room.game_id)]
        assert len(texts) <= 22 and texts[-1] == "still mine to say"


async def test_a_refusal_for_the_address_says_so(tmp_path: Path) -> None:
    limits = Limits(chat_client_burst=2, chat_client_per_minute=0.01)
    async with registry(tmp_path / "c.db", limits) as rooms:
        room, _ = await _room(rooms)
        bounds = ChatBounds(limits)
        conns = _watchers(room, 3)
        assert await _flood(room, conns[:2], bounds, [ATTACKER] * 2) == []
        with pytest.raises(GameError, match="from your address") as refused:
            await room_chat(room).say(conns[2], "third", bounds, ATTACKER)
        assert refused.value.code == "chat_too_fast"


async def test_spectators_from_many_addresses_share_the_rooms_bound_not_the_players(
    tmp_path: Path,
) -> None:
    limits = Limits(chat_room_burst=30, chat_room_per_minute=1)
    async with registry(tmp_path / "c.db", limits) as rooms:
        room, ann = await _room(rooms)
        bounds = ChatBounds(limits)
        hosts = [f"203.0.113.{i}" for i in range(60)]
        refused = await _flood(room, _watchers(room, 60), bounds, hosts)
        assert len(refused) >= 29 and set(refused) == {"chat_too_fast"}
        for i in range(3):  # the seated player is not counted among the spectators
            await room_chat(room).say(ann, f"mine {i}", bounds, "198.51.100.1")


async def test_one_address_says_at_most_its_share_of_a_games_lines(tmp_path: Path) -> None:
    limits = Limits(
        chat_client_lines=5, chat_client_burst=1000, chat_client_per_minute=100_000,
        chat_room_burst=1000, chat_room_per_minute=100_000,
    )  # fmt: skip
    async with registry(tmp_path / "c.db", limits) as rooms:
        room, ann = await _room(rooms)
        bounds = ChatBounds(limits)
        refused = await _flood(room, _watchers(room, 12), bounds, [ATTACKER] * 12)
        assert refused == ["chat_share"] * 7
        await room_chat(room).say(ann, "mine", bounds, "198.51.100.1")
        other = _watchers(room, 1)[0]
        await room_chat(room).say(other, "another address", bounds, "192.0.2.9")
        assert len(await stored_lines(rooms.storage, room.game_id)) == 7


async def test_spectators_leave_the_last_lines_of_a_game_to_the_players(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(chat, "PER_GAME", 12)
    monkeypatch.setattr(chat, "SEATED_RESERVE", 4)
    async with registry(tmp_path / "c.db") as rooms:
        room, ann = await _room(rooms)
        hosts = [f"203.0.113.{i}" for i in range(12)]
        refused = await _flood(room, _watchers(room, 12), ChatBounds(Limits()), hosts)
        assert refused == ["chat_full"] * 4  # 8 spectators' lines, then no more
        for i in range(4):
            await room_chat(room).say(ann, f"mine {i}")
        with pytest.raises(GameError) as full:
            await room_chat(room).say(ann, "one too many")
        assert full.value.code == "chat_full"


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("line\u2028break", "U+2028"),
        ("para\u2029graph", "U+2029"),
        ("zero\u200bwidth", "U+200B"),
        ("no\u200djoin", "U+200D"),
        ("tag\U000e0041\U000e0042", "U+E0041"),
        ("hangul\u3164filler", "U+3164"),
        ("soft\u00adhyphen", "U+00AD"),
        ("word\u2060joiner", "U+2060"),
        ("\u2066isolate", "U+2066"),
        ("\u202eoverride", "U+202E"),
        ("private\ue000use", "U+E000"),
        ("x" + "\u0301" * 199, "199"),
        ("zalgo" + "\u0336\u0337\u0338\u0335", "4"),
    ],
)
def test_invisible_and_stacking_characters_are_refused_quoting_them(
    text: str, named: str
) -> None:
    with pytest.raises(GameError) as refused:
        check_text(text)
    assert refused.value.code == "chat_bad_text" and named in str(refused.value)


@pytest.mark.parametrize(
    "text",
    ["gg 👍", "❤️ nice", "1️⃣ first", "↔️",
     "👩‍💻 coding", "🏳️‍🌈", "👍🏽", "Ёлки-палки!", "Zażółć gęślą jaźń",
     "Tiếng Việt", "हिन्दी", "日本語です", "a\u0301\u0302"],
)
def test_ordinary_text_and_emoji_pass(text: str) -> None:
    assert check_text(text) == text
