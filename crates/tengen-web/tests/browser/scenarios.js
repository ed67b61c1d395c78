// The web board in a real browser (Debian's chromium, headless), driven by
// playwright-core. Run by tests/browser.rs: node scenarios.js BASE_URL SHOTS_DIR
// Exits 0 when every scenario passes; prints what failed otherwise.
"use strict";

const path = require("path");
const fs = require("fs");
const { chromium } = require("playwright-core");

const base = process.argv[2];
const shots = process.argv[3];
if (!base || !shots) {
  console.error("usage: node scenarios.js BASE_URL SHOTS_DIR");
  process.exit(2);
}
fs.mkdirSync(shots, { recursive: true });

function check(cond, what) {
  if (!cond) throw new Error("check failed: " + what);
}

async function shot(page, name) {
  await page.screenshot({ path: path.join(shots, name + ".png"), fullPage: true });
}

// What every page did that a scenario checks afterwards: the policy's
// refusals (an inline script or style would be one) and the addresses of
// the sockets it opened.
const violations = [];
const sockets = [];

async function newPage(browser, locale, viewport) {
  const ctx = await browser.newContext({ locale, viewport: viewport || { width: 1200, height: 900 } });
  const page = await ctx.newPage();
  page.on("pageerror", (e) => { throw new Error("page error: " + e.message); });
  page.on("console", (m) => { if (/Content Security Policy/i.test(m.text())) violations.push(m.text()); });
  page.on("websocket", (ws) => sockets.push(ws.url()));
  return { ctx, page };
}

// The stones on the board: { "D4": "black", ... }.
async function stones(page, host) {
  return page.$$eval(`${host || "#board"} circle[data-v]`, (cs) => {
    const out = {};
    for (const c of cs) out[c.dataset.v] = c.classList.contains("stone-black") ? "black" : "white";
    return out;
  });
}

async function click(page, v) {
  await page.click(`#board rect.pt[data-v="${v}"]`);
}

// Plays and waits for the stone to appear.
async function play(page, v) {
  await click(page, v);
  await page.waitForSelector(`#board circle[data-v="${v}"]`);
}

async function newGame(page, { rules, size, opponent }) {
  await page.goto(base + "/");
  await page.waitForSelector("#f-rules option[value=ffg]", { state: "attached" });
  await page.selectOption("#f-rules", rules);
  await page.check(`input[name=size][value="${size}"]`);
  await page.check(`input[name=opponent][value=${opponent}]`);
  await page.click("#f-create");
  await page.waitForSelector("#board svg");
  await page.waitForFunction(() => document.querySelector("#game-info").textContent.length > 0);
}

// ------------------------------------------------------------ capture play

const LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
function name(i, n) { return LETTERS[i % n] + (n - Math.floor(i / n)); }
function neighbours(i, n) {
  const x = i % n, y = Math.floor(i / n), v = [];
  if (x > 0) v.push(i - 1);
  if (x + 1 < n) v.push(i + 1);
  if (y > 0) v.push(i - n);
  if (y + 1 < n) v.push(i + n);
  return v;
}
function chains(b, n, color) {
  const seen = new Set(), out = [];
  for (let s = 0; s < b.length; s++) {
    if (b[s] !== color || seen.has(s)) continue;
    const st = [], libs = new Set(), stack = [s];
    seen.add(s);
    while (stack.length) {
      const p = stack.pop();
      st.push(p);
      for (const q of neighbours(p, n)) {
        if (b[q] === ".") libs.add(q);
        else if (b[q] === color && !seen.has(q)) { seen.add(q); stack.push(q); }
      }
    }
    out.push({ stones: st, libs: [...libs] });
  }
  return out;
}
// Black in a capture game: capture, save a chain in atari, else press the
// weakest white chain.
function greedy(b, n) {
  const safe = (p) => {
    const c = b.slice(); c[p] = "X";
    const mine = chains(c, n, "X").find((ch) => ch.stones.includes(p));
    return mine && mine.libs.length >= 2;
  };
  const white = chains(b, n, "O"), black = chains(b, n, "X");
  const cap = white.find((c) => c.libs.length === 1);
  if (cap) return name(cap.libs[0], n);
  const save = black.find((c) => c.libs.length === 1 && safe(c.libs[0]));
  if (save) return name(save.libs[0], n);
  for (const c of white.sort((a, z) => a.libs.length - z.libs.length)) {
    const p = c.libs.find(safe);
    if (p !== undefined) return name(p, n);
  }
  const centre = Math.floor(n / 2) * n + Math.floor(n / 2);
  for (let k = 0; k < b.length; k++) {
    const p = (centre + k * 7) % b.length;
    if (b[p] === "." && safe(p)) return name(p, n);
  }
  return name(centre, n);
}

