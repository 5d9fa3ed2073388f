// Short sounds made with Web Audio (no files), played only when the player turned sound on
// (prefs().sound; off by default).  A browser lets a page make sound only after the player
// touched it: until then play() stays silent.

import { prefs } from "./prefs.js";

/** @typedef {"card" | "trick" | "turn" | "hand"} SoundName */

/**
 * Each sound as notes: [frequency Hz, start s, length s, wave, loudness 0-1].
 * @type {Record<SoundName, [number, number, number, OscillatorType, number][]>}
 */
const SOUNDS = {
  // a soft tap: a card put down
  card: [[320, 0, 0.05, "triangle", 0.7], [180, 0.005, 0.06, "sine", 0.5]],
  // two notes up: a trick gathered
  trick: [[523, 0, 0.09, "triangle", 0.6], [784, 0.08, 0.14, "triangle", 0.6]],
  // a light bell: your turn
  turn: [[880, 0, 0.25, "sine", 0.5], [1320, 0, 0.18, "sine", 0.15]],
  // a little rising chord: the hand is scored
  hand: [[523, 0, 0.3, "sine", 0.45], [659, 0.1, 0.3, "sine", 0.45],
    [784, 0.2, 0.45, "sine", 0.45]],
};

/** The loudest a sound gets (the master gain). */
const VOLUME = 0.12;

/** @type {AudioContext | null} */
let context = null;

/** @returns {AudioContext | null} */
function audio() {
  if (context) return context;
  const Context = window.AudioContext
    ?? /** @type {{webkitAudioContext?: typeof AudioContext}} */ (
      /** @type {unknown} */ (window)).webkitAudioContext;
  if (!Context) return null;
  try {
    context = new Context();
  } catch {
    return null;
  }
  return context;
}

/**
 * Play a short sound, if the player turned sound on.
 * @param {SoundName} name "card", "trick", "turn" or "hand"
 */
export function play(name) {
  const notes = SOUNDS[name];
  if (!notes || !prefs().sound) return;
  const ctx = audio();
  if (!ctx) return;
  if (ctx.state === "suspended") {
    ctx.resume().catch(() => {});
    // before the page was touched the context stays suspended: nothing to hear
    if (ctx.state === "suspended" && !navigator.userActivation?.hasBeenActive) return;
  }
  const master = ctx.createGain();
  master.gain.value = VOLUME;
  master.connect(ctx.destination);
  const now = ctx.currentTime + 0.01;
  for (const [freq, start, length, wave, loud] of notes) {
    const osc = ctx.createOscillator();
    osc.type = wave;
    osc.frequency.value = freq;
    const gain = ctx.createGain();
    const t0 = now + start;
    gain.gain.setValueAtTime(0.0001, t0);
    gain.gain.exponentialRampToValueAtTime(loud, t0 + 0.008);
    gain.gain.exponentialRampToValueAtTime(0.0001, t0 + length);
    osc.connect(gain).connect(master);
    osc.start(t0);
    osc.stop(t0 + length + 0.02);
  }
}
