// The table: one WebSocket for this seat; every button comes from view.legal (the engine's list).
"use strict";
GR.header("Play");

const gameId = location.pathname.split("/").pop();
const hashToken = new URLSearchParams(location.hash.slice(1)).get("t");
if (hashToken) localStorage.setItem("gr.token." + gameId, hashToken);
const token = hashToken || localStorage.getItem("gr.token." + gameId);

const $ = (id) => document.getElementById(id);
const { el } = GR;
const MELD_COLOURS = ["#e0a526", "#4aa3df", "#c56cf0", "#2ecc71", "#ff7f50"];
let ws = null;
let state = null;
let selected = null;
let order = [];
let newCards = new Set();
let lastHandNo = null;
let retry = 0;
let finalClosed = false;
let renaming = false;  // the name form reopened by "Rename"

function orderKey() { return `gr.order.${gameId}`; }

function connect() {
  if (!token) { $("turn").textContent = "This link has no seat token: open the link you were given."; return; }
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/api/ws/${gameId}`);
  ws.onopen = () => { retry = 0; ws.send(JSON.stringify({ type: "hello", token })); };
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "state") { render(msg); }
    else if (msg.type === "error") { showError(msg.message); if (msg.error === "forbidden") ws.onclose = null; }
    else if (msg.type === "hint") { showHints(msg.hints); }
  };
  ws.onclose = () => {
    $("turn").textContent = "Connection lost: reconnecting…";
    $("turn").className = "turn";
    retry = Math.min(retry + 1, 6);
    setTimeout(connect, 300 * retry);
  };
}

function send(msg) {
  if (!ws || ws.readyState !== 1 || !state) return;
  showError("");
  ws.send(JSON.stringify({ ...msg, seq: state.seq }));
}
function act(action) { send({ type: "action", action }); }

function showError(text) { $("error").textContent = text || ""; }

// ---------------------------------------------------------------- the hand's order
function syncOrder(view, handNo) {
  const hand = view.hand;
  if (handNo !== lastHandNo) {
    const saved = JSON.parse(localStorage.getItem(orderKey()) || "null");
    if (saved && saved.hand === handNo) order = saved.order;
    else order = sortCards(hand);
    newCards = new Set();
    lastHandNo = handNo;
  }
  const inHand = new Set(hand);
  const kept = order.filter((c) => inHand.has(c));
  const added = hand.filter((c) => !kept.includes(c));
  if (added.length && kept.length) newCards = new Set(added);
  order = kept.concat(added);
  if (selected && !inHand.has(selected)) selected = null;
  saveOrder();
}
function saveOrder() { localStorage.setItem(orderKey(), JSON.stringify({ hand: lastHandNo, order })); }
function sortCards(cards, by) {
  by = by || GR.prefs().order;
  return cards.slice().sort((a, b) => GR.sortKey(a, by) - GR.sortKey(b, by));
}
function arrange() {
  if (!state) return;
  const m = state.mine;
  const melded = m.melds.map((g) => sortCards(g, "suit"));
  order = melded.flat().concat(sortCards(m.deadwood_cards, "suit").filter((c) => order.includes(c)));
  order = order.concat(state.view.hand.filter((c) => !order.includes(c)));
  saveOrder();
  render(state);
}
function toggleSort() {
  const by = GR.prefs().order === "suit" ? "rank" : "suit";
  localStorage.setItem("gr.order", by);
  order = sortCards(order, by);
  saveOrder();
  render(state);
}

// ---------------------------------------------------------------- rendering
const PROMPTS = {
  offer: "Take the upcard, or pass",
  draw: "Draw from the stock or the discard pile",
  discard: "Discard a card (or knock)",
  last_chance: "Last chance: take the last discard to knock with it, or pass",
  layout: "Lay out your melds (Best layout does it for you)",
  defender_layout: "Lay out your melds, then lay off",
  layoff: "Lay off cards on the knocker's melds, then Done",
};

function names() {
  const n = state.game.names.slice();
  if (state.game.computer_seat !== null) n[state.seat] = "You";
  return n;
}

function render(msg) {
  state = msg;
  const v = msg.view, g = msg.game, me = msg.seat, opp = 1 - me;
  const nm = names();
  syncOrder(v, g.hand_no);
  $("opp-name").textContent = g.names[opp];
  $("my-name").textContent = g.names[me] + (v.dealer === me ? " (dealer)" : "");
  $("opp-dot").className = "status-dot" + (g.connected[opp] ? " on" : "");
  $("opp-dot").title = g.connected[opp] ? "connected" : "not connected";
  $("opp-info").textContent = `${v.dealer === opp ? "dealer · " : ""}${g.connected[opp] ? "" : "not connected · "}${v.opponent_size} cards`;
  const openGame = g.hollywood && g.game_columns ? g.game_columns.find((c) => c.open) : null;
  document.body.classList.toggle("hollywood", !!g.hollywood);
  $("hand-info").textContent = `Hand ${g.hand_no} · ${openGame ? `game ${openGame.game}: ` : ""}${nm[0]} ${g.scores[0]} – ${nm[1]} ${g.scores[1]} · game to ${targetOf(g)}`;
  $("deckhash").textContent = (g.deck_hash || "").slice(0, 16) + "…";

  // Opponent: backs plus the cards known face up (taken from the pile).
  const oppCards = [];
  if (v.knocker === null || v.phase !== "over") {
    const known = v.opponent_known;
    for (const c of known) oppCards.push(GR.cardEl(c));
    for (let i = known.length; i < v.opponent_size; i++) oppCards.push(GR.cardEl(null));
  }
  GR.fill("opp-hand", oppCards);

  // Centre: stock, pile, and the knocker's layout as it happens.
  const legal = new Set(v.legal);
  GR.fill("stock", v.stock_size > 0 ? GR.cardEl(null) : null);
  $("stock-label").textContent = `stock: ${v.stock_size}`;
  $("stock-box").classList.toggle("clickable", legal.has("stock"));
  GR.fill("pile", v.pile.length ? GR.cardEl(v.pile[v.pile.length - 1]) : null);
  $("pile-label").textContent = v.phase === "offer" ? "upcard" : `discard pile: ${v.pile.length}`;
  $("pile-box").classList.toggle("clickable", legal.has("pile"));
  $("knockbox").classList.toggle("hidden", !v.knock_discard);
  GR.fill("knockcard", v.knock_discard ? GR.cardEl(v.knock_discard) : null);
  GR.fill("laid", v.knocker !== null && v.phase !== "over" ? layout(v, nm) : null);

  // A friend's table: keep the invite link at hand until they join.
  const invite = g.opponent === "human" && me === 0 ? localStorage.getItem("gr.invite." + gameId) : null;
  $("invite-note").classList.toggle("hidden", !invite || g.connected[opp]);
  if (invite) $("invite-link").value = invite;

  // A friend who joined by link names themself once (the name is stored with the seat).
  // Anyone at the table may rename their own seat later ("Rename"); the computer's seat has no button.
  const askName = g.opponent === "human" && me === 1 && !localStorage.getItem("gr.named." + gameId);
  const joinBox = $("join-name");
  if (askName && joinBox.classList.contains("hidden")) $("name-input").value = g.names[me] === "Player 2" ? "" : g.names[me];
  joinBox.classList.toggle("hidden", !(askName || renaming));

  // What the other player just did, so a person can follow the computer's moves.
  const last = g.last;
  $("last").textContent = last && last.seat === opp ? `${g.names[opp]}: ${describeLast(last.action, v)}` : "";

  // Turn banner.
  const turn = $("turn");
  const mine = v.current === me;
  if (g.status === "finished") { turn.textContent = "Game over"; turn.className = "turn"; }
  else if (v.phase === "over") { turn.textContent = "Hand over"; turn.className = "turn"; }
  else if (mine) { turn.textContent = "Your turn: " + PROMPTS[v.phase]; turn.className = "turn mine"; }
  else { turn.textContent = `${g.names[opp]} to play${v.phase === "offer" ? " (upcard offer)" : ""}…`; turn.className = "turn"; }

  // Deadwood.
  const m = msg.mine;
  $("deadwood").textContent = `Deadwood ${m.deadwood}` + (m.after_discard !== null ? ` · after your best discard ${m.after_discard}` : "");

  renderHand(v, m);
  renderActions(v, legal, mine);
  renderHandEnd(msg, nm);
  renderSheet(g, nm);
  GR.fill("rules", g.rules_text.map((l) => el("li", {}, l)));
  GR.fill("log", v.events.slice(-14).map((e) => el("li", {}, `${e.seat === me ? "You" : g.names[opp]}: ${prettyAction(e.action)}`)));
  $("log").scrollTop = 1e6;
  if (!mine) $("hints").classList.add("hidden");
  renderFinal(g, nm);
}

function describeLast(action, v) {
  if (action === "stock") return "drew from the stock";
  if (action === "pile") return "took from the pile";
  if (action === "pass") return "passed";
  if (action === "knock") return "knocked";
  if (action === "done") return "done";
  if (action.startsWith("meld ")) return "laid a meld";
  if (action.startsWith("layoff ")) return "laid off " + GR.label(action.split(" ")[1]);
  if (/^[A2-9TJQK][shdc]$/.test(action)) return "discarded " + GR.label(action);
  return action;
}

function targetOf(g) {
  const line = g.rules_text.find((l) => l.startsWith("Game to"));
  const m = line && line.match(/Game to (\d+)/);
  return m ? m[1] : "100";
}

function prettyAction(a) {
  return a.replace(/\b([A2-9TJQK])([shdc])\b/g, (_, r, s) => GR.label(r + s));
}

// A tap (or click) selects a card; a second tap on the selected card discards it when that is
// legal now (so a double-click discards too). A third tap on the same state within a moment is
// ignored, so a quick double tap on a selected card sends one discard, not two.
let tapped = { seq: null, at: 0 };
function tapCard(c) {
  const v = state.view;
  if (selected === c && v.current === state.seat && v.phase === "discard" && v.legal.includes(c)) {
    if (tapped.seq === state.seq && Date.now() - tapped.at < 1500) return;
    tapped = { seq: state.seq, at: Date.now() };
    act(c);
    return;
  }
  selected = selected === c ? null : c;
  render(state);
}

// Dragging a card (mouse, finger or pen) moves it in the hand's order.
const handDrag = GR.dragReorder($("my-hand"), {
  move: (code, index) => {
    order = order.filter((x) => x !== code);
    order.splice(index, 0, code);
    saveOrder();
  },
  done: () => { if (state) render(state); },
});

function renderHand(v, m) {
  if (handDrag.active()) return;  // redrawn when the drag ends
  const box = GR.fill("my-hand");
  const meldOf = {};
  m.melds.forEach((g, i) => g.forEach((c) => { meldOf[c] = i; }));
  let prev;
  order.forEach((c, i) => {
    const cls = [];
    if (c === selected) cls.push("selected");
    if (newCards.has(c)) cls.push("new");
    const group = meldOf[c] === undefined ? -1 : meldOf[c];
    if (i > 0 && group !== prev && (group >= 0 || prev >= 0)) cls.push("gap");
    prev = group;
    const card = GR.cardEl(c, cls.join(" "));
    card.tabIndex = 0;
    card.setAttribute("role", "button");
    if (group >= 0) {
      const bar = document.createElement("div");
      bar.className = "meldbar";
      bar.style.background = MELD_COLOURS[group % MELD_COLOURS.length];
      card.appendChild(bar);
    }
    card.onclick = () => tapCard(c);
    box.appendChild(card);
  });
}

function button(text, key, onclick, primary, testid) {
  return el("button", { type: "button", class: primary ? "primary" : null, dataset: testid ? { action: testid } : null, onclick },
    text, key ? el("kbd", {}, key) : null);
}

function knockChoices(v) {
  // Each legal knock with the deadwood it leaves (from this seat's own cards).
  return v.legal.filter((a) => a.startsWith("knock ")).map((a) => ({ action: a, card: a.slice(6), left: state.mine.after && state.mine.after[a.slice(6)] }));
}

function renderActions(v, legal, mine) {
  const box = GR.fill("actions");
  if (!mine) return;
  const top = v.pile[v.pile.length - 1];
  if (legal.has("stock")) box.appendChild(button("Draw from the stock", "S", () => act("stock"), true, "stock"));
  if (legal.has("pile")) {
    const text = v.phase === "offer" ? `Take the upcard ${GR.label(top)}` : v.phase === "last_chance" ? `Take ${GR.label(top)} to knock` : `Take ${GR.label(top)} from the pile`;
    box.appendChild(button(text, "P", () => act("pile"), false, "pile"));
  }
  if (legal.has("pass")) box.appendChild(button(v.phase === "last_chance" ? "Pass (dead hand)" : "Pass", "X", () => act("pass"), false, "pass"));
  if (v.phase === "discard") {
    if (selected && legal.has(selected)) box.appendChild(button(`Discard ${GR.label(selected)}`, "D", () => act(selected), true, "discard"));
    else if (legal.size) box.append(el("span", { class: "muted" }, "Tap a card, then Discard (or tap it again)"));
    const knocks = knockChoices(v);
    const gin = knocks.filter((k) => k.left === 0);
    if (gin.length) box.appendChild(button(`Gin! (discard ${GR.label(gin[0].card)} face down)`, "G", () => act(gin[0].action), true, "gin"));
    else if (knocks.length) {
      const sel = selected && legal.has("knock " + selected) ? "knock " + selected : null;
      const best = knocks.slice().sort((a, b) => (a.left ?? 99) - (b.left ?? 99))[0];
      const k = sel || best.action;
      const card = k.slice(6);
      box.appendChild(button(`Knock (discard ${GR.label(card)} face down)`, "K", () => act(k), true, "knock"));
    }
    if (legal.has("big gin")) box.appendChild(button("Big gin!", "", () => act("big gin"), true, "big-gin"));
  }
  if (["layout", "defender_layout", "layoff"].includes(v.phase)) {
    box.appendChild(button(v.phase === "layout" ? "Best layout" : "Best melds and layoffs", "L", () => send({ type: "auto" }), true, "auto"));
    for (const a of v.legal) {
      if (a.startsWith("meld ")) box.appendChild(button(`Meld ${prettyAction(a.slice(5).match(/../g).join(" "))}`, "", () => act(a), false, "meld"));
      else if (a.startsWith("layoff ")) {
        const [, c, t] = a.split(" ");
        box.appendChild(button(`Lay off ${GR.label(c)} on meld ${+t + 1}`, "", () => act(a), false, "layoff"));
      }
    }
    if (legal.has("done")) box.appendChild(button("Done", "", () => act("done"), false, "done"));
  }
}

function meldGroup(cards, laid, cls) {
  return el("div", { class: "meldgroup" + (cls ? " " + cls : "") }, cards.map((c) =>
    el("div", { class: "card" + (laid && laid.includes(c) ? " laid" : ""), title: GR.name(c) }, GR.cardSVG(c))));
}

// The knocker's melds (with what was laid off on them) and the defender's, as they stand.
function layout(v, nm) {
  const knocker = v.knocker, defender = 1 - knocker, me = v.seat;
  const handOf = (seat) => (seat === me ? v.hand : v.opponent_known);
  const km = v.knocker_melds.map((m, i) => {
    const laid = v.laid_on[i] || [];
    return el("div", {}, el("div", { class: "label" }, `meld ${i + 1}`), meldGroup(m.concat(laid), laid));
  });
  const kIn = new Set(v.knocker_melds.flat());
  const kDead = v.phase === "over" || knocker === me ? handOf(knocker).filter((c) => !kIn.has(c)) : [];
  const dIn = new Set(v.defender_melds.flat().concat(v.layoffs.map((l) => l.card)));
  const dCards = handOf(defender);
  const dDead = v.phase === "over" ? dCards.filter((c) => !dIn.has(c)) : [];
  const dm = v.defender_melds.map((m) => el("div", {}, meldGroup(m)));
  const dead = (cs) => (cs.length ? el("div", {}, el("div", { class: "label" }, "deadwood"), meldGroup(cs, null, "deadwoodgroup")) : null);
  const layoffs = v.layoffs.length ? el("p", { class: "muted" }, "Laid off: " + v.layoffs.map((l) => `${GR.label(l.card)} on meld ${l.meld + 1}`).join(", ")) : null;
  return [
    el("div", {}, el("strong", {}, nm[knocker] + " knocked"), el("div", { class: "layout-block" }, km, dead(kDead))),
    el("div", {}, el("strong", {}, nm[defender]), el("div", { class: "layout-block" }, dm, dead(dDead)), layoffs),
  ];
}

function renderHandEnd(msg, nm) {
  const v = msg.view, g = msg.game;
  const box = $("handend");
  if (v.phase !== "over") { box.classList.add("hidden"); return; }
  const wasHidden = box.classList.contains("hidden");
  box.classList.remove("hidden");
  if (wasHidden) box.scrollIntoView({ block: "nearest" });
  const r = v.result;
  const titles = { knock: "Knock", undercut: "Undercut!", gin: "Gin!", big_gin: "Big gin!", dead: "Dead hand" };
  $("handend-title").textContent = `Hand ${g.hand_no}: ${titles[r.kind]}` + (r.winner !== null ? ` · ${nm[r.winner]} ${r.winner === msg.seat && nm[r.winner] === "You" ? "score" : "scores"} ${r.points}` : "");
  $("explain").textContent = youGrammar(msg.explain || "");
  GR.fill("handend-layout", v.knocker !== null ? layout(v, nm) : null);
  const next = $("next");
  next.classList.toggle("hidden", g.status === "finished");
  next.disabled = g.ready[msg.seat];
  $("next-wait").textContent = g.ready[msg.seat] && !g.ready[1 - msg.seat] ? `Waiting for ${g.names[1 - msg.seat]}…` : "";
}

function youGrammar(text) {
  // The engine writes "<name> scores"; with the name "You" that needs the plain verb.
  return text.replace(/You's/g, "your").replace(/\bYou scores\b/g, "You score").replace(/\bYou wins\b/g, "You win");
}


function renderSheet(g, nm) {
  if (g.hollywood && g.game_columns && g.game_columns.length > 1) { renderHollywood(g, nm); return; }
  const rows = g.sheet.map((row) => {
    const r = row.result;
    const cells = r.kind === "dead" ? el("td", { colSpan: 2, class: "muted" }, "dead hand") : [0, 1].map((s) => (r.winner === s
      ? el("td", { class: "num win" }, r.points, el("span", { class: "muted" }, " " + (r.kind === "knock" ? "" : r.kind.replace("_", " "))))
      : el("td", { class: "num" })));
    return el("tr", {}, el("td", {}, row.hand), cells, el("td", { class: "num muted" }, row.totals[0].join(" – ")));
  });
  const boxes = [0, 1].map((s) => el("td", { class: "num boxes", title: `${g.hands_won[s]} hands won` }, "☒".repeat(Math.min(g.hands_won[s], 12))));
  GR.fill("sheet",
    el("thead", {}, el("tr", {}, el("th", {}, "Hand"), el("th", { class: "num" }, nm[0]), el("th", { class: "num" }, nm[1]), el("th", { class: "num" }, "Total"))),
    el("tbody", {}, rows),
    el("tfoot", {},
      el("tr", {}, el("th", {}, "Total"), el("th", { class: "num" }, g.scores[0]), el("th", { class: "num" }, g.scores[1]), el("th")),
      el("tr", {}, el("th", {}, "Boxes"), boxes, el("td"))));
  $("sheet-note").textContent = g.games > 1 ? "Hollywood: totals shown for the first game still open." : "";
}

// Hollywood: three games side by side, as on a paper sheet. A player's 1st win is written in game 1,
// the 2nd in games 1 and 2, each later win in every game still open; a closed game takes no more.

function renderHollywood(g, nm) {
  const cols = g.game_columns;
  const both = (fn) => [0, 1].map(fn);
  const gs = (s) => (s === 0 ? " gstart" : "");
  const head1 = cols.map((c) => el("th", { colSpan: 2, class: `gstart game-head${c.open ? "" : " closed"}`, dataset: { game: c.game } }, `Game ${c.game}${c.open ? "" : " ✓"}`));
  const short = (n) => (n.length > 4 ? n.slice(0, 3) + "." : n);
  const head2 = cols.map(() => both((s) => el("th", { class: "num" + gs(s), title: nm[s] }, short(nm[s]))));
  const rows = g.sheet.map((row) => {
    const r = row.result;
    const cells = cols.map((c, gi) => {
      const closedBefore = c.closed_by !== null && c.closed_by < row.hand;
      const written = row.written.includes(gi);
      return both((s) => {
        const cls = "num hw" + gs(s) + (closedBefore ? " shut" : "") + (row.closed.includes(gi) && r.winner === s ? " closer" : "");
        if (r.kind === "dead" || !written || r.winner !== s) return el("td", { class: cls });
        return el("td", { class: cls + " win", title: `+${r.points}: ${row.totals[gi][s]} in game ${c.game}` },
          row.totals[gi][s], el("span", { class: "pts" }, `+${r.points}`));
      });
    });
    const label = r.kind === "dead" ? [" ", el("span", { class: "muted" }, "dead")]
      : r.kind === "knock" ? null : [" ", el("span", { class: "muted" }, r.kind.replace("_", " "))];
    return el("tr", {}, el("td", {}, row.hand, label), cells);
  });
  const totals = cols.map((c) => both((s) => el("th", { class: "num" + gs(s) + (c.winner === s ? " win" : "") }, c.scores[s])));
  const status = cols.map((c) => el("td", { colSpan: 2, class: "muted game-status gstart" }, c.open ? "open" : `✓ ${short(nm[c.winner])} h${c.closed_by}`));
  GR.fill("sheet",
    el("thead", {}, el("tr", {}, el("th", { rowSpan: 2 }, "Hand"), head1), el("tr", {}, head2)),
    el("tbody", {}, rows),
    el("tfoot", {}, el("tr", {}, el("th", {}, "Total"), totals), el("tr", {}, el("th"), status)));
  $("sheet").classList.add("hollywood");
  const legend = both((s) => `${short(nm[s])} = ${nm[s]}`).join(", ");
  GR.fill("sheet-note",
    `Hollywood: three games at once; each cell is the running total (+ the hand's points); ✓ h3 = closed in hand 3. ${legend}.`,
    el("br"), `Hands won: ${nm[0]} ${g.hands_won[0]} · ${nm[1]} ${g.hands_won[1]}`);
}

