"""The Python client signs in and joins under its claimed name, on a real server."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
import pytest

from setgame.server.client import Client, ServerError, create_room, sign_in

PASSWORD = "correct horse"


async def _claimed(base: str) -> str:
    name = "Cl" + uuid.uuid4().hex[:8]
    async with httpx.AsyncClient(trust_env=False, timeout=30) as http:
        answer = await http.post(
            base + "/api/account/claim", json={"name": name, "password": PASSWORD}
        )
        assert answer.status_code == 201, answer.text
    return name


async def test_the_client_signs_in_and_sits_as_its_account(live_server: Any) -> None:
    base = str(live_server).rstrip("/")
    name = await _claimed(base)
    room = await create_room(base)
    session = await sign_in(base, name.upper(), PASSWORD)
    async with await Client.connect(base, room, session=session) as me:
        player = await me.join(name.lower())  # any spelling: the account's own
        await me.wait_update(lambda s: any(p["id"] == player for p in s["players"]))
        seat = me.seat(player)
        assert seat is not None and seat["name"] == name and seat["kind"] == "player"
    async with await Client.connect(base, room) as guest:  # no session: a guest
        with pytest.raises(ServerError) as refused:
            await guest.join(name)
        assert refused.value.code == "name_claimed"


async def test_a_wrong_password_is_a_server_error_naming_the_code(live_server: Any) -> None:
    base = str(live_server).rstrip("/")
    name = await _claimed(base)
    with pytest.raises(ServerError) as refused:
        await sign_in(base, name, "not the password")
    assert refused.value.code == "bad_credentials" and repr(name) in str(refused.value)


async def test_a_claimed_name_asks_for_its_password_and_a_guests_asks_nothing(
    live_server: Any,
) -> None:
    from setgame.server.client import claimed_session
    from setgame.tui.remote import RemoteSession

    base = str(live_server).rstrip("/")
    name = await _claimed(base)
    room_url = f"{base}/room/{await create_room(base)}"
    asked: list[str] = []

    def ask(claimed: str) -> str:
        asked.append(claimed)
        return PASSWORD

    assert await claimed_session(base, "Nobody" + name, ask) is None and asked == []
    session = await claimed_session(base, name.lower(), ask)
    assert session and asked == [name]  # asked with the name as claimed
    remote = RemoteSession(room_url, name=name.lower(), session=session)
    await remote.open(0.0)
    try:
        assert remote.client is not None and remote.client.player is not None
        await remote.client.wait_update(lambda s: bool(s["players"]))
        seat = remote.client.seat(remote.client.player)
        assert seat is not None and (seat["name"], seat["kind"]) == (name, "player")
    finally:
        await remote.close()
    with pytest.raises(ServerError) as refused:
        await claimed_session(base, name, lambda _: "wrong password")
    assert refused.value.code == "bad_credentials" and repr(name) in str(refused.value)


def test_setgame_play_asks_for_the_password_and_stops_on_a_wrong_one(live_server: Any) -> None:
    import asyncio
    import os
    import subprocess
    import sys
    from pathlib import Path

    base = str(live_server).rstrip("/")
    name = asyncio.run(_claimed(base))
    room = asyncio.run(create_room(base))
    src = Path(__file__).resolve().parents[2] / "src"
    done = subprocess.run(
        [sys.executable, "-m", "setgame", "play", "--connect", f"{base}/room/{room}",
         "--name", name, "--lang", "de"],
        input="wrong password\n",
        capture_output=True,
        text=True,
        timeout=60,
        env=os.environ | {"PYTHONPATH": str(src)},
        start_new_session=True,  # no controlling terminal: the prompt reads stdin
    )
    assert done.returncode == 2, done.stderr
    assert f"Passwort für {name}" in done.stdout + done.stderr
    assert repr(name) in done.stderr and "wrong password" not in done.stderr
    assert "Traceback" not in done.stderr
