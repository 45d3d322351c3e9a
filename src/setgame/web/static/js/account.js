// The account page: claim a name, sign in and out, change the password, delete the
// account (docs/protocol.md, "Accounts"). The session is an http-only cookie: this page
// never sees it, it only asks the server who it is.

import { banText, init, oneAtATime, t, N_, NAME_REFUSALS } from "./common.js";

const ERRORS = {
  bad_credentials: N_("acc.err.bad_credentials"),
  name_taken: N_("acc.err.name_taken"),
  ...NAME_REFUSALS,  // name_claimed among them: a seat's, never an account's
  weak_password: N_("acc.err.weak_password"),
  rate_limited: N_("err.rate_limited"),
  busy: N_("acc.err.busy"),
  not_signed_in: N_("acc.err.not_signed_in"),
};
const DONE = {
  claim: N_("acc.done.claim"),
  signin: N_("acc.done.signin"),
  signout: N_("acc.done.signout"),
  "signout-everywhere": N_("acc.done.signout.everywhere"),
  password: N_("acc.done.password"),
  delete: N_("acc.done.delete"),
};

const $ = (selector) => document.querySelector(selector);
const message = (text) => {
  $("[data-account-message]").textContent = text;
};

function show(me) {
  const status = $("[data-account-status]");
  status.textContent = me.signed_in ? t("acc.status.member", { name: me.name }) : t("acc.status.guest");
  status.dataset.name = me.name ?? "";
  $("[data-account-form=guest]").hidden = me.signed_in;
  $("[data-account-form=member]").hidden = !me.signed_in;
}

// One request at a time: a double click on "Claim" claimed the name, then said it was taken.
const ask = oneAtATime(async (action, body) => {
  try {
    await answered(action, body);
  } catch (err) {
    message(t("err.network", { why: err.message })); // the browser's words for why
  }
});

async function answered(action, body) {
  const response = await fetch(`/api/account/${action}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body ?? {}),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    const known = ERRORS[answer.code] ? t(ERRORS[answer.code], { name: body?.name ?? "" }) : null;
    message(banText(answer) ?? known ?? (answer.message || String(response.status)));
    return;
  }
  show(answer);
  message(t(DONE[action], { name: answer.name ?? answer.deleted ?? "" }));
  for (const input of document.querySelectorAll("input[type=password]")) input.value = "";
}

function fields(form) {
  return Object.fromEntries(new FormData(form).entries());
}

await init();
const me = await fetch("/api/account").then((r) => r.json()).catch(() => ({ name: null, signed_in: false }));
show(me);
$("[data-account-form=guest]").addEventListener("submit", (event) => {
  event.preventDefault();
  ask(event.submitter?.dataset.accountAction || "signin", fields(event.target));
});
for (const action of ["signout", "signout-everywhere"]) {
  $(`[data-account-action=${action}]`).addEventListener("click", () => ask(action));
}
for (const name of ["password", "delete"]) {
  $(`[data-account-form=${name}]`).addEventListener("submit", (event) => {
    event.preventDefault();
    ask(name, fields(event.target));
  });
}
