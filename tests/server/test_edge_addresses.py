"""Who a client is for the per-address limits (``setgame.server.edge.address_group``): an IPv6
client is its /64, so that one subscriber's many addresses cannot each take a full share."""

from __future__ import annotations

import pytest

from setgame.server.edge import Doorman, address_group, client_host
from setgame.server.limits import Limits


@pytest.mark.parametrize(
    ("host", "group"),
    [
        ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"),
        ("2001:db8:1:3::1", "2001:db8:1:3::/64"),
        ("::ffff:203.0.113.5", "203.0.113.5"),  # IPv4-mapped: the IPv4 client
        ("203.0.113.5", "203.0.113.5"),
        ("::1", "::1"),
        ("testclient", "testclient"),  # not an address: as it is
        ("?", "?"),
    ],
)
def test_an_ipv6_client_counts_as_its_slash_64(host: str, group: str) -> None:
    assert address_group(host) == group
    assert client_host({"client": (host, 40000)}) == group


class _Transport:
    def __init__(self, host: str) -> None:
        self.host = host

    def get_extra_info(self, name: str) -> object:
        return (self.host, 40000, 0, 0) if name == "peername" else None

    def is_closing(self) -> bool:
        return False


def test_the_connection_cap_holds_for_a_whole_slash_64() -> None:
    refused: list[str] = []
    doorman = Doorman(
        Limits(connections_per_client=3, connect_rate=1000.0, connect_burst=1000),
        bites=lambda limit, detail: refused.append(f"{limit}: {detail}"),
    )
    held = [_Transport(f"2001:db8:1:2::{n:x}") for n in range(1, 5)]
    assert [doorman.admit(t) for t in held] == [True, True, True, False]
    assert refused == ["connections_per_client: 2001:db8:1:2::/64 holds 3 connections"]
    assert doorman.admit(_Transport("2001:db8:1:3::1"))  # the next /64 is another client


def test_the_connection_rate_holds_for_a_whole_slash_64() -> None:
    refused: list[str] = []
    doorman = Doorman(
        Limits(connections_per_client=100, connect_rate=0.001, connect_burst=2),
        bites=lambda limit, detail: refused.append(limit),
    )
    opened = [doorman.admit(_Transport(f"2001:db8:9:9::{n:x}")) for n in range(1, 4)]
    assert opened == [True, True, False] and refused == ["connect_rate"]
