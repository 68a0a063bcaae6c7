// History and statistics; the charts are drawn here as SVG (no chart library).
"use strict";
GR.header("History");
const $ = (id) => document.getElementById(id);
const SVGNS = "http://www.w3.org/2000/svg";

function el(tag, attrs, text) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function marginsChart(svg, games, name) {
  svg.innerHTML = "";
  const mine = games.filter((g) => g.names.includes(name) && g.totals).slice().reverse();
  const W = 720, H = 220, L = 44, R = 10, T = 14, B = 26;
  if (!mine.length) { svg.appendChild(el("text", { x: L, y: H / 2 }, "No finished games yet.")); return; }
  const vals = mine.map((g) => { const s = g.names.indexOf(name); return g.winner === s ? g.margin : -g.margin; });
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
  svg.appendChild(el("text", { x: L, y: H - 6 }, `${vals.filter((v) => v > 0).length} won, ${vals.filter((v) => v < 0).length} lost (margin of each game, oldest first)`));
}

function kindsChart(svg, players) {
  svg.innerHTML = "";
  const W = 720, H = 240, L = 150, R = 20, T = 10, rowH = 26;
  const kinds = [["knocks", "knocks", "#4aa3df"], ["gins", "gins", "#2ecc71"], ["big_gins", "big gins", "#16a085"], ["undercuts", "undercuts", "#e0a526"]];
  const ps = players.slice(0, 7);
  if (!ps.length) { svg.appendChild(el("text", { x: 10, y: 30 }, "No hands yet.")); return; }
  const max = Math.max(1, ...ps.map((p) => kinds.reduce((a, [k]) => a + p[k], 0)));
  ps.forEach((p, i) => {
    const yy = T + i * (rowH + 6);
    svg.appendChild(el("text", { x: L - 8, y: yy + 17, "text-anchor": "end" }, p.name.slice(0, 22)));
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
  let lx = L;
  const ly = T + ps.length * (rowH + 6) + 14;
  for (const [, label, col] of kinds) {
    svg.appendChild(el("rect", { x: lx, y: ly - 10, width: 12, height: 12, fill: col }));
    svg.appendChild(el("text", { x: lx + 16, y: ly }, label));
    lx += 110;
  }
  svg.setAttribute("viewBox", `0 0 ${W} ${Math.max(ly + 10, 80)}`);
}

async function init() {
  const d = await GR.api("/api/stats");
  $("empty").classList.toggle("hidden", d.games.length > 0);
  const pct = (a, b) => (b ? Math.round((100 * a) / b) + "%" : "–");
  $("players").innerHTML = `<tr><th>Player</th><th class="num">Games</th><th class="num">Won</th><th class="num">Hands</th><th class="num">Hands won</th>
    <th class="num">Knocks</th><th class="num">Gins</th><th class="num">Undercuts made</th><th class="num">Was undercut</th><th class="num">Avg deadwood</th><th class="num">Best</th><th class="num">Worst</th></tr>` +
    d.players.map((p) => `<tr><td>${GR.esc(p.name)}</td><td class="num">${p.games}</td><td class="num">${p.games_won} (${pct(p.games_won, p.games)})</td>
      <td class="num">${p.hands}</td><td class="num">${p.hands_won} (${pct(p.hands_won, p.hands)})</td><td class="num">${p.knocks}</td><td class="num">${p.gins + p.big_gins}</td>
      <td class="num">${p.undercuts}</td><td class="num">${p.undercut_against}</td><td class="num">${p.average_deadwood ?? "–"}</td>
      <td class="num">${p.best_margin ?? "–"}</td><td class="num">${p.worst_margin ?? "–"}</td></tr>`).join("");
  const who = $("who");
  who.innerHTML = d.players.map((p) => `<option>${GR.esc(p.name)}</option>`).join("");
  const draw = () => marginsChart($("chart-margins"), d.games, who.value);
  who.onchange = draw;
  draw();
  kindsChart($("chart-kinds"), d.players);
  $("games").innerHTML = `<tr><th>Finished</th><th>Players</th><th>Rules</th><th class="num">Hands</th><th class="num">Final</th><th>Winner</th><th></th></tr>` +
    d.games.map((g) => `<tr><td>${new Date((g.finished || g.created) * 1000).toLocaleString()}</td><td>${GR.esc(g.names.join(" vs "))}</td>
      <td>${GR.esc(g.rules.preset)}${Object.keys(g.rules.overrides || {}).length ? " (changed)" : ""}</td><td class="num">${g.hands}</td>
      <td class="num">${g.totals ? g.totals.join(" – ") : ""}</td><td>${g.winner === null || g.winner === undefined ? "tie" : GR.esc(g.names[g.winner]) + " by " + g.margin}</td>
      <td><a href="/replay/${g.id}">Replay</a> · <a href="/api/games/${g.id}/record">Export record</a></td></tr>`).join("");
}
init().catch((e) => { $("empty").textContent = e.message; });
