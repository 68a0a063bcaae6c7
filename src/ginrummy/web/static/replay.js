// Replay a finished game move by move, every card face up, and check each deal's commitment.
"use strict";
GR.header("History");
const $ = (id) => document.getElementById(id);
const gameId = location.pathname.split("/").pop();
// Four players: a deal's two hands were played at once, so they are replayed together, a
// board per table, one move of either table per step in the order the moves were made.
let data = null, group = 0, step = 0, timer = null;
let groups = [];  // the hands replayed together (four players: a deal's two tables), by hand index

function cards(box, list) {
  GR.fill(box, list.map((c) => GR.cardEl(c)));
}

// Board k's element of the given id (the first board has the page's ids; the second, "t2-" ones).
function q(k, id) {
  return $(k ? "t2-" + id : id);
}

function hands() {
  return groups[group].map((i) => data.hands[i]);
}

// The deal's moves at every table; at a step, each table shows its last frame made by then.
function moves() {
  return hands().reduce((n, h) => n + h.frames.length - 1, 0);
}

function frameAt(h) {
  let i = 0;
  while (i + 1 < h.frames.length && h.frames[i + 1].at <= step) i++;
  return i;
}

function showBoard(k, h) {
  const i = frameAt(h);
  const f = h.frames[i];
  // The two who play this hand, in its hand seats (three or four players: the hand says who).
  const names = h.seats ? h.seats.map((s) => data.names[s]) : data.names;
  const dealer = h.hand_dealer !== undefined ? h.hand_dealer : h.dealer;
  q(k, "board").textContent = data.players === 4 ? `Table ${h.table + 1}: ${names[0]} against ${names[1]}` : "";
  q(k, "board").hidden = data.players !== 4;
  q(k, "replay-board").classList.toggle("moved", groups[group].length > 1 && f.at === step && step > 0);
  for (const s of [0, 1]) {
    q(k, "n" + s).textContent = names[s] + (dealer === s ? " (dealer)" : "");
    q(k, "d" + s).textContent = f.current === s ? "to play" : "";
    cards(q(k, "h" + s), f.hands[s].slice().sort((a, b) => GR.sortKey(a) - GR.sortKey(b)));
  }
  GR.fill(q(k, "stock"), f.stock.length ? GR.cardEl(f.stock[0]) : null);
  q(k, "stock-label").textContent = `stock: ${f.stock.length} (top shown)`;
  GR.fill(q(k, "pile"), f.pile.length ? GR.cardEl(f.pile[f.pile.length - 1]) : null);
  q(k, "pile-label").textContent = `discard pile: ${f.pile.length}`;
  q(k, "action").textContent = f.words;  // the move in the rule documents' words, from the server
  const { el } = GR;
  const grp = (cs) => el("div", { class: "meldgroup" }, cs.map((c) => el("div", { class: "card" }, GR.cardSVG(c))));
  GR.fill(q(k, "laid"), f.knocker === null ? null : [
    el("div", {},
      el("strong", {}, names[f.knocker] + " knocked" + (f.knock_discard ? " (face-down discard " + GR.label(f.knock_discard) + ")" : "")),
      el("div", { class: "layout-block" }, f.knocker_melds.map((m, i) => grp(m.concat(f.laid_on[i] || []))))),
    el("div", {},
      el("strong", {}, names[1 - f.knocker]),
      el("div", { class: "layout-block" }, f.defender_melds.map(grp))),
  ]);
  return i === h.frames.length - 1 && h.explain ? h.explain : null;
}

function show() {
  const n = moves();
  $("step").max = n;
  $("step").value = step;
  $("stepno").textContent = `move ${step} of ${n}`;
  const done = hands().map((h, k) => showBoard(k, h));
  const lines = done.filter((t) => t !== null);
  GR.fill("explain", lines.flatMap((t, i) => (i ? [GR.el("br"), t] : [t])));
}

// The line whose SHA-256 was shown at the table when the hand was dealt (docs/fair-deals.md, /fair).
function commitmentText(h) {
  if (h.scheme === 1) {
    const ids = h.deck.map((c) => "A23456789TJQK".indexOf(c[0]) + 13 * "shdc".indexOf(c[1]));
    return `${gameId}:${h.hand - 1}:${h.nonce}:${ids.join(",")}`;
  }
  return `ginrummy-deal-v2 game ${gameId} hand ${h.hand} nonce ${h.nonce} deck ${h.deck.join(" ")}`;
}

