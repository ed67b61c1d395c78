// tengen web board: the page's entry module. It routes each address to its
// screen (the new-game form with the learning path and the review picker,
// a game, a record under review, the lobby), redraws everything in the chosen
// language, and starts the other modules. No dependencies, no build step:
// the browser loads the modules as they are served.

import { languageButtons, translatePage, errorText } from "./i18n.js";
import { $, show, setRouter, go } from "./page.js";
import { loadForm, initForm, showPresetDescription, showPresetNames } from "./form.js";
import { loadLessons, renderLessons } from "./lessons.js";
import { openGame, leaveGame, renderWords, tickClocks, initGame, nameChanged, render } from "./game.js";
import { initName, renderName } from "./player.js";
import { loadLobby, renderLobby } from "./lobby.js";
import { loadMine, renderMine } from "./mine.js";
import { initMember, renderMember } from "./member.js";
import { openClass, renderClass, renderPupil, openClassroom, joinClass } from "./class.js";
import { renderReview, reviewing, initReview, restoreReview } from "./review.js";
import { openTeach, renderTeach, initTeach } from "./teach.js";

function applyWords() {
  translatePage();
  showPresetDescription();
  showPresetNames();
  renderLessons();
  renderName();
  renderLobby();
  renderMine();
  renderMember();
  renderClass();
  renderPupil();
  renderWords();
  renderReview();
  renderTeach();
}

function route() {
  const m = location.pathname.match(/^\/g\/([0-9a-f]+)$/);
  if (m) { openGame(m[1]); return; }
  leaveGame();
  if (location.pathname === "/lobby") { show("lobby"); loadLobby(); return; }
  const klass = location.pathname.match(/^\/class\/([A-Za-z0-9]+)$/);
  if (klass) { show("class"); openClass(klass[1].toUpperCase()); return; }
  const step = location.pathname.match(/^\/learn\/([0-9]+)$/);
  if (step) { show("teach"); openTeach(parseInt(step[1], 10)); return; }
  if (location.hash === "#review" && reviewing()) { show("reviewer"); renderReview(); return; }
  // A reload of a review: the record this tab kept, if any.
  if (location.hash === "#review") restoreReview();
  show("home");
  loadLessons().catch(() => {});
  loadMine();
  if (location.hash) {
    const target = document.getElementById(location.hash.slice(1));
    if (target) target.scrollIntoView();
  }
}

function init() {
  languageButtons($("languages"), applyWords);
  initForm();
  initGame();
  initName(nameChanged);
  $("b-numbers").addEventListener("change", () => { render(); renderReview(); });
  initReview();
  initTeach();
  $("class-open").addEventListener("click", openClassroom);
  $("class-join").addEventListener("submit", (ev) => {
    ev.preventDefault();
    joinClass($("class-join-code").value, $("class-join-name").value);
  });
  document.querySelectorAll("header a").forEach((a) => a.addEventListener("click", (ev) => {
    ev.preventDefault();
    go(a.getAttribute("href"));
  }));
  setRouter(route);
  window.addEventListener("popstate", route);
  setInterval(tickClocks, 250);
  applyWords();
  loadForm().catch((e) => { $("f-error").textContent = errorText(e); });
  route();
  // Who is logged in adds a member's games to mine: asked beside the first
  // screen, and again at each login and logout.
  initMember(() => { if (location.pathname === "/") loadMine(); });
}

init();