async function boardArray(page, n) {
  const s = await stones(page);
  const b = new Array(n * n).fill(".");
  for (const v in s) {
    const x = LETTERS.indexOf(v[0]), y = n - parseInt(v.slice(1), 10);
    b[y * n + x] = s[v] === "black" ? "X" : "O";
  }
  return b;
}

// ------------------------------------------------------------ scenarios

async function beginnerWinsFirstCapture(browser) {
  const { ctx, page } = await newPage(browser, "en-US");
  let won = false;
  for (let attempt = 0; attempt < 5 && !won; attempt++) {
    await page.goto(base + "/#learn");
    await page.waitForSelector(".lesson-play[data-step='1']:not([disabled])");
    check(await page.isDisabled(".lesson-play[data-step='2']"), "step 2 locked at first");
    await page.click(".lesson-play[data-step='1']");
    await page.waitForSelector("#board svg");
    await page.waitForSelector("#lesson-text:not([hidden])");
    if (attempt === 0) await shot(page, "lesson-1-start");
    for (let turn = 0; turn < 80; turn++) {
      await page.waitForFunction(() =>
        document.querySelector("#p-black").classList.contains("to-move") || !!document.querySelector(".lesson-end"));
      if (await page.$(".lesson-end")) break;
      const b = await boardArray(page, 9);
      const v = greedy(b, 9);
      const before = await page.textContent("#game-info");
      await click(page, v);
      await page.waitForFunction((old) => document.querySelector("#game-info").textContent !== old ||
        document.querySelector("#message").textContent !== "", before);
      const msg = await page.textContent("#message");
      check(msg === "", "greedy move " + v + " refused: " + msg);
    }
    won = !!(await page.$(".lesson-end.won"));
  }
  check(won, "a first-capture step won in five games");
  await shot(page, "lesson-1-won");
  await page.goto(base + "/#learn");
  await page.waitForSelector(".lesson-play[data-step='2']:not([disabled])");
  await ctx.close();
}

async function invitationAndSpectator(browser) {
  const a = await newPage(browser, "en-US");
  await newGame(a.page, { rules: "ffg", size: "9", opponent: "friend" });
  await a.page.waitForSelector("#invite:not([hidden])");
  const invite = await a.page.inputValue("#invite-url");
  const watch = await a.page.getAttribute("#watch-url", "href");
  check(invite.includes("#t="), "the invitation link holds a token");
  const token = invite.split("#t=")[1];
  const b = await newPage(browser, "en-US");
  await b.page.goto(invite);
  await b.page.waitForSelector("#board svg");
  check(!b.page.url().includes(token), "the token leaves the address once kept: " + b.page.url());
  const kept = await b.page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("tengen.token.")).length);
  check(kept === 1, "the token is kept in the page's storage");
  const c = await newPage(browser, "fr-FR", { width: 390, height: 844 });
  await c.page.goto(base + watch);
  await c.page.waitForSelector("#board svg");
  check((await c.page.textContent("#seat")).includes("spectateur"), "the third browser watches");
  check((await b.page.textContent("#seat")).includes("White"), "the invited browser plays White");
  await play(a.page, "D4");
  await b.page.waitForSelector('#board circle[data-v="D4"]');
  await play(b.page, "F6");
  await c.page.waitForSelector('#board circle[data-v="F6"]');
  await a.page.waitForSelector('#board circle[data-v="F6"]');
  const seen = await stones(c.page);
  check(seen.D4 === "black" && seen.F6 === "white", "the spectator sees both moves");
  // The spectator cannot play.
  check(await c.page.isHidden("#play-buttons"), "no play buttons for a spectator");
  await click(c.page, "E5");
  await c.page.waitForFunction(() => document.querySelector("#message").textContent.length > 0);
  check((await c.page.textContent("#message")).includes("spectateurs"), "the spectator is told why");
  check(!(await stones(a.page)).E5, "the spectator's click changed nothing");
  check(sockets.length >= 3 && sockets.every((u) => u.includes("/ws/") && !u.includes(token) && !u.includes("token")),
    "no socket address carries a token: " + sockets.join(" "));
  await shot(a.page, "friend-black");
  await shot(c.page, "friend-spectator-phone");
  for (const x of [a, b, c]) await x.ctx.close();
}

