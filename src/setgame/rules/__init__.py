"""The rules of SET and of its variants: pure, no I/O, no asyncio, no clock.

Cards and the standard deck (:mod:`.cards`), what a set is (:mod:`.sets`), the
variants' decks, kinds of set and flows of play (:mod:`.decks`, :mod:`.kinds`,
:mod:`.flows`, composed in :mod:`.variants`), the cards in play (:mod:`.table`) and
the game engine (:mod:`.game`, with :mod:`.settings`, :mod:`.actions`,
:mod:`.penalties`, :mod:`.seating`). Every other layer of the package builds on
this one; it imports none of them.
"""
