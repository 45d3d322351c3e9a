// Motion (issue 21): cards are dealt, slide to their new place and are taken with short
// animations (Web Animations API), never under `prefers-reduced-motion: reduce`.
// Nothing here delays input or moves the layout: a card still arriving is already in its
// place in the DOM and takes clicks; only its picture moves (transform, opacity), and a
// taken card's picture leaves as a copy laid over the page (fixed, inert, aria-hidden).

const MS = 200; // each motion: short enough never to hold up the eye
const STAGGER = 12; // ms between the cards of one deal
const MAX_DELAY = 120; // a whole table of 21 still lands within a third of a second
const still = matchMedia("(prefers-reduced-motion: reduce)");

// Whether the page may move at all (read at each change: the setting can change live).
export const moving = () => !still.matches;

// A card comes to the table: from a little above, fading in; the `nth` of a deal a
// little later than the one before.
export function deal(node, nth = 0) {
  if (!moving()) return;
  node.animate(
    [
      { opacity: 0, transform: "translateY(-0.75rem) scale(0.92)" },
      { opacity: 1, transform: "none" },
    ],
    { duration: MS, delay: Math.min(nth * STAGGER, MAX_DELAY), easing: "ease-out", fill: "backwards" },
  );
}

// A card that stays but changes place (the table closing up or growing a column): from
// where it was drawn (`from`, a DOMRect taken before the change) to where it lies now.
export function slide(node, from) {
  if (!moving() || !from?.width || !from.height) return; // it was not drawn (hidden): no path
  const to = node.getBoundingClientRect();
  if (!to.width || !to.height) return;
  const dx = from.left - to.left;
  const dy = from.top - to.top;
  const sx = from.width / to.width;
  const sy = from.height / to.height;
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1 && Math.abs(sx - 1) < 0.01 && Math.abs(sy - 1) < 0.01) return;
  node.animate(
    [{ transformOrigin: "0 0", transform: `translate(${dx}px, ${dy}px) scale(${sx}, ${sy})` }, { transformOrigin: "0 0", transform: "none" }],
    { duration: MS, easing: "ease-out" },
  );
}

// A card taken (or otherwise gone): its picture, at `rect`, rises and fades over whatever
// takes its place, then goes. `node` is the card element just removed from the table.
export function take(node, rect) {
  if (!moving() || !rect?.width) return;
  const ghost = document.createElement("div");
  ghost.className = "card ghost";
  ghost.setAttribute("aria-hidden", "true");
  ghost.inert = true;
  const face = node.querySelector("svg");
  if (face) ghost.append(face);
  Object.assign(ghost.style, {
    left: `${rect.left}px`,
    top: `${rect.top}px`,
    width: `${rect.width}px`,
    height: `${rect.height}px`,
  });
  document.body.append(ghost);
  const leave = ghost.animate(
    [
      { opacity: 1, transform: "none" },
      { opacity: 0, transform: "translateY(-0.75rem) scale(1.06)" },
    ],
    { duration: MS, easing: "ease-in", fill: "forwards" },
  );
  leave.finished.then(() => ghost.remove(), () => ghost.remove());
}

// The places of a table's cards now (before a change), by element.
export function places(box) {
  if (!moving()) return new Map();
  return new Map([...box.children].map((node) => [node, node.getBoundingClientRect()]));
}
