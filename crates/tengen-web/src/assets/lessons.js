// The learning path: its four steps on the home page (which are open to
// this browser's learner is the server's word), each opening its screens
// (teach.js) or its game, and the step's text above the board of a
// learning-path game.

import { t, errorText } from "./i18n.js";
import { $, go } from "./page.js";
import { api, createGame } from "./connection.js";

const path = { lessons: null, unlocked: 1 };

export async function loadLessons() {
  const l = await api("/api/learn");
  path.lessons = l.lessons;
  path.unlocked = l.unlocked;
  renderLessons();
}

export function renderLessons() {
  const ol = $("lessons");
  if (!path.lessons || !ol) return;
  ol.replaceChildren();
  for (const l of path.lessons) {
    const li = document.createElement("li");
    const h = document.createElement("strong");
    h.textContent = t("lesson", { n: l.step }) + " — " + t("lesson_" + l.step + "_title");
    li.appendChild(h);
    if (l.step < path.unlocked) {
      const s = document.createElement("span");
      s.className = "done"; s.textContent = " ✓ " + t("lesson_done");
      li.appendChild(s);
    }
    const p = document.createElement("p");
    p.textContent = t("lesson_" + l.step);
    li.appendChild(p);
    const learn = document.createElement("button");
    learn.type = "button";
    learn.className = "lesson-learn primary";
    learn.dataset.step = l.step;
    // The screens of every step can be read; only its game waits.
    learn.textContent = t("lesson_learn");
    learn.addEventListener("click", () => go("/learn/" + l.step));
    li.appendChild(learn);
    li.append(" ");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "lesson-play";
    b.dataset.step = l.step;
    b.disabled = l.step > path.unlocked;
    b.textContent = l.step > path.unlocked ? t("lesson_locked") : t("lesson_play");
    b.addEventListener("click", () => startLesson(l.step));
    li.appendChild(b);
    ol.appendChild(li);
  }
}

function startLesson(step) {
  createGame({ lesson: step, opponent: { kind: "same_screen" } }).catch((e) => { $("f-error").textContent = errorText(e); });
}

// The step's text above the board of a learning-path game, and how it
// ended.
export function renderLesson(v) {
  const box = $("lesson-text");
  box.hidden = !v.lesson;
  if (!v.lesson) return;
  box.replaceChildren();
  const h = document.createElement("strong");
  h.textContent = t("lesson", { n: v.lesson }) + " — " + t("lesson_" + v.lesson + "_title");
  const p = document.createElement("span");
  p.textContent = " " + t("lesson_" + v.lesson);
  box.append(h, p);
  if (v.phase === "over" && v.result) {
    const won = v.result.winner && v.result.winner !== v.opponent.engine;
    const end = document.createElement("p");
    end.className = "lesson-end " + (won ? "won" : "lost");
    if (won && !path.lessons) loadLessons().then(() => renderLesson(v)).catch(() => {});
    const last = path.lessons && v.lesson >= Math.max(...path.lessons.map((l) => l.step));
    end.textContent = won ? t(last ? "lesson_path_done" : "lesson_won") : t("lesson_lost");
    const back = document.createElement("a");
    back.href = "/#learn";
    back.textContent = t("back_to_path");
    end.append(" ");
    // A lost step is played again at once, as a child would ask.
    if (!won) {
      const again = document.createElement("button");
      again.type = "button";
      again.className = "lesson-again";
      again.textContent = t("play_again");
      again.addEventListener("click", () => startLesson(v.lesson));
      end.append(again, " ");
    }
    end.append(back);
    box.appendChild(end);
  }
}
