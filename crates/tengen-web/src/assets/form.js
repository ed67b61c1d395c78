// The new-game form: the rule sets and board sizes the server offers, the
// clock's fields, and the form as the server reads it.

import { t, presetDescription, presetName, errorText } from "./i18n.js";
import { $ } from "./page.js";
import { api, createGame } from "./connection.js";

let presets = [];

// Fills the form with what the server offers: its rule sets and its board
// sizes, together, so that the form is complete once the rules are listed.
export async function loadForm() {
  const [list, sizes] = await Promise.all([api("/api/presets"), api("/api/sizes")]);
  showSizes(sizes);
  presets = list;
  const sel = $("f-rules");
  sel.replaceChildren();
  for (const p of presets) {
    const o = document.createElement("option");
    o.value = p.name;
    sel.appendChild(o);
  }
  sel.value = "ffg";
  showPresetNames();
  presetChanged();
}

// The rules list in the language shown.
export function showPresetNames() {
  for (const o of $("f-rules").options) o.textContent = presetName(o.value);
}

// One choice per side offered, before "custom" (the first checked), and
// the range of a custom side.
function showSizes(sizes) {
  const custom = document.querySelector("input[name=size][value=custom]").closest("label");
  for (const [i, n] of sizes.offered.entries()) {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.type = "radio";
    input.name = "size";
    input.value = String(n);
    input.checked = i === 0;
    label.append(input, ` ${n}×${n}`);
    custom.before(label, " ");
  }
  $("f-custom").min = sizes.min;
  $("f-custom").max = sizes.max;
}

function currentPreset() { return presets.find((p) => p.name === $("f-rules").value); }

export function showPresetDescription() {
  const p = currentPreset();
  if (!p) return;
  $("f-rules-desc").textContent = presetDescription(p);
}

function presetChanged() {
  const p = currentPreset();
  if (!p) return;
  $("f-komi").value = p.komi;
  $("f-handicap").disabled = !p.handicap;
  $("f-placement-set").disabled = !p.handicap || !p.free_placement;
  showPresetDescription();
}

function clockFields() {
  const kind = $("f-clock").value;
  document.querySelectorAll("#f-clock-fields label").forEach((l) => {
    const c = l.className;
    l.hidden = kind === "none" || (c && !((kind === "byo_yomi" && c.includes("c-byo")) ||
      (kind === "canadian" && c.includes("c-can")) || (kind === "fischer" && c.includes("c-fis"))));
  });
}

function formValue() {
  const sizeChoice = document.querySelector("input[name=size]:checked").value;
  const size = sizeChoice === "custom" ? parseInt($("f-custom").value, 10) : parseInt(sizeChoice, 10);
  const opp = document.querySelector("input[name=opponent]:checked").value;
  const color = $("f-color").value;
  const opponent = opp === "engine" ? { kind: "engine", strength: $("f-strength").value, color }
    : opp === "friend" ? { kind: "friend", color } : { kind: "same_screen" };
  const form = { rules: $("f-rules").value, size, opponent, handicap: parseInt($("f-handicap").value || "0", 10) };
  if (opp !== "same_screen" && $("f-lobby").checked) form.lobby = true;
  const komi = $("f-komi").value.trim().replace(",", ".");
  const p = currentPreset();
  if (komi && !(p && komi === p.komi && form.handicap > 0)) form.komi = komi;
  if (document.querySelector("input[name=placement]:checked").value === "free" && form.handicap > 1) {
    form.handicap_stones = $("f-stones").value;
  }
  const kind = $("f-clock").value;
  if (kind !== "none") {
    const main_s = Math.round(parseFloat($("f-main").value || "0") * 60);
    const period_s = parseInt($("f-period").value || "0", 10);
    form.clock = kind === "absolute" ? { kind, main_s }
      : kind === "byo_yomi" ? { kind, main_s, periods: parseInt($("f-periods").value, 10), period_s }
      : kind === "canadian" ? { kind, main_s, stones: parseInt($("f-cstones").value, 10), period_s }
      : { kind, main_s, increment_s: parseInt($("f-inc").value || "0", 10), max_s: 0 };
  }
  return form;
}

function opponentChanged() {
  const opp = document.querySelector("input[name=opponent]:checked").value;
  // Against a friend the lobby offers the seat; against the engine,
  // the game to watch.
  $("f-lobby-label").hidden = opp === "same_screen";
  const words = opp === "engine" ? "list_to_watch" : "list_in_lobby";
  $("f-lobby-text").dataset.i18n = words;
  $("f-lobby-text").textContent = t(words);
}

export function initForm() {
  document.querySelectorAll("input[name=opponent]").forEach((i) => i.addEventListener("change", opponentChanged));
  opponentChanged();
  $("f-rules").addEventListener("change", presetChanged);
  $("f-clock").addEventListener("change", clockFields);
  $("new-game").addEventListener("submit", (ev) => {
    ev.preventDefault();
    $("f-error").textContent = "";
    createGame(formValue()).catch((e) => { $("f-error").textContent = errorText(e); });
  });
  clockFields();
}