const KO = ["D5", "F6", "E6", "G5", "E4", "F4", "J9", "E5", "F5"];

async function koClickIsExplained(browser) {
  const { ctx, page } = await newPage(browser, "en-US");
  await newGame(page, { rules: "strasbourg", size: "9", opponent: "same_screen" });
  for (const v of KO) await play(page, v);
  await page.waitForFunction(() => !document.querySelector('#board circle[data-v="E5"]'));
  await click(page, "E5");
  await page.waitForFunction(() => document.querySelector("#message").textContent.length > 0);
  const msg = await page.textContent("#message");
  check(/^Ko: /.test(msg) && msg.includes("simple ko"), "the ko click names the rule: " + msg);
  check(!(await stones(page)).E5, "the illegal stone is not on the board");
  await shot(page, "ko-refused");
  // The keyboard plays too: cursor to A1 and Enter.
  await page.focus("#board svg");
  for (let i = 0; i < 4; i++) await page.keyboard.press("ArrowLeft");
  for (let i = 0; i < 4; i++) await page.keyboard.press("ArrowDown");
  const label = await page.getAttribute("#board svg", "aria-label");
  check(label === "A1, empty", "the cursor is labelled: " + label);
  await page.keyboard.press("Enter");
  await page.waitForSelector('#board circle[data-v="A1"].stone-white');
  await page.keyboard.press("ArrowUp");
  check((await page.getAttribute("#board svg", "aria-label")) === "A2, empty", "cursor moved up");
  await ctx.close();
}

async function gameEndsAndCounts(browser) {
  const { ctx, page } = await newPage(browser, "en-US");
  await newGame(page, { rules: "ffg", size: "9", opponent: "same_screen" });
  await play(page, "E5");
  await play(page, "J9");
  await page.click("#b-pass");
  await page.waitForFunction(() => document.querySelector("#game-info").textContent.includes("move 3"));
  await page.click("#b-pass");
  await page.waitForSelector("#mark-buttons:not([hidden])");
  await click(page, "J9");
  await page.waitForSelector('#board circle[data-v="J9"].dead');
  await shot(page, "dead-stones");
  await page.click("#b-accept-dead");
  await page.waitForSelector("#result");
  const result = await page.textContent("#result");
  check(result.includes("B+73.5") && result.includes("Black wins by 73.5 points"), "result: " + result);
  check(await page.$("table.count"), "the count table");
  check(await page.$("table.quick"), "the FFG quick count beside it");
  check((await page.$$("#board rect.territory-b")).length === 80, "80 points of Black territory marked");
  await shot(page, "count");
  await ctx.close();
}

async function reloadKeepsTheGame(browser) {
  const { ctx, page } = await newPage(browser, "en-US");
  await newGame(page, { rules: "chinese", size: "13", opponent: "same_screen" });
  for (const v of ["D4", "K10", "C11"]) await play(page, v);
  const url = page.url();
  await page.reload();
  await page.waitForSelector('#board circle[data-v="C11"]');
  check(page.url() === url, "same address after reload");
  const s = await stones(page);
  check(s.D4 === "black" && s.K10 === "white" && s.C11 === "black", "stones after reload");
  const stars = await page.$$eval("#board circle.star", (cs) => cs.length);
  check(stars === 5, "the server's five star points of 13x13: " + stars);
  check((await page.textContent("#seat")).includes("Both players"), "the seat survives the reload");
  await play(page, "L3");
  await ctx.close();
}

