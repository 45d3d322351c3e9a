"""Keys under other keyboard layouts: the game's keys are Latin letters and digits, and a
terminal reports the character a key types, not the key (Textual gets no physical key
code from a terminal). So the characters that the common layouts put on those keys are
read as the Latin key at the same place: ЙЦУКЕН (Russian; Ukrainian's і ї є and
Belarusian's ў too), Greek, and AZERTY's digit row (digits need Shift there). Polish,
German and Italian keyboards type Latin letters and digits on the game's keys as they
are; Caps Lock's capitals count as the letters.

>>> latin_key("й"), latin_key("Ф"), latin_key("é"), latin_key("Q"), latin_key("q")
('q', 'a', '2', 'q', None)
"""

from __future__ import annotations

from typing import Final

#: The QWERTY keys, row by row, and what other layouts type on each (same order).
_QWERTY: Final = "qwertyuiop[]asdfghjkl;'zxcvbnm,."
_LAYOUTS: Final = (
    "йцукенгшщзхъфывапролджэячсмитьбю",  # Russian ЙЦУКЕН
    "йцукенгшщзхїфівапролджєячсмитьбю",  # Ukrainian
    "йцукенгшўзх'фывапролджэячсмітьбю",  # Belarusian
    ";ςερτυθιοπ[]ασδφγηξκλ΄'ζχψωβνμ,.",  # Greek (its ; on Q is no letter: left out)
)
#: AZERTY's digit row without Shift (French; Belgian's § and !), as digits 1-0.
_AZERTY_DIGITS: Final = {
    **dict(zip("&é\"'(-è_çà", "1234567890", strict=True)),
    "§": "6",
    "!": "8",
}


def _table() -> dict[str, str]:
    table = dict(_AZERTY_DIGITS)
    for layout in _LAYOUTS:
        for char, latin in zip(layout, _QWERTY, strict=True):
            if latin.isalpha() and char.isalpha() and char != latin:
                table.setdefault(char, latin)
    return table


_TO_LATIN: Final = _table()


def latin_key(character: str | None) -> str | None:
    """The game's key for a ``character`` typed under another layout (or with Caps Lock),
    or None when the character is a key of the game already, or none at all."""
    if not character or len(character) != 1:
        return None
    if character.isascii() and character.isupper():
        return character.lower()
    return _TO_LATIN.get(character) or _TO_LATIN.get(character.lower())
