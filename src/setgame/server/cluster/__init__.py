"""Many server processes, one owner per room (``docs/cluster.md``).

``setgame serve --redis redis://host:port/0`` turns this on: rooms are leased in Redis
(:mod:`.lease`), each write of an owner is fenced by a token in the database
(``Storage.take_room``), other processes mirror the rooms their players are in
(:mod:`.mirror`) and relay those players' actions to the owner (:mod:`.node`).
Without ``--redis`` none of this is imported: one process, as before.
"""

from __future__ import annotations

from setgame.server.cluster.node import ClusterRooms, Node, open_cluster

__all__ = ["ClusterRooms", "Node", "open_cluster"]
