// The player's settings, kept in this browser (localStorage "pitch.prefs"): theme, the
// four-colour deck, how fast cards move, how long a finished trick stays (the pace), sound,
// whether the chat is shown.  applyPrefs() puts them on <html> as data-*
// attributes for the CSS (base.css); onPrefs() tells the page when they change, here or in
// another tab.

/**
 * @typedef {"auto" | "light" | "dark"} Theme
 * @typedef {"off" | "slow" | "normal" | "fast"} Speed
 * @typedef {"fast" | "normal" | "slow" | "wait"} Pace
 * @typedef {{theme: Theme, fourColour: boolean, speed: Speed, sound: boolean, pace: Pace,
 *   chat: boolean}} Prefs
 */

const KEY = "pitch.prefs";

/** @type {Prefs} */
const DEFAULTS = { theme: "auto", fourColour: false, speed: "normal", sound: false, pace: "normal", chat: true };

/** @type {{[K in keyof Prefs]: readonly Prefs[K][]}} */
const ALLOWED = {
  theme: ["auto", "light", "dark"],
  fourColour: [true, false],
  speed: ["off", "slow", "normal", "fast"],
  sound: [true, false],
  pace: ["fast", "normal", "slow", "wait"],
  chat: [true, false],
};

/** Milliseconds a finished trick stays on the felt, by pace (the terminal game's paces,
 * tui/pace.py; "wait": until the player taps or presses a key).  docs/web.md says why
 * "normal" (1.5 s) is the default. */
export const PACE_MS = { fast: 600, normal: 1500, slow: 3000, wait: Infinity };

/** The paces in the order `f` goes through them, with their words (the settings' too).
 * @type {Array<[Pace, string]>} */
export const PACE_WORDS = [["fast", "0.6 s (fast)"], ["normal", "1.5 s (normal)"],
  ["slow", "3 s (slow)"], ["wait", "Until I tap"]];

/** Milliseconds a card takes to move, by speed. */
const MOTION_MS = { off: 0, slow: 450, normal: 250, fast: 120 };

/** @type {Set<(prefs: Prefs) => void>} */
const listeners = new Set();

/** Settings kept in memory when localStorage refuses them. @type {Prefs | null} */
let memory = null;

/**
 * The settings now (the defaults for anything not set or not valid).
 * @returns {Prefs}
 */
export function prefs() {
  if (memory) return { ...memory };
  /** @type {Record<string, unknown>} */
  let stored = {};
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || "{}");
    if (data && typeof data === "object") stored = data;
  } catch {
    // no storage (private mode) or a bad value: the defaults
  }
  /** @type {Prefs} */
  const out = { ...DEFAULTS };
  for (const name of /** @type {(keyof Prefs)[]} */ (Object.keys(DEFAULTS))) {
    const value = stored[name];
    if (/** @type {readonly unknown[]} */ (ALLOWED[name]).includes(value)) {
      /** @type {Record<string, unknown>} */ (out)[name] = value;
    }
  }
  return out;
}

/**
 * Change one setting, keep it, apply it and tell the listeners.
 * @template {keyof Prefs} K
 * @param {K} name
 * @param {Prefs[K]} value
 */
export function setPref(name, value) {
  if (!(name in DEFAULTS) || !(/** @type {readonly unknown[]} */ (ALLOWED[name])).includes(value)) {
    throw new RangeError(`no setting ${String(name)}=${String(value)}`);
  }
  const next = { ...current(), [name]: value };
  try {
    localStorage.setItem(KEY, JSON.stringify(next));
    memory = null;
  } catch {
    // storage full or refused: the change holds for this page only
    memory = next;
  }
  changed();
}

function current() {
  return prefs();
}

function changed() {
  applyPrefs();
  const now = current();
  for (const listener of listeners) listener(now);
}

/**
 * Be told when a setting changes (here, or in another tab of this site).
 * @param {(prefs: Prefs) => void} listener
 * @returns {() => void} stops telling this listener
 */
