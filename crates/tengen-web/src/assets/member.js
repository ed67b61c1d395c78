// Members: an optional account, so that a player finds their games and
// plays them from any device. The session is an HttpOnly cookie the page
// never reads: it asks the server who is logged in. On logging in, the
// seats this browser holds are kept under the member, so that the games
// played before follow them too.

import { t, errorText } from "./i18n.js";
import { $ } from "./page.js";
import { api, seatedGames, seatOf } from "./connection.js";
import { setPlayerName } from "./player.js";

let member = null;
let changed = () => {};

// The member logged in here, or null.
export function memberName() { return member; }

const json = (method, body) => ({ method, headers: { "content-type": "application/json" },
  body: JSON.stringify(body) });

async function enter(path) {
  $("member-error").textContent = "";
  try {
    const r = await api(path, json("POST", { name: $("member-name").value, password: $("member-password").value }));
    $("member-password").value = "";
    member = r.name;
    setPlayerName(member);
    const seats = seatedGames().map((id) => ({ id, token: seatOf(id) }));
    if (seats.length) await api("/api/member/games", json("POST", seats));
    renderMember();
    changed();
  } catch (e) {
    $("member-error").textContent = errorText(e);
  }
}

export function renderMember() {
  $("member-out").hidden = member !== null;
  $("member-in").hidden = member === null;
  $("member-who").textContent = member === null ? "" : t("member_who", { name: member });
}

// Asks who is logged in; `onChange` hears the answer, then each login and
// logout (the list of my games changes with them).
export async function initMember(onChange) {
  changed = onChange;
  $("member-out").addEventListener("submit", (ev) => {
    ev.preventDefault();
    enter(ev.submitter && ev.submitter.id === "member-join" ? "/api/members" : "/api/session");
  });
  $("member-change").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("member-error").textContent = "";
    $("member-changed").textContent = "";
    try {
      await api("/api/member/password", json("POST", { password: $("member-current").value, new: $("member-new").value }));
      $("member-current").value = "";
      $("member-new").value = "";
      $("member-changed").textContent = t("member_changed");
    } catch (e) {
      $("member-error").textContent = errorText(e);
    }
  });
  $("member-logout").addEventListener("click", async () => {
    await api("/api/session", { method: "DELETE" }).catch(() => {});
    member = null;
    renderMember();
    changed();
  });
  try {
    member = (await api("/api/session")).name;
  } catch (e) {
    member = null;
  }
  renderMember();
  if (member !== null) changed();
}
