// Room chat (docs/protocol.md "Chat"): the lines people say, and a line for every set found
// and every wrong call, beside the table. Text is only ever set with textContent (el's
// "text"): whatever people type is shown as typed, never read as HTML.
// Muting is this browser's own: a muted sender's lines are hidden, remembered per room.

import { banText, el, N_, oneAtATime, t } from "./common.js";

export const MAX_CHARS = 200; // the server's bound (chat.py MAX_CHARS)
const KEEP = 200; // lines kept in the list
const muteKey = (room) => `setgame.mute.${room}`;

// The server's refusals of a chat message (chat.py), in the page language.
const ERRORS = {
  chat_too_long: N_("chat.err.too_long"),
  chat_empty: N_("chat.err.empty"),
  chat_bad_text: N_("chat.err.bad_text"),
  chat_too_fast: N_("chat.err.too_fast"),
  chat_players_only: N_("chat.players_only"),
  chat_full: N_("chat.err.full"),
  chat_share: N_("chat.err.share"),
  chat_newcomer: N_("chat.err.newcomer"),
  chat_not_stored: N_("chat.err.not_stored"),
};

// Who said a line, as the page shows it: the seat's name, or "Spectator" and its label.
export function senderName(line) {
  return line.name ?? `${t("chat.spectator")} ${String(line.from || "").slice(1)}`;
}

// One chat line as a list item; `onMute`, `onReport` and a moderator's `onDelete` (each
// optional) add their buttons.
export function chatItem(line, onMute = null, onReport = null, onDelete = null) {
  const who = senderName(line);
  const item = el(
    "li",
    { "data-chat-message": "", "data-from": who, "data-sender": line.from, "data-line": `${line.game}:${line.seq}` },
    el("b", { class: "from", text: who }),
    " ",
    el("span", { class: "text", text: line.text }),
  );
  if (onMute) {
    const label = t("chat.mute", { name: who });
    item.append(
      " ",
      el("button", {
        type: "button",
        class: "mute icon",
        "data-chat-mute": line.from,
        "aria-label": label,
        title: label,
        text: "🔇",
        onclick: () => onMute(line.from, who),
      }),
    );
  }
  if (onReport) {
    const label = t("chat.report", { name: who });
    item.append(
      " ",
      el("button", {
        type: "button",
        class: "mute icon",
        "data-chat-report": line.seq,
        "aria-label": label,
        title: label,
        text: "⚑",
        onclick: () => onReport(line, who),
      }),
    );
  }
  if (onDelete) {
    const label = t("chat.delete", { name: who });
    item.append(
      " ",
      el("button", {
        type: "button",
        class: "mute icon",
        "data-chat-delete": line.seq,
        "aria-label": label,
        title: label,
        text: "✕",
        onclick: () => onDelete(line),
      }),
    );
  }
  return item;
}

export class Chat {
  // root: the chat <section>; send(text) -> bool (sent); you(): this page's sender id;
  // moderator: the signed-in account may delete lines (GET /api/account says so).
  constructor(root, room, { send, you, moderator = false }) {
    this.root = root;
    this.room = room;
    this.send = send;
    this.you = you;
    this.moderator = moderator;
    this.list = root.querySelector("[data-chat-lines]");
    this.input = root.querySelector("[data-chat-input]");
    this.button = root.querySelector("[data-chat-send]");
    this.note = root.querySelector("[data-chat-note]");
    this.mutedList = root.querySelector("[data-chat-muted]");
    this.seen = new Set(); // game:seq of the lines shown
    this.muted = this.loadMuted();
    this.input.maxLength = MAX_CHARS;
    root.querySelector("form").addEventListener("submit", (e) => {
      e.preventDefault();
      this.submit();
    });
    this.renderMuted();
    this.playersOnly = false;
    this.loadSettings();
    this.dialog = root.querySelector("[data-report-dialog]");
    const reportOnce = oneAtATime(() => this.sendReport()); // a double click sends it once
    this.dialog.querySelector("form").addEventListener("submit", (e) => {
      e.preventDefault();
      reportOnce();
    });
    this.dialog.querySelector("[data-report-cancel]").addEventListener("click", () => this.dialog.close());
  }

  // Report a line to the moderators (POST /api/reports): asks why in a dialog.
  report(line, who) {
    this.reported = line;
    this.dialog.querySelector("[data-report-what]").textContent = t("report.what", { name: who, text: line.text });
    this.dialog.querySelector("[data-report-reason]").value = "";
    this.dialog.showModal();
  }

