// Motion on the table: a card moves from where it was to where it is now (the deal, draws,
// discards, melds and layoffs), and gin or big gin gets a short celebration. Only the Web
// Animations API (allowed by the Content-Security-Policy: no style attributes, no inline style);
// nothing moves at all when the browser asks for reduced motion.
"use strict";

const Motion = (() => {
  const reduced = window.matchMedia("(prefers-reduced-motion: reduce)");
  const on = () => !reduced.matches;
  const ZONES = ["my-hand", "opp-hand", "pile", "stock", "laid", "knockcard"];
  const EASE = "cubic-bezier(.2,.7,.25,1)";

  function zoneOf(node) {
    for (let n = node.parentElement; n; n = n.parentElement) if (ZONES.includes(n.id)) return n.id;
    return null;
  }
  function rect(id) {
    const node = document.getElementById(id);
    return node ? node.getBoundingClientRect() : null;
  }

  // Where every face-up card is now (by zone), and how many backs the opponent holds.
  function snapshot() {
    const cards = new Map();
    for (const node of document.querySelectorAll("#felt [data-card]")) {
      const zone = zoneOf(node);
      if (!zone) continue;
      if (!cards.has(node.dataset.card)) cards.set(node.dataset.card, []);
      cards.get(node.dataset.card).push({ zone, rect: node.getBoundingClientRect() });
    }
    const backs = document.querySelectorAll("#opp-hand .card:not([data-card])").length;
    const zones = {};
    for (const z of ZONES) zones[z] = rect(z);
    return { cards, backs, zones };
  }

  // Slide `node` from `from` (a DOMRect) to where it is laid out now.
  function slide(node, from, delay) {
    const to = node.getBoundingClientRect();
    if (!from || !to.width) return;
    const dx = from.left + from.width / 2 - (to.left + to.width / 2);
    const dy = from.top + from.height / 2 - (to.top + to.height / 2);
    if (Math.abs(dx) < 2 && Math.abs(dy) < 2) return;
    const s = from.width && to.width ? Math.max(0.5, Math.min(1.6, from.width / to.width)) : 1;
    node.animate(
      [{ transform: `translate(${dx}px, ${dy}px) scale(${s})`, opacity: 0.85 }, { transform: "none", opacity: 1 }],
      { duration: 320, easing: EASE, delay: delay || 0, fill: "backwards" },
    );
  }

  // After a render: move each card that changed place; `dealt` a new deal (every card from the stock).
  function play(before, dealt) {
    if (!on() || !before) return;
    const stock = before.zones.stock || rect("stock");
    if (dealt) {
      let i = 0;
      for (const node of document.querySelectorAll("#my-hand .card, #opp-hand .card")) slide(node, stock, 40 * i++);
      return;
    }
    for (const node of document.querySelectorAll("#felt [data-card]")) {
      const zone = zoneOf(node);
      if (!zone) continue;
      const was = before.cards.get(node.dataset.card) || [];
      if (was.some((w) => w.zone === zone)) continue;
      const from = was.find((w) => w.zone === "my-hand") || was[0];
      if (from) slide(node, from.rect);
      else if (zone === "my-hand") slide(node, stock);  // a stock card drawn
      else if (zone === "pile" || zone === "laid") slide(node, before.zones["opp-hand"]);  // shown by the opponent
    }
    const backs = document.querySelectorAll("#opp-hand .card:not([data-card])");
    if (backs.length > before.backs && before.backs > 0) slide(backs[backs.length - 1], stock);  // the opponent drew
  }

  // Gin or big gin: the word, and the four suits bursting out of it, for about a second and a half.
  function celebrate(text) {
    if (!on()) return;
    const box = GR.el("div", { class: "celebrate", attrs: { "aria-hidden": "true" } }, GR.el("div", { class: "celebrate-word" }, text));
    const suits = ["\u2660", "\u2665", "\u2666", "\u2663"];
    for (let i = 0; i < 24; i++) {
      const bit = GR.el("span", { class: "celebrate-bit" + (i % 4 === 1 || i % 4 === 2 ? " red" : "") }, suits[i % 4]);
      box.appendChild(bit);
      const angle = (i / 24) * Math.PI * 2 + Math.random() * 0.3;
      const dist = 120 + Math.random() * 160;
      bit.animate(
        [{ transform: "translate(0, 0) scale(.4)", opacity: 1 },
          { transform: `translate(${Math.cos(angle) * dist}px, ${Math.sin(angle) * dist}px) scale(1.2)`, opacity: 0 }],
        { duration: 1300, easing: "cubic-bezier(.15,.8,.3,1)", delay: Math.random() * 150, fill: "both" },
      );
    }
    document.body.appendChild(box);
    const word = box.firstChild.animate(
      [{ transform: "scale(.3)", opacity: 0 }, { transform: "scale(1.15)", opacity: 1, offset: 0.25 },
        { transform: "scale(1)", opacity: 1, offset: 0.75 }, { transform: "scale(1)", opacity: 0 }],
      { duration: 1600, easing: "ease-out", fill: "both" },
    );
    word.onfinish = () => box.remove();
    word.oncancel = () => box.remove();
  }

  return { on, snapshot, play, celebrate };
})();
