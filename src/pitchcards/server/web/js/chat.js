// The chat (docs/web.md `#chat`): the log, quick reactions and a form to send a line (players
// only; the server keeps the limits: 300 characters, 20 a minute).  A quick reaction is an
// ordinary line of chat, so the same limits hold and it is shown as text like any other.

import { el } from "./words.js";

/**
 * @typedef {import("./state.js").TableState} TableState
 */

/** The quick reactions: a small fixed set, each sent as its words. */
export const PRESETS = ["Good game", "Well played!", "Nice bid", "Oops", "Thanks", "Hurry up, please"];

export class ChatBox {
  /**
   * @param {(text: string) => boolean} send sends a line; false if it could not be sent
   */
  constructor(send) {
    this.log = el("ol", { class: "chat-log", "aria-label": "Chat messages" });
    this.input = el("input", { type: "text", name: "text", maxlength: 300, autocomplete: "off",
      "aria-label": "Chat message", placeholder: "Say something…" });
    this.button = el("button", { type: "submit", class: "small" }, ["Send"]);
    this.form = el("form", { class: "chat-form" }, [this.input, this.button]);
    this.presets = PRESETS.map((text) => {
      const button = el("button", { type: "button", class: "small", "data-preset": text }, [text]);
      button.addEventListener("click", () => send(text));
      return button;
    });
    this.reactions = el("div", { class: "chat-presets", role: "group", "aria-label": "Quick reactions" },
      this.presets);
    this.root = el("section", { id: "chat", "aria-labelledby": "chat-title" }, [
      el("h2", { id: "chat-title", text: "Chat" }), this.log, this.reactions, this.form]);
    this.shown = 0;
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = this.input.value.trim();
      if (text && send(text)) this.input.value = "";
    });
  }

  /** @param {TableState} state */
  render(state) {
    const player = Boolean(state.you && state.you.role === "player");
    this.input.disabled = !player;
    this.button.disabled = !player;
    for (const button of this.presets) button.disabled = !player;
    this.reactions.hidden = !player;
    this.input.placeholder = player ? "Say something…" : "Spectators watch: only players chat";
    const fresh = Math.min(state.chat.length, state.chatTotal - this.shown);
    const atEnd = this.log.scrollTop + this.log.clientHeight >= this.log.scrollHeight - 8;
    for (const line of fresh > 0 ? state.chat.slice(-fresh) : []) {
      const when = new Date(line.at * 1000);
      const time = Number.isNaN(when.getTime()) ? "" : when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
      this.log.append(el("li", {}, [
        el("span", { class: "chat-name", text: line.name }), ": ",
        el("span", { class: "chat-text", text: line.text }),
        time ? el("time", { class: "chat-time", datetime: when.toISOString(), text: time }) : null,
      ]));
    }
    while (this.log.children.length > 200) this.log.firstElementChild?.remove();
    this.shown = state.chatTotal;
    if (atEnd) this.log.scrollTop = this.log.scrollHeight;
  }
}
