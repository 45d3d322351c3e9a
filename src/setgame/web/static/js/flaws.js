// The variants' words the pages show beside the game: the chain rule and each variant's
// description (the words module's keys, src/setgame/words/flaw_words.py). A wrong call's flaws are
// not worded here: the server sends their verdict with the event (setgame.words.event_words).

import { t, tn } from "./common.js";

// "Use exactly N card(s) of the previous set", for the chain variants.
export function linkRule(links) {
  return tn("room.previous.use.one", "room.previous.use.other", links);
}

// A variant's one-sentence description (the words module's `variant.<name>.about`).
const key = (...parts) => parts.join(".");
export const variantAbout = (name) => t(key("variant", name.replaceAll("-", "_"), "about"));
