// Shared by every page: display preferences, a small DOM builder and the card drawings (SVG, made
// here; no image files). Pages build every element with GR.el / GR.svg: a string is always a text
// node, never parsed as HTML, so a player's name can only ever show as the characters typed.
"use strict";

const GR = (() => {
  const SUIT_SYMBOL = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
  const SUIT_NAME = { s: "spades", h: "hearts", d: "diamonds", c: "clubs" };
  const RANK_LABEL = { A: "A", T: "10", J: "J", Q: "Q", K: "K" };
  const RANK_NAME = { A: "ace", T: "10", J: "jack", Q: "queen", K: "king" };
  const RANKS = "A23456789TJQK";
  const SUITS = "shdc";
  const SVGNS = "http://www.w3.org/2000/svg";

  // ---------------------------------------------------------------- building the page
  // An attribute by name; event handlers and style attributes are refused (the CSP forbids both:
  // handlers go through `on...` functions, styles through `style: {...}`, set with the CSSOM).
  function attr(node, name, value) {
    if (/^on/i.test(name) || name.toLowerCase() === "style") throw new Error(`GR: attribute ${name} is not allowed`);
    node.setAttribute(name, value === true ? "" : String(value));
  }

  // props: class, dataset {..}, style {..} (CSSOM properties), attrs {..} (set as attributes),
  // onclick / oninput / ... (functions, added as listeners), anything else as a DOM property when
  // the element has it (id, title, type, value, href, checked, htmlFor, tabIndex...) else an attribute.
  // null, undefined and false are left out.
  function setProps(node, props, svg) {
    for (const [k, v] of Object.entries(props || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.setAttribute("class", v);
      else if (k === "dataset") Object.assign(node.dataset, v);
      else if (k === "style") Object.assign(node.style, v);
      else if (k === "attrs") for (const [a, x] of Object.entries(v)) { if (x !== null && x !== undefined && x !== false) attr(node, a, x); }
      else if (k.startsWith("on")) {
        if (typeof v !== "function") throw new Error(`GR: ${k} must be a function`);
        node.addEventListener(k.slice(2), v);
      } else if (!svg && k in node) node[k] = v;
      else attr(node, k, v);
    }
  }

  // Children: nodes, strings and numbers (text nodes), arrays of them; null/undefined/false skipped.
  function kids(children) {
    return children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false)
      .map((c) => (c instanceof Node ? c : document.createTextNode(String(c))));
  }

  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    setProps(node, props, false);
    node.append(...kids(children));
    return node;
  }
  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(SVGNS, tag);
    setProps(node, attrs, true);
    node.append(...kids(children));
    return node;
  }
  // Replace a box's contents; `fill("id", ...children)` or `fill(node, ...)`.
  function fill(box, ...children) {
    const node = typeof box === "string" ? document.getElementById(box) : box;
    node.replaceChildren(...kids(children));
    return node;
  }

  // ---------------------------------------------------------------- preferences
  function prefs() {
    return {
      theme: localStorage.getItem("gr.theme") || "auto",
      four: localStorage.getItem("gr.four") === "1",
      big: localStorage.getItem("gr.big") === "1",
      order: localStorage.getItem("gr.order") || "suit",
    };
  }
  function applyPrefs() {
    const p = prefs();
    const root = document.documentElement;
    if (p.theme === "auto") root.removeAttribute("data-theme"); else root.setAttribute("data-theme", p.theme);
    root.setAttribute("data-four", p.four ? "1" : "0");
    root.setAttribute("data-big", p.big ? "1" : "0");
  }
  applyPrefs();

  function header(active) {
    const box = document.querySelector("header.site");
    if (!box) return;
    const links = [["/", "Play"], ["/scorekeeper", "Scorekeeper"], ["/history", "History"], ["/rules", "Rules"]];
    const p = prefs();
    const themes = [["auto", "As the device"], ["light", "Light"], ["dark", "Dark"]];
    const theme = el("select", { id: "pref-theme" }, themes.map(([t, words]) => el("option", { value: t }, words)));
    theme.value = p.theme;
    theme.onchange = () => { localStorage.setItem("gr.theme", theme.value); applyPrefs(); };
    const four = el("input", { type: "checkbox", id: "pref-four", checked: p.four });
    four.onchange = () => { localStorage.setItem("gr.four", four.checked ? "1" : "0"); applyPrefs(); };
    const big = el("input", { type: "checkbox", id: "pref-big", checked: p.big });
    big.onchange = () => { localStorage.setItem("gr.big", big.checked ? "1" : "0"); applyPrefs(); };
    // On a narrow screen the preferences fold away behind a button (CSS shows it under 960 px).
    const toggle = el("button", { type: "button", class: "prefs-toggle", attrs: { "aria-expanded": "false", "aria-controls": "prefs" } }, "Options");
    toggle.onclick = () => toggle.setAttribute("aria-expanded", String(box.classList.toggle("open")));
    fill(box,
      el("a", { class: "brand", href: "/" }, "\u2660\u2665 Gin Rummy"),
      el("nav", { attrs: { "aria-label": "Main" } }, links.map(([h, t]) => el("a", { href: h, attrs: { "aria-current": t === active ? "page" : null } }, t))),
      toggle,
      el("div", { class: "prefs", id: "prefs" },
        el("label", {}, "Theme ", theme),
        el("label", {}, four, " Four-colour suits"),
        el("label", {}, big, " Large cards")));
  }

  // ---------------------------------------------------------------- cards
  function rankOf(code) { return code[0]; }
  function suitOf(code) { return code[code.length - 1]; }
  function label(code) { return (RANK_LABEL[rankOf(code)] || rankOf(code)) + SUIT_SYMBOL[suitOf(code)]; }
  function name(code) { return `${RANK_NAME[rankOf(code)] || rankOf(code)} of ${SUIT_NAME[suitOf(code)]}`; }
  function value(code) { const r = RANKS.indexOf(rankOf(code)); return Math.min(r + 1, 10); }
  function sortKey(code, by) {
    const r = RANKS.indexOf(rankOf(code)), s = SUITS.indexOf(suitOf(code));
    return by === "rank" ? r * 4 + s : s * 13 + r;
  }
  function isCard(code) { return typeof code === "string" && code.length === 2 && RANKS.includes(code[0]) && SUITS.includes(code[1]); }

  // One card face: corner indices, a large centre pip, court letters framed. Built once per card
  // (there are 52) and cloned for every use.
  function buildFace(code) {
    const s = suitOf(code), r = rankOf(code);
    const col = `var(--${s})`;
    const lab = RANK_LABEL[r] || r;
    const sym = SUIT_SYMBOL[s];
    const corner = () => [
      svg("text", { x: 4, y: 15, "font-size": 13, "font-weight": 700, fill: col }, lab),
      svg("text", { x: 4.5, y: 27, "font-size": 11, fill: col }, sym),
    ];
    const centre = "JQK".includes(r)
      ? [svg("rect", { x: 15, y: 22, width: 30, height: 40, rx: 3, fill: "none", stroke: col, "stroke-width": 1.2 }),
        svg("text", { x: 30, y: 50, "text-anchor": "middle", "font-size": 20, "font-weight": 700, fill: col }, lab),
        svg("text", { x: 30, y: 60, "text-anchor": "middle", "font-size": 9, fill: col }, sym)]
      : [svg("text", { x: 30, y: 55, "text-anchor": "middle", "font-size": r === "A" ? 30 : 24, fill: col }, sym)];
    return svg("svg", { viewBox: "0 0 60 84", role: "img", "aria-label": name(code) },
      svg("rect", { x: 0.5, y: 0.5, width: 59, height: 83, rx: 5, fill: "var(--card)", stroke: "var(--card-line)" }),
      corner(),
      svg("g", { transform: "rotate(180 30 42)" }, corner()),
      centre);
  }
  function buildBack() {
    return svg("svg", { viewBox: "0 0 60 84", role: "img", "aria-label": "face-down card" },
      svg("defs", {}, svg("pattern", { id: "bk", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
        svg("rect", { width: 8, height: 8, fill: "#2b4c9a" }), svg("rect", { width: 4, height: 8, fill: "#3a62bd" }))),
      svg("rect", { x: 0.5, y: 0.5, width: 59, height: 83, rx: 5, fill: "#f7f7f7", stroke: "#666" }),
      svg("rect", { x: 4, y: 4, width: 52, height: 76, rx: 3, fill: "url(#bk)" }));
  }
  const drawn = new Map();
  // A fresh SVG drawing of a card (null: the back).
  function cardSVG(code) {
    const key = code || "back";
    if (!drawn.has(key)) {
      if (code && !isCard(code)) throw new Error(`GR: not a card code: ${code}`);
      drawn.set(key, code ? buildFace(code) : buildBack());
    }
    return drawn.get(key).cloneNode(true);
  }
  // A card as a <div class="card"> holding its drawing; a face carries data-card and its name as title.
  function cardEl(code, extraClass) {
    const div = el("div", { class: "card" + (extraClass ? " " + extraClass : "") }, cardSVG(code));
    if (code) { div.dataset.card = code; div.title = name(code); }
    return div;
  }

  // ---------------------------------------------------------------- fair deals
  // The deal commitments this browser was shown at the table, by game and hand: the replay checks
  // each deal against these, not against the values in the replay's own response.
  function noteDeal(game, hand, hash) {
    if (!hash) return;
    const key = `gr.deals.${game}`;
    const seen = JSON.parse(localStorage.getItem(key) || "{}");
    if (seen[hand]) return;  // the first value shown is the one that counts
    seen[hand] = hash;
    localStorage.setItem(key, JSON.stringify(seen));
  }
  function dealsSeen(game) { return JSON.parse(localStorage.getItem(`gr.deals.${game}`) || "{}"); }

  // ---------------------------------------------------------------- sharing a finished game
  // A checkbox that opens the game to everyone (replay and record) or closes it again.
  function shareToggle(box, game, shared) {
    if (!box) return;
    const input = el("input", { type: "checkbox", checked: shared });
    const note = el("span", { class: "muted" });
    input.onchange = async () => {
      try {
        await api(`/api/games/${game}/share`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ shared: input.checked }) });
        note.textContent = input.checked ? " anyone with the replay's address can watch it" : " only its players see it";
      } catch (e) { input.checked = !input.checked; note.textContent = " " + e.message; }
    };
    fill(box, el("label", {}, input, " Share this game"), note);
  }

  async function api(path, opts) {
    let res;
    try { res = await fetch(path, opts); } catch (e) { throw new Error("The server cannot be reached. Check the connection and try again."); }
    let body = null;
    try { body = await res.json(); } catch (e) { body = null; }
    if (!res.ok) throw new Error((body && body.message) || `The server could not answer (error ${res.status}). Try again in a moment.`);
    return body;
  }

  return { el, svg, fill, noteDeal, dealsSeen, shareToggle, header, cardEl, cardSVG, label, name, value, sortKey, api, prefs, RANKS, SUITS, SUIT_SYMBOL };
})();
