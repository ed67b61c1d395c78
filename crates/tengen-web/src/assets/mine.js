// My games: the games this browser holds a seat of and, for a member,
// those they hold on any device, newest first, on the home page, so that a
// closed tab or another device loses no game.

import { t, errorText } from "./i18n.js";
import { $, go } from "./page.js";
import { api, seatedGames } from "./connection.js";
import { gameLine } from "./lobby.js";
import { memberName } from "./member.js";

// The server lists at most this many at once (lobby::MAX_LISTED).
const MAX = 100;

let mine = [];
// Loads under way: only the latest one's answer is drawn (a load begun
// before the member was known must not overwrite one begun after).
let loads = 0;

export async function loadMine() {
  const load = ++loads;
  const ids = seatedGames().slice(0, MAX);
  const found = new Map();
  $("mine-error").textContent = "";
  try {
    const lists = [ids.length ? api("/api/games?ids=" + ids.join(",")) : []];
    if (memberName() !== null) lists.push(api("/api/member/games"));
    for (const list of await Promise.all(lists)) for (const g of list) found.set(g.id, g);
  } catch (e) {
    if (load === loads) $("mine-error").textContent = errorText(e);
  }
  if (load !== loads) return;
  mine = [...found.values()].sort((a, b) => b.listed - a.listed);
  renderMine();
}

function stateWords(g) {
  if (g.result) return t("mine_over", { r: g.result });
  return t(g.state === "marking" ? "mine_marking" : "mine_playing");
}

export function renderMine() {
  $("mine").hidden = !mine.length;
  const list = $("my-games");
  list.replaceChildren();
  for (const g of mine) {
    const li = document.createElement("li");
    li.dataset.id = g.id;
    const a = document.createElement("a");
    a.href = "/g/" + g.id;
    a.textContent = `${gameLine(g)} · ${stateWords(g)}`;
    a.addEventListener("click", (ev) => { ev.preventDefault(); go("/g/" + g.id); });
    li.appendChild(a);
    list.appendChild(li);
  }
}
