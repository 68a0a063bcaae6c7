// Shared by every page: display preferences and the card drawings (SVG, made here; no image files).
"use strict";

const GR = (() => {
  const SUIT_SYMBOL = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
  const SUIT_NAME = { s: "spades", h: "hearts", d: "diamonds", c: "clubs" };
  const RANK_LABEL = { A: "A", T: "10", J: "J", Q: "Q", K: "K" };
  const RANK_NAME = { A: "ace", T: "10", J: "jack", Q: "queen", K: "king" };
  const RANKS = "A23456789TJQK";
  const SUITS = "shdc";

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
    const el = document.querySelector("header.site");
    if (!el) return;
    const links = [["/", "Play"], ["/scorekeeper", "Scorekeeper"], ["/history", "History"], ["/rules", "Rules"]];
    const p = prefs();
    el.innerHTML = `<a class="brand" href="/">\u2660\u2665 Gin Rummy</a><nav>${links
      .map(([h, t]) => `<a href="${h}"${t === active ? ' aria-current="page"' : ""}>${t}</a>`)
      .join("")}</nav>
      <div class="prefs">
        <label>Theme <select id="pref-theme"><option value="auto">auto</option><option value="light">light</option><option value="dark">dark</option></select></label>
        <label><input type="checkbox" id="pref-four"> four-colour suits</label>
        <label><input type="checkbox" id="pref-big"> large cards</label>
      </div>`;
    const theme = el.querySelector("#pref-theme");
    theme.value = p.theme;
    theme.onchange = () => { localStorage.setItem("gr.theme", theme.value); applyPrefs(); };
    const four = el.querySelector("#pref-four");
    four.checked = p.four;
    four.onchange = () => { localStorage.setItem("gr.four", four.checked ? "1" : "0"); applyPrefs(); };
    const big = el.querySelector("#pref-big");
    big.checked = p.big;
    big.onchange = () => { localStorage.setItem("gr.big", big.checked ? "1" : "0"); applyPrefs(); };
  }

  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

  function rankOf(code) { return code[0]; }
  function suitOf(code) { return code[code.length - 1]; }
  function label(code) { return (RANK_LABEL[rankOf(code)] || rankOf(code)) + SUIT_SYMBOL[suitOf(code)]; }
  function name(code) { return `${RANK_NAME[rankOf(code)] || rankOf(code)} of ${SUIT_NAME[suitOf(code)]}`; }
  function value(code) { const r = RANKS.indexOf(rankOf(code)); return Math.min(r + 1, 10); }
  function sortKey(code, by) {
    const r = RANKS.indexOf(rankOf(code)), s = SUITS.indexOf(suitOf(code));
    return by === "rank" ? r * 4 + s : s * 13 + r;
  }

  // One card face as an SVG string: corner indices, a large centre pip, court letters framed.
  function faceSVG(code) {
    const s = suitOf(code), r = rankOf(code);
    const col = `var(--${s})`;
    const lab = RANK_LABEL[r] || r;
    const sym = SUIT_SYMBOL[s];
    const court = "JQK".includes(r);
    const centre = court
      ? `<rect x="15" y="22" width="30" height="40" rx="3" fill="none" stroke="${col}" stroke-width="1.2"/>
         <text x="30" y="50" text-anchor="middle" font-size="20" font-weight="700" fill="${col}">${lab}</text>
         <text x="30" y="60" text-anchor="middle" font-size="9" fill="${col}">${sym}</text>`
      : `<text x="30" y="55" text-anchor="middle" font-size="${r === "A" ? 30 : 24}" fill="${col}">${sym}</text>`;
    return `<svg viewBox="0 0 60 84" role="img" aria-label="${name(code)}">
      <rect x="0.5" y="0.5" width="59" height="83" rx="5" fill="var(--card)" stroke="var(--card-line)"/>
      <text x="4" y="15" font-size="13" font-weight="700" fill="${col}">${lab}</text>
      <text x="4.5" y="27" font-size="11" fill="${col}">${sym}</text>
      <g transform="rotate(180 30 42)"><text x="4" y="15" font-size="13" font-weight="700" fill="${col}">${lab}</text>
      <text x="4.5" y="27" font-size="11" fill="${col}">${sym}</text></g>
      ${centre}</svg>`;
  }
  function backSVG() {
    return `<svg viewBox="0 0 60 84" role="img" aria-label="face-down card">
      <defs><pattern id="bk" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
      <rect width="8" height="8" fill="#2b4c9a"/><rect width="4" height="8" fill="#3a62bd"/></pattern></defs>
      <rect x="0.5" y="0.5" width="59" height="83" rx="5" fill="#f7f7f7" stroke="#666"/>
      <rect x="4" y="4" width="52" height="76" rx="3" fill="url(#bk)"/></svg>`;
  }
  function cardEl(code, extraClass) {
    const el = document.createElement("div");
    el.className = "card" + (extraClass ? " " + extraClass : "");
    if (code) { el.innerHTML = faceSVG(code); el.dataset.card = code; el.title = name(code); }
    else el.innerHTML = backSVG();
    return el;
  }

  async function api(path, opts) {
    const res = await fetch(path, opts);
    let body = null;
    try { body = await res.json(); } catch (e) { body = null; }
    if (!res.ok) throw new Error((body && body.message) || `request failed (${res.status})`);
    return body;
  }

  return { header, cardEl, label, name, value, sortKey, esc, api, prefs, RANKS, SUITS, SUIT_SYMBOL };
})();
