// The players' clocks as the page shows them between the server's views.
// The server keeps the time; this only counts down what it last said.

import { $ } from "./page.js";
import { t, number } from "./i18n.js";

function fmt(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(s / 60);
  return m + ":" + String(s % 60).padStart(2, "0");
}

// Shows both clocks of view `v`, received at `viewAt` (ms): the running
// one counts down from the time the server gave.
export function renderClocks(v, viewAt) {
  for (const c of ["black", "white"]) {
    const box = $("clock-" + c);
    if (!v || !v.clock) { box.textContent = ""; continue; }
    if (v.result && v.result.by === "time" && v.result.winner !== c) {
      // The flag fell: no overtime is left to show.
      box.classList.add("low");
      box.textContent = "0:00 " + t("flag_fell");
      continue;
    }
    const side = v.clock.sides[c];
    const ctl = v.clock.control;
    let main = side.main_ms;
    let extra = "";
    if (v.clock.running === c) {
      const left = v.clock.left_ms - (Date.now() - viewAt);
      const overtime = ctl.kind === "byo_yomi" ? side.periods * ctl.period_s * 1000
        : ctl.kind === "canadian" && side.main_ms > 0 ? ctl.period_s * 1000 : 0;
      main = ctl.kind === "canadian" && side.main_ms === 0 ? left : Math.max(0, left - overtime);
      if (ctl.kind === "byo_yomi" && left <= overtime) {
        const periods = Math.max(1, Math.ceil(left / (ctl.period_s * 1000)));
        main = left - (periods - 1) * ctl.period_s * 1000;
        extra = " (" + periods + "×" + ctl.period_s + "s)";
      }
      box.classList.toggle("low", left < 10000);
    } else {
      box.classList.remove("low");
    }
    if (ctl.kind === "byo_yomi" && !extra) extra = " +" + side.periods + "×" + ctl.period_s + "s";
    if (ctl.kind === "canadian") extra = side.main_ms > 0 && main > 0 ? " +" + ctl.stones + "/" + ctl.period_s + "s" : " (" + side.stones + ")";
    box.textContent = fmt(main) + extra;
  }
}

// A clock's settings in a few words ("byo-yomi 10 min + 3×30 s"), as the
// lobby lists them.
export function clockWords(ctl) {
  const d = (s) => (s % 60 === 0 && s > 0 ? number(s / 60) + " min" : number(s) + " s");
  const name = t("clock_" + ctl.kind) + " " + d(ctl.main_s);
  switch (ctl.kind) {
    case "byo_yomi": return `${name} + ${ctl.periods}×${d(ctl.period_s)}`;
    case "canadian": return `${name} + ${ctl.stones}/${d(ctl.period_s)}`;
    case "fischer": return `${name} + ${d(ctl.increment_s)}`;
    default: return name;
  }
}
