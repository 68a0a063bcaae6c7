// Hollywood on the table page: three games side by side, as on a paper sheet, for two players,
// three players or two teams. A column's 1st win is written in game 1, the 2nd in games 1 and 2,
// each later win in every game still open; a closed game takes no more. Every string is text (GR.el).
"use strict";

const Sheet = (() => {
  const { el } = GR;
  const $ = (id) => document.getElementById(id);
  const short = (n) => (n.length > 4 ? n.slice(0, 3) + "." : n);

  // cols: the game columns (game, scores, open, winner, closed_by); names: the ledger's columns;
  // rows: {hand, winner (a column or null), points, kind, written, closed, totals}; won: hands won.
  function hollywood(cols, names, rows, won) {
    const each = (fn) => names.map((_, s) => fn(s));
    const n = names.length;
    const gs = (s) => (s === 0 ? " gstart" : "");
    const head1 = cols.map((c) => el("th", { colSpan: n, class: `gstart game-head${c.open ? "" : " closed"}`, dataset: { game: c.game } }, `Game ${c.game}${c.open ? "" : " ✓"}`));
    const head2 = cols.map(() => each((s) => el("th", { class: "num" + gs(s), title: names[s] }, short(names[s]))));
    const body = rows.map((row) => {
      const cells = cols.map((c, gi) => {
        const closedBefore = c.closed_by !== null && c.closed_by < row.hand;
        const written = row.written.includes(gi);
        return each((s) => {
          const cls = "num hw" + gs(s) + (closedBefore ? " shut" : "") + (row.closed.includes(gi) && row.winner === s ? " closer" : "");
          if (row.winner === null || !written || row.winner !== s) return el("td", { class: cls });
          return el("td", { class: cls + " win", title: `+${row.points}: ${row.totals[gi][s]} in game ${c.game}` },
            row.totals[gi][s], el("span", { class: "pts" }, `+${row.points}`));
        });
      });
      const label = row.kind === "knock" || row.kind === "score" ? null
        : [" ", el("span", { class: "muted" }, row.kind === "dead" ? "dead" : row.kind.replace("_", " "))];
      return el("tr", { title: row.title || "" }, el("td", {}, row.hand, label), cells);
    });
    const totals = cols.map((c) => each((s) => el("th", { class: "num" + gs(s) + (c.winner === s ? " win" : "") }, c.scores[s])));
    const status = cols.map((c) => el("td", { colSpan: n, class: "muted game-status gstart" }, c.open ? "open" : `✓ ${short(names[c.winner])} h${c.closed_by}`));
    GR.fill("sheet",
      el("thead", {}, el("tr", {}, el("th", { rowSpan: 2 }, "Hand"), head1), el("tr", {}, head2)),
      el("tbody", {}, body),
      el("tfoot", {}, el("tr", {}, el("th", {}, "Total"), totals), el("tr", {}, el("th"), status)));
    $("sheet").classList.add("hollywood");
    const legend = each((s) => `${short(names[s])} = ${names[s]}`).join(", ");
    GR.fill("sheet-note",
      `Hollywood: three games at once; each cell is the running total (+ the hand's points); ✓ h3 = closed in hand 3. ${legend}.`,
      el("br"), "Hands won: " + each((s) => `${names[s]} ${won[s]}`).join(" · "));
  }

  return { hollywood };
})();
