"""The ``setgame`` command: the fast entry point (:mod:`.main`) and the Typer app
(:mod:`.commands`)."""