async function frenchPage(browser) {
  const { ctx, page } = await newPage(browser, "fr-FR");
  await page.goto(base + "/");
  await page.waitForSelector("#f-rules option[value=ffg]", { state: "attached" });
  check((await page.textContent("#new-game h1")) === "Nouvelle partie", "French title");
  check((await page.textContent("#f-create")) === "Commencer la partie", "French button");
  check((await page.textContent("#f-rules-desc")).includes("Fédération française"), "French preset line");
  const sizes = await page.$$eval("input[name=size]", (is) => is.map((i) => i.value + (i.checked ? "*" : "")));
  check(sizes.join(" ") === "9* 13 19 custom", "the sizes the server offers, the first chosen: " + sizes);
  await shot(page, "home-fr");
  await page.click("#lang-en");
  check((await page.textContent("#new-game h1")) === "New game", "switched to English");
  await shot(page, "home-en");
  await page.click("#lang-fr");
  await page.check("input[name=opponent][value=same_screen]");
  await page.click("#f-create");
  await page.waitForSelector("#board svg");
  check((await page.textContent("#b-pass")) === "Passer", "French pass button");
  check((await page.textContent("#b-resign")) === "Abandonner", "French resign button");
  await play(page, "D4");
  await page.focus("#board svg");
  // The cursor starts where the last click was.
  await page.keyboard.press("ArrowRight");
  check((await page.getAttribute("#board svg", "aria-label")) === "E4, vide", "cursor on E4");
  await page.keyboard.press("ArrowLeft");
  const label = await page.getAttribute("#board svg", "aria-label");
  check(label === "D4, pierre noire", "French screen-reader label: " + label);
  check((await page.textContent("#cursor-label")) === "D4, pierre noire", "announced to screen readers");
  await ctx.close();
}

async function reviewAnSgf(browser) {
  const { ctx, page } = await newPage(browser, "en-US");
  await page.goto(base + "/#review");
  await page.waitForSelector("#sgf-file");
  const file = path.join(shots, "variations.sgf");
  fs.writeFileSync(file, "(;GM[1]FF[4]SZ[9]PB[Honinbo]C[start];B[ee];W[gc]C[joseki?](;B[gg];W[cc])(;B[cg]))");
  await page.setInputFiles("#sgf-file", file);
  await page.waitForSelector("#reviewer:not([hidden]) #review-board svg");
  await page.click("#r-next");
  await page.click("#r-next");
  check((await page.textContent("#review-comment")) === "joseki?", "the comment of move 2");
  check(!(await page.isDisabled("#r-vars")), "two variations offered");
  await page.selectOption("#r-vars", { index: 1 });
  await page.click("#r-next");
  await page.waitForSelector('#review-board circle[data-v="C3"]');
  check(!(await stones(page, "#review-board")).G3, "the other variation is not shown");
  await page.click("#r-prev");
  await page.click("#r-last");
  await page.waitForSelector('#review-board circle[data-v="C7"]');
  await shot(page, "review");
  await ctx.close();
}

