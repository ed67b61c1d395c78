// The language chosen, and the page's words in it: they come from the
// server's catalogues (words.js, one catalogue a language), with the
// server's error codes in words. The server sends codes, English text and
// data; every word the page shows in any language is in the catalogues.

import { LANGUAGES, WORDS, PRESET_NAMES, PRESET_DESCRIPTIONS } from "./words.js";

let lang = localStorage.getItem("tengen.lang") ||
  ((navigator.languages && navigator.languages[0]) || navigator.language || "en").slice(0, 2).toLowerCase();
if (!WORDS[lang]) lang = "en";

// Chooses the language and remembers it; the caller redraws.
export function setLang(l) {
  lang = l;
  localStorage.setItem("tengen.lang", l);
}

// French typography: a non-breaking space before ":", ";", "!" and "?".
export function typeset(s) { return lang === "fr" ? s.replace(/ ([:;!?])/g, "\u00a0$1") : s; }

// A sentence the server sends in every language ({en: .., fr: ..}), in
// the language shown.
export function said(w) { return w ? typeset(w[lang] || w.en) : ""; }

// A number as the language writes it (7,5 in French), from a number or
// the server's decimal text (other text is left as it is): at most
// `digits` decimals, exactly that many where `fixed`.
export function number(x, digits = 2, fixed = false) {
  const text = x === undefined || x === null ? "" : String(x);
  const n = typeof x === "number" ? x : /^[-+]?[0-9]+(\.[0-9]+)?$/.test(text) ? parseFloat(text) : NaN;
  if (Number.isNaN(n)) return text;
  return new Intl.NumberFormat(lang, { maximumFractionDigits: digits, minimumFractionDigits: fixed ? digits : 0 }).format(n);
}

// The time of day of `ms` (since the epoch), hours and minutes, as the
// language writes it (14:05, 2:05 PM).
export function clockTime(ms) {
  return new Intl.DateTimeFormat(lang, { hour: "numeric", minute: "2-digit" }).format(new Date(ms));
}

// A chance (0 to 1) as a whole percentage, as the language writes it.
export function percent(x) {
  return new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 }).format(x);
}

export function t(key, vars) {
  let s = WORDS[lang][key];
  if (s === undefined) s = WORDS.en[key];
  if (s === undefined) return key;
  if (vars) for (const k in vars) s = s.split("{" + k + "}").join(vars[k]);
  return typeset(s);
}

// A preset's name in the language shown (its id if unknown).
export function presetName(id) {
  return typeset(PRESET_NAMES[lang][id] || PRESET_NAMES.en[id] || id);
}
export const colorWord = (c) => t(c);

// One button a language in the header's group (`lang-CODE`, its code in
// capitals), each choosing its language and calling `chosen`.
export function languageButtons(group, chosen) {
  group.replaceChildren(...LANGUAGES.map(([code, name]) => {
    const b = document.createElement("button");
    b.type = "button";
    b.id = "lang-" + code;
    b.lang = code;
    b.title = name;
    b.textContent = code.toUpperCase();
    b.addEventListener("click", () => { setLang(code); chosen(); });
    return b;
  }));
}

// The words of the static page (its data-i18n attributes) and the state of
// the language buttons.
export function translatePage() {
  document.documentElement.lang = lang;
  document.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
  document.querySelectorAll("[data-i18n-placeholder]").forEach((el) => { el.placeholder = t(el.dataset.i18nPlaceholder); });
  for (const [code] of LANGUAGES) {
    document.getElementById("lang-" + code).setAttribute("aria-pressed", String(lang === code));
  }
}

// A preset's one-line description in the language shown (the server's
// English where a catalogue lacks it).
export function presetDescription(p) {
  return typeset(PRESET_DESCRIPTIONS[lang][p.name] || p.description);
}

// An error from the server (or a failed request) in words.
export function errorText(e) {
  if (!e || !e.code) return String(e && e.message || e);
  const key = "err_" + e.code;
  const msg = e.message || "";
  return WORDS.en[key] ? t(key, { m: msg }) : msg;
}
