"""The account page (``/account``): claim a name, sign out and in, wrong passwords worded in
the page language; a claimed name refused to a guest in a room; a signed-in player seated
under it."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from playwright.sync_api import expect

from browser.browserkit import create_room
from setgame.words import catalog

pytestmark = pytest.mark.browser


def words(lang: str) -> dict[str, str]:
    messages: dict[str, str] = catalog.web_messages(lang)["messages"]  # type: ignore[assignment]
    return messages


def _fill(page: Any, name: str, password: str) -> None:
    page.fill("[data-account-name]", name)
    page.fill("[data-account-password]", password)


def test_claim_sign_out_and_in_then_sit_under_the_name(live_server: str, new_page: Any) -> None:
    w = words("de")
    name = "Ann" + uuid.uuid4().hex[:6]
    page = new_page()
    page.goto(f"{live_server}/account?lang=de")
    status = page.locator("[data-account-status]")
    expect(status).to_have_text(w["acc.status.guest"])
    _fill(page, name, "correct horse")
    page.dblclick("[data-account-action=claim]")  # one claim, said to be done
    expect(status).to_have_text(w["acc.status.member"].replace("{name}", name))
    page.wait_for_timeout(300)
    done = w["acc.done.claim"].replace("{name}", name)
    expect(page.locator("[data-account-message]")).to_have_text(done)
    page.reload()  # the session cookie keeps it
    expect(status).to_have_text(w["acc.status.member"].replace("{name}", name))
    page.click("[data-account-action=signout]")
    expect(status).to_have_text(w["acc.status.guest"])
    _fill(page, name, "not the password")
    page.click("[data-account-action=signin]")
    expect(page.locator("[data-account-message]")).to_have_text(w["acc.err.bad_credentials"])
    _fill(page, name.upper(), "correct horse")
    page.click("[data-account-action=signin]")
    expect(status).to_have_text(w["acc.status.member"].replace("{name}", name))

    url = create_room(live_server, public=False)
    guest = new_page()  # another browser: a guest
    guest.goto(url + "?lang=de")
    guest.fill("input[name=player-name]", name.lower())
    guest.click("[data-action=join]")
    expect(guest.locator("#banner")).to_have_text(w["err.name_claimed"])
    page.goto(url)  # signed in: the account's name is filled in, and cannot be changed here
    name_field = page.locator("input[name=player-name]")
    expect(name_field).to_have_value(name)
    expect(name_field).not_to_be_editable()
    expect(page.locator("#join-as")).to_have_text(w["room.as_account"])
    page.click("[data-action=join]")
    expect(page.locator(f'[data-player="{name}"]')).to_have_count(1)  # the account's spelling
    guest.fill("input[name=player-name]", "Zed")
    guest.click("[data-action=join]")
    expect(page.locator('[data-player="Zed"] .badge.guest')).to_have_text(w["score.guest"])
    expect(page.locator(f'[data-player="{name}"] .badge.member')).to_have_text(w["score.member"])
    expect(page.locator('[data-player="Zed"] .badge.member')).to_have_count(0)


def test_a_profile_page_shows_the_figures_or_says_nobody_has_the_name(
    live_server: str, new_page: Any
) -> None:
    import httpx

    w = words("pl")
    name = "Zoe" + uuid.uuid4().hex[:6]
    answer = httpx.post(
        f"{live_server}/api/account/claim",
        json={"name": name, "password": "correct horse"},
        trust_env=False,
    )
    assert answer.status_code == 201
    page = new_page()
    page.goto(f"{live_server}/player/{name.lower()}?lang=pl")
    expect(page.locator("[data-profile-name]")).to_have_text(name)
    expect(page.locator("[data-profile-rating]")).to_have_text("1000")
    expect(page.locator("[data-profile-provisional]")).to_have_text(w["prof.provisional"])
    # until when it stays so (20 games: Polish "many" form), linked to the rules that say
    # which games count
    forms: Any = w["prof.provisional.why.one"]  # a plural message: its forms
    why = page.locator("[data-profile-provisional-why] a")
    expect(why).to_have_text(forms[2].replace("{n}", "20"))
    expect(why).to_have_attribute("href", "/rules#ratings")
    expect(page.locator("[data-profile-games]")).to_have_text("0")
    expect(page.locator("[data-profile-none]")).to_be_visible()
    page.goto(f"{live_server}/player/%3Cb%3ENobody")
    expect(page.locator("[data-profile-unknown]")).to_have_text(
        w["prof.unknown"].replace("{name}", "<b>Nobody")
    )
    assert page.locator("main b").count() == 0  # the name is text, never markup


def test_the_leaderboard_page_lists_established_players_linking_to_profiles(
    server_factory: Any, new_page: Any, tmp_path: Any
) -> None:
    import asyncio
    import concurrent.futures

    from setgame.server.account_tables import player_games, ratings
    from setgame.server.accounts import Accounts
    from setgame.server.storage import Storage

    db = tmp_path / "board.db"

    async def seed() -> None:
        storage = Storage(str(db))
        await storage.open()
        try:
            store = Accounts(storage)
            for name, family, mu, games in (
                ("Ann", "set", 30.0, 35), ("Bob", "set", 33.0, 40), ("Cid", "set", 45.0, 29),
                ("Dee", "ultraset", 27.0, 30),
            ):
                account = await store.claim(name, "correct horse")
                values = {"account": account.id, "family": family, "mu": mu, "sigma": 2.0,
                          "games": games}
                await storage.write((ratings.insert().values(values), {}))
                if name == "Ann":  # three rated games to draw
                    await storage.write(*[
                        (player_games.insert().values(
                            game=f"g{i}", account=account.id, room="r", family="set", place=1,
                            players=2, points=3, sets=3, wrong=0, finished=1e9 + i,
                            mu_before=25.0, sigma_before=3.0, mu_after=26.0 + i, sigma_after=2.0,
                        ), {})
                        for i in range(3)
                    ])
        finally:
            await storage.close()

    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # Playwright holds this thread's loop
        pool.submit(asyncio.run, seed()).result(timeout=60)
    server = server_factory(db=db)
    page = new_page()
    page.goto(f"{server}/leaderboard?lang=it")
    rows = page.locator("[data-board-list] li")
    expect(rows).to_have_count(2)  # Cid has fewer than BOARD_GAMES (30)
    assert rows.evaluate_all("els => els.map(e => e.dataset.boardPlayer)") == ["Bob", "Ann"]
    page.select_option("[data-board-select]", "ultraset")
    expect(rows).to_have_count(1)
    page.select_option("[data-board-select]", "4set")
    expect(page.locator("[data-board-empty]")).to_have_text(words("it")["board.empty"])
    page.select_option("[data-board-select]", "set")
    page.click("[data-board-list] a >> text=Ann")
    expect(page.locator("[data-profile-name]")).to_have_text("Ann")
    expect(page.locator("[data-profile-recent] li")).to_have_count(3)
    line = page.locator("[data-profile-plot=set] polyline")
    expect(line).to_have_count(1)
    assert len(line.get_attribute("points").split()) == 3
    ys = [float(point.split(",")[1]) for point in line.get_attribute("points").split()]
    assert ys[0] > ys[1] > ys[2]  # the rating rose: the line climbs (y grows downwards)


def test_the_solo_boards_and_a_profiles_solo_figures(
    server_factory: Any, new_page: Any, tmp_path: Any
) -> None:
    import asyncio
    import concurrent.futures

    from setgame.server.account_tables import solo_games
    from setgame.server.accounts import Accounts
    from setgame.server.puzzle import utc_now
    from setgame.server.storage import Storage

    db = tmp_path / "solo.db"
    today = utc_now().date()
    yesterday = today.fromordinal(today.toordinal() - 1)

    async def seed() -> None:
        storage = Storage(str(db))
        await storage.open()
        try:
            store = Accounts(storage)
            ids = {name: (await store.claim(name, "correct horse")).id for name in ("Ann", "Bob")}
            rows = [  # who, variant, deck, day, seconds, sets, wrong
                ("Ann", "classic", "full", None, 200.0, 23, 1),
                ("Ann", "classic", "full", None, 187.44, 24, 0),
                ("Bob", "classic", "full", None, 301.0, 22, 2),
                ("Bob", "classic", "beginner", None, 61.0, 8, 0),
                ("Ann", "puzzle", "full", today.isoformat(), 95.0, 6, 1),
                ("Ann", "puzzle", "full", yesterday.isoformat(), 120.0, 6, 0),
                ("Bob", "puzzle", "full", today.isoformat(), 4.0, 6, 0),  # no person: unranked
            ]
            await storage.write(*[
                (solo_games.insert().values(
                    game=f"g{i}", account=ids[who], variant=variant, deck=deck, day=day,
                    seconds=seconds, sets=sets, wrong=wrong, finished=1e9 + i,
                    timed=True if day else None,  # daily times: the server's (issue 20)
                ), {})
                for i, (who, variant, deck, day, seconds, sets, wrong) in enumerate(rows)
            ])
        finally:
            await storage.close()

    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # Playwright holds this thread's loop
        pool.submit(asyncio.run, seed()).result(timeout=60)
    server = server_factory(db=db)
    page = new_page()
    page.goto(f"{server}/leaderboard?board=solo-full")
    rows = page.locator("[data-board-list] li")
    expect(rows).to_have_count(2)
    assert rows.evaluate_all("els => els.map(e => e.dataset.boardPlayer)") == ["Ann", "Bob"]
    expect(rows.first).to_contain_text("3:07.4 (2 games)")
    expect(page.locator("[data-board-intro]")).to_have_text(words("en")["board.intro.time"])
    page.select_option("[data-board-select]", "daily")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("1:35.0")
    intro = words("en")["board.intro.daily"].replace("{floor}", "10")
    expect(page.locator("[data-board-intro]")).to_have_text(intro)  # what it does with 4 s
    page.select_option("[data-board-select]", "solo-beginner")
    expect(rows).to_have_count(1)
    page.goto(f"{server}/player/Ann?lang=de")
    expect(page.locator('[data-profile-best="full"]')).to_have_text("3:07,4")  # German digits
    expect(page.locator('[data-profile-best="beginner"]')).to_have_text("—")
    expect(page.locator("[data-profile-streak]")).to_have_text("2")
    expect(page.locator("[data-profile-wrong]")).to_have_text("2")
    # (200 + 187.44 + 95 + 120) seconds for 59 sets
    expect(page.locator("[data-profile-pace]")).to_have_text("10,2")


@pytest.mark.parametrize(
    ("lang", "name", "key"),
    [("ru", "Аnna", "err.name_mixed"), ("pl", "Anna\u3164", "err.name_invisible"),
     ("it", "Cazzone", "err.name_word")],
)
def test_a_refused_name_is_told_in_the_page_language_quoting_it(
    live_server: str, new_page: Any, lang: str, name: str, key: str
) -> None:
    """Issue 20: a lookalike (a Cyrillic А among Latin letters), an invisible Hangul filler or
    a word of the filter is refused with a sentence of the page's language that quotes it,
    on the account page and in a room."""
    w = words(lang)
    told = w[key].replace("{name}", name)
    page = new_page()
    page.goto(f"{live_server}/account?lang={lang}")
    _fill(page, name, "correct horse")
    page.click("[data-account-action=claim]")
    expect(page.locator("[data-account-message]")).to_have_text(told)
    page.goto(create_room(live_server, public=False) + f"?lang={lang}")
    page.fill("input[name=player-name]", name)
    page.click("[data-action=join]")
    expect(page.locator("#banner")).to_have_text(told)


def test_sign_out_everywhere_signs_out_the_other_browser_too(
    live_server: str, new_page: Any
) -> None:
    w = words("it")
    name = "Eve" + uuid.uuid4().hex[:6]
    member = w["acc.status.member"].replace("{name}", name)
    laptop, phone = new_page(), new_page()  # two browsers
    for page, action in ((laptop, "claim"), (phone, "signin")):
        page.goto(f"{live_server}/account?lang=it")
        _fill(page, name, "correct horse")
        page.click(f"[data-account-action={action}]")
        expect(page.locator("[data-account-status]")).to_have_text(member)
    button = laptop.locator("[data-account-action=signout-everywhere]")
    expect(button).to_have_text(w["acc.signout.everywhere"])
    button.click()
    expect(laptop.locator("[data-account-message]")).to_have_text(
        w["acc.done.signout.everywhere"]
    )
    expect(laptop.locator("[data-account-status]")).to_have_text(w["acc.status.guest"])
    phone.reload()
    expect(phone.locator("[data-account-status]")).to_have_text(w["acc.status.guest"])


def test_a_profile_says_why_each_recent_game_was_not_rated(live_server: str, new_page: Any) -> None:
    """Each recent game that moved nobody's rating, or not this player's, says why (the
    API's ``unrated``), in the page's language; a rated one shows its rating instead."""
    w = words("de")
    reasons = ["room", "players", "guest", "short", "early", "pair", "address", "bot_daily",
               "bot_reach"]  # fmt: skip
    recent = [
        {"game": f"g{i}", "finished": 1_764_000_000 + i, "place": 1, "players": 2, "points": 3,
         "sets": 6, "wrong": 0, "family": None, "rating": None, "unrated": why}
        for i, why in enumerate(reasons)
    ] + [{"game": "g-rated", "finished": 1_764_000_100, "place": 1, "players": 2, "points": 3,
          "sets": 6, "wrong": 0, "family": "set", "rating": 1012, "unrated": None}]  # fmt: skip
    profile = {
        "name": "Ann", "rating": 1012, "provisional": True, "provisional_games": 20, "games": 10,
        "wins": 10, "sets": 60, "ratings": {}, "recent": recent, "history": {}, "solo": {},
        "daily_streak": 0, "seconds_per_set": None, "wrong": 0,
        "arenas": {"played": 0, "best": []},
    }  # fmt: skip
    page = new_page()
    page.route("**/api/players/ann", lambda route: route.fulfill(json=profile))
    page.goto(f"{live_server}/player/ann?lang=de")
    for why in reasons:
        item = page.locator(f'[data-profile-game][data-unrated="{why}"]')
        expect(item).to_contain_text(w[f"prof.unrated.{why}"])
    rated = page.locator('[data-profile-game="g-rated"]')
    expect(rated).to_have_attribute("data-unrated", "")
    expect(rated).to_contain_text("1012")


@pytest.mark.parametrize(
    ("lang", "one", "many"),
    [
        ("ru", "SET: рейтинг по 1 последней рейтинговой партии, от 1000 до 1000",
         "UltraSet: рейтинг по 21 последней рейтинговой партии, от 1000 до 1020"),
        ("pl", "SET: ranking po 1 grze rankingowej, od 1000 do 1000",
         "UltraSet: ranking po każdej z ostatnich 21 gier rankingowych, od 1000 do 1020"),
    ],
)  # fmt: skip
def test_a_profiles_rating_plots_are_named_in_the_right_form_and_fit_a_sideways_phone(
    live_server: str, new_page: Any, lang: str, one: str, many: str
) -> None:
    """The plural form of a plot's name fits its count (Russian's "one" form serves 1 and 21;
    Polish's only 1), and a plot stays whole on a phone's screen held sideways."""
    profile = {
        "name": "Ann", "rating": 1020, "provisional": False, "provisional_games": 20,
        "games": 22, "wins": 22, "sets": 100, "ratings": {}, "recent": [], "solo": {},
        "history": {"set": [[1_764_000_000, 1000]],
                    "ultraset": [[1_764_000_000 + i, 1000 + i] for i in range(21)]},
        "daily_streak": 0, "seconds_per_set": None, "wrong": 0,
        "arenas": {"played": 0, "best": []},
    }  # fmt: skip
    page = new_page(viewport={"width": 750, "height": 342})
    page.route("**/api/players/ann", lambda route: route.fulfill(json=profile))
    page.goto(f"{live_server}/player/ann?lang={lang}")
    for family, label in (("set", one), ("ultraset", many)):
        figure = page.locator(f'[data-profile-plot="{family}"]')
        expect(figure.locator("figcaption")).to_have_text(label)
        expect(figure.locator("svg")).to_have_attribute("aria-label", label)
        box = figure.locator("svg").bounding_box()
        assert box is not None and box["height"] <= 0.6 * 342, box


def test_a_network_failure_is_said_in_the_page_language(live_server: str, new_page: Any) -> None:
    """A request that never reaches the server said nothing (an unhandled rejection)."""
    page = new_page()
    page.route("**/api/account/claim", lambda route: route.abort())
    page.goto(f"{live_server}/account?lang=it")
    _fill(page, "Ann" + uuid.uuid4().hex[:6], "correct horse")
    page.click("[data-account-action=claim]")
    said = words("it")["err.network"].split("{why}")[0]
    expect(page.locator("[data-account-message]")).to_contain_text(said)
    page.unroute("**/api/account/claim")
    page.click("[data-account-action=claim]")  # free to try again
    expect(page.locator("[data-account-status]")).not_to_have_attribute("data-name", "")
