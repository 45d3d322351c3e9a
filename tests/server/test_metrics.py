"""``/metrics`` (issue 22, ``docs/deploy.md`` "Metrics"): Prometheus' text format, moving as a
game is played; off by default, and refused to whoever may not read it. Each app has a
registry of its own, so two apps in one process (as here) never see each other's counts."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from conftest import LiveServer
from setgame.rules.cards import card_name, parse_cards
from setgame.rules.sets import find_sets
from setgame.server.app import build
from setgame.server.client import Client
from setgame.server.limits import LimitError, Limits
from setgame.server.storage import Storage

from .accountkit import TestClient

TOKEN = "s3cret-token-for-tests-0123456789"
PUBLIC = "93.184.215.14"  # a globally routed address (not a documentation one: those count
# as private to Python's ipaddress)


def _app(path: Path, **limits: Any) -> Any:
    return build(Storage(str(path / "m.db")), limits=Limits(**limits))


def _local(app: Any, **kwargs: Any) -> TestClient:
    """A client on loopback (the test client's own address is not an IP address)."""
    return TestClient(app, client=("127.0.0.1", 50000), **kwargs)


Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def samples(client: TestClient, **headers: str) -> Samples:
    answer = client.get("/metrics", headers=headers)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain; version=0.0.4")
    found = {}
    for family in text_string_to_metric_families(answer.text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def _until(ws: Any, done: Any) -> dict[str, Any]:
    while True:
        message = ws.receive_json()
        state = message.get("state")
        if message["type"] in ("welcome", "update") and state and done(state | message):
            return state | {"version": message["version"]}


def _play_a_set_and_a_bad_pick(client: TestClient) -> None:
    room = client.post("/api/rooms", json={"mode": "practice", "deck": "beginner"}).json()["id"]
    with client.websocket_connect(f"/ws/{room}") as ws:
        ws.send_json({"type": "hello"})
        _until(ws, lambda s: True)
        ws.send_json({"type": "join", "name": "Ann"})
        ws.send_json({"type": "start"})
        state = _until(ws, lambda s: s["phase"] == "playing")
        group = [card_name(c) for c in find_sets(parse_cards(state["table"]))[0]]
        ws.send_json({"type": "pick", "cards": group, "version": state["version"]})
        _until(ws, lambda s, seen=state["version"]: s["version"] > seen)
        ws.send_json({"type": "pick", "cards": ["nonsense"], "version": 1})
        while (message := ws.receive_json())["type"] != "error":
            pass
        assert message["code"] == "bad_message"  # not a card's name: refused as it is read


def test_the_metrics_move_when_a_game_is_played(tmp_path: Path) -> None:
    with _local(_app(tmp_path, metrics=True)) as client:
        before = samples(client)
        _play_a_set_and_a_bad_pick(client)
        gc.collect()
        after = samples(client)
    assert before.get(("setgame_actions_total", (("type", "pick"),)), 0) == 0
    assert after[("setgame_actions_total", (("type", "pick"),))] == 1
    assert after[("setgame_actions_total", (("type", "join"),))] == 1
    assert after[("setgame_action_seconds_count", (("type", "pick"),))] == 1
    assert after[("setgame_action_seconds_sum", (("type", "pick"),))] > 0
    # the room's creation, the join, the start, the pick: each committed at least once
    commits = after[("setgame_db_commit_seconds_count", ())]
    assert commits >= 3 and commits > before.get(("setgame_db_commit_seconds_count", ()), 0)
    assert after[("setgame_errors_total", (("code", "bad_message"),))] == 1
    assert after[("setgame_rooms", (("phase", "playing"),))] == 1
    assert after[("setgame_gc_pause_seconds_count", (("generation", "2"),))] >= 1
    assert after[("setgame_websockets", ())] == 0  # the socket closed with the test's block


def test_two_apps_in_one_process_count_apart(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with (
        _local(_app(tmp_path / "a", metrics=True)) as one,
        _local(_app(tmp_path / "b", metrics=True)) as two,
    ):
        _play_a_set_and_a_bad_pick(one)
        assert samples(one)[("setgame_errors_total", (("code", "bad_message"),))] == 1
        assert ("setgame_errors_total", (("code", "bad_message"),)) not in samples(two)


def test_metrics_are_off_by_default(tmp_path: Path) -> None:
    with _local(_app(tmp_path)) as client:
        assert client.get("/metrics").status_code == 404


def test_a_public_address_is_refused(tmp_path: Path) -> None:
    for address in (PUBLIC, "2a00:1450:4001:82b::200e", "100.64.0.9", "0.0.0.0"):
        with TestClient(_app(tmp_path, metrics=True), client=(address, 4000)) as client:
            answer = client.get("/metrics")
            assert answer.status_code == 403, address
            assert answer.json()["code"] == "forbidden" and "setgame_" not in answer.text
    for address in ("10.1.2.3", "192.168.0.9", "172.16.5.5", "::1", "fd00::5"):
        with TestClient(_app(tmp_path, metrics=True), client=(address, 4000)) as client:
            assert client.get("/metrics").status_code == 200, address


def test_a_proxy_the_server_does_not_trust_is_refused(tmp_path: Path) -> None:
    """An nginx on the same machine, not named with --trusted-proxy: every request comes
    from loopback, so what it forwarded must not pass for a local scraper's."""
    with _local(_app(tmp_path, metrics=True)) as client:
        for header, value in (
            ("X-Forwarded-For", PUBLIC),
            ("X-Real-IP", PUBLIC),
            ("Forwarded", "for=93.184.215.14"),
        ):
            assert client.get("/metrics", headers={header: value}).status_code == 403, header


def test_behind_a_trusted_proxy_the_client_it_names_decides(tmp_path: Path) -> None:
    app = _app(tmp_path, metrics=True, trusted_proxies="127.0.0.1")
    with _local(app) as client:
        stranger = {"X-Forwarded-For": PUBLIC}
        assert client.get("/metrics", headers=stranger).status_code == 403
        assert client.get("/metrics", headers={"X-Forwarded-For": "10.0.0.8"}).status_code == 200


def test_with_a_token_only_its_bearer_is_answered(tmp_path: Path) -> None:
    app = _app(tmp_path, metrics=True, metrics_token=TOKEN)
    with TestClient(app, client=(PUBLIC, 4000)) as client:
        for bad in ("", "Bearer", "Bearer wrong-token-of-some-length", f"Basic {TOKEN}",
                    f"Bearer {TOKEN}x", "Bearer " + "x" * 5000):
            answer = client.get("/metrics", headers={"Authorization": bad} if bad else {})
            assert answer.status_code == 401, bad[:40]
            assert answer.headers["www-authenticate"].startswith("Bearer")
        assert samples(client, Authorization=f"Bearer {TOKEN}")
    with _local(_app(tmp_path, metrics=True, metrics_token=TOKEN)) as client:
        assert client.get("/metrics").status_code == 401  # a token set: loopback needs it too


def test_a_bad_method_and_a_flood_of_scrapes(tmp_path: Path) -> None:
    with _local(_app(tmp_path, metrics=True)) as client:
        assert client.post("/metrics", content=b"x").status_code == 405
        assert client.delete("/metrics").status_code == 405
        codes = [client.get("/metrics").status_code for _ in range(40)]
        assert codes[:10] == [200] * 10  # the burst
        assert 429 in codes and codes.count(200) < 20
        limited = client.get("/metrics")
        assert limited.status_code == 429 and limited.headers["retry-after"] == "1"


@pytest.mark.parametrize("token", ["short", "has a space in it, which breaks", "x" * 300])
def test_a_bad_token_stops_the_server_at_start(token: str) -> None:
    with pytest.raises(LimitError, match="SETGAME_METRICS_TOKEN must be 16 to 256") as caught:
        Limits.from_env({"SETGAME_METRICS_TOKEN": token})
    assert token not in str(caught.value)  # a secret is never quoted back


def test_the_metrics_setting_is_read_from_the_environment() -> None:
    assert Limits.from_env({"SETGAME_METRICS": "on"}).metrics is True
    with pytest.raises(LimitError, match="SETGAME_METRICS must be true or false"):
        Limits.from_env({"SETGAME_METRICS": "perhaps"})


# --- a cluster: relays between real processes ---------------------------------------------------


def _scrape(server: str) -> Samples:
    answer = httpx.get(f"{server}/metrics", timeout=10)
    assert answer.status_code == 200, answer.text
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(answer.text)
        for sample in family.samples
    }


@pytest.fixture
async def cluster_db(new_database: Callable[[], Awaitable[str]]) -> str:
    """A new, empty database of the test PostgreSQL cluster for this test alone."""
    return await new_database()


async def test_relays_are_counted_on_both_sides_of_a_cluster(
    cluster_db: str, redis_url: str, tmp_path: Path
) -> None:
    """A player on the mirror's process joins: the mirror sends the request, the owner
    answers it, commits and broadcasts the join (counted there alone)."""
    servers = [
        LiveServer(cluster_db, tmp_path / f"n{n}.log", env={"SETGAME_METRICS": "1"})
        for n in range(2)
    ]
    for n, server in enumerate(servers):
        server.options, server.created = ["--redis", redis_url], n > 0
    try:
        for server in servers:
            await asyncio.to_thread(server.start)
        owner, mirror = servers
        async with httpx.AsyncClient() as http:
            room = (await http.post(f"{owner}/api/rooms", json={})).json()["id"]
        client = await Client.connect(str(mirror), room)
        try:
            await client.join("Ann")
            seen = await asyncio.to_thread(_scrape, mirror)
            assert seen[("setgame_websockets", ())] == 1
        finally:
            await client.close()
        on_owner, on_mirror = await asyncio.to_thread(_scrape, owner), seen
        assert on_mirror[("setgame_relays_total", (("side", "sent"),))] >= 1
        assert on_owner[("setgame_relays_total", (("side", "answered"),))] >= 1
        assert on_owner[("setgame_actions_total", (("type", "join"),))] == 1
        assert ("setgame_actions_total", (("type", "join"),)) not in on_mirror
    finally:
        for server in servers:
            await asyncio.to_thread(server.stop)