function renderFinal(g, nm) {
  const box = $("final");
  if (g.status !== "finished" || !g.final || finalClosed) { box.classList.add("hidden"); return; }
  box.classList.remove("hidden");
  const f = g.final;
  const win = f.winner === null ? "A tie" : f.winner === state.seat ? "You win!" : `${g.names[f.winner]} wins`;
  const w = f.winner === null ? 0 : f.winner;
  $("final-title").textContent = `${win} ${f.totals[w]} to ${f.totals[1 - w]}` + (f.winner !== null ? `, by ${f.margin}` : "");
  const num = (tag, x) => el(tag, { class: "num" }, x);
  const line = (label, key) => el("tr", {}, el("td", {}, label), num("td", f[key][0]), num("td", f[key][1]));
  GR.fill("final-table", el("tbody", {},
    el("tr", {}, el("th"), num("th", nm[0]), num("th", nm[1])),
    line("Points from hands", "points"), line("Hands won", "hands_won"), line("Game bonus", "game_bonus"),
    line("Box bonus", "box_bonus"), line("Shutout", "shutout_bonus"),
    el("tr", {}, el("th", {}, "Final total"), num("th", f.totals[0]), num("th", f.totals[1]))));
  GR.fill("final-explain", f.explain.map((l) => el("li", {}, l)));
  GR.fill("final-hands", el("tbody", {},
    el("tr", {}, el("th", {}, "Hand"), el("th", {}, "Result"), num("th", "Points"), num("th", "Totals")),
    g.sheet.map((row) => {
      const r = row.result;
      const who = r.winner === null ? "nobody" : nm[r.winner];
      return el("tr", {}, el("td", {}, row.hand), el("td", {}, `${r.kind.replace("_", " ")} · ${who}`), num("td", r.points),
        num("td", row.totals.map((t) => t.join(" – ")).join(" | ")));
    })));
  $("final-replay").href = `/replay/${gameId}`;
  $("final-record").href = `/api/games/${gameId}/record`;
}

