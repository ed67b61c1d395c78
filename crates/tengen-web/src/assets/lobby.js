// The lobby: this server's listed games with a friend, the invitations
// with a free seat (taking it keeps its token in this browser, as an
// invitation link would) and the games being played, to watch.

import { t, errorText, presetName, colorWord } from "./i18n.js";
import { $, go } from "./page.js";
import { api, keepSeat } from "./connection.js";
import { clockWords } from "./clock.js";

// How often the lobby asks again while it is shown.
const REFRESH_MS = 4000;

let listed = null;
let timer = null;

// Reads the lobby, then again every few seconds while it is shown and the
// tab is in view, so that invitations and games come and go by themselves.
export async function loadLobby() {
  clearTimeout(timer);
  if ($("lobby").hidden) return;
  if (document.visibilityState !== "hidden") {
    try {
      listed = await api("/api/lobby");
      $("lobby-error").textContent = "";
    } catch (e) {
      $("lobby-error").textContent = errorText(e);
    }
    renderLobby();
  }
  timer = setTimeout(loadLobby, REFRESH_MS);
}

export function players(g) {
  return ["black", "white"].map((c) => colorWord(c) + " " + (g[c].name || (g[c].taken ? "?" : "—"))).join(" · ");
}

async function take(id) {
  try {
    const seat = await api("/api/lobby/" + id + "/join", { method: "POST" });
    keepSeat(seat.id, seat.token);
    go("/g/" + seat.id);
  } catch (e) {
    $("lobby-error").textContent = errorText(e);
    loadLobby();
  }
}

function item(g, action) {
  const li = document.createElement("li");
  li.dataset.id = g.id;
  const what = document.createElement("span");
  what.textContent = `${g.width}×${g.height} · ${presetName(g.rules)} · ${clockWords(g.clock)} · ${players(g)}`;
  li.append(what, " ", action);
  return li;
}

export function renderLobby() {
  if (!listed) return;
  for (const [key, list] of [["open", $("lobby-open")], ["live", $("lobby-live")]]) {
    list.replaceChildren();
    for (const g of listed[key]) {
      let action;
      if (key === "open") {
        action = document.createElement("button");
        action.type = "button";
        action.className = "take";
        action.textContent = t("take_seat", { c: colorWord(g.free) });
        action.addEventListener("click", () => take(g.id));
      } else {
        action = document.createElement("a");
        action.href = "/g/" + g.id;
        action.className = "watch";
        action.textContent = t("watch");
        action.addEventListener("click", (ev) => { ev.preventDefault(); go("/g/" + g.id); });
      }
      list.appendChild(item(g, action));
    }
    if (!listed[key].length) {
      const li = document.createElement("li");
      li.className = "hint empty";
      li.textContent = t(key === "open" ? "lobby_no_open" : "lobby_no_live");
      list.appendChild(li);
    }
  }
}
