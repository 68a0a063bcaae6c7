/* Gin Rummy scorekeeper page.
 *
 * The server scores everything (the same code as the game engine); this page only collects each
 * hand's entry and draws the sheet it gets back. The sheet's id lives in localStorage, so a reload
 * (or closing the tab) keeps the game without any account.
 */
"use strict";

(function () {
  const CURRENT_KEY = "ginrummy.scorekeeper.current";
  const RECENT_KEY = "ginrummy.scorekeeper.recent";
  const API = "/api/scorekeeper";

  // Rules that change how a hand or a game is scored, in the order the form shows them; their
  // labels and help come from the server (ginrummy.words), as on every page.
  // (Play-only rules such as who deals may still arrive in the address and are kept as they are.)
  const RULE_FIELDS = [
    ["knock_limit", "int", 0, 10],
    ["gin_bonus", "int"],
    ["undercut_bonus", "int"],
    ["big_gin", "bool"],
    ["big_gin_bonus", "int"],
    ["straight_gin", "bool"],
    ["target", "int", 1],
    ["game_bonus", "int"],
    ["box_bonus", "int"],
    ["shutout", "choice", ["bonus", "double_total", "double_hands", "none"]],
    ["shutout_bonus", "int"],
    ["hollywood", "bool"],
    ["oklahoma", "bool"],
    ["oklahoma_ace_gin_only", "bool"],
    ["oklahoma_spade_double", "bool"],
    ["oklahoma_extra_boxes", "bool"],
    ["upcard", "bool"],
    // Games of three and four players (shown when that many play; the two-player target is not the team's).
    ["three_player_bonuses", "bool", null, null, [3]],
    ["team_target", "int", 1, 10000, [4]],
    ["team_bonuses", "bool", null, null, [4]],
  ];
  // A rule's field is shown for these numbers of players (default: any).
  const FOR_PLAYERS = { target: [2, 3], three_player_bonuses: [3], team_target: [4], team_bonuses: [4] };
  const ORDINAL = ["First", "Second", "Third", "Fourth"];

  let presets = {};
  let presetLabels = {}; // preset -> its name for people ("Classic (family rules)"), from the server
  let ruleLabels = {}; // rule -> {label, help, choices}, from the server (ginrummy.words)
  let sheet = null;
  let editing = null; // hand number being corrected, or null
  let extraOverrides = {}; // rules from the address that the form does not show

  const $ = (id) => document.getElementById(id);
  const el = (tag, attrs, ...children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children) node.append(c);
    return node;
  };

  // ---------------------------------------------------------------------------------------------
  // Server and storage

  async function api(method, path, body) {
    const opts = { method, headers: {} };
    if (body !== undefined) {
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    let res;
    try {
      res = await fetch(API + path, opts);
    } catch (e) {
      throw new Error("The server cannot be reached. Your entry was not saved; try again.");
    }
    if (res.status === 204) return null;
    let data = null;
    try { data = await res.json(); } catch (e) { data = null; }
    if (!res.ok) {
      const err = new Error((data && data.message) || `The server answered ${res.status}.`);
      err.status = res.status;
      err.rule = data && data.rule;
      throw err;
    }
    return data;
  }

  function storage(fn, fallback) {
    try { return fn(); } catch (e) { return fallback; }
  }
  const getCurrent = () => storage(() => localStorage.getItem(CURRENT_KEY), null);
  const setCurrent = (id) => storage(() => (id ? localStorage.setItem(CURRENT_KEY, id) : localStorage.removeItem(CURRENT_KEY)));
  const getRecent = () => storage(() => JSON.parse(localStorage.getItem(RECENT_KEY) || "[]"), []);
  function remember(s) {
    const recent = getRecent().filter((r) => r.id !== s.id);
    recent.unshift({ id: s.id, names: s.names, title: s.title, preset: s.rules.preset, created: s.created, over: s.over });
    storage(() => localStorage.setItem(RECENT_KEY, JSON.stringify(recent.slice(0, 12))));
  }
  function forget(id) {
    storage(() => localStorage.setItem(RECENT_KEY, JSON.stringify(getRecent().filter((r) => r.id !== id))));
    if (getCurrent() === id) setCurrent(null);
  }

  // ---------------------------------------------------------------------------------------------
  // Messages

  function showError(message) {
    const box = $("error");
    box.textContent = message;
    box.hidden = false;
  }
  function clearError() {
    $("error").hidden = true;
    $("error").textContent = "";
  }

  // ---------------------------------------------------------------------------------------------
  // New game

  // -- how many play, their names, who deals first --------------------------------------------

  function playerCount() {
    const c = document.querySelector('input[name="count"]:checked');
    return c ? Number(c.value) : 2;
  }
  function setupNames() {
    const out = [];
    for (let i = 0; i < playerCount(); i++) out.push($("name-" + i).value.trim() || `Player ${i + 1}`);
    return out;
  }
  // Four players: the 1st and 3rd named are partners against the 2nd and 4th.
  function teamsText(names) {
    return `Teams: ${names[0]} & ${names[2]} against ${names[1]} & ${names[3]}. Partners switch opponents every hand.`;
  }

  function syncPlayers(resetDealer) {
    const n = playerCount();
    for (let i = 2; i < 4; i++) {
      $("name-field-" + i).hidden = i >= n;
      $("name-" + i).required = i < n;
    }
    for (let i = 0; i < 4; i++) {
      $("name-label-" + i).textContent = n === 4 ? `${ORDINAL[i]} player (team ${i % 2 + 1})` : `${ORDINAL[i]} player`;
    }
    const names = setupNames();
    $("teams-line").hidden = n !== 4;
    if (n === 4) $("teams-line").textContent = teamsText(names);
    $("first-dealer-row").hidden = n === 2;
    const select = $("first-dealer");
    const keep = resetDealer ? (n === 3 ? 2 : 0) : Number(select.value || 0);
    select.replaceChildren(...names.map((name, i) => el("option", { value: String(i), text: name })));
    if (n > 2) select.value = String(Math.min(keep, n - 1));
    $("first-dealer-hint").textContent = n === 3 ? "(the dealer sits out; the loser of each hand deals the next)"
      : n === 4 ? "(at both tables that player's team deals first; the teams take turns)" : "";
    for (const [name, counts] of Object.entries(FOR_PLAYERS)) {
      const input = $("rule-" + name);
      if (input) input.closest(".field").hidden = !counts.includes(n);
    }
    if ($("rule-target")) syncRuleFields();
  }

  function ruleValues() {
    const out = {};
    for (const [name, kind] of RULE_FIELDS) {
      const input = $("rule-" + name);
      if (kind === "bool") out[name] = input.checked;
      else if (kind === "int") out[name] = input.value === "" ? null : Number(input.value);
      else out[name] = input.value;
    }
    return out;
  }

  function fillRules(values) {
    for (const [name, kind] of RULE_FIELDS) {
      const input = $("rule-" + name);
      if (kind === "bool") input.checked = !!values[name];
      else input.value = values[name];
    }
    syncRuleFields();
  }

  function syncRuleFields() {
    // Options that depend on another rule are greyed out while it is off.
    const v = ruleValues();
    const dep = {
      big_gin_bonus: v.big_gin,
      shutout_bonus: v.shutout === "bonus",
      oklahoma_ace_gin_only: v.oklahoma,
      oklahoma_spade_double: v.oklahoma,
      oklahoma_extra_boxes: v.oklahoma,
      knock_limit: !v.straight_gin && !v.oklahoma,
    };
    for (const [name, on] of Object.entries(dep)) {
      const input = $("rule-" + name);
      input.disabled = !on;
      input.closest(".field").classList.toggle("off", !on);
    }
    const p = presets[$("preset").value] || {};
    const changed = RULE_FIELDS.filter(([n]) => v[n] !== p[n]).length + Object.keys(extraOverrides).length;
    $("preset-summary").textContent = summary(Object.assign({}, p, v, extraOverrides), playerCount()) + (changed ? ` (${changed} changed)` : "");
  }

  function summary(r, players) {
    const parts = [];
    if (r.straight_gin) parts.push("straight gin");
    else if (r.oklahoma) parts.push("Oklahoma knock limit");
    else parts.push(`knock ${r.knock_limit}`);
    parts.push(`gin ${r.gin_bonus}`, `undercut ${r.undercut_bonus}`);
    if (r.big_gin) parts.push(`big gin ${r.big_gin_bonus}`);
    parts.push(players === 4 ? `team game to ${r.team_target}` : `game to ${r.target}`);
    const bonuses = players === 3 ? r.three_player_bonuses : players === 4 ? r.team_bonuses : true;
    if (!bonuses) parts.push("no bonuses");
    if (bonuses && r.game_bonus) parts.push(`game bonus ${r.game_bonus}`);
    if (bonuses && r.box_bonus) parts.push(`box ${r.box_bonus}`);
    if (r.hollywood) parts.push("Hollywood");
    return parts.join(", ");
  }

  function buildSetup() {
    const select = $("preset");
    select.replaceChildren(...Object.keys(presets).map((p) => el("option", { value: p, text: presetLabels[p] || p })));
    const box = $("rule-fields");
    box.replaceChildren();
    for (const [name, kind, a, b] of RULE_FIELDS) {
      const id = "rule-" + name;
      const words = ruleLabels[name] || {};
      const label = words.label || name;
      let input;
      if (kind === "bool") input = el("input", { type: "checkbox", id });
      else if (kind === "int") input = el("input", { type: "number", id, min: a === undefined ? 0 : a, max: b, step: 1 });
      else input = el("select", { id }, ...a.map((c) => el("option", { value: c, text: (words.choices || {})[c] || c })));
      if (words.help) input.setAttribute("title", words.help);
      input.addEventListener("change", syncRuleFields);
      input.addEventListener("input", syncRuleFields);
      const field = kind === "bool"
        ? el("label", { class: "field check", for: id }, input, " " + label)
        : el("span", { class: "field" }, el("label", { for: id, text: label }), input);
      box.append(field);
    }
    select.addEventListener("change", () => {
      extraOverrides = {};
      fillRules(presets[select.value]);
    });
  }

  function showSetup(prefill) {
    clearError();
    $("game").hidden = true;
    $("setup").hidden = false;
    const p = prefill || {};
    const count = p.names && p.names.length >= 2 && p.names.length <= 4 ? p.names.length : playerCount();
    $("count-" + count).checked = true;
    for (let i = 0; i < 4; i++) $("name-" + i).value = (p.names && p.names[i]) || $("name-" + i).value || "";
    syncPlayers(true);
    if (p.first_dealer && p.names) $("first-dealer").value = String(Math.max(0, p.names.indexOf(p.first_dealer)));
    const preset = p.preset && presets[p.preset] ? p.preset : "classic";
    $("preset").value = preset;
    extraOverrides = {};
    const values = Object.assign({}, presets[preset]);
    for (const [k, v] of Object.entries(p.overrides || {})) {
      if (RULE_FIELDS.some(([n]) => n === k)) values[k] = v;
      else extraOverrides[k] = v;
    }
    fillRules(values);
    if (p.overrides && Object.keys(p.overrides).length) $("rule-details").open = true;
    $("cancel-setup").hidden = !sheet;
    renderRecent();
    $("name-0").focus();
  }

  function renderRecent() {
    const recent = getRecent().filter((r) => !sheet || r.id !== sheet.id);
    $("recent").hidden = recent.length === 0;
    $("recent-list").replaceChildren(
      ...recent.map((r) =>
        el("li", {},
          el("button", {
            type: "button", class: "link", text: r.title || `${r.names[0]} v ${r.names[1]}`,
            onclick: () => open(r.id),
          }),
          ` (${presetLabels[r.preset] || r.preset}, ${new Date(r.created * 1000).toLocaleDateString()}${r.over ? ", finished" : ""})`,
        ),
      ),
    );
  }

  async function createSheet(names, rules, firstDealer) {
    const body = { names, rules };
    if (firstDealer !== null && firstDealer !== undefined) body.first_dealer = firstDealer;
    const s = await api("POST", "/sheets", body);
    setCurrent(s.id);
    show(s);
  }

  async function onSetupSubmit(event) {
    event.preventDefault();
    clearError();
    const preset = $("preset").value;
    const base = presets[preset];
    const values = ruleValues();
    const overrides = Object.assign({}, extraOverrides);
    const n = playerCount();
    for (const [name] of RULE_FIELDS) {
      if (values[name] === null) continue;
      if (FOR_PLAYERS[name] && !FOR_PLAYERS[name].includes(n)) continue;
      if (values[name] !== base[name]) overrides[name] = values[name];
    }
    const names = setupNames();
    try {
      await createSheet(names, { preset, overrides }, n > 2 ? Number($("first-dealer").value) : null);
    } catch (e) {
      showError(e.message);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // The game

  async function open(id) {
    clearError();
    try {
      const s = await api("GET", "/sheets/" + encodeURIComponent(id));
      setCurrent(s.id);
      show(s);
    } catch (e) {
      if (e.status === 404) {
        forget(id);
        sheet = null;
        showSetup();
        showError("That game is no longer on the server; start a new one.");
      } else {
        showError(e.message);
      }
    }
  }

  function rulesQuery(s, withNames) {
    const q = new URLSearchParams();
    q.set("preset", s.rules.preset);
    for (const [k, v] of Object.entries(s.rules.overrides)) q.set(k, String(v));
    if (withNames) q.set("names", s.names.join(","));
    if (withNames && s.players > 2) q.set("players", String(s.players));
    return q.toString();
  }

  function show(s) {
    sheet = s;
    remember(s);
    $("loading").hidden = true;
    $("setup").hidden = true;
    $("game").hidden = false;
    $("game-title").textContent = s.title;
    const changed = Object.keys(s.rules.overrides).length ? " (changed)" : "";
    // Only the lines that matter for scoring; dealing and the dead-hand count are on the rule sheet.
    const lines = s.rules_summary.slice(1).filter((t) => !/^(First dealer|Dead hand)/.test(t) && !(s.players > 2 && /^Game to/.test(t)));
    if (s.players_line) lines.push(s.players_line);
    $("rules-line").textContent = `Rules: ${presetLabels[s.rules.preset] || s.rules.preset}${changed}. ` + lines.join(" ");
    $("rule-sheet-link").href = "/rules?" + rulesQuery(s, false);
    $("score-sheet-link").href = "/scoresheet?" + rulesQuery(s, true);
    $("share-link").value = `${location.origin}/scorekeeper?sheet=${encodeURIComponent(s.id)}`;
    // Four players: the form's two table titles say who plays whom (and who deals) at each table.
    $("next-hand").hidden = !s.next || editing !== null || s.players === 4;
    $("next-hand").textContent = SKHand.nextText(s);
    if (editing === null && !s.over) SKHand.setTables(s, SKHand.tablesOf(s));
    renderStanding(s);
    renderTable(s);
    renderFinal(s);
    $("hand-form").hidden = s.over && editing === null;
    if (editing === null) resetHandForm();
    if (history.replaceState && location.search) history.replaceState(null, "", "/scorekeeper");
  }

  function renderStanding(s) {
    const C = s.columns.length;
    const box = $("standing");
    box.replaceChildren();
    if (s.over) return;
    for (let g = 0; g < s.games; g++) {
      const label = s.hollywood ? `Game ${g + 1}` : "Score";
      const open = s.game_open[g];
      const item = el("div", { class: "stand" + (open ? "" : " closed") }, el("span", { class: "label", text: label }));
      for (let p = 0; p < C; p++) {
        item.append(el("span", { class: "who" }, el("span", { text: s.columns[p] + " " }),
          el("strong", { class: "score", id: `score-${g}-${p}`, text: String(s.scores[g][p]) })));
      }
      item.append(el("span", { class: "muted", text: open ? `to ${s.target}` : "closed" }));
      box.append(item);
    }
  }

  function whatCell(h, s) {
    const td = el("td", { class: "what", title: h.explain, text: SKHand.handLabel(h, s, false) });
    const ups = s.players === 4 ? SKHand.tableEntries(h).map((e, i) => [e.upcard, h.tables[i].kind]) : [[h.entry.upcard, h.kind]];
    for (const [up, kind] of ups) {
      if (up && kind !== "dead") {
        td.append(" (upcard ", el("span", { class: "suit suit-" + up.slice(-1).toLowerCase(), text: SKHand.cardText(up) }), ")");
      }
    }
    return td;
  }

  function boxes(h) {
    const n = h.winner === null ? 0 : 1 + h.extra_boxes;
    return el("span", { class: "boxes", "aria-label": `${n} box${n === 1 ? "" : "es"}`, text: "▪".repeat(n) });
  }

  function renderTable(s) {
    const head = $("sheet-head");
    const body = $("sheet-body");
    const foot = $("sheet-foot");
    head.replaceChildren();
    body.replaceChildren();
    foot.replaceChildren();
    const final = s.final;
    const C = s.columns.length;
    if (s.hollywood) {
      const r1 = el("tr", {}, el("th", { rowspan: 2, scope: "col", text: "Hand" }), el("th", { rowspan: 2, scope: "col", text: "What happened" }));
      const r2 = el("tr");
      for (let g = 0; g < 3; g++) {
        const closedBy = s.hands.find((h) => h.closed.includes(g));
        const note = closedBy ? ` (won by ${s.columns[closedBy.winner]})` : "";
        r1.append(el("th", { colspan: C, scope: "colgroup", class: "game", text: `Game ${g + 1}${note}` }));
        for (let p = 0; p < C; p++) r2.append(el("th", { scope: "col", class: p === 0 ? "game" : null, text: s.columns[p] }));
      }
      r1.append(el("th", { rowspan: 2, scope: "col" }, el("span", { class: "visually-hidden", text: "Correct or delete" })));
      head.append(r1, r2);
      const closedAt = [null, null, null];
      for (const h of s.hands) {
        const tr = el("tr", { id: `hand-${h.number}` }, el("td", { class: "num", text: String(h.number) }),
          whatCell(h, s));
        for (let g = 0; g < 3; g++) {
          for (let p = 0; p < C; p++) {
            const td = el("td", { class: "pts" + (p === 0 ? " game" : "") });
            if (closedAt[g] !== null) {
              td.classList.add("closed");
            } else if (h.written.includes(g) && h.winner === p) {
              td.append(el("span", { class: "add", text: `+${h.points} ` }), el("strong", { text: String(h.totals[g][p]) }));
            } else if (h.written.includes(g) || h.kind === "dead") {
              td.append(el("span", { class: "muted", text: String(h.totals[g][p]) }));
            }
            tr.append(td);
          }
          if (h.closed.includes(g)) closedAt[g] = h.number;
        }
        tr.append(rowTools(h));
        body.append(tr);
      }
      if (final) {
        const rows = [
          ["Game bonus", (g, p) => final.games[g].game_bonus[p]],
          ["Shutout", (g, p) => final.games[g].shutout_bonus[p]],
          ["Box bonus", (g, p) => final.games[g].box_bonus[p]],
          ["Game total", (g, p) => final.games[g].totals[p]],
        ];
        for (const [label, fn] of rows) {
          if (label === "Shutout" && !final.shutout) continue;
          const tr = el("tr", {}, el("th", { scope: "row", colspan: 2, text: label }));
          for (let g = 0; g < 3; g++) for (let p = 0; p < C; p++) tr.append(el("td", { class: "pts" + (p === 0 ? " game" : ""), text: String(fn(g, p)) }));
          tr.append(el("td"));
          foot.append(tr);
        }
        const tr = el("tr", { class: "grand" }, el("th", { scope: "row", colspan: 2, text: "Three games added" }));
        for (let p = 0; p < C; p++) tr.append(el("td", { colspan: 3, class: "pts game", id: `final-total-${p}`, text: `${s.columns[p]} ${final.totals[p]}` }));
        tr.append(el("td"));
        foot.append(tr);
      } else {
        foot.append(boxRow(s, 2 + 3 * C));
      }
      return;
    }
    // One game: points and running total per player.
    const r1 = el("tr", {}, el("th", { rowspan: 2, scope: "col", text: "Hand" }), el("th", { rowspan: 2, scope: "col", text: "What happened" }));
    const r2 = el("tr");
    for (let p = 0; p < C; p++) {
      r1.append(el("th", { colspan: 2, scope: "colgroup", class: "game", text: s.columns[p] }));
      r2.append(el("th", { scope: "col", class: "game", text: "Points" }), el("th", { scope: "col", text: "Total" }));
    }
    r1.append(el("th", { rowspan: 2, scope: "col" }, el("span", { class: "visually-hidden", text: "Correct or delete" })));
    head.append(r1, r2);
    for (const h of s.hands) {
      const tr = el("tr", { id: `hand-${h.number}` }, el("td", { class: "num", text: String(h.number) }),
        whatCell(h, s));
      for (let p = 0; p < C; p++) {
        const pts = el("td", { class: "pts game" });
        if (h.winner === p) pts.append(el("strong", { text: String(h.points) }), " ", boxes(h));
        else if (h.kind === "dead") pts.append(el("span", { class: "muted", text: "–" }));
        tr.append(pts, el("td", { class: "pts total", text: String(h.totals[0][p]) }));
      }
      tr.append(rowTools(h));
      body.append(tr);
    }
    if (final) {
      const rows = [
        ["Hand points", final.points],
        ["Game bonus", final.game_bonus],
        [final.shutout ? "Shutout" : null, final.shutout_bonus],
        [`Box bonus (${final.hands_won.join(", ")} hands won)`, final.box_bonus],
      ];
      for (const [label, values] of rows) {
        if (!label) continue;
        const tr = el("tr", {}, el("th", { scope: "row", colspan: 2, text: label }));
        for (let p = 0; p < C; p++) tr.append(el("td", { class: "pts game", colspan: 2, text: String(values[p]) }));
        tr.append(el("td"));
        foot.append(tr);
      }
      const tr = el("tr", { class: "grand" }, el("th", { scope: "row", colspan: 2, text: "Final total" }));
      for (let p = 0; p < C; p++) tr.append(el("td", { class: "pts game", colspan: 2, id: `final-total-${p}`, text: String(final.totals[p]) }));
      tr.append(el("td"));
      foot.append(tr);
    } else {
      foot.append(boxRow(s, 2 + 2 * C));
    }
  }

  function boxRow(s, width) {
    const C = s.columns.length;
    const text = s.columns.map((n, p) => `${n} ${s.hands_won[p]}`).join(", ");
    return el("tr", {}, el("th", { scope: "row", colspan: 2, text: "Hands won (boxes)" }),
      el("td", { colspan: width - 2, class: "muted", text: s.hands.length ? text : "No hands yet." }), el("td"));
  }

  function rowTools(h) {
    return el("td", { class: "tools" },
      el("button", { type: "button", class: "small secondary", "aria-label": `Correct hand ${h.number}`, text: "Correct", onclick: () => startEdit(h) }),
      el("button", { type: "button", class: "small secondary", "aria-label": `Delete hand ${h.number}`, text: "Delete", onclick: () => deleteHand(h) }),
    );
  }

  function renderFinal(s) {
    $("final").hidden = !s.over;
    if (!s.over) return;
    const f = s.final;
    const lines = f.explain.slice();
    const last = lines.pop();
    $("final-result").replaceChildren(el("strong", { text: last }));
    const margin = el("p", { class: "margin" }, "Winning margin: ", el("strong", { id: "margin", text: String(f.margin) }));
    $("final-result").append(margin);
    $("final-lines").replaceChildren(...lines.map((t) => el("li", { text: t })));
  }

  // ---------------------------------------------------------------------------------------------
  // Entering a hand

  function resetHandForm() {
    editing = null;
    if (sheet && !sheet.over) SKHand.setTables(sheet, SKHand.tablesOf(sheet));
    SKHand.clearAll();
    $("next-hand").hidden = !(sheet && sheet.next) || sheet.players === 4;
    $("cancel-edit").hidden = true;
    $("score-hand").textContent = "Score hand";
    $("hand-legend").textContent = sheet ? `Hand ${sheet.hands.length + 1}` : "Hand 1";
    $("hand-form").classList.remove("editing");
    for (const tr of document.querySelectorAll("#sheet-body tr.editing")) tr.classList.remove("editing");
  }

  function startEdit(h) {
    clearError();
    editing = h.number;
    $("hand-form").hidden = false;
    $("hand-form").classList.add("editing");
    $("hand-legend").textContent = `Correct hand ${h.number}`;
    $("score-hand").textContent = `Save hand ${h.number}`;
    $("cancel-edit").hidden = false;
    $("next-hand").hidden = true;
    SKHand.setTables(sheet, SKHand.tablesOf(sheet, h));
    const entries = sheet.players === 4 ? SKHand.tableEntries(h) : [h.entry];
    const kinds = entries.map((e, i) => SKHand.fillPart(i, e));
    const kindValue = kinds[0];
    for (const tr of document.querySelectorAll("#sheet-body tr.editing")) tr.classList.remove("editing");
    const row = $(`hand-${h.number}`);
    if (row) row.classList.add("editing");
    $("hand-form").scrollIntoView({ block: "nearest" });
    $("kind-" + kindValue).focus();
  }

  async function onHandSubmit(event) {
    event.preventDefault();
    clearError();
    let entry;
    try {
      entry = SKHand.entry();
    } catch (e) {
      showError(e.message);
      return;
    }
    const number = editing;
    try {
      const s = number === null
        ? await api("POST", `/sheets/${encodeURIComponent(sheet.id)}/hands`, entry)
        : await api("PUT", `/sheets/${encodeURIComponent(sheet.id)}/hands/${number}`, entry);
      editing = null;
      show(s);
      const h = s.hands[(number || s.hands.length) - 1];
      $("last-hand").textContent = (number ? `Hand ${number} corrected. ` : `Hand ${h.number}: `) + h.explain;
      if (s.over) $("final").scrollIntoView({ block: "nearest" });
      if (!$("hand-form").hidden) $("kind-knock").focus();
      else $("rematch").focus();
    } catch (e) {
      showError(e.message);
    }
  }

  async function deleteHand(h) {
    if (!window.confirm(`Delete hand ${h.number} (${SKHand.handLabel(h, sheet)})? Later hands move up.`)) return;
    clearError();
    try {
      const s = await api("DELETE", `/sheets/${encodeURIComponent(sheet.id)}/hands/${h.number}`);
      editing = null;
      show(s);
      $("last-hand").textContent = `Hand ${h.number} deleted.`;
      $("kind-knock").focus();
    } catch (e) {
      showError(e.message);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Start

  function prefillFromAddress(params) {
    // /scorekeeper?preset=online&knock_limit=7 (from the rule sheet) opens a new game with those rules.
    if (!params.has("preset")) return null;
    const overrides = {};
    for (const [k, v] of params.entries()) {
      if (["preset", "sheet", "names", "hands", "players"].includes(k)) continue;
      if (v === "true" || v === "false") overrides[k] = v === "true";
      else if (/^\d+$/.test(v)) overrides[k] = Number(v);
      else overrides[k] = v;
    }
    let names = params.get("names") ? params.get("names").split(",") : null;
    // The printable sheet's "players=3" (no names yet): that many empty names.
    const players = Number(params.get("players"));
    if ([2, 3, 4].includes(players) && (!names || names.length !== players)) names = Array.from({ length: players }, (_, i) => (names || [])[i] || "");
    return { preset: params.get("preset"), overrides, names };
  }

  async function start() {
    GR.header("Scorekeeper");  // the site's header and display options, as on the table
    $("setup-form").addEventListener("submit", onSetupSubmit);
    $("hand-form").addEventListener("submit", onHandSubmit);
    SKHand.init();
    for (const r of document.querySelectorAll('input[name="count"]')) r.addEventListener("change", () => syncPlayers(true));
    for (let i = 0; i < 4; i++) $("name-" + i).addEventListener("input", () => syncPlayers(false));
    $("cancel-edit").addEventListener("click", () => { resetHandForm(); show(sheet); clearError(); });
    $("cancel-setup").addEventListener("click", () => { if (sheet) show(sheet); });
    $("new-game").addEventListener("click", () => showSetup({
      names: sheet.names, preset: sheet.rules.preset, overrides: sheet.rules.overrides, first_dealer: sheet.first_dealer,
    }));
    $("rematch").addEventListener("click", async () => {
      try { await createSheet(sheet.names, sheet.rules, sheet.first_dealer); $("last-hand").textContent = "New game started."; } catch (e) { showError(e.message); }
    });
    $("delete-game").addEventListener("click", async () => {
      if (!window.confirm("Delete this game from the server? This cannot be undone.")) return;
      try {
        await api("DELETE", "/sheets/" + encodeURIComponent(sheet.id));
        forget(sheet.id);
        sheet = null;
        showSetup();
      } catch (e) { showError(e.message); }
    });
    document.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && editing !== null) { resetHandForm(); show(sheet); }
    });
    $("share-link").addEventListener("focus", (e) => e.target.select());

    try {
      const answer = await api("GET", "/presets");
      presets = answer.presets;
      presetLabels = answer.preset_labels || {};
      ruleLabels = answer.rule_labels || {};
    } catch (e) {
      $("loading").hidden = true;
      showError(e.message);
      return;
    }
    buildSetup();
    const params = new URLSearchParams(location.search);
    const prefill = prefillFromAddress(params);
    const id = params.get("sheet") || getCurrent();
    if (prefill) {
      if (id) {
        try { sheet = await api("GET", "/sheets/" + encodeURIComponent(id)); } catch (e) { sheet = null; }
      }
      $("loading").hidden = true;
      showSetup(prefill);
      return;
    }
    if (id) {
      await open(id);
      $("loading").hidden = true;
      return;
    }
    $("loading").hidden = true;
    showSetup();
  }

  document.addEventListener("DOMContentLoaded", start);
})();
