// The terminal game's keys (src/pitchcards/tui/app.py BINDINGS): in the auction 1-4, p and m
// choose a bid and ←/→ a card to pitch; in play ←/→ and 1-6 choose a card; Enter (or Space)
// does what was chosen, Esc clears it; t shows the last trick, g the score sheet, f the pace (how
// long a finished trick stays: the terminal game's f), v the card motion, ? the keys.  In the ten-point discard step ←/→ move
// the focus over the cards and Enter or Space chooses the focused one (table.js).

/**
 * @typedef {object} KeyHandlers
 * @property {(step: number) => void} move ←/→
 * @property {(n: number) => void} digit 1-9
 * @property {(bid: "pass" | "bid moon") => void} bid p, m
 * @property {() => void} confirm Enter, Space
 * @property {() => void} clear Esc
 * @property {() => void} lastTrick t
 * @property {() => void} scoreSheet g
 * @property {() => void} pace f
 * @property {() => void} motion v
 * @property {() => void} help ?
 */

/** The keys, as the page lists them. */
export const KEY_HELP = [
  ["← →", "choose a card"],
  ["1-6", "choose a card (in the auction: 1-4 a bid)"],
  ["p / m", "pass / moon"],
  ["Enter", "play or bid what is chosen (discarding: choose the card or put it back)"],
  ["Esc", "clear the choice"],
  ["t", "last trick"],
  ["g", "score sheet"],
  ["f", "pace: a finished trick stays 0.6 s, 1.5 s, 3 s or until you tap"],
  ["v", "card motion: fast, normal, slow, off"],
  ["?", "these keys"],
];

/**
 * Whether a key press belongs to something else: typing, a form control, a modifier.
 * @param {KeyboardEvent} event
 */
function notOurs(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return true;
  const target = event.target;
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return true;
  // inside an open dialog the dialog's own buttons take Enter and Space
  return Boolean(target.closest("dialog[open]"));
}

/**
 * Listen for the game's keys on the document.
 * @param {KeyHandlers} on
 */
export function installKeys(on) {
  document.addEventListener("keydown", (event) => {
    if (notOurs(event)) return;
    const key = event.key;
    const target = event.target;
    const onButton = target instanceof HTMLElement && (target.tagName === "BUTTON" || target.tagName === "A"
      || target.tagName === "SUMMARY");
    let handled = true;
    if (key === "ArrowLeft") on.move(-1);
    else if (key === "ArrowRight") on.move(1);
    else if (/^[1-9]$/.test(key)) on.digit(Number(key));
    else if (key === "p" || key === "P") on.bid("pass");
    else if (key === "m" || key === "M") on.bid("bid moon");
    else if ((key === "Enter" || key === " ") && !onButton) on.confirm();
    else if (key === "Escape") on.clear();
    else if (key === "t" || key === "T") on.lastTrick();
    else if (key === "g" || key === "G") on.scoreSheet();
    else if (key === "f" || key === "F") on.pace();
    else if (key === "v" || key === "V") on.motion();
    else if (key === "?") on.help();
    else handled = false;
    if (handled) event.preventDefault();
  });
}
