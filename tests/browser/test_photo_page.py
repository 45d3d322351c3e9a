"""The photo page (/photo, issue 24) in Chromium on a phone: a drawn photo of a table of known
cards is uploaded, the cards are outlined where they lie, the sets are highlighted one by one,
every card read wrongly is corrected by tapping it (and one more, so that a correction is always
made), the sets follow the corrections, and "Play this table" deals those cards in a practice
room. Also: axe-clean in both themes, no horizontal scroll, 44 px targets."""

from __future__ import annotations

from collections.abc import Callable
from io import BytesIO
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from playwright.sync_api import Page, expect

import photokit
from browser.browserkit import join, start, table
from setgame import card_names, find_sets, parse_cards

pytestmark = pytest.mark.browser

CODES = ["1RSD", "2GTO", "3POS", "1PTS", "2RSO", "3GOD", "1GOS", "2PSD", "3RTO", "1RTD", "2GSS",
         "3PTD"]  # fmt: skip
PHONE = {"width": 390, "height": 664}
AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
ATTRS = ("number", "color", "shading", "shape")


@pytest.fixture(scope="module")
def photo_file(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, photokit.TablePhoto]:
    photo = photokit.table_photo(CODES, seed=5)
    path = tmp_path_factory.mktemp("photo") / "table.jpg"
    path.write_bytes(photo.jpeg)
    return path, photo


def phone(new_page: Callable[..., Any], theme: str = "light", **options: Any) -> Page:
    page: Page = new_page(
        is_mobile=True, has_touch=True, viewport=PHONE, color_scheme=theme, **options
    )
    page.add_init_script(f"localStorage.setItem('setgame.theme', '{theme}')")
    return page


def upload(page: Page, base: str, path: Path, lang: str = "en") -> None:
    page.goto(f"{base}/photo?lang={lang}")
    expect(page.locator("#photo-camera")).to_be_visible()  # a phone: the camera first
    expect(page.locator("[data-photo-camera]")).to_have_attribute("capture", "environment")
    choose(page, path)


def choose(page: Page, path: Path) -> None:
    """Choose the photo at ``path`` on the open photo page; until the page has read it."""
    page.set_input_files("[data-photo-input]", str(path))
    # the reading's speed is benchmarked elsewhere; on a busy machine it takes past the 5 s default
    expect(page.locator("main")).to_have_attribute("data-state", "read", timeout=30_000)


def shown_cards(page: Page) -> list[str]:
    codes: list[str] = page.eval_on_selector_all(
        "#photo-cards [data-photo-card]", "els => els.map(e => e.dataset.code)"
    )
    return codes


def shown_sets(page: Page) -> set[frozenset[str]]:
    sets: list[str] = page.eval_on_selector_all(
        "#photo-sets [data-set-cards]", "els => els.map(e => e.dataset.setCards)"
    )
    return {frozenset(s.split()) for s in sets}


def judged(codes: list[str]) -> set[frozenset[str]]:
    return {frozenset(card_names(s)) for s in find_sets(parse_cards(codes))}


def mark_centres(page: Page) -> list[tuple[float, float]]:
    """Each outline's centre in the photo's own pixels, from where it is drawn on screen."""
    found: list[list[float]] = page.evaluate(
        """() => {
          const img = document.querySelector('#photo-img');
          const box = img.getBoundingClientRect();
          const sx = img.naturalWidth / box.width, sy = img.naturalHeight / box.height;
          return [...document.querySelectorAll('#photo-marks [data-photo-mark] polygon')]
            .map((p) => { const r = p.getBoundingClientRect();
              return [(r.x + r.width / 2 - box.x) * sx, (r.y + r.height / 2 - box.y) * sy]; });
        }"""
    )
    return [(x, y) for x, y in found]


def truth_of(centre: tuple[float, float], photo: photokit.TablePhoto) -> str:
    """The drawn card whose outline holds ``centre``."""
    for code, corners in zip(photo.codes, photo.corners, strict=True):
        if cv2.pointPolygonTest(np.array(corners, np.float32), centre, False) >= 0:
            return code
    raise AssertionError(f"no card drawn at {centre}")


def outlined(page: Page, photo: photokit.TablePhoto) -> list[str]:
    """The cards the outlines fall on, in the page's order; each card of ``photo`` is
    outlined once."""
    expect(page.locator("#photo-marks [data-photo-mark]")).to_have_count(len(CODES))
    truth = [truth_of(c, photo) for c in mark_centres(page)]
    assert sorted(truth) == sorted(CODES)
    return truth


def correct(page: Page, index: int, code: str) -> None:
    page.locator(f'#photo-cards [data-photo-card="{index}"]').tap()
    dialog = page.locator("#photo-fix")
    expect(dialog).to_be_visible()
    for attr, letter in zip(ATTRS, code, strict=True):
        dialog.locator(f'select[data-fix-attr="{attr}"]').select_option(letter)
    dialog.locator("[data-action=fix-save]").tap()
    expect(dialog).to_be_hidden()
    expect(page.locator(f'#photo-cards [data-photo-card="{index}"]')).to_have_attribute(
        "data-code", code
    )


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide on a {PHONE['width']} px phone"