function showHints(hints) {
  const box = $("hints");
  box.classList.remove("hidden");
  GR.fill("hint-list", hints.length
    ? hints.map((h) => el("li", {}, el("strong", {}, prettyAction(h.action)), " ", h.reason ? "— " + prettyAction(h.reason) : ""))
    : el("li", {}, "No suggestion now."));
}

// ---------------------------------------------------------------- controls
$("name-form").onsubmit = (e) => {
  e.preventDefault();
  const name = $("name-input").value.trim();
  if (!name) { showError("Type a name, or choose Later."); return; }
  if (name.length > 40) { showError("A name can be at most 40 characters."); return; }
  send({ type: "name", name });
  localStorage.setItem("gr.named." + gameId, "1");
  renaming = false;
  $("join-name").classList.add("hidden");
};
$("name-skip").onclick = () => {
  localStorage.setItem("gr.named." + gameId, "1");
  renaming = false;
  $("join-name").classList.add("hidden");
};
$("rename").onclick = () => {
  if (!state) return;
  renaming = true;
  $("name-label").textContent = "Your name at this table:";
  $("name-input").value = state.game.names[state.seat];
  $("join-name").classList.remove("hidden");
  $("name-input").focus();
};
$("arrange").onclick = arrange;
$("sort").onclick = toggleSort;
$("hint").onclick = () => send({ type: "hint" });
$("next").onclick = () => send({ type: "next" });
$("final-close").onclick = () => { finalClosed = true; $("final").classList.add("hidden"); };
$("stock-box").onclick = () => { if (state && state.view.legal.includes("stock")) act("stock"); };
$("pile-box").onclick = () => { if (state && state.view.legal.includes("pile")) act("pile"); };

