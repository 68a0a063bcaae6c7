// The table: one WebSocket for this seat; every button comes from view.legal (the engine's list).
"use strict";
GR.header("Play");

const gameId = location.pathname.split("/").pop();
const hashToken = new URLSearchParams(location.hash.slice(1)).get("t");
if (hashToken) localStorage.setItem("gr.token." + gameId, hashToken);
const token = hashToken || localStorage.getItem("gr.token." + gameId);

// A game opened by its link (a friend's invitation) joins this browser's list of games in progress
// too (the start page), under the opponent's name.
function rememberGame(opponent) {
  if (!token) return;
  const games = JSON.parse(localStorage.getItem("gr.games") || "[]");
  if (games.some((g) => String(g.url).includes(`/table/${gameId}#`))) return;
  games.push({ url: `/table/${gameId}#t=${token}`, label: `vs ${opponent}`, at: Date.now() });
  localStorage.setItem("gr.games", JSON.stringify(games.slice(-30)));
}

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
let online = false;    // a state came on the open socket: moves may be sent
let pending = null;    // the last move sent and not yet answered (resent on reconnect if the table did not get it)
let refNo = 0;
let lastHeard = 0;
let notice = "";       // shown in place of the opponent's last move until the next move is sent
let lastSig = "";      // the melds the hand was last grouped by
let celebrated = null; // the hand whose gin was celebrated
let byHand = false;    // "Or choose yourself" is open during a layout
const LAYOUT = ["layout", "defender_layout", "layoff"];
const OFFLINE = "Connection lost — reconnecting…";

function orderKey() { return `gr.order.${gameId}`; }

function connect() {
  if (!token) { $("turn").textContent = "This link has no seat token: open the link you were given."; return; }
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const sock = new WebSocket(`${proto}://${location.host}/api/ws/${gameId}`);
  ws = sock;
  sock.onopen = () => {
    sock.send(JSON.stringify({ type: "hello", token }));
    const pace = localStorage.getItem("gr.pace");
    if (pace) sock.send(JSON.stringify({ type: "pace", seconds: +pace }));
  };
  sock.onmessage = (ev) => {
    if (ws !== sock) return;
    const msg = JSON.parse(ev.data);
    lastHeard = Date.now();
    if (msg.type === "state") {
      const back = !online;
      online = true;
      retry = 0;
      if (pending && msg.seq !== pending.seq) pending = null;  // the move was played
      render(msg);
      if (back) resend();
    } else if (msg.type === "error") {
      if (pending && msg.ref === pending.ref) pending = null;  // the move was answered (refused)
      showError(msg.message);
      if (msg.error === "forbidden") sock.onclose = null;
    } else if (msg.type === "hint") { showHints(msg.hints); }
  };
  sock.onclose = () => lost(sock);
}

// The server is gone (the socket closed, or it stopped answering): say so, stop moves, retry.
function lost(sock) {
  if (ws !== sock) return;
  ws = null;
  online = false;
  if (state) render(state);
  else { $("turn").textContent = OFFLINE; $("turn").className = "turn offline"; }
  retry = Math.min(retry + 1, 6);
  setTimeout(connect, 300 * retry);
}

// Back online: a move the table never answered is sent again, checked by its seq (the server
// refuses it as stale if it was played after all).
function resend() {
  if (!pending || !ws || state.seq !== pending.seq) return;
  ws.send(JSON.stringify(pending));
  showError("");
  notice = "Your move was sent again: the connection was lost before the table answered it.";
  $("last").textContent = notice;
}

// A silent network: ping now and then; no answer at all for 25 s counts as lost.
setInterval(() => {
  if (!ws || ws.readyState !== 1) return;
  if (online && Date.now() - lastHeard > 25000) { const sock = ws; sock.onclose = null; sock.close(); lost(sock); return; }
  ws.send(JSON.stringify({ type: "ping" }));
}, 10000);

