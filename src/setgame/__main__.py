from setgame.cli import main

main()
