// Replay a finished game move by move, every card face up, and check each deal's commitment.
"use strict";
GR.header("History");
const $ = (id) => document.getElementById(id);
const gameId = location.pathname.split("/").pop();
let data = null, hand = 0, step = 0, timer = null;

function cards(box, list) {
  GR.fill(box, list.map((c) => GR.cardEl(c)));
}

function show() {
  const h = data.hands[hand];
  const f = h.frames[step];
  $("step").max = h.frames.length - 1;
  $("step").value = step;
  $("stepno").textContent = `move ${step} of ${h.frames.length - 1}`;
  // The two who play this hand, in its hand seats (three or four players: the hand says who).
  const names = h.seats ? h.seats.map((s) => data.names[s]) : data.names;
  const dealer = h.hand_dealer !== undefined ? h.hand_dealer : h.dealer;
  for (const s of [0, 1]) {
    $("n" + s).textContent = names[s] + (dealer === s ? " (dealer)" : "");
    $("d" + s).textContent = f.current === s ? "to play" : "";
    cards($("h" + s), f.hands[s].slice().sort((a, b) => GR.sortKey(a) - GR.sortKey(b)));
  }
  GR.fill("stock", f.stock.length ? GR.cardEl(f.stock[0]) : null);
  $("stock-label").textContent = `stock: ${f.stock.length} (top shown)`;
  GR.fill("pile", f.pile.length ? GR.cardEl(f.pile[f.pile.length - 1]) : null);
  $("pile-label").textContent = `discard pile: ${f.pile.length}`;
  $("action").textContent = f.words;  // the move in the rule documents' words, from the server
  const { el } = GR;
  const grp = (cs) => el("div", { class: "meldgroup" }, cs.map((c) => el("div", { class: "card" }, GR.cardSVG(c))));
  GR.fill("laid", f.knocker === null ? null : [
    el("div", {},
      el("strong", {}, names[f.knocker] + " knocked" + (f.knock_discard ? " (face-down discard " + GR.label(f.knock_discard) + ")" : "")),
      el("div", { class: "layout-block" }, f.knocker_melds.map((m, i) => grp(m.concat(f.laid_on[i] || []))))),
    el("div", {},
      el("strong", {}, names[1 - f.knocker]),
      el("div", { class: "layout-block" }, f.defender_melds.map(grp))),
  ]);
  $("explain").textContent = step === h.frames.length - 1 && h.explain ? h.explain : "";
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

async function selectHand(i) {
  hand = i; step = 0; show();
  $("commit").textContent = await checkCommit(data.hands[hand]);
}

function move(d) {
  const n = data.hands[hand].frames.length;
  step = Math.max(0, Math.min(n - 1, step + d));
  show();
}

function togglePlay() {
  if (timer) { clearInterval(timer); timer = null; $("play").textContent = "▶ Play"; return; }
  $("play").textContent = "⏸ Pause";
  timer = setInterval(() => {
    if (step >= data.hands[hand].frames.length - 1) {
      if (hand < data.hands.length - 1) { $("hand").value = hand + 1; selectHand(hand + 1); } else togglePlay();
    } else move(1);
  }, 700);
}

async function init() {
  data = await GR.api(`/api/games/${gameId}/replay`);
  $("title").textContent = `Replay: ${(data.players === 4 ? data.columns : data.names).join(" vs ")}`;
  $("export").href = `/api/games/${gameId}/record`;
  GR.fill("hand", data.hands.map((h, i) => GR.el("option", { value: String(i) }, `${h.hand}: ${h.explain ? h.explain.split(":")[0].slice(0, 40) : ""}`)));
  $("hand").onchange = () => selectHand(+$("hand").value);
  $("first").onclick = () => { step = 0; show(); };
  $("last").onclick = () => { step = data.hands[hand].frames.length - 1; show(); };
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
    else if (e.key === "End") { step = data.hands[hand].frames.length - 1; show(); }
  });
  selectHand(0);
}
init().catch((e) => { $("error").textContent = e.message; });