function send(msg) {
  if (!online || !ws || ws.readyState !== 1 || !state) {
    showError("Not sent: the connection to the server is lost, so nothing was played. Try again once the table is back.");
    return;
  }
  showError("");
  notice = "";
  const out = { ...msg, seq: state.seq, ref: ++refNo };
  if (msg.type === "action" || msg.type === "auto") pending = out;
  ws.send(JSON.stringify(out));
}
function act(action) { send({ type: "action", action }); }

function showError(text) { $("error").textContent = text || ""; }

// ---------------------------------------------------------------- the hand's order
// "Grouped" (Table settings, the default): melds together, each in order, then the cards to lay
// off, then deadwood in the sort order, regrouped whenever the cards or their melds change, so a
// drawn card lands where it belongs (a card dragged stays put until then). "My own order" keeps
// the player's order and puts a new card beside the cards it melds with, or last.
function handOrder() { return localStorage.getItem("gr.handorder") === "own" ? "own" : "melds"; }

function syncOrder(v, handNo, gr) {
  const hand = v.hand;
  const sig = JSON.stringify([gr.melds.map((g) => sortCards(g, "suit")).sort(), gr.off.slice().sort()]);
  const inHand = new Set(hand);
  if (handNo !== lastHandNo) {
    const saved = JSON.parse(localStorage.getItem(orderKey()) || "null");
    const ok = saved && saved.hand === handNo && saved.order.length === hand.length && saved.order.every((c) => inHand.has(c));
    order = ok ? saved.order : arranged(gr);
    newCards = new Set();
    lastHandNo = handNo;
    lastSig = sig;
  }
  const kept = order.filter((c) => inHand.has(c));
  const added = hand.filter((c) => !kept.includes(c));
  if (added.length && kept.length) newCards = new Set(added);
  else if (kept.length < order.length) newCards = new Set();  // a discard: the drawn card is not new any more
  if (handOrder() === "melds" && (added.length || kept.length < order.length || sig !== lastSig)) order = arranged(gr);
  else {
    order = kept;
    for (const c of added) {
      const mates = (gr.melds.find((g) => g.includes(c)) || []).filter((x) => order.includes(x));
      const at = mates.length ? Math.max(...mates.map((x) => order.indexOf(x))) + 1 : order.length;
      order.splice(at, 0, c);
    }
  }
  lastSig = sig;
  if (selected && !inHand.has(selected)) selected = null;
  saveOrder();
}
function saveOrder() { localStorage.setItem(orderKey(), JSON.stringify({ hand: lastHandNo, order })); }
function sortCards(cards, by) {
  by = by || GR.prefs().order;
  return cards.slice().sort((a, b) => GR.sortKey(a, by) - GR.sortKey(b, by));
}
function arrange() {
  if (!state || !state.view) return;
  order = arranged(grouping(state.view, state.mine));
  saveOrder();
  render(state);
}
function toggleSort() {
  if (!state || !state.view) return;
  const by = GR.prefs().order === "suit" ? "rank" : "suit";
  localStorage.setItem("gr.order", by);
  order = handOrder() === "melds" ? arranged(grouping(state.view, state.mine)) : sortCards(order, by);
  saveOrder();
  render(state);
}

// ---------------------------------------------------------------- rendering
const PROMPTS = {
  offer: "Take the upcard, or pass",
  draw: "Draw from the stock or the discard pile",
  discard: "Discard a card (or knock)",
  last_chance: "Last chance: take the last discard to knock with it, or pass",
  layout: "Lay out your melds: accept the layout shown, or choose melds yourself",
  defender_layout: "Lay out your melds and lay off: accept the layout shown, or choose yourself",
  layoff: "Lay off cards on the knocker's melds: accept the layoffs shown, or choose yourself",
};

// One name per player everywhere: each seat's own name, this page's seat marked "(you)" wherever a
// player is labelled (name tags, score sheet, results); sentences (the log, the explanations) use
// the plain name, as the server writes them.
function names() {
  // (A game stored before this rule may call its person "You": that name needs no mark.)
  return state.game.names.map((n, s) => (s === state.seat && n.toLowerCase() !== "you" ? `${n} (you)` : n));
}

