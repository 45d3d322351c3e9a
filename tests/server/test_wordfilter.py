"""The word filter (issue 20, moderation): names refused, chat masked, in the five languages
of the clients; the host's own words; newcomers kept out of public-room chat."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import pytest

from setgame.rules.errors import GameError
from setgame.server.account_tables import player_games
from setgame.server.accounts import Accounts, seat_name
from setgame.server.app import build
from setgame.server.chat import ChatBounds, stored_lines
from setgame.server.chat import chat_of as room_chat
from setgame.server.limits import LimitError, Limits
from setgame.server.names import NameRefused
from setgame.server.protocol import RoomSettings
from setgame.server.storage import Storage
from setgame.server.wordfilter import HERE, LANGS, WordFilter, fold, load, shipped

from .accountkit import TestClient
from .roomkit import FakeConnection, registry

# Names of each language's list, as written and as people dodge a filter: leetspeak,
# lookalike letters, capitals inside, spaces and dots, Cyrillic in Latin letters, repeats.
BAD_NAMES = [
    "Fuck", "FuckFace", "Sh1tHead", "B1tch", "xxbitchxx", "f.u.c.k", "ASSHOLE", "Assh0le",
    "motherfucker99", "Fuuuuck", "ѕhit",  # en (the last with a Cyrillic ѕ)
    "Хуй", "ХУЙЛО", "пиздец", "Блядь", "pizdec", "Pizdets", "khuy", "мудило",  # ru
    "Kurwa", "kurwa123", "Chuj", "Jebany", "Skurwysyn", "Gówno",  # pl
    "Cazzo", "vaffanculo", "Stronzo", "Puttana", "Minchia",  # it
    "Arschloch", "Scheiße", "Scheisse", "Wichser", "Hurensohn", "Fotze",  # de
]  # fmt: skip
GOOD_NAMES = [
    "Anna", "Cassandra", "Dickens", "Hancock", "Scunthorpe", "Glass", "Assassin", "Essex",
    "Sussex", "Sexton", "Łukasz", "Jörg", "Саша", "Маша", "Никита", "Hugo", "Titus", "Regina",
    "Pesce", "Jajko", "Kasia", "Giorgia", "Matteo", "Jürgen", "Hans", "Ute", "Olga", "Pavel",
]  # fmt: skip


@pytest.mark.parametrize("name", BAD_NAMES)
def test_a_listed_word_in_a_name_is_found(name: str) -> None:
    assert load().in_name(name), (name, [fold(name), fold(name, True)])


@pytest.mark.parametrize("name", GOOD_NAMES)
def test_everyday_names_pass(name: str) -> None:
    assert not load().in_name(name)


async def test_a_name_with_a_listed_word_is_refused_to_a_guest_and_a_claim(
    tmp_path: Path,
) -> None:
    storage = Storage(str(tmp_path / "w.db"))
    await storage.open()
    try:
        accounts = Accounts(storage, load())
        for name in ("Kurwa", "Arschloch99", "Хуйло"):
            for refusal in (seat_name(accounts, name, None), accounts.claim(name, "a password")):
                with pytest.raises(NameRefused) as refused:
                    await refusal
                assert refused.value.code == "name_word" and repr(name) in str(refused.value)
        assert await seat_name(Accounts(storage, WordFilter()), "Kurwa", None) == ("Kurwa", None)
    finally:
        await storage.close()


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("what the fuck, this is bullshit!", "what the ****, this is ********!"),
        ("что за хуйня, блядь! Ну и пиздец.", "что за *****, *****! Ну и ******."),
        ("Kurwa mać, co za gówno", "***** mać, co za *****"),
        ("Cazzo! porca puttana", "*****! ***** *******"),
        ("Scheiße, du Arschloch", "*******, du *********"),
        ("sh1t and $hit and fuuuuck", "**** and **** and *******"),
        ("a piece of shit", "a ***** ** ****"),
        ("Glass of water, the assassin's class, pesce e regina",
         "Glass of water, the assassin's class, pesce e regina"),
    ],
)  # fmt: skip
def test_chat_words_are_masked_and_the_rest_kept(said: str, kept: str) -> None:
    assert load().mask(said) == kept


async def test_a_chat_line_is_stored_and_heard_masked(tmp_path: Path) -> None:
    async with registry(tmp_path / "c.db") as rooms:
        room = await rooms.create(RoomSettings(), "198.51.100.1")
        ann = FakeConnection()
        room.attach(ann)
        await room.join(ann, "Ann", "198.51.100.1")
        bounds = ChatBounds(Limits(), load())
        await room_chat(room).say(ann, "you are a wichser", bounds, "198.51.100.1")
        stored = await stored_lines(rooms.storage, room.game_id)
        assert [line["text"] for line in stored] == ["you are a *******"]
        assert "wichser" not in ann.sent[-1] and "*******" in ann.sent[-1]


def test_the_host_adds_removes_and_replaces_words(tmp_path: Path) -> None:
    words = tmp_path / "words.txt"
    words.write_text("# ours\n+Flurbo\n-kurwa\ntwo words  # a phrase\n", encoding="utf-8")
    mine = load(str(words))
    assert mine.in_name("Flurbo") and mine.in_name("FLURB0")
    assert not mine.in_name("Kurwa") and mine.in_name("Cazzo")
    assert mine.mask("say two words now") == "say *** ***** now"
    words.write_text("!replace\nflurbo\n", encoding="utf-8")
    only = load(str(words))
    assert only.in_name("flurbo") and not only.in_name("Cazzo")
    assert not load(enabled=False).in_name("Cazzo")


@pytest.mark.parametrize(
    ("content", "said"),
    [(None, "cannot read"), (b"\xff\xfe", "not UTF-8"), (b"x" * 1_000_001, "over 1000000")],
)
def test_a_bad_words_file_stops_the_start_naming_it(
    tmp_path: Path, content: bytes | None, said: str
) -> None:
    path = tmp_path / "words.txt"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(LimitError, match=said) as refused:
        Limits.from_env({"SETGAME_WORDS_FILE": str(path)})
    assert "SETGAME_WORDS_FILE" in str(refused.value) and str(path) in str(refused.value)


def test_the_shipped_lists_carry_their_source_and_license() -> None:
    license_text = (HERE / "LICENSE").read_text()
    assert "Attribution 4.0 International" in license_text
    for lang in LANGS:
        head = (HERE / f"{lang}.txt").read_text(encoding="utf-8").splitlines()[:4]
        assert "naughty-words" in head[0] and "CC BY 4.0" in " ".join(head)
    # every entry this project keeps out is one of the lists' (none is stale)
    listed = {fold(e) for lang in LANGS for e in shipped(lang) + _raw(lang)}
    for entry in (HERE / "keep.txt").read_text(encoding="utf-8").splitlines():
        if entry and not entry.startswith("#"):
            assert fold(entry) in listed, entry


def _raw(lang: str) -> list[str]:
    lines = (HERE / f"{lang}.txt").read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line and not line.startswith("#")]


async def test_newcomers_may_not_chat_in_public_rooms_until_they_have_played(
    tmp_path: Path,
) -> None:
    limits = Limits(chat_min_games=2)
    async with registry(tmp_path / "n.db", limits) as rooms:
        accounts = Accounts(rooms.storage)
        bounds = ChatBounds(limits)
        public = await rooms.create(RoomSettings(public=True), "198.51.100.1")
        private = await rooms.create(RoomSettings(public=False), "198.51.100.1")
        guest = FakeConnection()
        with pytest.raises(GameError) as refused:
            await bounds.admit(public, guest, None, accounts)
        assert refused.value.code == "chat_newcomer" and "2 games" in str(refused.value)
        await bounds.admit(private, guest, None, accounts)  # a private room: anyone
        ann = await accounts.claim("Ann", "a password")
        with pytest.raises(GameError, match="finished 0"):
            await bounds.admit(public, FakeConnection(), ann, accounts)
        rows = [
            {"game": f"g{n}", "account": ann.id, "room": "r", "family": None, "place": 1,
             "players": 2, "points": 3, "sets": 3, "wrong": 0, "finished": 1.0}
            for n in range(2)
        ]  # fmt: skip
        await rooms.storage.write(*[(player_games.insert().values(row), {}) for row in rows])
        await bounds.admit(public, FakeConnection(), ann, accounts)
        await ChatBounds(Limits()).admit(public, guest, None, accounts)  # 0: off



def test_over_the_socket_newcomers_wait_words_are_masked_and_one_address_is_bounded(
    tmp_path: Path,
) -> None:
    """The socket layer's wiring (``sockets.py``): the newcomers' rule in a public room, the
    word filter, and the per-address rate across sockets, each through a real websocket."""
    limits = Limits(chat_min_games=1, chat_client_burst=4, chat_client_per_minute=0.01)
    app = build(Storage(str(tmp_path / "s.db")), restore=True, limits=limits)
    with TestClient(app) as client:
        public = client.post("/api/rooms", json={"public": True}).json()["id"]
        private = client.post("/api/rooms", json={"public": False}).json()["id"]
        with client.websocket_connect(f"/ws/{public}") as ws:
            ws.send_json({"type": "hello"})
            ws.send_json({"type": "chat", "text": "hi all"})
            assert _next(ws, "error")["code"] == "chat_newcomer"
        with contextlib.ExitStack() as stack:
            for n in range(5):  # five sockets of one address, one line each
                ws = stack.enter_context(client.websocket_connect(f"/ws/{private}"))
                ws.send_json({"type": "hello"})
                _next(ws, "welcome")
                ws.send_json({"type": "chat", "text": f"line {n}: kurwa"})
                answer = _next(ws, "chat", "error", said=f"line {n}")
                if n < 4:
                    assert answer["messages"][-1]["text"] == f"line {n}: *****"
                else:
                    assert answer["code"] == "chat_too_fast" and "address" in answer["message"]


def _next(ws: Any, *types: str, said: str = "") -> dict[str, Any]:
    """The next message of one of ``types`` (a ``chat`` one: whose last line starts with
    ``said``; the history sent after ``welcome`` is passed over)."""
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == "chat" and not message["messages"][-1]["text"].startswith(said):
            continue
        if message["type"] in types:
            return message
