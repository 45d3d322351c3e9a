// The thirteen variants of setgame.variants.VARIANTS, as the home form offers them
// (a browser test checks this list against the registry). A room's own variant comes
// with its view (`state.variant`); the page needs this list only to create rooms.
// Titles are proper names and stay as they are in every language.

import { N_ } from "./common.js";

// name, title, the table sizes a room may choose (the first is the variant's own),
// whether its deck is not the standard one (then the deck setting does not apply),
// and whether it deals by itself (no "no set" declarations: Puzzle, Memory).
export const VARIANTS = [
  { name: "classic", title: "Classic", desc: N_("variant.desc.classic") },
  { name: "junior", title: "Junior", sizes: [12, 9], deck: true, desc: N_("variant.desc.junior") },
  { name: "set-chain", title: "Set-Chain", desc: N_("variant.desc.set_chain") },
  { name: "ultraset", title: "UltraSet", desc: N_("variant.desc.ultraset") },
  { name: "ultraset-chain", title: "UltraSet-Chain", desc: N_("variant.desc.ultraset_chain") },
  { name: "ultra9", title: "Ultra9", desc: N_("variant.desc.ultra9") },
  { name: "megaset", title: "MegaSet", deck: true, desc: N_("variant.desc.megaset") },
  { name: "ghostset", title: "GhostSet", desc: N_("variant.desc.ghostset") },
  { name: "4set", title: "4Set", deck: true, desc: N_("variant.desc.4set") },
  { name: "4set-junior", title: "4Set Junior", deck: true, desc: N_("variant.desc.4set_junior") },
  { name: "puzzle", title: "Puzzle", auto: true, desc: N_("variant.desc.puzzle") },
  { name: "shuffle", title: "Shuffle", desc: N_("variant.desc.shuffle") },
  { name: "memory", title: "Memory", auto: true, desc: N_("variant.desc.memory") },
];

export const findVariant = (name) => VARIANTS.find((v) => v.name === name) || VARIANTS[0];
