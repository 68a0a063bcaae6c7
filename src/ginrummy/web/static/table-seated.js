// Three and four players at the table page. A seat's own hand is drawn by table.js from the same
// two-player message it always reads (Seated.own: the two at this seat's table, in hand seats);
// this file draws the rest: who plays whom, "you sit out this hand", the other table of a
// four-player deal (its result and the cards its end shows, only once it is over), the score
// sheet of three players or of the teams, and the end of the game. Every string is text (GR.el).
"use strict";

const Seated = (() => {
  const { el } = GR;
  const $ = (id) => document.getElementById(id);

  function nameOf(msg, s) {
    const n = msg.game.names[s];
    return s === msg.seat && n.toLowerCase() !== "you" ? `${n} (you)` : n;
  }
  function colNames(msg) {
    const g = msg.game;
    if (g.players !== 4) return g.names.map((_, s) => nameOf(msg, s));
    return g.columns.map((c, t) => (t === msg.column ? `${c} (your team)` : c));
  }
  function pairText(msg, p) {
    return `${nameOf(msg, p.seats[0])} against ${nameOf(msg, p.seats[1])}`;
  }

  // The seat's own table as a two-player message (null when it sits the hand out).
  function own(msg) {
    if (msg.view === null) return null;
    const g = msg.game, p = g.pairings[msg.table].seats;
    const pick = (list) => p.map((s) => list[s]);
    return {
      ...msg,
      seated: true,  // a redraw of it starts again from the seat's own message
      seat: msg.hand_seat,
      game: {
        ...g,
        names: pick(g.names),
        ready: pick(g.ready),
        connected: pick(g.connected),
        computer_seat: g.kinds.some((k) => k !== "human") ? 1 - msg.hand_seat : null,
        opponent: "seated",  // the friend's invitation and name prompt are this file's
        scores: msg.view.scores,
        hand_no: msg.hand_no,
        deck_hash: msg.deck_hash,
        hollywood: false,
        game_columns: null,
        sheet: [],
        final: null,
      },
    };
  }

  // Whose deal it is, who plays whom, and what this seat does this hand.
  function tablesPanel(msg) {
    const g = msg.game;
    const items = msg.tables.map((t) => {
      const p = t.pairing;
      const head = `Table ${t.table + 1}: ${pairText(msg, p)}` + (g.players === 3 ? `, ${nameOf(msg, p.dealt_by)} deals and sits out` : "");
      const status = t.mine ? (t.over ? "your hand is over" : "your table")
        : t.over ? "" : g.players === 4 ? "playing… (you see this table once its hand is over)" : "playing…";
      const parts = [el("strong", {}, head), status ? el("span", { class: "muted" }, " · " + status) : null];
      if (t.over && !t.mine) {
        parts.push(el("p", { class: "seated-result" }, t.explain));
        const shown = t.shown;
        const faces = [0, 1].filter((s) => shown.hands[s]).map((s) => el("div", { class: "seated-hand" },
          el("div", { class: "label" }, nameOf(msg, p.seats[s])), meldGroup(shown.hands[s])));
        if (faces.length) parts.push(el("div", { class: "layout-block" }, faces));
        else parts.push(el("p", { class: "muted" }, "A dead hand: its cards stay face down."));
      }
      return el("li", { dataset: { table: t.table } }, parts);
    });
    const next = g.upcoming.length && g.status !== "finished"
      ? el("p", { class: "muted" }, "Next hand: " + g.upcoming.map((p) => pairText(msg, p)).join("; ")
        + (g.players === 3 ? ` (${nameOf(msg, g.upcoming[0].dealt_by)} deals and sits out).` : "."))
      : null;
    const rule = g.players === 3
      ? "Three players: two play each hand, the dealer sits out, the loser deals the next."
      : `Teams: ${g.columns[0]} against ${g.columns[1]}; partners play at different tables and switch opponents every hand.`;
    GR.fill("seated-tables", items);
    GR.fill("seated-rule", rule);
    GR.fill("seated-next", next);
    const out = $("seated-out");
    out.classList.toggle("hidden", !msg.sits_out);
    if (msg.sits_out) {
      const p = msg.tables[0].pairing;
      GR.fill(out, el("strong", {}, "You sit out this hand"), `: ${pairText(msg, p)} play it. You see its result when it ends.`);
    }
  }

  // Between hands: ready for the next deal once every table is over.
  function nextButton(msg) {
    const g = msg.game, allOver = g.tables_over.every((x) => x);
    const box = $("handend"), next = $("next");
    if (msg.sits_out) {
      box.classList.toggle("hidden", !allOver);
      if (allOver) {
        const t = msg.tables[0];
        $("handend-title").textContent = `Hand ${g.deal} is over`;
        $("explain").textContent = t.explain || "";
        GR.fill("handend-layout");
      }
    }
    if (!allOver) {
      next.classList.add("hidden");
      $("next-wait").textContent = msg.view && msg.view.phase === "over" ? "The other table is still playing its hand…" : "";
      return;
    }
    next.classList.toggle("hidden", g.status === "finished");
    next.disabled = g.ready[msg.seat];
    const waiting = g.names.filter((_, s) => !g.ready[s] && s !== msg.seat);
    $("next-wait").textContent = g.ready[msg.seat] && waiting.length ? `Waiting for ${waiting.join(", ")}…` : "";
  }

  function renderSheet(msg) {
    const g = msg.game, cols = colNames(msg);
    const n = cols.length;
    if (g.games > 1) {  // a team's hand-pair is labelled only when nobody scores it
      const kind = (k) => (g.players === 4 && k !== "dead" && k !== "even" ? "score" : k);
      Sheet.hollywood(g.game_columns, cols, g.sheet.map((row) => ({ ...row, kind: kind(row.kind), title: row.explain })), g.hands_won);
      return;
    }
    $("sheet").classList.remove("hollywood");
    const rows = g.sheet.map((row) => {
      const cells = row.winner === null
        ? el("td", { colSpan: n, class: "muted" }, row.kind === "dead" ? "dead hand" : "nobody scores")
        : cols.map((_, c) => (c === row.winner ? el("td", { class: "num win" }, row.points) : el("td", { class: "num" })));
      return el("tr", { title: row.explain }, el("td", {}, row.hand), cells,
        el("td", { class: "num muted" }, row.totals[0].join(" – ")));
    });
    GR.fill("sheet",
      el("thead", {}, el("tr", {}, el("th", {}, "Hand"), cols.map((c) => el("th", { class: "num" }, c)), el("th", { class: "num" }, "Total"))),
      el("tbody", {}, rows),
      el("tfoot", {},
        el("tr", {}, el("th", {}, "Total"), g.scores.map((x) => el("th", { class: "num" }, x)), el("th")),
        el("tr", {}, el("th", {}, "Boxes"), g.hands_won.map((x) => el("td", { class: "num boxes" }, "☒".repeat(Math.min(x, 12)))), el("td"))));
    $("sheet-note").textContent = `Game to ${g.target}` + (g.players === 4 ? " for a team" : "") + ".";
  }

  function renderFinal(msg, closed, gameId) {
    const g = msg.game, box = $("final");
    if (g.status !== "finished" || !g.final || closed) { box.classList.add("hidden"); return; }
    box.classList.remove("hidden");
    const f = g.final, cols = colNames(msg);
    const others = f.totals.filter((_, c) => c !== f.winner);
    $("final-title").textContent = f.winner === null ? "A tie"
      : `${cols[f.winner]} ${g.players === 4 ? "win" : "wins"} ${f.totals[f.winner]} to ${Math.max(...others)}, by ${f.margin}`;
    const num = (tag, x) => el(tag, { class: "num" }, x);
    const line = (label, key) => el("tr", {}, el("td", {}, label), f[key].map((x) => num("td", x)));
    GR.fill("final-table", el("tbody", {},
      el("tr", {}, el("th"), cols.map((c) => num("th", c))),
      line("Points from hands", "points"), line("Hands won", "hands_won"), line("Game bonus", "game_bonus"),
      line("Box bonus", "box_bonus"), line("Shutout", "shutout_bonus"),
      el("tr", {}, el("th", {}, "Final total"), f.totals.map((x) => num("th", x)))));
    GR.fill("final-explain", f.explain.map((l) => el("li", {}, l)));
    GR.fill("final-hands", el("tbody", {},
      el("tr", {}, el("th", {}, "Hand"), el("th", {}, "Result"), num("th", "Points"), num("th", "Totals")),
      g.sheet.map((row) => el("tr", {}, el("td", {}, row.hand), el("td", {}, row.explain), num("td", row.points),
        num("td", row.totals.map((t) => t.join(" – ")).join(" | "))))));
    $("final-replay").href = `/replay/${gameId}`;
    $("final-record").href = `/api/games/${gameId}/record`;
    GR.shareToggle($("final-share"), gameId, !!g.shared);
  }

  // Everything of the game around this seat's hand; `sitting` when there is no hand of its own.
  function render(msg, opts) {
    const g = msg.game;
    document.body.classList.add("seated");
    $("seated").classList.remove("hidden");
    $("felt").classList.toggle("hidden", !msg.view);
    $("actions").classList.toggle("hidden", !msg.view);
    tablesPanel(msg);
    nextButton(msg);
    renderSheet(msg);
    renderFinal(msg, opts.finalClosed, opts.gameId);
    const scores = colNames(msg).map((c, i) => `${c} ${g.scores[i]}`).join(" · ");
    $("hand-info").textContent = `Hand ${g.deal} · ${scores} · game to ${g.target}`;
    GR.fill("seated-scores", `Score: ${scores} · game to ${g.target}.`);
    GR.fill("rules", g.rules_text.map((l) => el("li", {}, l)));
    $("deckhash").textContent = msg.deck_hash || (g.deck_hashes || []).join(" ");
    // A friend who joined by link names themself once; the invitations stay on the start page.
    const ask = msg.seat !== 0 && g.kinds[msg.seat] === "human" && !localStorage.getItem("gr.named." + opts.gameId);
    if (ask && $("join-name").classList.contains("hidden") && !opts.renaming) {
      $("name-input").value = /^Player \d$/.test(g.names[msg.seat]) ? "" : g.names[msg.seat];
    }
    $("join-name").classList.toggle("hidden", !(ask || opts.renaming));
    // The game's creator keeps each friend's link at hand until that friend has joined.
    const invites = msg.seat === 0 ? JSON.parse(localStorage.getItem("gr.invites." + opts.gameId) || "[]") : [];
    const waiting = invites.filter((inv) => !g.connected[inv.seat]);
    $("invite-note").classList.toggle("hidden", !waiting.length);
    if (waiting.length) {
      GR.fill("invite-note", waiting.map((inv) => el("div", {},
        `${g.names[inv.seat]} has not joined yet. Send them this link:`,
        el("div", { class: "invite" }, el("input", { type: "text", readonly: true, value: inv.url, attrs: { "aria-label": `invite link for ${g.names[inv.seat]}` } })))));
    }
    if (!msg.view) {
      GR.fill("log");
      $("seated-status").textContent = opts.online ? "" : opts.offline;
    } else $("seated-status").textContent = "";
  }

  return { own, render };
})();
