"""Several server processes over one PostgreSQL database and one Redis (issue 12,
``docs/cluster.md``): the throwaway services, room ownership with fencing tokens, and three
``setgame serve --redis`` processes playing one room."""

from __future__ import annotations

import redis.asyncio as aioredis


async def test_the_redis_fixture_is_a_private_server_without_persistence(redis_url: str) -> None:
    client = aioredis.from_url(redis_url)
    try:
        assert await client.ping()
        config = await client.config_get("save")
        assert config["save"] == ""  # nothing written to disk: a test's data dies with it
        await client.set("setgame:probe", "1", px=1000)
        assert await client.get("setgame:probe") == b"1"
    finally:
        await client.aclose()