function clickAction(name) {
  const b = document.querySelector(`#actions button[data-action="${name}"]`);
  if (b) b.click();
}

document.addEventListener("keydown", (e) => {
  if (!state || e.target.tagName === "INPUT" || e.target.tagName === "SELECT" || e.ctrlKey || e.metaKey || e.altKey) return;
  const k = e.key.toLowerCase();
  if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
    const d = e.key === "ArrowLeft" ? -1 : 1;
    let i = selected ? order.indexOf(selected) : d > 0 ? -1 : order.length;
    if (e.shiftKey && selected) {
      const j = Math.max(0, Math.min(order.length - 1, i + d));
      order.splice(i, 1);
      order.splice(j, 0, selected);
      saveOrder();
    } else {
      i = Math.max(0, Math.min(order.length - 1, i + d));
      selected = order[i];
    }
    render(state);
    e.preventDefault();
    return;
  }
  const map = { s: "stock", p: "pile", x: "pass", d: "discard", enter: "discard", k: "knock", g: "gin", l: "auto" };
  if (map[k]) { clickAction(map[k]); e.preventDefault(); }
  else if (k === "a") arrange();
  else if (k === "o") toggleSort();
  else if (k === "h") send({ type: "hint" });
  else if (k === "n" && !$("next").disabled && !$("handend").classList.contains("hidden")) send({ type: "next" });
});

connect();
