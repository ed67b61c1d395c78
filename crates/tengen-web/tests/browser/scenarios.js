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

// The answers a learner gives on the problems of the learning path: one
// wrong (the hint must show), then the right one (accepted).
const PROBLEMS = {
  "s1-capture": { wrong: "A1", right: "D3", gone: "D4" },
  "s1-chain": { wrong: 0, right: 1 },
  "s1-capture-chain": { wrong: "A1", right: "D3", gone: "D5" },
  "s1-atari": { wrong: "A1", right: "E4" },
  "s1-escape": { wrong: "A1", right: "D3" },
  "s2-suicide": { wrong: "A7", right: "D4" },
  "s2-capture-allowed": { wrong: "G7", right: "A1", gone: "B2" },
  "s2-two-eyes": { wrong: 0, right: 1 },
  "s3-ko-capture": { wrong: "A1", right: "E4", gone: "D4" },
  "s3-ko-why": { wrong: 0, right: 1 },
  "s3-ko-later": { wrong: "A7", right: "D4", gone: "E4" },
  "s3-end": { wrong: 1, right: 0 },
  "s4-territory": { wrong: 0, right: 1 },
  "s4-count": { wrong: 0, right: 1 },
  "s4-seki-capture": { wrong: "G7", right: "D1", gone: "A2" },
};

async function answerTeach(page, a) {
  if (typeof a === "number") await page.click(`#teach-options button[data-choice="${a}"]`);
  else await page.click(`#teach-board rect.pt[data-v="${a}"]`);
}

async function lessonProblemsAtPhoneSize(browser) {
  for (const [step, locale] of [[1, "en-US"], [2, "fr-FR"], [3, "en-US"], [4, "en-US"]]) {
    const { ctx, page } = await newPage(browser, locale, { width: 390, height: 844 });
    await page.goto(base + "/learn/" + step);
    await page.waitForSelector("#teach:not([hidden]) #teach-text p");
    const count = parseInt((await page.textContent("#teach-progress")).match(/(\d+)\D*$/)[1], 10);
    check(count >= 3, "step " + step + " has screens: " + count);
    if (step === 2) check((await page.textContent("#t-prev")) === "Retour", "French buttons");
    for (let i = 0; i < count; i++) {
      await page.waitForFunction((n) => document.querySelector("#teach-progress").textContent.match(/\d+/)[0] === String(n), i + 1);
      const hasQuestion = await page.isVisible("#teach-question");
      const id = await page.evaluate(() => document.querySelector("#teach-source").textContent);
      check(id.length > 0, "the source text is cited");
      if (step === 1 && i === 1) check((await page.$$("#teach-board circle.liberty")).length === 4, "four liberties marked");
      if (hasQuestion) {
        check(await page.isDisabled("#t-next"), "Next waits for the answer");
        const key = await page.evaluate(async (s) => {
          const screens = await (await fetch("/api/learn/" + s)).json();
          const n = parseInt(document.querySelector("#teach-progress").textContent.match(/\d+/)[0], 10);
          return screens[n - 1].id;
        }, step);
        const a = PROBLEMS[key];
        check(a, "an answer for " + key);
        if (key === "s1-escape") check(await page.$('#teach-board circle.atari[data-v="D4"]'), "the chain in atari is ringed");
        await answerTeach(page, a.wrong);
        await page.waitForSelector(".teach-feedback.wrong");
        const hint = await page.textContent("#teach-feedback");
        check(hint.length > 20, key + ": the hint shows: " + hint);
        check(await page.isDisabled("#t-next"), key + ": a wrong answer opens nothing");
        await shot(page, `lesson-${step}-${i + 1}-hint`);
        await answerTeach(page, a.right);
        await page.waitForSelector(".teach-feedback.right");
        if (a.gone) await page.waitForFunction((v) => !document.querySelector(`#teach-board circle[data-v="${v}"]`), a.gone);
      }
      await shot(page, `lesson-${step}-${i + 1}`);
      if (i + 1 < count) {
        check(!(await page.isDisabled("#t-next")), "Next opens once solved");
        await page.click("#t-next");
      }
    }
    check(await page.isVisible("#t-play"), "the last screen leads to the game");
    // A fresh learner reads every step, but only the first step's game is open.
    check((await page.isDisabled("#t-play")) === (step > 1), "step " + step + "'s game open only once earned");
    if (step === 1) {
      await page.click("#t-play");
      await page.waitForSelector("#board svg");
      await page.waitForSelector("#lesson-text:not([hidden])");
      check((await page.textContent("#game-info")).includes("first-capture"), "the step's game starts");
    }
    await ctx.close();
  }
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

(async () => {
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const scenarios = { frenchPage, koClickIsExplained, gameEndsAndCounts, reloadKeepsTheGame,
    invitationAndSpectator, reviewAnSgf, beginnerWinsFirstCapture, lessonProblemsAtPhoneSize };
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