def test_a_photo_of_a_table_is_read_corrected_and_played_on_a_phone(
    live_server: str, new_page: Callable[..., Any], photo_file: tuple[Path, photokit.TablePhoto]
) -> None:
    path, photo = photo_file
    page = phone(new_page)
    upload(page, live_server, path)

    # every card drawn is outlined once, where it lies in the photo
    truth = outlined(page, photo)
    read = shown_cards(page)
    marks: list[str] = page.eval_on_selector_all(
        "#photo-marks [data-photo-mark]", "els => els.map(e => e.dataset.code)"
    )
    assert marks == read  # the outline and the list name the same cards
    assert shown_sets(page) == judged(read)
    no_sideways_scroll(page)

    # the sets one by one: the current set's three outlines are lit
    sets = page.locator("#photo-sets [data-set]")
    if sets.count():
        expect(page.locator("#photo-marks .mark.lit")).to_have_count(3)
        first = page.eval_on_selector_all(
            "#photo-marks .mark.lit", "m => m.map(e => e.dataset.code)"
        )
        assert frozenset(first) in judged(read)
        if sets.count() > 1:
            page.locator("[data-action=next-set]").tap()
            expect(sets.nth(1)).to_have_attribute("aria-pressed", "true")
            second = page.eval_on_selector_all(
                "#photo-marks .mark.lit", "m => m.map(e => e.dataset.code)"
            )
            assert set(second) != set(first)
    else:
        expect(page.locator("#photo-no-set")).to_be_visible()

    # correct what was read wrongly, then one card more into a card not on the table
    for i, (seen, real) in enumerate(zip(read, truth, strict=True)):
        if seen != real:
            correct(page, i, real)
    assert shown_cards(page) == truth
    spare = next(c for c in card_names(range(81)) if c not in truth)
    correct(page, 0, spare)
    corrected = [spare, *truth[1:]]
    expect(page.locator("#photo-summary")).to_have_attribute(
        "data-sets", str(len(judged(corrected)))
    )
    assert shown_sets(page) == judged(corrected)
    if not judged(corrected):
        expect(page.locator("#photo-no-set")).to_be_visible()

    # a card already on the table cannot be chosen twice
    page.locator('#photo-cards [data-photo-card="1"]').tap()
    for attr, letter in zip(ATTRS, corrected[2], strict=True):
        page.locator(f'#photo-fix select[data-fix-attr="{attr}"]').select_option(letter)
    page.locator("#photo-fix [data-action=fix-save]").tap()
    expect(page.locator("#photo-fix-error")).not_to_be_empty()
    page.locator("#photo-fix [data-action=fix-cancel]").tap()
    expect(page.locator("#photo-fix")).to_be_hidden()
    assert shown_cards(page) == corrected

    # the targets a thumb taps are at least 44 px high
    for target in ("[data-photo-card]", "[data-set]", "[data-action=play-table]"):
        for box in page.locator(f"#photo-result {target}").all():
            height = (box.bounding_box() or {"height": 0})["height"]
            assert height >= 44, f"{target} is {height} px high"

    # play this table: a practice room deals exactly these cards, one room for a double tap
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    play = page.locator("[data-action=play-table]")
    play.evaluate("b => { b.click(); b.click(); }")
    page.wait_for_url("**/room/*")
    assert [url for url in posts if url.endswith("/api/rooms")] == [f"{live_server}/api/rooms"]
    join(page, page.url, "Ann")
    start(page)
    assert table(page) == corrected


def test_a_photo_without_a_set_says_so(
    live_server: str, new_page: Callable[..., Any], tmp_path: Path
) -> None:
    lone = ["1RSD", "1RSO", "2GTS"]  # no set among them
    assert not judged(lone)
    photo = photokit.table_photo(lone, columns=3, seed=9)
    path = tmp_path / "lone.jpg"
    path.write_bytes(photo.jpeg)
    page = phone(new_page)
    upload(page, live_server, path, "ru")
    expect(page.locator("#photo-marks [data-photo-mark]")).to_have_count(3)
    expect(page.locator("#photo-summary")).to_contain_text("Найдены 3 карты.")  # ru's "few"
    truth = [truth_of(c, photo) for c in mark_centres(page)]
    for i, (seen, real) in enumerate(zip(shown_cards(page), truth, strict=True)):
        if seen != real:  # whatever the reader made of it, the table is made right
            correct(page, i, real)
    expect(page.locator("#photo-summary")).to_have_attribute("data-sets", "0")
    expect(page.locator("#photo-summary")).to_contain_text("Сетов среди них нет.")
    expect(page.locator("#photo-no-set")).to_have_text("Сета здесь нет.")
    expect(page.locator("#photo-sets [data-set]")).to_have_count(0)
    expect(page.locator("#photo-marks .mark.lit")).to_have_count(0)


