"""Every word a player reads: the gettext catalog, card names, flaw sentences.

Built on the rules (it names their cards and flaws); the terminal, the command
line and the server take their words from here.
"""
