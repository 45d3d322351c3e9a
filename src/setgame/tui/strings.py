"""The terminal game's own words in English, Russian, Polish, Italian and German.

Card names and the reasons a pick is not a set come from :mod:`setgame.i18n`;
this module holds only the screen's labels and messages.

>>> tr("deck", "de", count=12)
'Stapel: 12'
>>> tr("nope", "en")
Traceback (most recent call last):
...
KeyError: "no UI string: 'nope'"
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from setgame.i18n import check_language, explain_text
from setgame.sets import Flaw

_EN: Final = {
    "title": "SET",
    "mode.solo": "solo",
    "mode.practice": "practice",
    "mode.multi": "match",
    "deck": "Deck: {count}",
    "clock": "Time: {clock}",
    "round": "Round {round}/{rounds}",
    "you": "You",
    "bot": "bot",
    "score": "{name}: {score}",
    "locked": "locked",
    "declared": "no set?",
    "holds": "{name} holds the board: {seconds:.1f} s",
    "your_turn": "You hold the board: pick three cards within {seconds:.1f} s",
    "help.multi": "Space: call SET · keys: pick · n: no set · q: quit",
    "help.solo": "keys: pick three cards · n: three more cards (costs a point) · q: quit",
    "help.practice": "keys: pick three cards · h: hint · n: three more cards · q: quit",
    "set_found": "{name} found a set: {cards}",
    "you_found": "A set! {cards}",
    "you_missed": "{cards}: {verdict}",
    "they_missed": "{name}: {cards}: {verdict}",
    "timed_out": "{name} picked nothing in time",
    "penalty": "{name} loses a point.",
    "lockout": "{name} is locked out until someone finds a set.",
    "you_penalty": "You lose a point.",
    "more_cards": "Three more cards",
    "more_cards_cost": "Three more cards: you lose a point",
    "no_set_said": "{name} says there is no set",
    "call_first": "Press Space to call SET first",
    "board_held": "{name} holds the board",
    "locked_out": "You are locked out until someone finds a set.",
    "already_declared": "You have already said there is no set",
    "deck_empty": "The deck is empty: no more cards",
    "table_full": "21 cards always hold a set",
    "hint": "Hint: {cards}",
    "hint_none": "No set on the table: press n for three more cards",
    "no_hints": "Hints are for practice games",
    "round_over": "Round over. Press Enter for the next round",
    "match_over": "Game over. {winners} won.",
    "solo_over": "Game over: {score} points in {clock}, {outcome}.",
    "solo_won": "won",
    "solo_lost": "not won: {left} more-cards penalties not cancelled",
    "game_over": "Game over. Enter: play again · q: leave",
    "lobby": "Waiting for the game to start. Press Enter to start",
    "quit?": "Leave the game? (y/n)",
    "yes": "y",
    "connecting": "Connecting to {url}…",
    "disconnected": "Connection lost: {reason}",
    "reconnecting": "Connection lost ({reason}); reconnecting…",
    "reconnected": "Connected again",
    "stale_version": "The table changed: look again",
    "not_seated": "You are watching: the seats are taken",
    "error": "{message}",
}

_RU: Final = {
    "title": "SET",
    "mode.solo": "одиночная игра",
    "mode.practice": "тренировка",
    "mode.multi": "партия",
    "deck": "Колода: {count}",
    "clock": "Время: {clock}",
    "round": "Раунд {round}/{rounds}",
    "you": "Вы",
    "bot": "бот",
    "score": "{name}: {score}",
    "locked": "блок",
    "declared": "сета нет?",
    "holds": "{name} берёт карты: {seconds:.1f} с",
    "your_turn": "Ваш ход: выберите три карты за {seconds:.1f} с",
    "help.multi": "Пробел: «Сет!» · клавиши: карты · n: сета нет · q: выход",
    "help.solo": "клавиши: три карты · n: ещё три карты (минус очко) · q: выход",
    "help.practice": "клавиши: три карты · h: подсказка · n: ещё три карты · q: выход",
    "set_found": "{name} нашёл сет: {cards}",
    "you_found": "Сет! {cards}",
    "you_missed": "{cards}: {verdict}",
    "they_missed": "{name}: {cards}: {verdict}",
    "timed_out": "{name} не успел выбрать карты",
    "penalty": "{name} теряет очко.",
    "lockout": "{name} пропускает, пока кто-то не найдёт сет.",
    "you_penalty": "Вы теряете очко.",
    "more_cards": "Ещё три карты",
    "more_cards_cost": "Ещё три карты: минус одно очко",
    "no_set_said": "{name}: сета нет",
    "call_first": "Сначала нажмите пробел: «Сет!»",
    "board_held": "Карты берёт {name}",
    "locked_out": "Вы пропускаете, пока кто-то не найдёт сет.",
    "already_declared": "Вы уже сказали, что сета нет",
    "deck_empty": "Колода пуста: карт больше нет",
    "table_full": "Среди 21 карты всегда есть сет",
    "hint": "Подсказка: {cards}",
    "hint_none": "Сета на столе нет: n — ещё три карты",
    "no_hints": "Подсказки есть только в тренировке",
    "round_over": "Раунд окончен. Enter: следующий раунд",
    "match_over": "Игра окончена. Победа: {winners}.",
    "solo_over": "Игра окончена: {score} очков за {clock}, {outcome}.",
    "solo_won": "победа",
    "solo_lost": "не выиграна: штрафов не отыграно: {left}",
    "game_over": "Игра окончена. Enter: ещё раз · q: выход",
    "lobby": "Ждём начала игры. Enter: начать",
    "quit?": "Выйти из игры? (y/n)",
    "yes": "y",
    "connecting": "Подключение к {url}…",
    "disconnected": "Соединение потеряно: {reason}",
    "reconnecting": "Связь потеряна ({reason}); переподключение…",
    "reconnected": "Снова на связи",
    "stale_version": "Стол изменился: посмотрите ещё раз",
    "not_seated": "Вы зритель: мест нет",
    "error": "{message}",
}

_PL: Final = {
    "title": "SET",
    "mode.solo": "gra solo",
    "mode.practice": "trening",
    "mode.multi": "partia",
    "deck": "Talia: {count}",
    "clock": "Czas: {clock}",
    "round": "Runda {round}/{rounds}",
    "you": "Ty",
    "bot": "bot",
    "score": "{name}: {score}",
    "locked": "blokada",
    "declared": "brak setu?",
    "holds": "{name} wybiera karty: {seconds:.1f} s",
    "your_turn": "Twój ruch: wybierz trzy karty w {seconds:.1f} s",
    "help.multi": "Spacja: SET! · klawisze: karty · n: brak setu · q: wyjście",
    "help.solo": "klawisze: trzy karty · n: trzy nowe karty (kosztuje punkt) · q: wyjście",
    "help.practice": "klawisze: trzy karty · h: podpowiedź · n: trzy nowe karty · q: wyjście",
    "set_found": "{name} znalazł SET: {cards}",
    "you_found": "SET! {cards}",
    "you_missed": "{cards}: {verdict}",
    "they_missed": "{name}: {cards}: {verdict}",
    "timed_out": "{name} nie wybrał kart na czas",
    "penalty": "{name} traci punkt.",
    "lockout": "{name} czeka, aż ktoś znajdzie SET.",
    "you_penalty": "Tracisz punkt.",
    "more_cards": "Trzy nowe karty",
    "more_cards_cost": "Trzy nowe karty: tracisz punkt",
    "no_set_said": "{name}: nie ma SETa",
    "call_first": "Najpierw naciśnij spację: SET!",
    "board_held": "Karty wybiera {name}",
    "locked_out": "Czekasz, aż ktoś znajdzie SET.",
    "already_declared": "Już powiedziałeś, że nie ma SETa",
    "deck_empty": "Talia jest pusta: nie ma więcej kart",
    "table_full": "Wśród 21 kart zawsze jest SET",
    "hint": "Podpowiedź: {cards}",
    "hint_none": "Na stole nie ma SETa: n — trzy nowe karty",
    "no_hints": "Podpowiedzi są tylko w treningu",
    "round_over": "Koniec rundy. Enter: następna runda",
    "match_over": "Koniec gry. Wygrywa: {winners}.",
    "solo_over": "Koniec gry: {score} pkt w {clock}, {outcome}.",
    "solo_won": "wygrana",
    "solo_lost": "przegrana: nieanulowane kary: {left}",
    "game_over": "Koniec gry. Enter: jeszcze raz · q: wyjście",
    "lobby": "Czekamy na początek gry. Enter: start",
    "quit?": "Wyjść z gry? (y/n)",
    "yes": "y",
    "connecting": "Łączenie z {url}…",
    "disconnected": "Utracono połączenie: {reason}",
    "reconnecting": "Utracono połączenie ({reason}); łączenie…",
    "reconnected": "Połączono ponownie",
    "stale_version": "Stół się zmienił: spójrz jeszcze raz",
    "not_seated": "Oglądasz: wszystkie miejsca są zajęte",
    "error": "{message}",
}

_IT: Final = {
    "title": "SET",
    "mode.solo": "solitario",
    "mode.practice": "allenamento",
    "mode.multi": "partita",
    "deck": "Mazzo: {count}",
    "clock": "Tempo: {clock}",
    "round": "Mano {round}/{rounds}",
    "you": "Tu",
    "bot": "bot",
    "score": "{name}: {score}",
    "locked": "fermo",
    "declared": "niente SET?",
    "holds": "{name} sceglie le carte: {seconds:.1f} s",
    "your_turn": "Tocca a te: scegli tre carte entro {seconds:.1f} s",
    "help.multi": "Spazio: SET! · tasti: carte · n: nessun SET · q: esci",
    "help.solo": "tasti: tre carte · n: tre carte in più (costa un punto) · q: esci",
    "help.practice": "tasti: tre carte · h: suggerimento · n: tre carte in più · q: esci",
    "set_found": "{name} ha trovato un SET: {cards}",
    "you_found": "SET! {cards}",
    "you_missed": "{cards}: {verdict}",
    "they_missed": "{name}: {cards}: {verdict}",
    "timed_out": "{name} non ha scelto in tempo",
    "penalty": "{name} perde un punto.",
    "lockout": "{name} è fermo finché qualcuno non trova un SET.",
    "you_penalty": "Perdi un punto.",
    "more_cards": "Tre carte in più",
    "more_cards_cost": "Tre carte in più: perdi un punto",
    "no_set_said": "{name}: nessun SET",
    "call_first": "Premi prima Spazio: SET!",
    "board_held": "Le carte le sceglie {name}",
    "locked_out": "Sei fermo finché qualcuno non trova un SET.",
    "already_declared": "Hai già detto che non c'è nessun SET",
    "deck_empty": "Il mazzo è vuoto: non ci sono altre carte",
    "table_full": "21 carte contengono sempre un SET",
    "hint": "Suggerimento: {cards}",
    "hint_none": "Nessun SET sul tavolo: n per tre carte in più",
    "no_hints": "I suggerimenti sono solo per l'allenamento",
    "round_over": "Mano finita. Invio: mano successiva",
    "match_over": "Partita finita. Vince: {winners}.",
    "solo_over": "Partita finita: {score} punti in {clock}, {outcome}.",
    "solo_won": "vinta",
    "solo_lost": "non vinta: penalità non annullate: {left}",
    "game_over": "Partita finita. Invio: gioca ancora · q: esci",
    "lobby": "In attesa dell'inizio. Invio: inizia",
    "quit?": "Lasciare la partita? (y/n)",
    "yes": "y",
    "connecting": "Connessione a {url}…",
    "disconnected": "Connessione persa: {reason}",
    "reconnecting": "Connessione persa ({reason}); mi riconnetto…",
    "reconnected": "Di nuovo connesso",
    "stale_version": "Il tavolo è cambiato: guarda di nuovo",
    "not_seated": "Stai guardando: i posti sono occupati",
    "error": "{message}",
}

_DE: Final = {
    "title": "SET",
    "mode.solo": "Solo",
    "mode.practice": "Übung",
    "mode.multi": "Partie",
    "deck": "Stapel: {count}",
    "clock": "Zeit: {clock}",
    "round": "Runde {round}/{rounds}",
    "you": "Du",
    "bot": "Bot",
    "score": "{name}: {score}",
    "locked": "gesperrt",
    "declared": "kein SET?",
    "holds": "{name} nimmt Karten: {seconds:.1f} s",
    "your_turn": "Du bist dran: wähle drei Karten in {seconds:.1f} s",
    "help.multi": "Leertaste: SET! · Tasten: Karten · n: kein SET · q: Ende",
    "help.solo": "Tasten: drei Karten · n: drei Karten mehr (kostet einen Punkt) · q: Ende",
    "help.practice": "Tasten: drei Karten · h: Tipp · n: drei Karten mehr · q: Ende",
    "set_found": "{name} hat ein SET gefunden: {cards}",
    "you_found": "SET! {cards}",
    "you_missed": "{cards}: {verdict}",
    "they_missed": "{name}: {cards}: {verdict}",
    "timed_out": "{name} hat nicht rechtzeitig gewählt",
    "penalty": "{name} verliert einen Punkt.",
    "lockout": "{name} ist gesperrt, bis jemand ein SET findet.",
    "you_penalty": "Du verlierst einen Punkt.",
    "more_cards": "Drei Karten mehr",
    "more_cards_cost": "Drei Karten mehr: du verlierst einen Punkt",
    "no_set_said": "{name}: kein SET da",
    "call_first": "Erst die Leertaste drücken: SET!",
    "board_held": "{name} nimmt gerade Karten",
    "locked_out": "Du bist gesperrt, bis jemand ein SET findet.",
    "already_declared": "Du hast schon gesagt, dass kein SET da ist",
    "deck_empty": "Der Stapel ist leer: keine Karten mehr",
    "table_full": "21 Karten enthalten immer ein SET",
    "hint": "Tipp: {cards}",
    "hint_none": "Kein SET auf dem Tisch: n für drei Karten mehr",
    "no_hints": "Tipps gibt es nur im Übungsspiel",
    "round_over": "Runde vorbei. Enter: nächste Runde",
    "match_over": "Spiel vorbei. Gewonnen hat: {winners}.",
    "solo_over": "Spiel vorbei: {score} Punkte in {clock}, {outcome}.",
    "solo_won": "gewonnen",
    "solo_lost": "nicht gewonnen: {left} Strafen nicht ausgeglichen",
    "game_over": "Spiel vorbei. Enter: noch einmal · q: Ende",
    "lobby": "Warten auf den Spielbeginn. Enter: Start",
    "quit?": "Spiel verlassen? (y/n)",
    "yes": "y",
    "connecting": "Verbinde mit {url}…",
    "disconnected": "Verbindung verloren: {reason}",
    "reconnecting": "Verbindung verloren ({reason}); verbinde neu…",
    "reconnected": "Wieder verbunden",
    "stale_version": "Der Tisch hat sich geändert: schau noch einmal",
    "not_seated": "Du schaust zu: die Plätze sind besetzt",
    "error": "{message}",
}

STRINGS: Final[dict[str, dict[str, str]]] = {
    "en": _EN,
    "ru": _RU,
    "pl": _PL,
    "it": _IT,
    "de": _DE,
}


def tr(key: str, lang: str = "en", /, **fields: object) -> str:
    """The UI string ``key`` in ``lang``, with ``fields`` filled in."""
    table = STRINGS[check_language(lang)]
    if key not in table:
        raise KeyError(f"no UI string: {key!r}")
    return table[key].format(**fields)


def format_clock(seconds: float) -> str:
    """Seconds as ``m:ss`` (or ``h:mm:ss`` past an hour).

    >>> format_clock(75.9), format_clock(3601)
    ('1:15', '1:00:01')
    """
    whole = max(0, int(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"


def player_names(view: Mapping[str, Any], lang: str) -> dict[str, str]:
    """Each player's name as the screen shows it: "you" for the viewer."""
    you = view.get("you")
    return {
        str(p["id"]): tr("you", lang) if p["id"] == you else str(p.get("name") or p["id"])
        for p in view.get("players", [])
    }