def test_a_file_that_is_no_photo_is_refused_in_words(
    live_server: str, new_page: Callable[..., Any], tmp_path: Path
) -> None:
    path = tmp_path / "notes.jpg"
    path.write_bytes(b"these are not the pixels you are looking for")
    page = phone(new_page)
    page.goto(f"{live_server}/photo?lang=de")
    page.set_input_files("[data-photo-input]", str(path))
    expect(page.locator("main")).to_have_attribute("data-state", "error")
    expect(page.locator("#photo-error")).to_contain_text("Diese Datei ist kein Foto")
    expect(page.locator("#photo-result")).to_be_hidden()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_photo_page_passes_axe_and_works_by_keyboard(
    live_server: str,
    new_page: Callable[..., Any],
    photo_file: tuple[Path, photokit.TablePhoto],
    theme: str,
) -> None:
    path, _ = photo_file
    page = phone(new_page, theme, bypass_csp=True)
    page.goto(f"{live_server}/photo")
    axe_clean(page, f"photo page, empty ({theme})")
    choose(page, path)
    axe_clean(page, f"photo page, read ({theme})")
    page.set_viewport_size({"width": 750, "height": 342})  # the phone held sideways
    assert page.evaluate("document.documentElement.scrollWidth") <= 750
    axe_clean(page, f"photo page, read, sideways ({theme})")
    page.set_viewport_size(PHONE)
    # the keyboard: the arrows go through the sets; Enter on a card opens its correction
    if page.locator("#photo-sets [data-set]").count() > 1:
        page.keyboard.press("ArrowRight")
        expect(page.locator('#photo-sets [data-set="1"]')).to_have_attribute("aria-pressed", "true")
    page.locator('#photo-cards [data-photo-card="0"]').focus()
    page.keyboard.press("Enter")
    expect(page.locator("#photo-fix")).to_be_visible()
    axe_clean(page, f"photo page, correcting ({theme})")
    page.keyboard.press("Escape")
    expect(page.locator("#photo-fix")).to_be_hidden()


def axe_clean(page: Page, where: str) -> None:
    page.wait_for_load_state("networkidle")
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async () => (await axe.run(document, {
            rules: { "label-content-name-mismatch": { enabled: true } },
            resultTypes: ["violations"] })).violations
          .filter((v) => v.impact === "serious" || v.impact === "critical")
          .map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(" ")).slice(0, 5) }))"""
    )
    assert found == [], f"{where}: {found}"


def test_a_photo_turned_by_its_exif_is_outlined_as_shown(
    live_server: str,
    new_page: Callable[..., Any],
    photo_file: tuple[Path, photokit.TablePhoto],
    tmp_path: Path,
) -> None:
    """A phone stores a photo taken upright as sideways pixels with an EXIF orientation; the
    browser shows it turned, and the outlines must fall on the cards as shown."""
    from PIL import Image

    _, photo = photo_file
    with Image.open(BytesIO(photo.jpeg)) as upright:
        stored = upright.transpose(Image.Transpose.ROTATE_90)  # sideways, as the sensor saw it
        exif = Image.Exif()
        exif[0x0112] = 6  # "turn 90 degrees clockwise to show"
        path = tmp_path / "sideways.jpg"
        stored.save(path, "JPEG", quality=90, exif=exif)
    page = phone(new_page)
    page.goto(live_server)
    page.locator("[data-home-photo]").tap()  # the home page links the photo page
    page.wait_for_url("**/photo")
    choose(page, path)
    size = page.evaluate(
        "[document.querySelector('#photo-img').naturalWidth, "
        "document.querySelector('#photo-img').naturalHeight]"
    )
    assert size == [photo.width, photo.height]
    outlined(page, photo)


def test_a_photo_over_15_mb_is_made_lighter_before_it_is_sent(
    live_server: str,
    new_page: Callable[..., Any],
    photo_file: tuple[Path, photokit.TablePhoto],
    tmp_path: Path,
) -> None:
    """A phone's heavy photo is redrawn as a lighter JPEG in the page: the server, which
    refuses over 15 MB, gets a few hundred kilobytes and reads the same cards."""
    _, photo = photo_file
    heavy = photokit.padded(photo.jpeg, 16)
    assert len(heavy) > 16 * 1024 * 1024
    path = tmp_path / "heavy.jpg"
    path.write_bytes(heavy)
    page = phone(new_page)
    upload(page, live_server, path)
    sent = int(page.get_attribute("main", "data-sent") or "0")
    assert 0 < sent < 4 * 1024 * 1024, sent
    outlined(page, photo)


def test_on_a_phone_held_sideways_the_reading_comes_into_view_whole(
    live_server: str, new_page: Callable[..., Any], photo_file: tuple[Path, photokit.TablePhoto]
) -> None:
    """At 640x280 the photo's outlines start below the fold: after reading, the page brings
    them up, and the photo is never taller than the screen (all its cards at once)."""
    page: Page = new_page(is_mobile=True, has_touch=True, viewport={"width": 640, "height": 280})
    upload(page, live_server, photo_file[0])
    box = page.locator("#photo-img").bounding_box()
    assert box is not None
    assert box["y"] >= -1 and box["y"] + box["height"] <= 281, box
