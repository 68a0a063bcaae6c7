// History and statistics; the charts are drawn here as SVG (no chart library).
"use strict";
GR.header("History");
const $ = (id) => document.getElementById(id);
const el = GR.svg;
const h = GR.el;

// The drawing is as wide as the chart is on screen (300..720 units), so its labels keep their
// size on a phone instead of shrinking with a 720-unit drawing.
const chartWidth = (svg) => Math.round(Math.max(300, Math.min(720, svg.getBoundingClientRect().width || 720)));

function marginsChart(svg, games, name) {
  svg.replaceChildren();
  const mine = games.filter((g) => g.names.includes(name) && g.totals).slice().reverse();
  const W = chartWidth(svg), H = 220, L = 44, R = 10, T = 14, B = 26;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  if (!mine.length) { svg.appendChild(el("text", { x: L, y: H / 2 }, "No finished games yet.")); return; }
  // The winner is a column of the result: a player, or with four players a team (seats 1 and 3: team 0).
  const vals = mine.map((g) => { const s = g.names.indexOf(name); return g.winner === (g.players === 4 ? s % 2 : s) ? g.margin : -g.margin; });
  const max = Math.max(10, ...vals.map(Math.abs));
  const y = (v) => T + (H - T - B) * (1 - (v + max) / (2 * max));
  const bw = Math.max(3, Math.min(40, (W - L - R) / vals.length - 4));
  svg.appendChild(el("line", { x1: L, x2: W - R, y1: y(0), y2: y(0), class: "axis" }));
  for (const t of [max, max / 2, 0, -max / 2, -max]) {
    svg.appendChild(el("text", { x: L - 6, y: y(t) + 4, "text-anchor": "end" }, Math.round(t)));
  }
  vals.forEach((v, i) => {
    const x = L + 4 + i * (bw + 4);
    const r = el("rect", { x, y: Math.min(y(v), y(0)), width: bw, height: Math.max(1, Math.abs(y(v) - y(0))), fill: v >= 0 ? "var(--ok)" : "var(--warn)" });
    r.appendChild(el("title", {}, `${new Date(mine[i].created * 1000).toLocaleString()}: ${v >= 0 ? "won" : "lost"} by ${Math.abs(v)}`));
    svg.appendChild(r);
  });
  const tally = `${vals.filter((v) => v > 0).length} won, ${vals.filter((v) => v < 0).length} lost`;
  svg.appendChild(el("text", { x: L, y: H - 6 }, W < 500 ? `${tally} (oldest first)` : `${tally} (margin of each game, oldest first)`));
}

function kindsChart(svg, players) {
  svg.replaceChildren();
  const W = chartWidth(svg), narrow = W < 500, L = narrow ? 96 : 150, R = 20, T = 10, rowH = 26;
  const kinds = [["knocks", "knocks", "#4aa3df"], ["gins", "gins", "#2ecc71"], ["big_gins", "big gins", "#16a085"], ["undercuts", "undercuts", "#e0a526"]];
  const ps = players.slice(0, 7);
  if (!ps.length) { svg.appendChild(el("text", { x: 10, y: 30 }, "No hands yet.")); return; }
  const max = Math.max(1, ...ps.map((p) => kinds.reduce((a, [k]) => a + p[k], 0)));
  ps.forEach((p, i) => {
    const yy = T + i * (rowH + 6);
    svg.appendChild(el("text", { x: L - 8, y: yy + 17, "text-anchor": "end" }, p.name.slice(0, narrow ? 12 : 22)));
    let x = L;
    for (const [k, label, col] of kinds) {
      const w = ((W - L - R - 60) * p[k]) / max;
      if (w > 0) {
        const r = el("rect", { x, y: yy, width: w, height: rowH, fill: col });
        r.appendChild(el("title", {}, `${p.name}: ${p[k]} ${label}`));
        svg.appendChild(r);
        if (w > 18) svg.appendChild(el("text", { x: x + w / 2, y: yy + 17, "text-anchor": "middle" }, p[k]));
      }
      x += w;
    }
  });
  // The legend: one row, or two of two on a narrow chart.
  const perRow = narrow ? 2 : kinds.length;
  const legendX = narrow ? 10 : L;
  const top = T + ps.length * (rowH + 6) + 14;
  kinds.forEach(([, label, col], i) => {
    const lx = legendX + (i % perRow) * 110, yy = top + Math.floor(i / perRow) * 20;
    svg.appendChild(el("rect", { x: lx, y: yy - 10, width: 12, height: 12, fill: col }));
    svg.appendChild(el("text", { x: lx + 16, y: yy }, label));
  });
  const ly = top + (Math.ceil(kinds.length / perRow) - 1) * 20;
  svg.setAttribute("viewBox", `0 0 ${W} ${Math.max(ly + 10, 80)}`);
}

// A table: a header row and body rows of cells; a cell is text, a node or a list of them, or num(x) (right-aligned).
const num = (v) => ({ num: v ?? "–" });
function table(id, head, rows) {
  const cell = (tag, c) => (c !== null && typeof c === "object" && "num" in c ? h(tag, { class: "num" }, c.num) : h(tag, {}, c));
  GR.fill(id, h("tbody", {}, h("tr", {}, head.map((c) => cell("th", c))), rows.map((r) => h("tr", {}, r.map((c) => cell("td", c))))));
}

async function init() {
  const d = await GR.api("/api/stats");
  $("empty").classList.toggle("hidden", d.games.length > 0);
  const pct = (a, b) => (b ? Math.round((100 * a) / b) + "%" : "–");
  const heads = ["Games", "Won", "Hands", "Hands won", "Knocks", "Gins", "Undercuts made", "Was undercut", "Avg deadwood", "Best", "Worst"];
  table("players", ["Player", ...heads.map(num)], d.players.map((p) => [
    p.name + (p.you ? " (you)" : ""), num(p.games), num(`${p.games_won} (${pct(p.games_won, p.games)})`), num(p.hands),
    num(`${p.hands_won} (${pct(p.hands_won, p.hands)})`), num(p.knocks), num(p.gins + p.big_gins), num(p.undercuts),
    num(p.undercut_against), num(p.average_deadwood), num(p.best_margin), num(p.worst_margin),
  ]));
  const who = $("who");
  GR.fill(who, d.players.map((p) => h("option", {}, p.name)));
  const draw = () => marginsChart($("chart-margins"), d.games, who.value);
  who.onchange = draw;
  draw();
  kindsChart($("chart-kinds"), d.players);
  let redraw = 0;
  window.addEventListener("resize", () => {
    clearTimeout(redraw);
    redraw = setTimeout(() => { draw(); kindsChart($("chart-kinds"), d.players); }, 150);
  });
  table("games", ["Finished", "Players", "Rules", num("Hands"), num("Final"), "Winner", "", "Shared"], d.games.map((g) => [
    new Date((g.finished || g.created) * 1000).toLocaleString(),
    g.players === 4 ? (g.columns || g.names).join(" vs ") : g.names.join(" vs "),
    g.rules_label,
    num(g.hands),
    num(g.totals ? g.totals.join(" – ") : ""),
    g.winner === null || g.winner === undefined ? "tie" : (g.columns || g.names)[g.winner] + " by " + g.margin,
    [h("a", { href: `/replay/${encodeURIComponent(g.id)}` }, "Replay"), " · ", h("a", { href: `/api/games/${encodeURIComponent(g.id)}/record` }, "Export record")],
    (() => { const box = h("span", { class: "share", dataset: { game: g.id } }); GR.shareToggle(box, g.id, !!g.shared); return box; })(),
  ]));
}
init().catch((e) => { $("empty").textContent = e.message; });
