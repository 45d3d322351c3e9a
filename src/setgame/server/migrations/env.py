"""Alembic's entry point: run the migrations on the connection :func:`upgrade` passed in."""

from __future__ import annotations

from alembic import context

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - only reached by a misconfigured alembic command
    raise RuntimeError("setgame's migrations run on a connection: see setgame.server.migrations")
context.configure(connection=connection, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
