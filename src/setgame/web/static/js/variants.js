// The thirteen variants of setgame.rules.variants.VARIANTS, as the home form offers them
// (a browser test checks this list against the registry). A room's own variant comes
// with its view (`state.variant`); the page needs this list only to create rooms.
// Titles are proper names and stay as they are in every language.

// name, title, the table sizes a room may choose (the first is the variant's own),
// whether its deck is not the standard one (then the deck setting does not apply),
// and whether it deals by itself (no "no set" declarations: Puzzle, Memory). The
// descriptions are the catalog's `variant.<name>.about` (flaws.js, variantAbout).
export const VARIANTS = [
  { name: "classic", title: "Classic" },
  { name: "junior", title: "Junior", sizes: [12, 9], deck: true },
  { name: "set-chain", title: "Set-Chain" },
  { name: "ultraset", title: "UltraSet" },
  { name: "ultraset-chain", title: "UltraSet-Chain" },
  { name: "ultra9", title: "Ultra9" },
  { name: "megaset", title: "MegaSet", deck: true },
  { name: "ghostset", title: "GhostSet" },
  { name: "4set", title: "4Set", deck: true },
  { name: "4set-junior", title: "4Set Junior", deck: true },
  { name: "puzzle", title: "Puzzle", auto: true },
  { name: "shuffle", title: "Shuffle" },
  { name: "memory", title: "Memory", auto: true },
];

export const findVariant = (name) => VARIANTS.find((v) => v.name === name) || VARIANTS[0];
