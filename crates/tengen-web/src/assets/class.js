// A teacher's class: the teacher opens it from the learning card and
// keeps its token in this browser; the class page shows the code to write
// on the board and each pupil's progress, asked again every few seconds.
// Pupils join from the learning card with the code and their first name.

import { t, errorText, number } from "./i18n.js";
import { $, go, whileShown } from "./page.js";
import { api } from "./connection.js";
import { loadLessons } from "./lessons.js";

const TEACHER = "tengen.class.";
const PUPIL = "tengen.pupil";

let shown = null;

export async function openClassroom() {
  try {
    const c = await api("/api/classes", { method: "POST" });
    localStorage.setItem(TEACHER + c.code, c.token);
    go("/class/" + c.code);
  } catch (e) {
    $("class-join-error").textContent = errorText(e);
  }
}

export async function joinClass(code, name) {
  $("class-join-error").textContent = "";
  try {
    const joined = await api("/api/classes/" + encodeURIComponent(code.trim()) + "/join", {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name }) });
    localStorage.setItem(PUPIL, JSON.stringify({ code: joined.code, name: joined.name }));
    renderPupil();
    await loadLessons();
  } catch (e) {
    $("class-join-error").textContent = errorText(e);
  }
}

// "In class ABC234 as Léa" under the join form, once joined.
export function renderPupil() {
  const p = JSON.parse(localStorage.getItem(PUPIL) || "null");
  $("class-pupil").textContent = p ? t("class_pupil", { code: p.code, name: p.name }) : "";
}

export function openClass(code) {
  shown = { code, pupils: null, error: "" };
  $("class-code").textContent = code;
  return whileShown("class", async () => {
    const token = localStorage.getItem(TEACHER + code) || "";
    try {
      shown.pupils = (await api("/api/classes/" + code, { headers: { "x-teacher-token": token } })).pupils;
      shown.error = "";
    } catch (e) {
      shown.error = errorText(e);
    }
    renderClass();
  });
}

export function renderClass() {
  if (!shown) return;
  $("class-how").textContent = t("class_how", { code: shown.code });
  $("class-error").textContent = shown.error;
  const body = $("class-pupils");
  body.replaceChildren();
  for (const p of shown.pupils || []) {
    const tr = document.createElement("tr");
    for (const x of [p.name, number(p.step), number(p.solved), number(p.won), number(p.lost)]) {
      const td = document.createElement("td");
      td.textContent = x;
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
  $("class-empty").hidden = !shown.pupils || shown.pupils.length > 0;
}
