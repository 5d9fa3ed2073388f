// The table socket (docs/protocol.md, "The WebSocket"): hello with the seat token and the last
// event seq held, ping/pong, and reconnecting by itself with exponential backoff and jitter.

/** @typedef {"connecting" | "open" | "reconnecting" | "closed"} ConnectionState */

/**
 * @typedef {object} SocketHandlers
 * @property {(message: any) => void} message a server message, parsed
 * @property {(state: ConnectionState, why: string) => void} connection the socket's state
 * @property {() => number | null} lastSeq the last event seq held (null: none)
 */

const FIRST_DELAY = 500;
const MAX_DELAY = 10000;
/** The server pings every 20 s; silence for this long means the socket is dead. */
const SILENCE = 70000;

/** Close codes after which reconnecting cannot help, and why, in words. */
const FINAL = /** @type {Record<number, string>} */ ({
  4401: "This browser's seat token is not valid at this table.",
  4403: "The server refused this page.",
  4404: "There is no such table.",
  4426: "The server speaks another protocol version: reload the page.",
  1003: "The server refused a message of this page.",
  1009: "The server refused a message of this page as too long.",
});

export class TableSocket {
  /**
   * @param {string} table the table id
   * @param {string | null} token the seat token (null: a spectator)
   * @param {SocketHandlers} handlers
   */
  constructor(table, token, handlers) {
    this.table = table;
    this.token = token;
    this.handlers = handlers;
    /** @type {WebSocket | null} */
    this.socket = null;
    this.attempt = 0;
    this.stopped = false;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.retryTimer = undefined;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.silenceTimer = undefined;
    this.pingId = 0;
    /** @type {string | null} a refusal's words before a final close */
    this.lastRefusal = null;
    /** the last close code (0: none yet) */
    this.closeCode = 0;
  }

  /** Open the socket (again). */
  connect() {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    this.handlers.connection(this.attempt ? "reconnecting" : "connecting",
      this.attempt ? "Reconnecting…" : "Connecting…");
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    let socket;
    try {
      socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(this.table)}`);
    } catch {
      this.retry();
      return;
    }
    this.socket = socket;
    socket.addEventListener("open", () => {
      if (socket !== this.socket) return;
      this.send({ type: "hello", protocol: 1, token: this.token, last_seq: this.handlers.lastSeq() });
      this.heard();
    });
    socket.addEventListener("message", (event) => {
      if (socket !== this.socket) return;
      this.heard();
      let message;
      try {
        message = JSON.parse(String(event.data));
      } catch {
        return;
      }
      if (!message || typeof message !== "object") return;
      if (message.type === "ping") {
        this.send({ type: "pong", id: message.id || 0 });
        return;
      }
      if (message.type === "welcome") {
        this.attempt = 0;
        this.handlers.connection("open", "Connected");
      }
      if (message.type === "error" && (message.reason === "bad_token"
          || message.reason === "not_found" || message.reason === "protocol")) {
        this.lastRefusal = String(message.message || "");
      }
      this.handlers.message(message);
    });
    socket.addEventListener("close", (event) => {
      if (socket !== this.socket) return;
      this.socket = null;
      clearTimeout(this.silenceTimer);
      const final = FINAL[event.code];
      this.closeCode = event.code;
      if (final || (this.lastRefusal && event.code >= 4000)) {
        this.stop(final || this.lastRefusal || "Closed.");
        return;
      }
      this.retry();
    });
  }

  /** Something was heard: the socket lives; silence from now on is counted again. */
  heard() {
    clearTimeout(this.silenceTimer);
    this.silenceTimer = setTimeout(() => {
      if (this.socket) this.socket.close();  // the close handler reconnects
    }, SILENCE);
  }

  /** Try again after a backoff: 0.5 s, 1 s, 2 s … 10 s, each with jitter. */
  retry() {
    if (this.stopped) return;
    const delay = Math.min(MAX_DELAY, FIRST_DELAY * 2 ** this.attempt);
    this.attempt += 1;
    this.handlers.connection("reconnecting", "Reconnecting…");
    this.retryTimer = setTimeout(() => this.connect(), delay * (0.5 + Math.random() / 2));
  }

  /** Reconnect now if the socket is down (the network came back, the tab woke up). */
  nudge() {
    if (!this.stopped && !this.socket) {
      this.attempt = Math.max(1, this.attempt);
      this.connect();
    }
  }

  /**
   * Stop for good and say why.
   * @param {string} why
   */
  stop(why) {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearTimeout(this.silenceTimer);
    if (this.socket) this.socket.close();
    this.socket = null;
    this.handlers.connection("closed", why);
  }

  /**
   * Send a message; false if the socket is not open.
   * @param {object} message
   */
  send(message) {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(message));
    return true;
  }

  /** Whether messages can be sent now. */
  get open() {
    return Boolean(this.socket && this.socket.readyState === WebSocket.OPEN);
  }
}
