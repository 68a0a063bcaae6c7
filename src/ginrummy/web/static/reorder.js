// Reordering the cards of a hand by dragging one, with a mouse, a finger or a pen (pointer events;
// HTML drag and drop does not work with touch). The hand may wrap onto several rows, so the drop
// place is found in two dimensions. A press that moves less than a few pixels is a tap: it is left
// to the card's click handler; the click that ends a drag is swallowed.
"use strict";

GR.dragReorder = function dragReorder(box, { move, done }) {
  const START = 8;  // px of movement before a press becomes a drag
  let drag = null;
  let swallowClick = false;

  const cards = () => [...box.querySelectorAll(".card[data-card]")];
  function clearMarks() {
    for (const c of cards()) c.classList.remove("drop-before", "drop-after");
  }
  // Where the card would go: the index in the hand without it. The row nearest the pointer
  // (by its vertical band), then before the first card of that row whose centre is right of it.
  function dropIndex(x, y) {
    const others = drag.others;
    if (!others.length) return { index: 0, mark: null };
    const dist = (r) => (y < r.top ? r.top - y : y > r.bottom ? y - r.bottom : 0);
    const near = others.reduce((a, o) => (dist(o.r) < dist(a.r) ? o : a));
    const row = others.filter((o) => Math.abs(o.r.top - near.r.top) < near.r.height / 2);
    const before = row.find((o) => x < o.r.left + o.r.width / 2);
    if (before) return { index: others.indexOf(before), mark: [before.c, "drop-before"] };
    const last = row[row.length - 1];
    return { index: others.indexOf(last) + 1, mark: [last.c, "drop-after"] };
  }
  function finish(commit) {
    const d = drag;
    drag = null;
    if (!d || !d.moving) return;
    d.card.classList.remove("dragging");
    d.card.style.transform = "";
    clearMarks();
    swallowClick = true;
    setTimeout(() => { swallowClick = false; }, 0);
    if (commit && d.drop) move(d.code, d.drop.index);
    done();
  }

  box.addEventListener("pointerdown", (e) => {
    if (drag || (e.pointerType === "mouse" && e.button !== 0)) return;
    const card = e.target.closest(".card[data-card]");
    if (!card || !box.contains(card)) return;
    drag = { card, code: card.dataset.card, id: e.pointerId, x0: e.clientX, y0: e.clientY, moving: false, drop: null };
  });
  box.addEventListener("pointermove", (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    const dx = e.clientX - drag.x0, dy = e.clientY - drag.y0;
    if (!drag.moving) {
      if (Math.hypot(dx, dy) < START) return;
      drag.moving = true;
      if (!drag.card.isConnected) drag.card = box.querySelector(`.card[data-card="${drag.code}"]`) || drag.card;
      try { drag.card.setPointerCapture(e.pointerId); } catch (err) { /* the pointer is gone */ }
      drag.card.classList.add("dragging");
      drag.others = cards().filter((c) => c !== drag.card).map((c) => ({ c, r: c.getBoundingClientRect() }));
    }
    e.preventDefault();
    drag.card.style.transform = `translate(${dx}px, ${dy}px)`;
    drag.drop = dropIndex(e.clientX, e.clientY);
    clearMarks();
    if (drag.drop.mark) drag.drop.mark[0].classList.add(drag.drop.mark[1]);
  });
  box.addEventListener("pointerup", (e) => { if (drag && e.pointerId === drag.id) finish(true); });
  box.addEventListener("pointercancel", (e) => { if (drag && e.pointerId === drag.id) finish(false); });
  box.addEventListener("lostpointercapture", (e) => { if (drag && drag.moving && e.pointerId === drag.id) finish(true); });
  box.addEventListener("click", (e) => { if (swallowClick) { e.stopPropagation(); e.preventDefault(); } }, true);
  // While a card is being dragged the hand must not be redrawn under the finger.
  return { active: () => !!(drag && drag.moving) };
};
