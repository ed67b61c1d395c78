// The screens of a learning step: short sentences, a position, a problem
// on it. The page sends what the learner clicked or chose and the server
// (the rules library) says whether it is right; a wrong answer shows the
// hint and marks the point tapped, the right one the conclusion and opens
// the next screen. After a few wrong tries the learner may be shown the
// answer, then plays it. The last screen starts the step's game against
// tengen.

import { t, errorText, said } from "./i18n.js";
import { $ } from "./page.js";
import { api, createGame } from "./connection.js";
import { drawBoard } from "./board.js";

const lesson = { step: 0, screens: [], open: false, at: 0, solved: false, shown: null, feedback: null, boardOpts: {},
  wrong: 0, marks: {}, answer: null };
// Wrong tries after which "show me" is offered.
const TRIES_BEFORE_SHOWING = 2;
// What marks a point tapped wrongly, and the point shown.
const WRONG_MARK = "✗", SHOWN_MARK = "◎";


// Opens step `step` at its first screen.
export async function openTeach(step) {
  lesson.step = step;
  lesson.screens = [];
  lesson.at = 0;
  $("teach-error").textContent = "";
  try {
    // The path also gives this browser its learner (a cookie), whom the
    // step's game needs, and says whether that game is open yet.
    const [screens, path] = await Promise.all([api("/api/learn/" + step), api("/api/learn")]);
    lesson.screens = screens;
    lesson.open = step <= path.unlocked;
  } catch (e) {
    $("teach-error").textContent = errorText(e);
  }
  enter(0);
}

function enter(i) {
  lesson.at = Math.max(0, Math.min(i, lesson.screens.length - 1));
  const s = lesson.screens[lesson.at];
  lesson.solved = !s || !s.question;
  lesson.shown = s && s.position;
  lesson.feedback = null;
  lesson.boardOpts = {};
  lesson.wrong = 0;
  lesson.marks = {};
  lesson.answer = null;
  renderTeach();
  const h = $("teach-title");
  if (h && s) h.focus();
}

async function answer(body) {
  const s = lesson.screens[lesson.at];
  if (!s || lesson.solved) return;
  try {
    const v = await api("/api/learn/" + lesson.step + "/answer", {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify(Object.assign({ screen: s.id }, body)),
    });
    if (lesson.screens[lesson.at] !== s) return;
    lesson.feedback = Object.assign({ choice: body.choice }, v);
    if (v.correct) {
      lesson.solved = true;
      lesson.marks = {};
      if (v.position) lesson.shown = v.position;
    } else if (v.shown) {
      lesson.answer = v.shown;
      if (v.shown.vertex) lesson.marks = { [v.shown.vertex]: SHOWN_MARK };
    } else {
      lesson.wrong += 1;
      if (body.vertex) lesson.marks[body.vertex] = WRONG_MARK;
    }
  } catch (e) {
    lesson.feedback = { correct: false, error: errorText(e) };
  }
  renderTeach();
}

// Draws the screen shown (nothing when no step is open).
export function renderTeach() {
  const s = lesson.screens[lesson.at];
  const n = lesson.screens.length;
  $("teach-title").textContent = lesson.step ? t("lesson", { n: lesson.step }) + " — " + t("lesson_" + lesson.step + "_title") : "";
  $("teach-progress").textContent = n ? t("teach_progress", { n: lesson.at + 1, m: n }) : "";
  const text = $("teach-text");
  text.replaceChildren();
  if (!s) return;
  for (const w of s.text) {
    const p = document.createElement("p");
    p.textContent = said(w);
    text.appendChild(p);
  }
  const pos = lesson.shown;
  $("teach-board").hidden = !pos;
  if (pos) {
    const playing = s.question && s.question.kind === "play" && !lesson.solved;
    drawBoard($("teach-board"), pos.width, pos.height, pos.board, Object.assign(lesson.boardOpts, {
      last: pos.last,
      labels: Object.assign({}, pos.labels, lesson.solved ? {} : lesson.marks),
      liberties: pos.liberties,
      atari: pos.atari,
      hoverColor: playing ? pos.to_move : null,
      onPlay: playing ? (vertex) => answer({ vertex }) : null,
      liveId: "teach-label",
      label: "goban " + pos.width + "×" + pos.height,
    }));
  }
  const q = s.question;
  $("teach-question").textContent = q ? said(q.words) : "";
  $("teach-question").hidden = !q;
  const opts = $("teach-options");
  opts.replaceChildren();
  if (q && q.kind === "choose") {
    q.options.forEach((o, i) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "teach-option";
      b.dataset.choice = i;
      b.textContent = said(o);
      b.disabled = lesson.solved;
      const f = lesson.feedback;
      if (f && f.choice === i) b.classList.add(f.correct ? "right" : "wrong");
      if (!lesson.solved && lesson.answer && lesson.answer.choice === i) b.classList.add("shown");
      b.addEventListener("click", () => answer({ choice: i }));
      opts.appendChild(b);
    });
  }
  const f = lesson.feedback, box = $("teach-feedback");
  box.className = "teach-feedback" + (f ? (f.correct ? " right" : " wrong") : "");
  box.replaceChildren();
  if (f) {
    const head = document.createElement("strong");
    head.textContent = f.correct ? t("teach_right") : t("teach_wrong");
    box.appendChild(head);
    const why = f.error || (f.refusal && !f.correct ? errorText({ code: f.refusal }) : "");
    if (why) box.append(" " + why);
    if (f.shown) box.append(" " + t(f.shown.vertex ? "teach_shown_vertex" : "teach_shown_choice"));
    else if (f.words) box.append(" " + said(f.words));
  }
  $("t-show").hidden = !q || lesson.solved || lesson.answer !== null || lesson.wrong < TRIES_BEFORE_SHOWING;
  $("teach-source").textContent = t("teach_source", { s: said(s.source) });
  $("t-prev").disabled = lesson.at === 0;
  const last = lesson.at === n - 1;
  $("t-next").hidden = last;
  $("t-next").disabled = !lesson.solved;
  $("t-play").hidden = !last;
  $("t-play").disabled = !lesson.open;
  $("t-play").textContent = lesson.open ? t("teach_play") : t("lesson_locked");
}

export function initTeach() {
  $("t-prev").addEventListener("click", () => enter(lesson.at - 1));
  $("t-next").addEventListener("click", () => { if (lesson.solved) enter(lesson.at + 1); });
  $("t-show").addEventListener("click", () => answer({ show: true }));
  $("t-play").addEventListener("click", () => {
    createGame({ lesson: lesson.step, opponent: { kind: "same_screen" } })
      .catch((e) => { $("teach-error").textContent = errorText(e); });
  });
}