  async sendReport() {
    const line = this.reported;
    const reason = this.dialog.querySelector("[data-report-reason]").value.trim();
    if (!line || !reason) return;
    const body = { room: this.room, game: line.game, line: line.seq, reason };
    const response = await fetch("/api/reports", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }).catch(() => null);
    const answer = response ? await response.json().catch(() => ({})) : {};
    this.dialog.close();
    if (response?.ok) this.say(t("report.done"));
    else this.say(answer.code === "rate_limited" ? t("report.too_many") : answer.message || t("chat.offline"));
  }

  // The room setting `chat` (players-only rooms close the input to spectators).
  async loadSettings() {
    try {
      const res = await fetch(`/api/rooms/${encodeURIComponent(this.room)}`);
      if (res.ok) this.playersOnly = (await res.json()).settings?.chat === "players";
    } catch {
      /* the server refuses a spectator's line anyway */
    }
    this.refresh();
  }

  refresh() {
    this.allow(!this.playersOnly || this.you() !== null);
  }

  loadMuted() {
    try {
      return new Map(JSON.parse(localStorage.getItem(muteKey(this.room)) || "[]"));
    } catch {
      return new Map();
    }
  }

  saveMuted() {
    try {
      localStorage.setItem(muteKey(this.room), JSON.stringify([...this.muted]));
    } catch {
      /* storage disabled: the mute lasts as long as the page */
    }
  }

  submit() {
    const text = this.input.value.trim();
    if (!text) return;
    if (this.send(text)) {
      this.sent = text;
      this.input.value = "";
      this.say("");
    } else {
      this.say(t("chat.offline"));
    }
  }

  say(text) {
    this.note.textContent = text;
  }

  // A refused message: say why under the input (the text stays there to be fixed).
  refused(msg) {
    this.say(banText(msg) ?? (ERRORS[msg.code] ? t(ERRORS[msg.code]) : msg.message));
    if (!this.input.value && this.sent) this.input.value = this.sent;
    if (msg.code === "chat_players_only") {
      this.playersOnly = true;
      this.refresh();
    }
  }

  // The server's chat lines (one when said, the latest after a reconnection).
  lines(messages) {
    for (const line of messages || []) {
      const key = `${line.game}:${line.seq}`;
      if (this.seen.has(key)) continue;
      this.seen.add(key);
      const mine = line.from === this.you();
      const remove = this.moderator ? (said) => this.delete(said) : null;
      const item = mine
        ? chatItem(line, null, null, remove)
        : chatItem(
            line,
            (from, who) => this.mute(from, who),
            (said, who) => this.report(said, who),
            remove,
          );
      item.hidden = this.muted.has(line.from);
      this.add(item);
    }
  }

  // A moderator deletes a line (DELETE /api/rooms/<room>/chat/<seq>): it leaves every page
  // with the server's chat_deleted, this one too; a refusal is said under the input.
  async delete(line) {
    const path = `/api/rooms/${encodeURIComponent(this.room)}/chat/${line.seq}?game=${encodeURIComponent(line.game ?? "")}`;
    const response = await fetch(path, { method: "DELETE" }).catch(() => null);
    if (response?.ok) return this.say(t("mod.done.delete"));
    const answer = response ? await response.json().catch(() => ({})) : {};
    this.say(answer.message || t("chat.offline"));
  }

  // A line a moderator deleted (the server's chat_deleted): it leaves this page too.
  remove(game, seq) {
    this.list.querySelector(`[data-line="${CSS.escape(`${game}:${seq}`)}"]`)?.remove();
  }

  add(item) {
    const stick = this.list.scrollTop + this.list.clientHeight >= this.list.scrollHeight - 4;
    this.list.append(item);
    while (this.list.children.length > KEEP) this.list.firstChild.remove();
    if (stick) this.list.scrollTop = this.list.scrollHeight;
  }

  mute(from, who) {
    this.muted.set(from, who);
    this.saveMuted();
    this.apply();
  }

  unmute(from) {
    this.muted.delete(from);
    this.saveMuted();
    this.apply();
  }

  apply() {
    for (const item of this.list.querySelectorAll("[data-chat-message]")) {
      item.hidden = this.muted.has(item.dataset.sender);
    }
    this.renderMuted();
  }

  renderMuted() {
    const entries = [...this.muted];
    this.mutedList.hidden = entries.length === 0;
    this.mutedList.replaceChildren(
      el("span", { text: t("chat.muted") }),
      ...entries.map(([from, who]) =>
        el("button", {
          type: "button",
          class: "quiet",
          "data-chat-unmute": from,
          "aria-label": t("chat.unmute", { name: who }),
          text: who,
          onclick: () => this.unmute(from),
        }),
      ),
    );
  }

  // Whether this page may speak: a players-only room closes it to spectators.
  allow(open) {
    this.input.disabled = !open;
    this.button.disabled = !open;
    this.input.placeholder = open ? t("chat.placeholder") : t("chat.players_only");
  }
}