export function onPrefs(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

if (typeof window !== "undefined") {
  window.addEventListener("storage", (event) => {
    if (event.key === KEY) changed();
  });
  // The system's reduced-motion setting changes motionMs(): tell the listeners.
  window.matchMedia?.("(prefers-reduced-motion: reduce)").addEventListener?.("change", changed);
}

/** Whether the system asks for reduced motion. */
export function reducedMotion() {
  return Boolean(window.matchMedia?.("(prefers-reduced-motion: reduce)").matches);
}

/**
 * Milliseconds per card move: 0 when motion is off or the system asks for reduced motion.
 * @returns {number}
 */
export function motionMs() {
  if (reducedMotion()) return 0;
  return MOTION_MS[current().speed];
}

/** Put the settings on `<html>`: `data-theme`, `data-four-colour`, `data-motion`, `--motion-ms`. */
export function applyPrefs() {
  const root = document.documentElement;
  const now = current();
  root.dataset.theme = now.theme;
  if (now.fourColour) root.dataset.fourColour = "";
  else delete root.dataset.fourColour;
  root.dataset.motion = motionMs() ? now.speed : "off";
  root.style.setProperty("--motion-ms", `${motionMs()}ms`);
  if (now.chat) delete root.dataset.hideChat;
  else root.dataset.hideChat = "";
}

let panels = 0;

/**
 * A small labelled form to change the settings; it follows changes made elsewhere.
 * @param {{hideLegend?: boolean}} [opts] `hideLegend`: its "Settings" legend only for assistive
 *   technology (when a heading or summary around it already says so)
 * @returns {HTMLElement}
 */
export function settingsPanel(opts = {}) {
  const id = `prefs-${++panels}`;
  const form = document.createElement("form");
  form.className = "settings-panel";
  form.addEventListener("submit", (event) => event.preventDefault());
  const set = document.createElement("fieldset");
  const legend = document.createElement("legend");
  legend.textContent = "Settings";
  if (opts.hideLegend) legend.className = "visually-hidden";
  set.append(legend);

  /**
   * @param {string} name
   * @param {string} text
   * @param {[string, string][]} options
   */
  const select = (name, text, options) => {
    const row = document.createElement("div");
    row.className = "field";
    const lab = document.createElement("label");
    lab.htmlFor = `${id}-${name}`;
    lab.textContent = text;
    const sel = document.createElement("select");
    sel.id = `${id}-${name}`;
    sel.name = name;
    for (const [value, words] of options) {
      const opt = document.createElement("option");
      opt.value = value;
      opt.textContent = words;
      sel.append(opt);
    }
    row.append(lab, sel);
    set.append(row);
    return sel;
  };
  /**
   * @param {string} name
   * @param {string} text
   */
  const check = (name, text) => {
    const row = document.createElement("div");
    row.className = "field check";
    const box = document.createElement("input");
    box.type = "checkbox";
    box.id = `${id}-${name}`;
    box.name = name;
    const lab = document.createElement("label");
    lab.htmlFor = box.id;
    lab.textContent = text;
    row.append(box, lab);
    set.append(row);
    return box;
  };

  const theme = select("theme", "Theme", [["auto", "As the system"], ["light", "Light"],
    ["dark", "Dark"]]);
  const speed = select("speed", "Card motion", [["off", "Off"], ["slow", "Slow"],
    ["normal", "Normal"], ["fast", "Fast"]]);
  const note = document.createElement("p");
  note.className = "hint";
  note.id = `${id}-motion-note`;
  note.textContent = "Your system asks for reduced motion, so cards do not move.";
  speed.parentElement?.append(note);
  const pace = select("pace", "A finished trick stays", PACE_WORDS);
  const four = check("fourColour", "Four-colour deck (clubs green, diamonds blue)");
  const sound = check("sound", "Sounds");
  const chat = check("chat", "Show the chat");

  theme.addEventListener("change", () => setPref("theme", /** @type {Theme} */ (theme.value)));
  speed.addEventListener("change", () => setPref("speed", /** @type {Speed} */ (speed.value)));
  four.addEventListener("change", () => setPref("fourColour", four.checked));
  sound.addEventListener("change", () => setPref("sound", sound.checked));
  pace.addEventListener("change", () => setPref("pace", /** @type {Pace} */ (pace.value)));
  chat.addEventListener("change", () => setPref("chat", chat.checked));

  const show = () => {
    const now = current();
    theme.value = now.theme;
    speed.value = now.speed;
    four.checked = now.fourColour;
    sound.checked = now.sound;
    pace.value = now.pace;
    chat.checked = now.chat;
    note.hidden = !reducedMotion();
    if (reducedMotion()) speed.setAttribute("aria-describedby", note.id);
    else speed.removeAttribute("aria-describedby");
  };
  show();
  onPrefs(show);
  form.append(set);
  return form;
}
