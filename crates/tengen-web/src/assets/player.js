// The player's name: chosen on first visit, kept in this browser (never
// on the server but in the games it is told), changed at any time from
// the header. The game screen tells the server in `hello` and when it
// changes; the server only keeps it for the seats it names.

import { t } from "./i18n.js";
import { $ } from "./page.js";

const KEY = "tengen.name";
const ASKED = "tengen.name.asked";
let changed = () => {};

// The name chosen ("" when none).
export function playerName() { return localStorage.getItem(KEY) || ""; }

function openCard() {
  $("name-input").value = playerName();
  $("name-card").hidden = false;
  $("name-input").focus();
}

function save(text) {
  const name = text.trim().slice(0, 40);
  localStorage.setItem(KEY, name);
  localStorage.setItem(ASKED, "1");
  $("name-card").hidden = true;
  renderName();
  changed(name);
}

// A member's name becomes the player's name in this browser too.
export function setPlayerName(name) {
  localStorage.setItem(KEY, name);
  localStorage.setItem(ASKED, "1");
  $("name-card").hidden = true;
  renderName();
  changed(name);
}

// The header's name button, in the language shown.
export function renderName() {
  const n = playerName();
  $("name-button").textContent = n || t("name_choose");
  $("name-button").title = t("name_change");
}

// Asks for a name on the first visit; `onChange` hears each new name.
export function initName(onChange) {
  changed = onChange;
  $("name-button").addEventListener("click", openCard);
  $("name-later").addEventListener("click", () => { localStorage.setItem(ASKED, "1"); $("name-card").hidden = true; });
  $("name-card").addEventListener("submit", (ev) => { ev.preventDefault(); save($("name-input").value); });
  if (localStorage.getItem(KEY) === null && !localStorage.getItem(ASKED)) openCard();
  renderName();
}