def event_message(event: Mapping[str, Any], view: Mapping[str, Any], lang: str) -> str | None:
    """What the screen says about one engine event, or None when the table shows it all."""
    names = player_names(view, lang)
    kind = event.get("type")
    player = event.get("player")
    name = names.get(str(player), str(player))
    cards = " ".join(event.get("cards") or ())
    mine = player is not None and player == view.get("you")
    if kind == "set_taken":
        return (
            tr("you_found", lang, cards=cards)
            if mine
            else tr("set_found", lang, name=name, cards=cards)
        )
    if kind == "wrong_call":
        return _wrong_call(event, name, cards, mine, lang)
    if kind == "more_cards_asked":
        key = (
            "more_cards_cost"
            if event.get("penalty") and view.get("mode") == "solo"
            else "more_cards"
        )
        return tr(key, lang)
    if kind == "cards_added" and event.get("why") != "request":
        return tr("more_cards", lang)
    if kind == "no_set_declared" and not mine:
        return tr("no_set_said", lang, name=name)
    if kind == "round_over" and view.get("phase") == "round_over":
        return tr("round_over", lang)
    if kind == "match_over":
        return _match_over(event, view, names, lang)
    if kind == "error":
        return error_message(event.get("code"), str(event.get("message")), lang)
    if kind in ("disconnected", "reconnecting"):
        return tr(str(kind), lang, reason=event.get("reason"))
    if kind == "reconnected":
        return tr("reconnected", lang)
    return None


