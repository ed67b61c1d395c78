// The lexicon panel: the last move in words, with the names the server's
// lexicon gives it (keima, hane, shicho...) in the language shown.

import { t, colorWord, said } from "./i18n.js";

export function lastMoveText(v) {
  if (!v.last) return "";
  let s = v.last === "pass" ? t("last_pass", { c: colorWord(v.last_color) })
    : t("last_move", { c: colorWord(v.last_color), v: v.last });
  if (v.names && v.names.length) s += " — " + v.names.map(said).join(", ");
  return s;
}
