// The live table fits the screen (issue 21): every card, the buttons, the scores and the
// clock in view at once, on a phone upright or sideways as on a desktop. CSS sizes the cards
// from the board's width and from --fit-h, the height left for the table; this module
// measures that height: the viewport less what lies above the table and what must be seen
// under it. Neither depends on the table's own height, so measuring again after the table
// resized gives the same figure and nothing loops.

const SLACK = 8; // px: a selected card's ring and lift, and rounding

// `under`: elements under the table that must stay in view (the buttons); `stacked`: more
// of them when the side panel comes under the board (CSS sets --fit-stacked: phones upright).
export function fitTable(table, { under = [], stacked = [] } = {}) {
  if (!table) return;
  let queued = false;
  const measure = () => {
    queued = false;
    const box = table.getBoundingClientRect();
    const isStacked = getComputedStyle(table).getPropertyValue("--fit-stacked").trim() === "1";
    let below = 0;
    for (const node of isStacked ? [...under, ...stacked] : under) {
      if (!node || !node.getClientRects().length) continue; // hidden
      below = Math.max(below, node.getBoundingClientRect().bottom - box.bottom);
    }
    const used = Math.ceil(box.top + scrollY + below + SLACK);
    table.style.setProperty("--fit-h", `calc(100dvh - ${used}px)`);
  };
  const queue = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(measure);
  };
  const watch = new ResizeObserver(queue);
  for (const node of [document.body, table, ...under, ...stacked]) if (node) watch.observe(node);
  addEventListener("resize", queue);
  queue();
}
