// Cards moving (Web Animations API): a card from the hand or the seat that played it to its
// place in the trick, and a finished trick to its winner.  Durations come from motionMs() (the
// player's speed; 0 when off or under prefers-reduced-motion: then nothing moves).

import { motionMs } from "./prefs.js";

/**
 * Where an element is on the screen now (null if it is not shown).
 * @param {Element | null | undefined} node
 * @returns {DOMRect | null}
 */
export function rectOf(node) {
  if (!node) return null;
  const rect = node.getBoundingClientRect();
  return rect.width || rect.height ? rect : null;
}

/**
 * @param {DOMRect} a
 * @returns {{x: number, y: number}}
 */
function centre(a) {
  return { x: a.left + a.width / 2, y: a.top + a.height / 2 };
}

/**
 * Move `node` from where `from` is to where it stands now.
 * @param {HTMLElement} node
 * @param {DOMRect | null} from
 */
export function flyIn(node, from) {
  const ms = motionMs();
  const to = rectOf(node);
  if (!ms || !from || !to || typeof node.animate !== "function") return;
  const a = centre(from);
  const b = centre(to);
  // by height: a card from the hand starts as big as it was there, one from a seat's (wide,
  // short) name tag about as big as it will be
  const scale = from.height && to.height ? Math.min(2, Math.max(0.4, from.height / to.height)) : 1;
  const timing = { duration: ms * 1.4, easing: "cubic-bezier(.2,.7,.3,1)" };
  node.animate([
    { transform: `translate(${a.x - b.x}px, ${a.y - b.y}px) scale(${scale})` },
    { transform: "translate(0, 0) scale(1)" },
  ], { ...timing, composite: "add" });
  node.animate([{ opacity: 0.6 }, { opacity: 1 }], timing);
}

/**
 * Sweep the cards of a finished trick to its winner's seat after a short look, and fade them.
 * @param {HTMLElement[]} nodes
 * @param {DOMRect | null} to the winner's seat
 * @param {number} hold milliseconds the trick stays before it moves
 * @param {number} [duration] milliseconds the move takes (default: by the player's speed)
 */
export function gather(nodes, to, hold, duration) {
  const ms = motionMs();
  if (!ms || !to) return;
  const b = centre(to);
  for (const node of nodes) {
    const from = rectOf(node);
    if (!from || typeof node.animate !== "function") continue;
    const a = centre(from);
    const timing = { duration: duration || ms * 1.4, delay: hold, easing: "ease-in", fill: /** @type {const} */ ("forwards") };
    // the move is added to the card's own transform; the fade replaces its opacity (added, a
    // fade to 0 would leave it as it was: the trick stayed, small, on the winner's tag)
    node.animate([
      { transform: "translate(0, 0) scale(1)" },
      { transform: `translate(${b.x - a.x}px, ${b.y - a.y}px) scale(0.5)` },
    ], { ...timing, composite: "add" });
    node.animate([{ opacity: 1 }, { opacity: 0 }], timing);
  }
}
