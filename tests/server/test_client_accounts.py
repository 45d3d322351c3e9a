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
