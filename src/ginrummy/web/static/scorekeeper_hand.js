/* The scorekeeper's hand form and the words for a hand (scorekeeper.js draws the rest).
 *
 * One part per table: two and three players fill one (three: the two who play this hand), four
 * players two, one per table; each part asks what happened, who knocked and both deadwood counts.
 * The second table's part is a copy of the first (ids and radio names end in "-t2"). The page
 * only collects the entry: the server scores it (the command line's scorekeeper).
 */
"use strict";

const SKHand = (() => {
  const $ = (id) => document.getElementById(id);
  const SUFFIX = ["", "-t2"];
  let pairs = [["", ""]]; // the two names at each table of the hand in the form
  let onSync = () => {};

  const part = (i, base) => $(base + SUFFIX[i]);

  function secondTable() {
    if ($("part-t2")) return;
    const copy = $("part").cloneNode(true);
    for (const node of [copy, ...copy.querySelectorAll("*")]) {
      if (node.id) node.id += "-t2";
      if (node.tagName === "LABEL" && node.htmlFor) node.htmlFor += "-t2";
      const by = node.getAttribute("aria-labelledby");
      if (by) node.setAttribute("aria-labelledby", by + "-t2");
      if (node.name) node.name += "-t2";
    }
    copy.hidden = true;
    $("part").after(copy);
    for (const r of copy.querySelectorAll("input[type=radio]")) r.addEventListener("change", () => sync(1));
  }

  function kind(i) {
    return document.querySelector(`input[name="kind${SUFFIX[i]}"]:checked`).value;
  }
  function knocker(i) {
    const c = document.querySelector(`input[name="knocker${SUFFIX[i]}"]:checked`);
    return c ? Number(c.value) : null;
  }

  function sync(i) {
    const k = kind(i);
    const who = knocker(i);
    const dead = k === "dead";
    const gin = k === "gin" || k === "big_gin";
    part(i, "knocker-row").hidden = dead;
    part(i, "counts-row").hidden = dead;
    part(i, "knocker-label").textContent = gin ? (k === "gin" ? "Who went gin" : "Who went big gin") : "Who knocked";
    for (let p = 0; p < 2; p++) {
      const input = part(i, "dw-" + p);
      const isKnocker = who === p;
      const off = gin && isKnocker;
      input.disabled = off;
      part(i, "dw-label-" + p).classList.toggle("off", off);
      if (off) input.value = "";
      let hint = "";
      if (who !== null) {
        if (isKnocker) hint = gin ? "(none: gin)" : "(the knocker)";
        else hint = gin ? "(everything outside melds, no layoffs)" : "(after laying off)";
      }
      part(i, "dw-hint-" + p).textContent = hint;
    }
    onSync(i);
  }

  function clear(i) {
    part(i, "kind-knock").checked = true;
    for (const r of document.querySelectorAll(`input[name="knocker${SUFFIX[i]}"]`)) r.checked = false;
    part(i, "dw-0").value = "";
    part(i, "dw-1").value = "";
    part(i, "upcard-rank").value = "";
    part(i, "upcard-suit").value = "s";
    sync(i);
  }

  // The form for a hand played at `tables` ([{players: [a, b], dealer}], one or two), with the
  // rule set's choices (big gin, the Oklahoma upcard) shown when they apply.
  function setTables(s, tables) {
    if (tables.length > 1) secondTable();
    pairs = tables.map((t) => t.players);
    for (let i = 0; i < SUFFIX.length; i++) {
      const box = part(i, "part");
      if (!box) continue;
      box.hidden = i >= tables.length;
      if (box.hidden) continue;
      for (const span of box.querySelectorAll(".pname")) span.textContent = pairs[i][Number(span.dataset.seat)];
      const title = part(i, "part-title");
      title.hidden = tables.length < 2;
      const t = tables[i];
      GR.fill(title, `Table ${i + 1}: ${t.players[0]} v ${t.players[1]}` + (t.dealer ? ` (${t.dealer} deals)` : ""));
      part(i, "big-gin-choice").hidden = !s.big_gin;
      part(i, "upcard-row").hidden = !(s.oklahoma && s.upcard);
    }
  }

  function count() {
    return pairs.length;
  }

  function clearAll() {
    for (let i = 0; i < count(); i++) clear(i);
  }

  // Put a stored entry (one table's) back into part i, for a correction.
  function fillPart(i, e) {
    const kindValue = e.dead ? "dead" : e.big_gin ? "big_gin" : e.gin ? "gin" : "knock";
    part(i, "kind-" + kindValue).checked = true;
    for (const r of document.querySelectorAll(`input[name="knocker${SUFFIX[i]}"]`)) r.checked = false;
    part(i, "dw-0").value = "";
    part(i, "dw-1").value = "";
    if (!e.dead) {
      const seat = pairs[i].indexOf(e.knocker);
      if (seat >= 0) part(i, "knocker-" + seat).checked = true;
      for (let p = 0; p < 2; p++) {
        const v = (e.deadwood || {})[pairs[i][p]];
        part(i, "dw-" + p).value = v === undefined ? "" : String(v);
      }
    }
    if (e.upcard) {
      part(i, "upcard-rank").value = e.upcard.slice(0, -1).toUpperCase();
      part(i, "upcard-suit").value = e.upcard.slice(-1).toLowerCase();
    }
    sync(i);
    return kindValue;
  }

  function partEntry(i) {
    const where = count() > 1 ? `Table ${i + 1}: ` : "";
    const k = kind(i);
    if (k === "dead") return { dead: true };
    const who = knocker(i);
    if (who === null) throw new Error(where + (k === "knock" ? "Say who knocked." : "Say who went gin."));
    const entry = { knocker: pairs[i][who], deadwood: {} };
    if (k === "gin") entry.gin = true;
    if (k === "big_gin") entry.big_gin = true;
    for (let p = 0; p < 2; p++) {
      const input = part(i, "dw-" + p);
      if (input.disabled) continue;
      const raw = input.value.trim();
      if (raw === "") {
        input.focus();
        throw new Error(`${where}Enter ${pairs[i][p]}'s deadwood.`);
      }
      entry.deadwood[pairs[i][p]] = /^\d+$/.test(raw) ? Number(raw) : raw;
    }
    if (!part(i, "upcard-row").hidden && part(i, "upcard-rank").value) {
      entry.upcard = part(i, "upcard-rank").value + part(i, "upcard-suit").value;
    }
    return entry;
  }

  // The entry the form holds: one table's, or {"tables": [...]} for four players.
  function entry() {
    if (count() === 1) return partEntry(0);
    return { tables: pairs.map((_, i) => partEntry(i)) };
  }

  // -- words for a hand on the sheet ---------------------------------------------------------

  // A card code as players write it: 10♥, Q♠.
  function cardText(code) {
    const rank = code.slice(0, -1).toUpperCase(), suit = code.slice(-1).toLowerCase();
    return (rank === "T" ? "10" : rank) + (GR.SUIT_SYMBOL[suit] || suit);
  }

  // One two-player hand in a few words: "Ann knocked: 3 v 25", "Bob: gin, Ann 14".
  function label(kind, e, pair, withUpcard = true) {
    if (kind === "dead") return "Dead hand";
    const k = e.knocker;
    const other = pair[0] === k ? pair[1] : pair[0];
    const dw = e.deadwood || {};
    const up = e.upcard && withUpcard ? ` (upcard ${cardText(e.upcard)})` : "";
    if (kind === "gin") return `${k}: gin, ${other} ${dw[other]}${up}`;
    if (kind === "big_gin") return `${k}: big gin, ${other} ${dw[other]}${up}`;
    if (kind === "undercut") return `${other} undercut ${k}: ${dw[k]} v ${dw[other]}${up}`;
    return `${k} knocked: ${dw[k]} v ${dw[other]}${up}`;
  }

  function namesIn(e) {
    return [...Object.keys((e && e.deadwood) || {}), ...((e && e.players) || []), e && e.knocker].filter(Boolean);
  }

  // A four-player hand's table entries in the sheet's table order (an entry may list them either way).
  function tableEntries(h) {
    const left = ((h.entry && h.entry.tables) || []).slice();
    return h.tables.map((t) => {
      let j = left.findIndex((e) => namesIn(e).length && namesIn(e).every((n) => t.players.includes(n)));
      if (j < 0) j = left.findIndex((e) => !namesIn(e).length);
      return j < 0 ? { dead: true } : left.splice(j, 1)[0];
    });
  }

  // A hand of any game in a few words (the sheet's "What happened" cell; its title has the sentence).
  function handLabel(h, s, withUpcard = true) {
    if (s.players === 4) {
      const entries = tableEntries(h);
      return h.tables.map((t, i) => `Table ${i + 1}: ${label(t.kind, entries[i], t.players, withUpcard)}`
        + (t.team ? ` (${t.points} to ${t.team})` : "")).join("; ");
    }
    const pair = s.players === 3 ? h.players : s.names;
    const text = label(h.kind, h.entry, pair, withUpcard);
    return s.players === 3 ? `${text} (${h.dealer} dealt)` : text;
  }

  // Who deals and who plays whom next: "Cy deals and sits out: Ann plays Bob."
  function nextText(s) {
    const n = s.next;
    if (!n) return "";
    if (s.players === 3) return `${n.dealer} deals and sits out: ${n.players[0]} plays ${n.players[1]}.`;
    return "Next hand: " + n.tables.map((t, i) => `table ${i + 1}, ${t.players[0]} plays ${t.players[1]} (${t.dealer} deals)`)
      .join("; ") + ".";
  }

  // The tables of the next hand (for the form), or of hand h (to correct it).
  function tablesOf(s, h) {
    if (s.players === 4) return h ? h.tables : s.next.tables;
    if (s.players === 3) return [h ? { players: h.players, dealer: h.dealer } : s.next];
    return [{ players: s.names, dealer: null }];
  }

  function init(syncHook) {
    onSync = syncHook || onSync;
    for (const r of document.querySelectorAll('input[name="kind"], input[name="knocker"]')) r.addEventListener("change", () => sync(0));
  }

  return { init, setTables, clearAll, fillPart, entry, count, handLabel, nextText, tablesOf, tableEntries, cardText, sync };
})();
