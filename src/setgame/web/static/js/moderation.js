// The moderators' page (/moderation, docs/protocol.md "Moderation"): the queue of players'
// reports, banning and muting, closing a room, the recent bans and the log of every
// moderator action. The server refuses anyone without a role (403): the page says so.
// Whatever players wrote (names, lines, reasons) is only ever set as text.

import { init, t, el, N_, dateTime } from "./common.js";

const ERRORS = {
  not_moderator: N_("mod.err.not_moderator"),
  no_account: N_("mod.err.no_account"),
  bad_address: N_("mod.err.bad_address"),
  not_banned: N_("mod.err.not_banned"),
  not_admin: N_("mod.err.not_admin"),
  no_line: N_("mod.err.no_line"),
  no_room: N_("mod.err.no_room"),
  room_closed: N_("mod.err.closed"),
  bad_reason: N_("mod.err.bad_reason"),
};
const GUEST = N_("mod.report.guest");
const LOG_ROWS = { plain: N_("mod.log.row"), why: N_("mod.log.row.why") };
const KINDS = { ban: N_("mod.kind.ban"), mute: N_("mod.kind.mute") };
const ACTIONS = {
  ban: N_("mod.action.ban"),
  mute: N_("mod.action.mute"),
  unban: N_("mod.action.unban"),
  unmute: N_("mod.action.unmute"),
  delete_line: N_("mod.action.delete_line"),
  close_room: N_("mod.action.close_room"),
  close_report: N_("mod.action.close_report"),
  grant: N_("mod.action.grant"),
  revoke: N_("mod.action.revoke"),
};
// An address or a network (IPv4 or IPv6, with or without /prefix), else a name.
const ADDRESS = /^(\d{1,3}\.){3}\d{1,3}(\/\d{1,3})?$|^[0-9a-f]{0,4}(:[0-9a-f]{0,4}){2,7}(\/\d{1,3})?$/i;

const $ = (selector) => document.querySelector(selector);
const message = (text) => {
  $("[data-mod-message]").textContent = text;
};
const errorOf = (answer, status) =>
  ERRORS[answer.code] ? t(ERRORS[answer.code]) : answer.message || String(status);

// One request of the moderators' API: the answer's JSON, or null (the message says why).
async function ask(method, path, body) {
  const options = { method, headers: { "content-type": "application/json" } };
  if (body !== undefined) options.body = JSON.stringify(body);
  const response = await fetch(path, options).catch(() => null);
  const answer = response ? await response.json().catch(() => ({})) : {};
  if (!response?.ok) {
    message(errorOf(answer, response?.status ?? 0));
    return null;
  }
  return answer;
}

function target(who) {
  return ADDRESS.test(who) ? { address: who } : { name: who };
}

function button(text, onclick, data = {}) {
  return el("button", { type: "button", text, onclick, ...data });
}

function reportItem(report) {
  const said = report.line
    ? t("mod.report.line", { room: report.room, line: report.line, name: report.name ?? "", text: report.text ?? "" })
    : t("mod.report.player", { room: report.room, name: report.name ?? "" });
  const why = t("mod.report.reason", {
    reason: report.reason,
    reporter: report.reporter ?? t(GUEST),
    when: dateTime(report.created),
  });
  const item = el("li", { "data-mod-report": report.id }, el("p", { text: said }), el("p", { text: why }));
  const actions = el("p", { class: "actions" });
  if (report.line) {
    actions.append(
      button(t("mod.report.delete"), () => deleteLine(report), { "data-mod-delete": report.line }),
      " ",
    );
  }
  if (report.name) {
    actions.append(button(t("mod.report.ban", { name: report.name }), () => prepareBan(report.name)), " ");
  }
  actions.append(button(t("mod.report.dismiss"), () => dismiss(report), { "data-mod-dismiss": report.id }));
  item.append(actions);
  return item;
}

