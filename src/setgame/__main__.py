from setgame.cli.main import main

main()
