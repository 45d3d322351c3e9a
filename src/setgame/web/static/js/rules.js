// The rules page: the fragment is served in the page language; this module
// only sets up the header (language, theme) and draws the example cards that
// the fragment marks with data-example="<code> ...".

import { init } from "./common.js";
import { renderTable } from "./table.js";

await init({ cards: true });
for (const box of document.querySelectorAll("[data-example]")) {
  const codes = box.dataset.example.split(/\s+/).filter(Boolean);
  box.classList.add("table", "example");
  renderTable(box, codes, { attr: "data-code", keys: false });
}
