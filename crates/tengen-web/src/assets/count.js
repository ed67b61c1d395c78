// The count panel: the count's breakdown under each scoring method (the
// FFG quick count and the Chinese count beside it) and the result in words.
// The counting itself is the server's.

import { t, colorWord, errorText, number } from "./i18n.js";
import { $ } from "./page.js";

export function resultWords(r) {
  const c = r.winner ? colorWord(r.winner) : "";
  switch (r.by) {
    case "score": return t("wins_by", { c, p: number(r.sgf.split("+")[1]) });
    case "resignation": return t("wins_resign", { c });
    case "time": return t("wins_time", { c });
    case "forfeit": return t("wins_forfeit", { c });
    case "captures": return t("wins_captures", { c });
    case "draw": return t("draw");
    default: return t("void");
  }
}

// A score estimate in words: who leads and by how much under the game's
// method (or why there is none).
export function estimateWords(e, error) {
  if (!e) return errorText(error);
  const m = parseFloat(e.count.margin);
  if (m === 0) return t("estimate_even");
  return t("estimate_lead", { c: colorWord(m > 0 ? "black" : "white"), p: number(Math.abs(m)) });
}

function row(table, label, b, w) {
  const tr = document.createElement("tr");
  for (const [i, x] of [label, b, w].entries()) {
    const cell = document.createElement(i === 0 ? "th" : "td");
    cell.textContent = i === 0 ? x : number(x);
    tr.appendChild(cell);
  }
  table.appendChild(tr);
}

// Territory as the board draws it (squares), then the eyes in seki as it
// draws them (diamonds), counted or not as the rules say: both rows read
// the one region map the totals come from.
function territoryRows(table, c) {
  row(table, t("territory"), c.territory.black - c.seki.black, c.territory.white - c.seki.white);
  if (c.seki.black || c.seki.white) {
    row(table, t(c.seki_counted ? "seki_counted" : "seki"), c.seki.black, c.seki.white);
  }
}

export function renderCount(v) {
  const box = $("count");
  const c = v.count;
  box.hidden = !c;
  if (!c) return;
  box.replaceChildren();
  const h = document.createElement("h3");
  h.textContent = v.phase === "over" ? t("count_title") : t("count_provisional");
  box.appendChild(h);
  const m = document.createElement("p");
  m.className = "hint";
  m.textContent = t("method_" + c.scoring);
  box.appendChild(m);
  const table = document.createElement("table");
  table.className = "count";
  row(table, "", t("black"), t("white"));
  const s = c.scoring;
  if (s === "captures") {
    row(table, t("captures"), c.captures.black, c.captures.white);
  } else if (s === "stones") {
    row(table, t("stones_on_board"), c.stones.black, c.stones.white);
    row(table, t("komi"), "", c.komi);
  } else if (s === "territory") {
    territoryRows(table, c);
    row(table, t("prisoners"), c.captures.black + c.dead.white, c.captures.white + c.dead.black);
    row(table, t("komi"), "", c.komi);
  } else {
    row(table, t("stones_on_board"), c.stones.black, c.stones.white);
    territoryRows(table, c);
    if (s === "area_dame_both") row(table, t("dame_both"), c.dame, c.dame);
    if (s === "area_dame_shared") row(table, t("dame_half"), c.dame / 2, c.dame / 2);
    if (s === "area_dame_nobody" && c.dame) row(table, t("dame_row"), c.dame, "");
    row(table, t("dead_removed"), c.dead.black, c.dead.white);
    row(table, t("komi"), "", c.komi);
  }
  row(table, t("total"), c.totals.black, c.totals.white);
  row(table, t("margin"), c.margin, "");
  box.appendChild(table);
  if (s === "area_dame_shared") {
    const p = document.createElement("p");
    p.className = "chinese";
    p.textContent = t("chinese_count", { b: number(c.chinese.black), t: number(c.chinese.threshold), m: number(c.chinese.margin_stones) });
    box.appendChild(p);
  }
  if (c.quick) {
    const q = document.createElement("table");
    q.className = "count quick";
    const cap = document.createElement("caption");
    cap.textContent = t("quick_count");
    q.appendChild(cap);
    row(q, "", t("black"), t("white"));
    row(q, t("held"), c.quick.held.black, c.quick.held.white);
    row(q, t("pass_stones"), c.quick.pass_stones.black, c.quick.pass_stones.white);
    row(q, t("remaining"), c.quick.remaining.black, c.quick.remaining.white);
    if (c.quick.over.black || c.quick.over.white) row(q, t("over"), c.quick.over.black, c.quick.over.white);
    row(q, t("komi"), "", c.quick.komi);
    row(q, t("quick_margin"), c.quick.margin, "");
    box.appendChild(q);
  }
  if (v.result) {
    const r = document.createElement("p");
    r.className = "result";
    r.id = "result";
    r.textContent = resultWords(v.result) + " — " + v.result.sgf;
    box.appendChild(r);
  }
}
