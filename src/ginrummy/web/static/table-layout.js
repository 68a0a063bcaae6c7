// What the table shows of melds (loaded before table.js, which calls these): this seat's cards
// grouped into melds, cards to lay off and deadwood; after a knock the layout as it stands with
// the engine's proposal (state.mine.plan) marked, the knock in the seeds' words, the counts after
// layoffs; and this hand's knock limit. Reads the page's `state`; builds nodes with GR.el only.
"use strict";

// This seat's cards as shown: melds, cards to lay off, deadwood. After a knock, the layout as it
// stands plus this seat's plan (the engine's proposal); before, the best melds.
function grouping(v, m) {
  const me = v.seat;
  if (v.knocker !== null) {
    const laid = v.knocker === me ? v.knocker_melds : v.defender_melds;
    const off = v.knocker === me ? [] : v.layoffs.map((l) => l.card);
    if (m.plan) return { melds: laid.concat(m.plan.melds), off: off.concat(m.plan.layoffs.map((l) => l.card)), dead: m.plan.deadwood_cards };
    if (laid.length || v.phase === "over" || (v.knocker === me && v.phase !== "layout")) {
      const used = new Set(laid.flat().concat(off));
      return { melds: laid, off, dead: v.hand.filter((c) => !used.has(c)) };
    }
  }
  return { melds: m.melds, off: [], dead: m.deadwood_cards };
}

function arranged(gr) {
  const by = GR.prefs().order;
  const melds = gr.melds.map((g) => sortCards(g, "suit")).sort((a, b) => GR.sortKey(a[0], by) - GR.sortKey(b[0], by));
  return melds.flat().concat(sortCards(gr.off), sortCards(gr.dead));
}

// The knock as this seat knows it, in the seeds' words: gin and big gin by their names.
function announce(k, name, mine) {
  if (k && k.kind === "gin") return mine ? "Gin!" : `${name}: Gin!`;
  if (k && k.kind === "big_gin") return mine ? "Big gin!" : `${name}: Big gin!`;
  if (k && k.kind === "knock") return `${name} knocked · deadwood ${k.deadwood}`;
  return `${name} is laying out…`;
}

// This hand's knock limit: Oklahoma takes it from the upcard (an ace: gin only, when so played).
function knockLimitText(v, g) {
  const n = v.knock_limit;
  if (g.straight_gin) return "Gin only (straight gin)";
  if (g.oklahoma) {
    const why = v.upcard ? `Oklahoma: the upcard ${GR.label(v.upcard)}` : "Oklahoma, no upcard";
    return n === 0 ? `Gin only (${why} is an ace)` : `Knock limit ${n} (${why})`;
  }
  return n === 0 ? "Gin only" : `Knock limit ${n}`;
}

// The deadwood this seat is left with: after a knock the layout's (after layoffs), else the best melds'.
function deadwoodText(v, m, gr) {
  const me = v.seat;
  if (m.plan) return `Deadwood ${m.plan.deadwood} with the layout shown` + (me !== v.knocker && (m.plan.layoffs.length || v.layoffs.length) ? " (after layoffs)" : "");
  if (v.result && v.knocker !== null) {
    return me === v.knocker ? `Deadwood ${v.result.knocker_deadwood}` : `Deadwood ${v.result.defender_deadwood} after layoffs`;
  }
  if (v.knocker !== null && (v.knocker === me || v.phase !== "layout")) {
    return `Deadwood ${gr.dead.reduce((t, c) => t + GR.value(c), 0)}`;
  }
  return `Deadwood ${m.deadwood}` + (m.after_discard !== null ? ` · after your best discard ${m.after_discard}` : "");
}

// A meld (or deadwood) in order: laid-off cards sit in their place in the run. `laid` cards were laid
// off, `planned` ones are the layout shown and not yet played.
function meldGroup(cards, opts, cls) {
  const laid = new Set((opts && opts.laid) || []), planned = new Set((opts && opts.planned) || []);
  return GR.el("div", { class: "meldgroup" + (cls ? " " + cls : "") }, sortCards(cards, "suit").map((c) =>
    GR.el("div", { class: "card" + (laid.has(c) ? " laid" : "") + (planned.has(c) ? " proposed" : ""), title: GR.name(c), dataset: { card: c } }, GR.cardSVG(c))));
}

// The knocker's melds (with what is laid off on them) and the defender's, as they stand; during this
// seat's own layout, with the engine's plan shown (marked "proposed") and the deadwood it leaves.
function layout(v, nm) {
  const knocker = v.knocker, defender = 1 - knocker, me = v.seat;
  const plan = v.current === me ? state.mine.plan : null;
  const k = state.knock;
  const handOf = (seat) => (seat === me ? v.hand : v.opponent_known);
  const block = (label, group) => GR.el("div", {}, GR.el("div", { class: "label" }, label), group);
  const km = v.knocker_melds.map((m, i) => {
    const laid = v.laid_on[i] || [];
    const planned = plan && me === defender ? plan.layoffs.filter((l) => l.meld === i).map((l) => l.card) : [];
    return block(`meld ${i + 1}`, meldGroup(m.concat(laid, planned), { laid, planned }));
  });
  if (plan && me === knocker) plan.melds.forEach((m, i) => km.push(block(`meld ${v.knocker_melds.length + i + 1}`, meldGroup(m, { planned: m }))));
  const kIn = new Set(v.knocker_melds.flat());
  const kDead = plan && me === knocker ? plan.deadwood_cards : v.phase !== "layout" ? handOf(knocker).filter((c) => !kIn.has(c)) : [];
  const dOff = v.layoffs.map((l) => l.card);
  const dIn = new Set(v.defender_melds.flat().concat(dOff));
  const dm = v.defender_melds.map((m) => GR.el("div", {}, meldGroup(m)));
  if (plan && me === defender) plan.melds.forEach((m) => dm.push(GR.el("div", {}, meldGroup(m, { planned: m }))));
  const dDead = plan && me === defender ? plan.deadwood_cards
    : v.phase === "over" || v.phase === "layoff" ? handOf(defender).filter((c) => !dIn.has(c)) : [];
  const dCount = plan && me === defender ? plan.deadwood : v.result ? v.result.defender_deadwood : null;
  const dead = (cs, label) => (cs.length ? block(label, meldGroup(cs, null, "deadwoodgroup")) : null);
  const onMelds = (ls) => ls.map((l) => `${GR.label(l.card)} on meld ${l.meld + 1}`).join(", ");
  const toLay = plan && me === defender ? plan.layoffs : [];
  const layoffs = v.layoffs.length || toLay.length ? GR.el("p", { class: "muted" },
    v.layoffs.length ? `Laid off: ${onMelds(v.layoffs)}. ` : "", toLay.length ? `To lay off (shown): ${onMelds(toLay)}.` : "") : null;
  const kPoints = kDead.reduce((t, c) => t + GR.value(c), 0);
  return [
    GR.el("div", {}, GR.el("strong", { class: "announce" }, announce(k, nm[knocker], knocker === me)),
      GR.el("div", { class: "layout-block" }, km, dead(kDead, `deadwood ${kPoints}`))),
    GR.el("div", {}, GR.el("strong", {}, nm[defender]),
      GR.el("div", { class: "layout-block" }, dm, dead(dDead, dCount !== null ? `deadwood ${dCount} after layoffs` : "deadwood")), layoffs),
  ];
}