def _wrong_call(event: Mapping[str, Any], name: str, cards: str, mine: bool, lang: str) -> str:
    if event.get("reason") == "timeout":
        text = tr("timed_out", lang, name=name)
    else:
        flaws = [Flaw(f["attribute"], f["common"], f["odd"]) for f in event.get("flaws") or ()]
        verdict = explain_text(flaws, lang)
        key = "you_missed" if mine else "they_missed"
        text = tr(key, lang, name=name, cards=cards, verdict=verdict)
    if event.get("point_lost"):
        text += " " + (tr("you_penalty", lang) if mine else tr("penalty", lang, name=name))
    if event.get("locked"):
        text += " " + (tr("locked_out", lang) if mine else tr("lockout", lang, name=name))
    return text


def _match_over(
    event: Mapping[str, Any], view: Mapping[str, Any], names: Mapping[str, str], lang: str
) -> str:
    solo = event.get("solo")
    if solo is not None:
        clock = format_clock(float(solo.get("seconds") or 0.0))
        left = int(solo.get("penalties", 0)) - int(solo.get("cancelled", 0))
        outcome = tr("solo_won", lang) if solo.get("won") else tr("solo_lost", lang, left=left)
        return tr("solo_over", lang, score=solo.get("score", 0), clock=clock, outcome=outcome)
    winners = ", ".join(names.get(str(w), str(w)) for w in event.get("winners") or ())
    return tr("match_over", lang, winners=winners)


#: Engine and server error codes the screen words itself; others show the error's text.
_ERRORS: Final = {
    "locked_out": "locked_out",
    "not_holder": "call_first",
    "already_declared": "already_declared",
    "deck_empty": "deck_empty",
    "table_full": "table_full",
    "no_hints": "no_hints",
    "stale_version": "stale_version",
    "not_seated": "not_seated",
}


def error_message(code: object, text: str, lang: str) -> str:
    """A refused action in words: ours for the codes we know, else the error's own text."""
    key = _ERRORS.get(code) if isinstance(code, str) else None
    return tr(key, lang) if key else tr("error", lang, message=text)
