"""The server's garbage collection and memory trim (``setgame.server.memory``)."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from setgame.server import create_app, memory


class Node:
    """An object that can sit in a reference cycle and be watched by a weak reference."""

    other: Any = None


@pytest.fixture(autouse=True)
def thawed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Counts of their own; what a test froze goes back to the collector (the test process
    keeps Python's own)."""
    monkeypatch.setattr(memory, "CHURN", memory.Churn())
    monkeypatch.setattr(memory, "FREEZER", memory.Freezer())
    yield
    gc.unfreeze()


def busy(connections: int = memory.FREEZE_FROM) -> None:
    memory.CHURN.open_now = connections


def cycle() -> weakref.ref[Node]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_a_full_collection_frees_cycles_among_frozen_objects() -> None:
    busy()
    watched = cycle()
    gc.freeze()  # as the server's freeze task does while the cycle is alive
    memory.FREEZER.froze = True
    gc.collect()
    assert watched() is not None  # a plain collection never looks at frozen objects
    memory.full_collection()
    assert watched() is None
    assert gc.get_freeze_count() > 0  # still busy: what survived is frozen again


def test_with_few_connections_open_nothing_stays_frozen() -> None:
    watched = cycle()
    gc.freeze()
    memory.FREEZER.froze = True
    memory.full_collection()
    assert watched() is None and gc.get_freeze_count() == 0
    assert not memory.FREEZER.froze


def test_an_app_that_does_not_freeze_is_never_frozen_by_a_full_collection() -> None:
    busy()  # many connections, in a process embedding the app (a test) without freezing
    memory.full_collection(freezing=False)
    assert gc.get_freeze_count() == 0 and not memory.FREEZER.froze


async def test_the_freeze_task_hides_what_lives_from_young_collections() -> None:
    gc.unfreeze()
    task = asyncio.create_task(memory.freeze_young(every=0.01))
    try:
        await asyncio.sleep(0.05)
        assert gc.get_freeze_count() == 0  # few connections: Python's own collector
        busy()
        await asyncio.sleep(0.05)
        assert gc.get_freeze_count() > 0 and memory.FREEZER.froze
        assert gc.get_count()[0] < memory.GC_THRESHOLDS[0]
    finally:
        task.cancel()


async def test_a_burst_of_closed_connections_brings_a_full_collection(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    collections: list[str] = []
    monkeypatch.setattr(memory.gc, "collect", lambda *args: collections.append("gc") or 0)
    churn = memory.Churn()
    for _ in range(memory.COLLECT_AFTER - 1):
        churn.close()
    monkeypatch.setattr(memory, "CHURN", churn)
    trimmer = asyncio.create_task(memory.trim_memory(every=0.01))
    try:
        await asyncio.sleep(0.1)
        assert collections == []  # one closed connection short of a burst: no pause
        churn.close()
        await asyncio.sleep(0.1)
        assert collections == ["gc"] and churn.closed_since == 0
    finally:
        trimmer.cancel()


def test_with_many_connections_open_a_full_collection_waits_for_more_to_close() -> None:
    """Its pause grows with what is open, so it waits until half as many have closed."""
    churn = memory.Churn()
    churn.open_now = 4000
    for _ in range(500):
        churn.close()
    assert not churn.due()  # 500 closed, 4,000 open: not yet worth a pause
    for _ in range(1500):
        churn.close()
    assert churn.due()  # 2,000 closed, 4,000 open


async def test_frozen_objects_get_a_full_collection_at_the_latest_after_full_every() -> None:
    busy()
    watched = cycle()
    gc.freeze()
    memory.FREEZER.froze = True
    trimmer = asyncio.create_task(memory.trim_memory(every=0.01, frozen=True, full_every=0.05))
    try:
        await asyncio.sleep(0.02)
        assert watched() is not None  # not due yet, and no burst of connections
        for _ in range(50):
            await asyncio.sleep(0.01)
            if watched() is None:
                break
        assert watched() is None
    finally:
        trimmer.cancel()


async def test_only_a_freezing_app_runs_the_freeze_task(tmp_path: Path) -> None:
    for freeze in (False, True):
        app = create_app(tmp_path / f"{freeze}.db", create_db=True, freeze=freeze)
        async with app.router.lifespan_context(app):
            names = {task.get_name() for task in asyncio.all_tasks()}
            assert "trim-memory" in names
            assert ("freeze-young" in names) is freeze


class Transport:
    def __init__(self, closing: bool) -> None:
        self.closing = closing

    def is_closing(self) -> bool:
        return self.closing


def test_open_connections_are_counted_from_the_transports_themselves() -> None:
    """Not from counters that a close never reported would push up for good."""
    churn = memory.Churn()
    transports = [Transport(closing=n % 3 == 0) for n in range(30)]
    for transport in transports:
        churn.live.add(transport)
    assert churn.count_open() == 20 == churn.open_now
    for transport in transports[:10]:
        transport.closing = True
    del transports[-5:]  # gone altogether
    assert churn.count_open() == 10  # 20 - 6 now closing - 4 gone