// The review's tree: keys, variation letters, the tree list, a comment
// edited, a variation played on the board, and the SGF downloaded with both.
async function reviewTreeAndEdits(browser) {
  const { ctx, page } = await newPage(browser, "en-US");
  await page.goto(base + "/#review");
  await page.waitForSelector("#sgf-file");
  const file = path.join(shots, "tree.sgf");
  fs.writeFileSync(file, "(;GM[1]FF[4]SZ[9]PB[Honinbo]C[start];B[cc];W[gg]C[joseki?](;B[ed];W[cg])(;B[ce])(;B[gc]))");
  await page.setInputFiles("#sgf-file", file);
  await page.waitForSelector("#reviewer:not([hidden]) #review-board svg");
  // Rough edge: the navigation buttons draw their icons, whatever the fonts.
  for (const id of ["r-first", "r-prev", "r-next", "r-last"]) {
    check(await page.$(`#${id} svg path`), id + " has an SVG icon");
    check((await page.textContent("#" + id)).trim() === "", id + " has no glyph to miss");
    check((await page.getAttribute("#" + id, "aria-label")).length > 3, id + " is labelled");
  }
  // Keys: right twice, to move 2 with its three variations.
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  check((await page.textContent("#review-move")).startsWith("move 2"), "move 2: " + await page.textContent("#review-move"));
  check((await page.textContent("#review-comment")) === "joseki?", "the comment of move 2");
  const letters = await page.$$eval("#review-board text.var-letter", (ts) => ts.map((t) => t.textContent + t.dataset.var));
  check(letters.join(" ") === "AE6 BC5 CG7", "variation letters on the board: " + letters);
  check(!(await page.isHidden("#r-vars-box")), "the variations list shows at a branch");
  await page.keyboard.press("ArrowRight");
  check((await stones(page, "#review-board")).E6 === "black", "right follows the main line");
  check((await page.textContent("#review-names")).includes("keima"), "the lexicon names the keima: " + await page.textContent("#review-names"));
  await page.keyboard.press("ArrowDown");
  await page.waitForSelector('#review-board circle[data-v="C5"]');
  check(!(await stones(page, "#review-board")).E6, "down: the next variation");
  await page.keyboard.press("ArrowDown");
  await page.waitForSelector('#review-board circle[data-v="G7"]');
  await page.keyboard.press("ArrowUp");
  await page.waitForSelector('#review-board circle[data-v="C5"]');
  // Rough edge: at the end of a line there is no empty list of variations.
  check(await page.isHidden("#r-vars-box"), "no variations list where there are none");
  await page.keyboard.press("Home");
  check((await page.textContent("#review-move")) === "move 0", "Home: the start");
  await page.keyboard.press("End");
  await page.waitForSelector('#review-board circle[data-v="C3"]');
  check((await page.textContent("#review-move")).startsWith("move 4"), "End: the end of the main line");
  // The tree: every node a button; a click jumps anywhere.
  check((await page.$$("#r-tree button.node")).length === 7, "seven nodes in the tree");
  check((await page.$$("#r-tree .branch")).length === 2, "two variations beside the main line");
  await page.click('#r-tree .branch button.node[title*="G7"]');
  await page.waitForSelector('#review-board circle[data-v="G7"]');
  check((await page.getAttribute('#r-tree button[aria-current]', "title")).includes("G7"), "the tree marks where the board is");
  // A new variation by playing on the board after move 2.
  await page.click("#r-prev");
  await page.click('#review-board rect.pt[data-v="D4"]');
  await page.waitForSelector('#review-board circle[data-v="D4"].stone-black');
  check((await page.textContent("#review-move")).startsWith("move 3"), "the new move is move 3");
  check((await page.$$("#r-tree .branch")).length === 3, "the new variation is in the tree");
  // Keys navigate after a click on the board (the cursor is not shown).
  await page.keyboard.press("ArrowLeft");
  check((await page.textContent("#review-move")).startsWith("move 2"), "left after a click: " + await page.textContent("#review-move"));
  await page.keyboard.press("ArrowRight");
  // A comment on it.
  await page.click("#r-comment-edit");
  await page.fill("#r-comment", "a calmer move [really]");
  await page.click("#r-comment-save");
  await page.waitForFunction(() => document.querySelector("#review-comment").textContent === "a calmer move [really]");
  await shot(page, "review-tree");
  // The SGF out holds both edits.
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#r-sgf")]);
  const saved = fs.readFileSync(await download.path(), "utf8");
  check(saved.includes(";B[df]C[a calmer move [really\\]]"), "the SGF has the variation and its comment: " + saved);
  check(saved.includes("(;B[ed]") && saved.includes("C[joseki?]"), "and the rest of the record: " + saved);
  // A move the rules refuse is explained, and changes nothing.
  await page.click('#review-board rect.pt[data-v="C7"]');
  await page.waitForFunction(() => document.querySelector("#r-edit-error").textContent.length > 0);
  // A reload keeps the record and where the board was.
  await page.reload();
  await page.waitForSelector('#reviewer:not([hidden]) #review-board circle[data-v="D4"]');
  check((await page.textContent("#review-comment")) === "a calmer move [really]", "the edit survives a reload");
  await ctx.close();
}