function banItem(ban) {
  const who = ban.name ?? ban.address ?? "";
  const text = t("mod.bans.row", {
    who,
    kind: t(KINDS[ban.kind] ?? ban.kind),
    until: dateTime(ban.until),
    reason: ban.reason,
    moderator: ban.moderator,
  });
  const item = el("li", { "data-mod-ban": who, "data-active": ban.active ? "1" : "0" }, text, " — ");
  item.append(ban.active ? button(t("mod.unban.do"), () => lift(who, ban.kind)) : t("mod.bans.over"));
  return item;
}

function logItem(row) {
  const text = t(row.reason ? LOG_ROWS.why : LOG_ROWS.plain, {
    when: dateTime(row.at),
    moderator: row.moderator,
    action: t(ACTIONS[row.action] ?? row.action),
    target: row.target,
    reason: row.reason,
  });
  return el("li", { "data-mod-logged": row.action, text });
}

function fill(list, none, rows, item) {
  $(list).replaceChildren(...rows.map(item));
  $(`[data-mod-none=${none}]`).hidden = rows.length > 0;
}

// Everything the page shows, asked again after every action.
async function refresh() {
  const status = $("[data-mod-status]");
  const reports = await fetch("/api/moderation/reports").catch(() => null);
  if (!reports?.ok) {
    const answer = reports ? await reports.json().catch(() => ({})) : {};
    status.textContent = errorOf(answer, reports?.status ?? 0);
    $("[data-mod-panel]").hidden = true;
    return;
  }
  status.textContent = "";
  $("[data-mod-panel]").hidden = false;
  fill("[data-mod-reports]", "reports", (await reports.json()).reports, reportItem);
  const bans = await ask("GET", "/api/moderation/bans");
  if (bans) fill("[data-mod-bans]", "bans", bans.bans, banItem);
  const log = await ask("GET", "/api/moderation/log");
  if (log) fill("[data-mod-log]", "log", log.log, logItem);
}

async function deleteLine(report) {
  const path = `/api/rooms/${encodeURIComponent(report.room)}/chat/${report.line}?game=${encodeURIComponent(report.game ?? "")}`;
  if (await ask("DELETE", path)) message(t("mod.done.delete"));
  await refresh();
}

async function dismiss(report) {
  if (await ask("POST", `/api/moderation/reports/${report.id}/close`)) message(t("mod.done.dismiss"));
  await refresh();
}

async function lift(who, kind) {
  if (await ask("POST", "/api/moderation/unban", { ...target(who), kind })) message(t("mod.done.unban", { who }));
  await refresh();
}

function prepareBan(name) {
  $("[data-mod-who]").value = name;
  $("[data-mod-reason]").focus();
}

async function ban(form) {
  const fields = Object.fromEntries(new FormData(form).entries());
  const who = fields.who.trim();
  const body = { ...target(who), kind: fields.kind, minutes: Number(fields.minutes), reason: fields.reason };
  const answer = await ask("POST", "/api/moderation/ban", body);
  if (answer) {
    const key = answer.ban.kind === "ban" ? N_("mod.done.ban") : N_("mod.done.mute");
    message(t(key, { who, until: dateTime(answer.ban.until) }));
  }
  await refresh();
}

async function close(form) {
  const fields = Object.fromEntries(new FormData(form).entries());
  const answer = await ask("POST", "/api/moderation/close", { room: fields.room.trim(), reason: fields.reason });
  if (answer) message(t("mod.done.close", { room: answer.closed }));
  await refresh();
}

await init();
$("[data-mod-form=ban]").addEventListener("submit", (event) => {
  event.preventDefault();
  ban(event.target);
});
$("[data-mod-action=unban]").addEventListener("click", () => {
  const who = $("[data-mod-who]").value.trim();
  if (who) lift(who, undefined);
});
$("[data-mod-form=close]").addEventListener("submit", (event) => {
  event.preventDefault();
  close(event.target);
});
await refresh();
