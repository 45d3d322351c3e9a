"""``python -m setgame``: the ``setgame`` command."""

from setgame.cli.main import main

main()