// The engine's analysis: progress, the graph, the mistakes (a click goes
// there), the preferred move and its line, the territory; a reload shows
// it again without searching.
async function reviewAnalysis(browser) {
  const { ctx, page } = await newPage(browser, "fr-FR");
  await page.goto(base + "/#review");
  await page.waitForSelector("#sgf-file");
  const file = path.join(shots, "analysis.sgf");
  fs.writeFileSync(file, "(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]PB[Noir]PW[Blanc];B[ee];W[gc];B[cg];W[cc];B[gg];W[dc];"
    + "B[fd];W[fc];B[eb];W[ed];B[fe];W[db];B[ai];W[ia];B[ah];W[ib];B[ag];W[ic];B[ge];W[ec];B[ii])");
  await page.setInputFiles("#sgf-file", file);
  await page.waitForSelector("#reviewer:not([hidden]) #review-board svg");
  check(await page.isHidden("#r-graph"), "no graph before the analysis");
  const before = (await (await page.request.get(base + "/api/health")).json()).positions_analysed;
  await page.click("#r-analyse");
  await page.waitForSelector("#r-progress:not([hidden])");
  await page.waitForFunction(() => /Analyse terminée/.test(document.querySelector("#r-progress-text").textContent),
    null, { timeout: 120000 });
  check((await page.getAttribute("#r-graph svg", "data-points")) === "22", "22 positions in the graph");
  check(await page.$("#r-graph polyline.winrate-line"), "the win-rate line");
  check(await page.$("#r-graph polyline.score-line"), "the score line");
  const after = (await (await page.request.get(base + "/api/health")).json()).positions_analysed;
  check(after - before === 22, "22 positions searched: " + (after - before));
  const mistakes = await page.$$("#r-mistakes button.mistake");
  check(mistakes.length > 0, "mistakes listed");
  const number = await mistakes[0].getAttribute("data-number");
  await mistakes[0].click();
  await page.waitForFunction((n) => document.querySelector("#review-move").textContent.startsWith("coup " + n), number);
  check((await page.getAttribute("#r-graph line.graph-cursor", "x1")) !== "0", "the graph marks the move");
  // The engine's move and its line, on demand.
  check(!(await page.$("#review-board circle.best-move")), "no engine move until asked");
  await page.check("#r-best");
  await page.waitForSelector("#review-board circle.best-move");
  check((await page.textContent("#r-eval")).includes("Chances de Noir"), "the evaluation in French: " + await page.textContent("#r-eval"));
  // The territory.
  await page.check("#r-owner");
  const owned = await page.$$eval("#review-board rect.own-b, #review-board rect.own-w", (rs) => rs.length);
  check(owned > 10, "the territory overlay: " + owned + " points");
  await shot(page, "review-analysis");
  // The graph goes to the move clicked.
  await page.click("#r-graph svg", { position: { x: 2, y: 40 } });
  await page.waitForFunction(() => document.querySelector("#review-move").textContent === "coup 0");
  // A reload: the analysis is shown again, not searched again.
  await page.reload();
  await page.waitForSelector("#reviewer:not([hidden]) #r-graph:not([hidden]) svg");
  check((await page.getAttribute("#r-graph svg", "data-points")) === "22", "the stored analysis after a reload");
  check(await page.isHidden("#r-analyse"), "nothing left to analyse");
  const again = (await (await page.request.get(base + "/api/health")).json()).positions_analysed;
  check(again === after, "nothing searched again: " + again + " vs " + after);
  await shot(page, "review-analysis-reloaded");
  // At phone size the panel goes under the board, the graph with it.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForSelector("#r-graph svg");
  check((await page.$eval("#r-graph svg", (s) => s.getBoundingClientRect().width)) <= 390, "the graph fits a phone");
  await shot(page, "review-analysis-phone");
  await ctx.close();
}

(async () => {
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const scenarios = { frenchPage, koClickIsExplained, gameEndsAndCounts, reloadKeepsTheGame,
    invitationAndSpectator, reviewAnSgf, beginnerWinsFirstCapture, reviewTreeAndEdits, reviewAnalysis };
  const only = process.env.SCENARIO;
  let failed = 0;
  for (const [name, run] of Object.entries(scenarios)) {
    if (only && only !== name) continue;
    try {
      violations.length = 0;
      await run(browser);
      check(violations.length === 0, "the content security policy refused: " + violations.join(" | "));
      console.log("ok   " + name);
    } catch (e) {
      failed++;
      console.log("FAIL " + name + ": " + (e && e.stack || e));
    }
  }
  await browser.close();
  process.exit(failed ? 1 : 0);
})();
