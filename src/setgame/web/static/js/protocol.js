// The browser's side of docs/protocol.md: one WebSocket per room, a seat token
// kept in localStorage per room, and reconnection that resumes from the last
// version seen.

const tokenKey = (room) => `setgame.token.${room}`;

// Close codes after which connecting again cannot help (docs/protocol.md, "Close codes"):
// the page says why (its status) and stops, instead of knocking again and again.
export const FINAL = {
  1003: "refused", // this page kept sending what the server cannot read
  1009: "refused", // ...or a message too big
  4001: "bad_origin", // the page and the server disagree on the site (a proxy's Host)
  4004: "gone", // no such room, or a moderator closed it
  // Another tab or device of this seat took it (past the server's seat_sockets). Knocking
  // again would take it back and close that one, which would knock again, and so on: the
  // page stops until its player asks to play there again (resume).
  4009: "elsewhere",
};

export class Connection {
  constructor(room, handlers) {
    this.room = room;
    this.handlers = handlers; // {welcome, joined, update, hint, error, status}
    this.version = null;
    this.ws = null;
    this.retry = 0;
    this.closed = false;
    this.pinger = null;
  }

  get token() {
    try {
      return localStorage.getItem(tokenKey(this.room));
    } catch {
      return null;
    }
  }

  set token(value) {
    try {
      if (value) localStorage.setItem(tokenKey(this.room), value);
      else localStorage.removeItem(tokenKey(this.room));
    } catch {
      /* storage disabled: the seat lasts as long as the page */
    }
  }

  // After a reload: resume from the version the page saw before (the missed events come back).
  resumeFrom(version) {
    if (this.version === null && Number.isInteger(version)) this.version = version;
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(this.room)}`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      this.raw({ type: "hello", token: this.token, since: this.version });
      this.handlers.status?.("open");
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.raw({ type: "ping" }), 20000);
    };
    ws.onmessage = (e) => this.receive(e.data);
    ws.onclose = (e) => this.closedBy(e, ws);
  }

  receive(data) {
    let msg;
    try {
      msg = JSON.parse(data);
    } catch {
      return;
    }
    if (typeof msg.version === "number") this.version = msg.version;
    if (msg.type === "joined" && msg.token) this.token = msg.token;
    this.handlers[msg.type]?.(msg);
  }

  closedBy(event, ws) {
    if (ws !== this.ws) return;
    clearInterval(this.pinger);
    if (this.closed) return;
    const final = FINAL[event.code];
    if (final) {
      this.closed = true;
      this.handlers.status?.(final, event);
      return;
    }
    // 1011 storage_unavailable: the server's database is down; it says so, and we retry.
    this.handlers.status?.(event.reason === "storage_unavailable" ? "storage" : "reconnecting", event);
    const delay = Math.min(5000, 250 * 2 ** this.retry++);
    setTimeout(() => this.connect(), delay);
  }

  raw(msg) {
    if (this.ws?.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  // Actions that depend on what the player saw carry the version they saw.
  send(type, fields = {}) {
    const versioned = type === "call" || type === "pick";
    return this.raw({ type, ...fields, ...(versioned ? { version: this.version } : {}) });
  }

  // Connect again after a final close, because the player asked to (a 4009's "Play here").
  resume() {
    this.closed = false;
    this.retry = 0;
    this.connect();
  }

  close() {
    this.closed = true;
    clearInterval(this.pinger);
    this.ws?.close(1000);
  }
}
