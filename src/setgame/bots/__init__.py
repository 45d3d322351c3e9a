"""Computer players: the pure policy (:mod:`.policy`); the drivers that schedule it live
with the server (``setgame.server.bots``) and the terminal game."""