// Three or four players: this seat's own hand is drawn from the two-player message of its table
// (Seated.own), the game around it by table-seated.js; a seat that sits the hand out has no hand.
let seatedMsg = null;
function render(msg) {
  if (msg.seated) msg = seatedMsg;  // a redraw: start again from the seat's own message
  if (msg.players > 2) {
    seatedMsg = msg;
    const mine = Seated.own(msg);
    if (mine) renderTwo(mine);
    else { state = msg; document.body.classList.toggle("offline", !online); $("hints").classList.add("hidden"); }
    Seated.render(msg, { finalClosed, gameId, renaming, online, offline: OFFLINE });
    return;
  }
  renderTwo(msg);
}

function renderTwo(msg) {
  const before = Motion.snapshot();
  const first = !state;
  // A fresh deal (nobody has moved yet) is dealt out from the stock; a page opened mid-hand just shows it.
  const dealt = (first || state.game.hand_no !== msg.game.hand_no) && msg.view.events.length === 0;
  const keep = focusKey();
  state = msg;
  const v = msg.view, g = msg.game, me = msg.seat, opp = 1 - me;
  if (g.status === "playing") rememberGame(g.names[opp]);
  const nm = names();
  const gr = grouping(v, msg.mine);
  syncOrder(v, g.hand_no, gr);
  document.body.classList.toggle("offline", !online);
  $("opp-name").textContent = nm[opp];
  $("my-name").textContent = nm[me] + (v.dealer === me ? ", dealer" : "");
  $("opp-dot").className = "status-dot" + (g.connected[opp] ? " on" : "");
  $("opp-dot").title = g.connected[opp] ? "connected" : "not connected";
  $("opp-info").textContent = `${v.dealer === opp ? "dealer · " : ""}${g.connected[opp] ? "" : "not connected · "}${v.opponent_size} cards`;
  const openGame = g.hollywood && g.game_columns ? g.game_columns.find((c) => c.open) : null;
  document.body.classList.toggle("hollywood", !!g.hollywood);
  $("hand-info").textContent = `Hand ${g.hand_no} · ${openGame ? `game ${openGame.game}: ` : ""}${nm[0]} ${g.scores[0]} – ${nm[1]} ${g.scores[1]} · game to ${targetOf(g)}`;
  $("deckhash").textContent = g.deck_hash || "";
  GR.noteDeal(gameId, g.hand_no, g.deck_hash);

  // Opponent: backs plus the cards known face up (taken from the pile).
  const oppCards = [];
  if (v.knocker === null || v.phase !== "over") {
    const known = v.opponent_known;
    for (const c of known) oppCards.push(GR.cardEl(c));
    for (let i = known.length; i < v.opponent_size; i++) oppCards.push(GR.cardEl(null));
  }
  GR.fill("opp-hand", oppCards);

  // Centre: stock, pile, and the knocker's layout as it happens.
  const legal = new Set(online ? v.legal : []);
  GR.fill("stock", v.stock_size > 0 ? GR.cardEl(null) : null);
  $("stock-label").textContent = `Stock: ${v.stock_size} cards`;
  $("stock-box").classList.toggle("clickable", legal.has("stock"));
  $("stock-box").setAttribute("aria-label", legal.has("stock") ? `Draw from the stock (${v.stock_size} cards)` : `Stock: ${v.stock_size} cards`);
  $("stock-box").setAttribute("aria-disabled", legal.has("stock") ? "false" : "true");
  GR.fill("pile", v.pile.length ? GR.cardEl(v.pile[v.pile.length - 1]) : null);
  $("pile-label").textContent = v.phase === "offer" ? "Upcard" : `Discard pile: ${v.pile.length} cards`;
  $("pile-box").classList.toggle("clickable", legal.has("pile"));
  const topCard = v.pile.length ? GR.label(v.pile[v.pile.length - 1]) : null;
  $("pile-box").setAttribute("aria-label", legal.has("pile")
    ? (v.phase === "offer" ? `Take the upcard ${topCard}` : `Take the ${topCard} from the discard pile`)
    : (topCard ? `Discard pile: ${v.pile.length} cards, the ${topCard} on top` : "Discard pile: empty"));
  $("pile-box").setAttribute("aria-disabled", legal.has("pile") ? "false" : "true");
  $("knockbox").classList.toggle("hidden", !v.knock_discard);
  GR.fill("knockcard", v.knock_discard ? GR.cardEl(v.knock_discard) : null);
  GR.fill("laid", v.knocker !== null && v.phase !== "over" ? layout(v, nm) : null);

  if (!seatedMsg) {  // three or four players: table-seated.js keeps the invitations and the name box
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
  }

  // What the other player just did, so a person can follow the computer's moves (the server's words).
  const log = msg.log || [];
  const last = log[log.length - 1];
  $("last").textContent = notice || (last && last.seat === opp ? last.text : "");

  // Turn banner.
  const turn = $("turn");
  const mine = v.current === me && online;
  if (!online) { turn.textContent = OFFLINE; turn.className = "turn offline"; }
  else if (g.status === "finished") { turn.textContent = "Game over"; turn.className = "turn"; }
  else if (v.phase === "over") { turn.textContent = "Hand over"; turn.className = "turn"; }
  else if (mine) {
    const gin = v.phase === "layout" && msg.knock && ["gin", "big_gin"].includes(msg.knock.kind);
    turn.textContent = "Your turn: " + (gin ? `${announce(msg.knock, "", true)} Accept the layout shown, or choose melds yourself` : PROMPTS[v.phase]);
    turn.className = "turn mine";
  }
  else { turn.textContent = `${g.names[opp]} to play${v.phase === "offer" ? " (upcard offer)" : ""}…`; turn.className = "turn"; }

  // Deadwood.
  const m = msg.mine;
  $("deadwood").textContent = deadwoodText(v, m, gr);
  $("knock-limit").textContent = knockLimitText(v, g);
  $("pace-setting").classList.toggle("hidden", g.computer_seat === null);

  renderHand(v, m, gr);
  renderActions(v, legal, mine);
  renderHandEnd(msg, nm);
  renderSheet(g, nm);
  GR.fill("rules", g.rules_text.map((l) => el("li", {}, l)));
  GR.fill("log", log.slice(-14).map((e) => el("li", {}, e.text)));
  $("log").scrollTop = 1e6;
  if (!mine) $("hints").classList.add("hidden");
  for (const id of ["hint", "next"]) $(id).disabled = !online || (id === "next" && g.ready[me]);
  renderFinal(g, nm);
  Motion.play(first && !dealt ? null : before, dealt);
  const k = msg.knock;
  if (k && (k.kind === "gin" || k.kind === "big_gin") && celebrated !== g.hand_no) {
    if (!first) Motion.celebrate(k.kind === "gin" ? "Gin!" : "Big gin!");
    celebrated = g.hand_no;
  }
  restoreFocus(keep);
}