async function sha256hex(text) {
  if (globalThis.crypto && crypto.subtle) {
    const buf = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
    return [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");
  }
  return globalThis.sha256(text);  // static/vendor/sha256.min.js, where the page is not a secure context
}

// Hash the revealed deck and nonce here, and compare with what this browser saw at the table.
async function checkCommit(h) {
  const hex = await sha256hex(commitmentText(h));
  const seen = GR.dealsSeen(gameId)[h.hand];
  if (seen) {
    return hex === seen
      ? `Deal checked: the deck and nonce hash to ${hex.slice(0, 16)}…, the commitment this browser was shown at the table before the hand was played.`
      : `Deal does NOT match: the deck hashes to ${hex.slice(0, 16)}…, but this browser was shown ${seen.slice(0, 16)}… at the table.`;
  }
  const note = "This browser did not see this hand at the table: compare with the value your opponent noted, or check the record with `ginrummy verify`.";
  return hex === h.commitment
    ? `The deck and nonce hash to ${hex.slice(0, 16)}…, the recorded commitment. ${note}`
    : `Deal does NOT match its recorded commitment ${h.commitment.slice(0, 16)}….`;
}

async function selectGroup(g) {
  group = g; step = 0; show();
  const checks = await Promise.all(hands().map(checkCommit));
  const prefix = (h) => (groups[group].length > 1 ? `Table ${h.table + 1}: ` : "");
  GR.fill("commit", checks.flatMap((t, i) => [...(i ? [GR.el("br")] : []), prefix(hands()[i]) + t]));
}

function move(d) {
  step = Math.max(0, Math.min(moves(), step + d));
  show();
}

function togglePlay() {
  if (timer) { clearInterval(timer); timer = null; $("play").textContent = "▶ Play"; return; }
  $("play").textContent = "⏸ Pause";
  timer = setInterval(() => {
    if (step >= moves()) {
      if (group < groups.length - 1) { $("hand").value = group + 1; selectGroup(group + 1); } else togglePlay();
    } else move(1);
  }, 700);
}

// The second board: a copy of the first with its ids prefixed, side by side on a wide screen.
function twoBoards() {
  const first = $("replay-board");
  const second = first.cloneNode(true);
  for (const e of [second, ...second.querySelectorAll("[id]")]) e.id = "t2-" + e.id;
  first.after(second);
  $("boards").classList.add("two");
}

function label(h) {
  return h.explain ? h.explain.split(":")[0].slice(0, 40) : "";
}

async function init() {
  data = await GR.api(`/api/games/${gameId}/replay`);
  $("title").textContent = `Replay: ${(data.players === 4 ? data.columns : data.names).join(" vs ")}`;
  $("export").href = `/api/games/${gameId}/record`;
  groups = [];
  data.hands.forEach((h, i) => {
    if (data.players === 4 && h.table === 1) groups[groups.length - 1].push(i);
    else groups.push([i]);
  });
  if (data.players === 4) {
    twoBoards();
    $("hand-label").firstChild.textContent = "Deal ";
  }
  GR.fill("hand", groups.map((g, i) => {
    const hs = g.map((k) => data.hands[k]);
    const text = data.players === 4 ? `${hs[0].deal}: ${hs.map(label).join(" / ")}` : `${hs[0].hand}: ${label(hs[0])}`;
    return GR.el("option", { value: String(i) }, text);
  }));
  $("hand").onchange = () => selectGroup(+$("hand").value);
  $("first").onclick = () => { step = 0; show(); };
  $("last").onclick = () => { step = moves(); show(); };
  $("prev").onclick = () => move(-1);
  $("next").onclick = () => move(1);
  $("play").onclick = togglePlay;
  $("step").oninput = () => { step = +$("step").value; show(); };
  GR.fill("final", data.final.explain.map((l) => GR.el("li", {}, l)));
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowLeft") move(-1);
    else if (e.key === "ArrowRight") move(1);
    else if (e.key === " ") { togglePlay(); e.preventDefault(); }
    else if (e.key === "Home") { step = 0; show(); }
    else if (e.key === "End") { step = moves(); show(); }
  });
  selectGroup(0);
}
init().catch((e) => { $("error").textContent = e.message; });
