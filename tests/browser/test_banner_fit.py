"""Every error and notice the room page puts on its banner fits the banner's two lines on a
phone (390x664, an iPhone 13), in each of the five languages: the banner keeps its height
whatever it says (the table under it must not move), so a text too long gets a smaller font
and past that is cut (``room.js``, ``setBanner``), and a cut refusal says half of why.

The texts are those the page names: the refusals (``ERRORS``, with the name refusals of
``common.js``), the connection's final states (``STATUSES``) and the texts ``room.js`` asks
for by key; a placeholder is filled with a long name ("Alexandra-Maria") or "12,5 s". Ban
and mute texts (a reason and an end, 15 s on the banner) are kept whole in the log."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from browser.browserkit import create_room
from setgame.words import catalog

pytestmark = pytest.mark.browser

JS = Path(catalog.__file__).parents[1] / "web" / "static" / "js"
LANGS = ("en", "ru", "pl", "it", "de")
PHONE = {"width": 390, "height": 664}
LONG_NAME = "Alexandra-Maria"
KEY = re.compile(r"""(?:N_|t)\("((?:err|conn)\.[a-z_.]+)"\)""")


def banner_keys() -> list[str]:
    """The banner's keys: every ``err.*`` and ``conn.*`` key of ``room.js``, and the name
    refusals it spreads into its ``ERRORS`` from ``common.js``."""
    room = (JS / "room.js").read_text(encoding="utf-8")
    common = (JS / "common.js").read_text(encoding="utf-8")
    block = common[common.index("export const NAME_REFUSALS") :]
    block = block[: block.index("};")]
    return sorted(set(KEY.findall(room)) | set(KEY.findall(block)))


def filled(text: str) -> str:
    """The text with its placeholders as long as they come."""
    return re.sub(r"\{(\w+)\}", lambda m: "12,5 s" if m[1] == "seconds" else LONG_NAME, text)


# As setBanner does: the text, its kind, a smaller font when two lines do not hold it; then
# whether it is cut (its lines higher than the banner's two).
SHOW = """([text]) => {
  const banner = document.querySelector("#banner");
  banner.textContent = text;
  banner.className = "banner error";
  if (banner.scrollHeight > banner.clientHeight + 1) banner.classList.add("long");
  return banner.scrollHeight > banner.clientHeight + 1;
}"""


def test_the_banner_keys_are_found() -> None:
    keys = banner_keys()
    for key in ("err.name_taken", "err.name_mixed", "conn.bad_origin", "conn.elsewhere"):
        assert key in keys


@pytest.mark.parametrize("lang", LANGS)
def test_every_banner_text_fits_two_lines_on_a_phone(
    live_server: str, new_page: Any, lang: str
) -> None:
    messages: dict[str, Any] = catalog.web_messages(lang)["messages"]  # type: ignore[assignment]
    page = new_page(viewport=PHONE)
    page.goto(f"{create_room(live_server, public=False)}?lang={lang}")
    page.wait_for_selector("#conn.open", state="attached")
    expect(page.locator("#banner")).to_be_visible()
    cut = []
    for key in banner_keys():
        text = filled(messages[key])
        if page.evaluate(SHOW, [text]):
            cut.append(f"{key}: {text!r}")
    assert cut == [], f"{lang}: cut on a 390 px phone:\n" + "\n".join(cut)