// ---------------------------------------------------------------- keyboard focus
// Every state message redraws the hand and the buttons: the focus goes back to the same card or
// button (by its action), or to its neighbour when that card was just played.
function focusKey() {
  const a = document.activeElement;
  if (!a || a === document.body || !a.closest) return null;
  if (a.closest("#my-hand") && a.dataset.card) return { card: a.dataset.card, index: order.indexOf(a.dataset.card) };
  if (a.closest("#actions") && a.dataset.action) return { action: a.dataset.action, index: [...$("actions").querySelectorAll("button")].indexOf(a) };
  return null;
}
function restoreFocus(key) {
  if (!key || (document.activeElement && document.activeElement !== document.body && document.activeElement.isConnected)) return;
  let target = null;
  if (key.card) {
    const cards = [...document.querySelectorAll("#my-hand .card")];
    target = cards.find((c) => c.dataset.card === key.card) || cards[Math.min(key.index, cards.length - 1)] || null;
  } else if (key.action) {
    const buttons = [...document.querySelectorAll("#actions button")];
    target = buttons.find((b) => b.dataset.action === key.action) || buttons[Math.min(key.index, buttons.length - 1)]
      || document.querySelector("#my-hand .card");
  }
  if (target) target.focus({ preventScroll: true });
}
function focusCard(code) {
  const card = document.querySelector(`#my-hand .card[data-card="${code}"]`);
  if (card) card.focus({ preventScroll: true });
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

function renderHand(v, m, gr) {
  if (handDrag.active()) return;  // redrawn when the drag ends
  const box = GR.fill("my-hand");
  const meldOf = {};
  gr.melds.forEach((g, i) => g.forEach((c) => { meldOf[c] = i; }));
  const off = new Set(gr.off);
  let prev;
  order.forEach((c, i) => {
    const cls = [];
    if (c === selected) cls.push("selected");
    if (newCards.has(c)) cls.push("new");
    const group = meldOf[c] !== undefined ? meldOf[c] : off.has(c) ? -2 : -1;
    if (i > 0 && group !== prev) cls.push("gap");
    prev = group;
    const card = GR.cardEl(c, cls.join(" "));
    card.tabIndex = 0;
    card.setAttribute("role", "button");
    card.setAttribute("aria-pressed", c === selected ? "true" : "false");
    card.setAttribute("aria-label", GR.name(c) + (group >= 0 ? `, in meld ${group + 1}` : ""));
    if (group >= 0) {
      const bar = document.createElement("div");
      bar.className = "meldbar";
      bar.style.background = MELD_COLOURS[group % MELD_COLOURS.length];
      card.appendChild(bar);
    } else if (group === -2) card.appendChild(el("div", { class: "meldbar off", title: "to lay off" }));
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
  if (!online && v.current === v.seat && v.legal.length) {
    box.appendChild(el("span", { class: "muted" }, "Moves are off until the table is back."));
    return;
  }
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
  if (LAYOUT.includes(v.phase)) {
    // The engine's layout is shown at once (state.mine.plan): one click accepts it; every legal
    // meld and layoff (the engine's list) stays at hand to lay out another way.
    const plan = state.mine.plan, k = state.knock || {};
    if (plan) {
      const gin = k.kind === "gin" || k.kind === "big_gin";
      const text = v.phase === "layout" ? (gin ? `Lay out the ${k.kind === "gin" ? "gin" : "big gin"}` : `Lay out these melds (deadwood ${plan.deadwood})`)
        : plan.layoffs.length ? `Lay out and lay off (deadwood ${plan.deadwood})` : `Lay out these melds (deadwood ${plan.deadwood})`;
      box.appendChild(button(text, "L", () => send({ type: "auto" }), true, "auto"));
    }
    const own = [];
    for (const a of v.legal) {
      if (a.startsWith("meld ")) own.push(button(`Meld ${prettyAction(a.slice(5).match(/../g).join(" "))}`, "", () => act(a), false, "meld"));
      else if (a.startsWith("layoff ")) {
        const [, c, t] = a.split(" ");
        own.push(button(`Lay off ${GR.label(c)} on meld ${+t + 1}`, "", () => act(a), false, "layoff"));
      }
    }
    if (legal.has("done")) own.push(button(v.phase === "layoff" ? "Done laying off" : "Done (the cards left are deadwood)", "", () => act("done"), false, "done"));
    if (own.length) {
      box.appendChild(el("details", { class: "byhand", open: byHand || !plan, ontoggle: (e) => { byHand = e.target.open; } },
        el("summary", {}, "Or choose yourself"), el("div", { class: "actions" }, own)));
    }
  }
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
  $("handend-title").textContent = `Hand ${g.hand_no}: ${titles[r.kind]}` + (r.winner !== null ? ` · ${nm[r.winner]} scores ${r.points}` : "");
  $("explain").textContent = msg.explain || "";
  GR.fill("handend-layout", v.knocker !== null ? layout(v, nm) : null);
  const next = $("next");
  next.classList.toggle("hidden", g.status === "finished");
  next.disabled = g.ready[msg.seat];
  $("next-wait").textContent = g.ready[msg.seat] && !g.ready[1 - msg.seat] ? `Waiting for ${g.names[1 - msg.seat]}…` : "";
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

function renderHollywood(g, nm) {
  const rows = g.sheet.map((row) => ({ ...row.result, hand: row.hand, written: row.written, closed: row.closed, totals: row.totals,
    winner: row.result.kind === "dead" ? null : row.result.winner }));
  Sheet.hollywood(g.game_columns, nm, rows, g.hands_won);
}

function renderFinal(g, nm) {
  const box = $("final");
  if (g.status !== "finished" || !g.final || finalClosed) { box.classList.add("hidden"); return; }
  box.classList.remove("hidden");
  const f = g.final;
  const win = f.winner === null ? "A tie" : `${nm[f.winner]} wins`;
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
  GR.shareToggle($("final-share"), gameId, !!g.shared);
}

function showHints(hints) {
  const box = $("hints");
  box.classList.remove("hidden");
  GR.fill("hint-list", hints.length
    ? hints.map((h) => el("li", {}, el("strong", {}, h.words || prettyAction(h.action)), " ", h.reason ? "— " + prettyAction(h.reason) : ""))
    : el("li", {}, "No suggestion now."));
}

// ---------------------------------------------------------------- controls
$("name-form").onsubmit = (e) => {
  e.preventDefault();
  const name = $("name-input").value.trim();
  if (!name) { showError("Type a name, or choose Later."); return; }
  if (name.length > 24) { showError("A name can be at most 24 characters."); return; }
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
$("stock-box").onclick = () => { if (state && state.view && state.view.legal.includes("stock")) act("stock"); };
$("pile-box").onclick = () => { if (state && state.view && state.view.legal.includes("pile")) act("pile"); };
// The stock and the pile are buttons for the keyboard too (Enter or Space), like any button.
for (const id of ["stock-box", "pile-box"]) {
  $(id).addEventListener("keydown", (e) => {
    if (e.key !== "Enter" && e.key !== " ") return;
    e.preventDefault();
    e.stopPropagation();
    $(id).click();
  });
}

// Table settings: how the hand is kept, and the pause before each computer move (sent to the server).
$("pref-handorder").value = handOrder();
$("pref-handorder").onchange = (e) => {
  localStorage.setItem("gr.handorder", e.target.value);
  if (e.target.value === "melds") arrange();
};
$("pref-pace").value = localStorage.getItem("gr.pace") || "";
$("pref-pace").onchange = (e) => {
  const v = e.target.value;
  if (v) localStorage.setItem("gr.pace", v); else localStorage.removeItem("gr.pace");
  if (ws && ws.readyState === 1) ws.send(JSON.stringify({ type: "pace", seconds: v ? +v : null }));
};

function clickAction(name) {
  const b = document.querySelector(`#actions button[data-action="${name}"]`);
  if (b) b.click();
  else if (!online) send({ type: name });  // says the move was not sent
}

document.addEventListener("keydown", (e) => {
  if (!state || e.target.tagName === "INPUT" || e.target.tagName === "SELECT" || e.ctrlKey || e.metaKey || e.altKey) return;
  const k = e.key.toLowerCase();
  // Enter and Space on a button or link do what that button does, never a shortcut.
  const onCard = e.target.closest && e.target.closest("#my-hand .card");
  if ((e.key === "Enter" || e.key === " ") && !onCard && e.target.closest && e.target.closest("button, a, [role=button]")) return;
  if (onCard && (e.key === " " || (e.key === "Enter" && onCard.dataset.card !== selected))) {
    // Space (or Enter on a card not chosen yet) chooses the card in focus; Enter on the chosen card discards it.
    selected = selected === onCard.dataset.card && e.key === " " ? null : onCard.dataset.card;
    render(state);
    e.preventDefault();
    return;
  }
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
    focusCard(selected);  // the focus follows the chosen card
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
