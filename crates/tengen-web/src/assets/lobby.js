// The lobby: this server's listed games, the invitations with a free
// seat (taking it keeps its token in this browser, as an invitation link
// would) and the games being played, against the engine too, to watch.

import { t, errorText, presetName, colorWord } from "./i18n.js";
import { $, go, whileShown } from "./page.js";
import { api, keepSeat } from "./connection.js";
import { clockWords } from "./clock.js";

let listed = null;

// Reads the lobby, again and again while it is shown, so that invitations
// and games come and go by themselves.
export function loadLobby() {
  return whileShown("lobby", async () => {
    try {
      listed = await api("/api/lobby");
      $("lobby-error").textContent = "";
    } catch (e) {
      $("lobby-error").textContent = errorText(e);
    }
    renderLobby();
  });
}

function players(g) {
  return ["black", "white"].map((c) => colorWord(c) + " " + (g[c].name || (g[c].taken ? "?" : "—"))).join(" · ");
}

// A listed game in a line (the lobby, my games): board, rules, clock if
// any, players.
export function gameLine(g) {
  return `${g.width}×${g.height} · ${presetName(g.rules)}` + (g.clock ? ` · ${clockWords(g.clock)}` : "") +
    ` · ${players(g)}`;
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
  what.textContent = gameLine(g);
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
