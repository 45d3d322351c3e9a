"""Server-test fixtures: a throwaway PostgreSQL cluster when the machine has one."""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path

import pytest

# The start code of the throwaway servers is shared with the load benchmark (benchmarks/).
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import services

free_port = services.free_port

# Servers the tests start on PostgreSQL would otherwise write their generated session secret to
# ./setgame.secret, in the checkout; the tests of the secret itself pass their own environment.
os.environ.setdefault("SETGAME_SECRET", "tests-only-session-secret-" + "x" * 32)


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """``postgresql+asyncpg://...`` of a fresh cluster on loopback, or skip."""
    pytest.importorskip("asyncpg")
    try:
        with services.postgres() as url:
            yield url
    except services.Missing as missing:
        if os.environ.get("SETGAME_REQUIRE_POSTGRES"):  # scripts/test.sh installs it: a gap
            pytest.fail(f"{missing} (scripts/test.sh should have installed it)")
        pytest.skip(str(missing))


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """``redis://127.0.0.1:<port>/0`` of a throwaway ``redis-server`` (no persistence), or
    skip when Redis is not installed (fail under ``SETGAME_REQUIRE_REDIS``)."""
    try:
        with services.redis() as url:
            yield url
    except services.Missing as missing:
        if os.environ.get("SETGAME_REQUIRE_REDIS"):  # scripts/test.sh installs it: a gap
            pytest.fail(f"{missing} (scripts/test.sh should have installed it)")
        pytest.skip(str(missing))


@pytest.fixture
async def new_database(postgres_url: str) -> AsyncIterator[Callable[[], Awaitable[str]]]:
    """``await new_database()``: the URL of a new, empty database of the test PostgreSQL
    cluster, for this test alone (dropped after it)."""
    import asyncpg

    admin = await asyncpg.connect(postgres_url.replace("postgresql+asyncpg", "postgresql"))
    made: list[str] = []

    async def make() -> str:
        name = "test_" + uuid.uuid4().hex[:10]
        await admin.execute(f"CREATE DATABASE {name}")
        made.append(name)
        return postgres_url.rsplit("/", 1)[0] + "/" + name

    try:
        yield make
        for name in made:
            await admin.execute(f"DROP DATABASE {name} WITH (FORCE)")
    finally:
        await admin.close()
