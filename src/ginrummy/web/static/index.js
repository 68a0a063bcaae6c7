// Start page: choose the opponent and the rules (a preset plus any switch), then create the game.
"use strict";
GR.header("Play");

const LABELS = {
  gin_bonus: "Gin bonus", undercut_bonus: "Undercut bonus", big_gin: "Big gin", big_gin_bonus: "Big gin bonus",
  knock_limit: "Knock limit (0 = gin only)", straight_gin: "Straight gin (no knocking)", upcard: "Upcard (off: 11 cards to the non-dealer)",
  last_chance: "Last chance", throw_back: "Throw-back", dead_hand_stock: "Dead hand at stock of",
  oklahoma: "Oklahoma", oklahoma_ace_gin_only: "Oklahoma: ace upcard means gin only",
  oklahoma_spade_double: "Oklahoma: spade upcard doubles", oklahoma_extra_boxes: "Oklahoma: extra boxes",
  target: "Game target", game_bonus: "Game bonus", box_bonus: "Box bonus (per hand won)", shutout: "Shutout",
  shutout_bonus: "Shutout game bonus", first_dealer: "First dealer", next_dealer: "Next dealer",
  hollywood: "Hollywood scoring (three games)", repetition_limit: "Dead hand when a position repeats (times)",
};
let options = null;

function currentOverrides() {
  const preset = options.presets[document.getElementById("preset").value];
  const out = {};
  for (const f of options.rules) {
    const el = document.getElementById("rule-" + f.name);
    if (!el) continue;
    let v;
    if (f.type === "bool") v = el.checked;
    else if (f.type === "int") v = parseInt(el.value, 10);
    else v = el.value;
    if (v !== preset[f.name]) out[f.name] = v;
  }
  return out;
}

function fillFields() {
  const preset = options.presets[document.getElementById("preset").value];
  for (const f of options.rules) {
    const el = document.getElementById("rule-" + f.name);
    if (!el) continue;
    if (f.type === "bool") el.checked = preset[f.name]; else el.value = preset[f.name];
  }
}

let previewTimer = null;
function preview() {
  clearTimeout(previewTimer);
  previewTimer = setTimeout(async () => {
    const preset = document.getElementById("preset").value;
    const err = document.getElementById("error");
    try {
      const q = new URLSearchParams({ preset, overrides: JSON.stringify(currentOverrides()) });
      const d = await GR.api("/api/rules/describe?" + q);
      GR.fill("rules-preview", d.lines.map((l) => GR.el("li", {}, l)));
      err.textContent = "";
    } catch (e) { err.textContent = e.message; }
  }, 120);
}

async function init() {
  options = await GR.api("/api/options");
  const opp = document.getElementById("opponent");
  const strengths = options.strengths.slice().reverse();
  opp.prepend(...strengths.map((s) => GR.el("option", { value: s }, `computer: ${s}`)));
  opp.value = strengths.includes("simple") ? "simple" : strengths[0];
  const preset = document.getElementById("preset");
  GR.fill(preset, Object.keys(options.presets).map((p) => GR.el("option", {}, p)));
  const box = document.getElementById("rule-fields");
  for (const f of options.rules) {
    const lab = LABELS[f.name] || f.name;
    const id = "rule-" + f.name;
    let input;
    if (f.type === "bool") input = GR.el("label", {}, GR.el("input", { type: "checkbox", id }), " " + lab);
    else if (f.type === "int") input = GR.el("label", {}, lab + " ", GR.el("input", { type: "number", min: "0", id, class: "num-short" }));
    else input = GR.el("label", {}, lab + " ", GR.el("select", { id }, f.choices.map((c) => GR.el("option", {}, c))));
    box.append(GR.el("div", {}, input));
  }
  fillFields();
  preset.onchange = () => { fillFields(); preview(); };
  box.addEventListener("input", preview);
  box.addEventListener("change", preview);
  preview();
  showResume();
}

// The games this browser started or joined that are still being played: the server says which are
// (finished ones leave the list), this browser's storage holds each seat's link.
async function showResume() {
  const saved = JSON.parse(localStorage.getItem("gr.games") || "[]");
  if (!saved.length) return;
  const playing = new Set((await GR.api("/api/games?status=playing")).games.map((g) => g.id));
  const games = saved.filter((g) => playing.has(String(g.url).split("/table/")[1]?.split("#")[0]));
  if (!games.length) return;
  document.getElementById("resume").classList.remove("hidden");
  GR.fill("resume-list", games.slice(-8).reverse()
    .map((g) => GR.el("li", {}, GR.el("a", { href: String(g.url).startsWith("/table/") ? g.url : "/" }, String(g.label)), " ", GR.el("span", { class: "muted" }, new Date(g.at).toLocaleString()))));
}

document.getElementById("new-game").onsubmit = async (ev) => {
  ev.preventDefault();
  const err = document.getElementById("error");
  const opponent = document.getElementById("opponent").value;
  const name = document.getElementById("name").value.trim();
  const body = {
    opponent,
    rules: { preset: document.getElementById("preset").value, overrides: currentOverrides() },
    names: name ? [name] : [],
  };
  try {
    const g = await GR.api("/api/games", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const games = JSON.parse(localStorage.getItem("gr.games") || "[]");
    games.push({ url: g.url, label: `vs ${opponent === "human" ? "a friend" : "computer (" + opponent + ")"}`, at: Date.now() });
    localStorage.setItem("gr.games", JSON.stringify(games.slice(-30)));
    if (opponent === "human") {
      document.getElementById("invite").classList.remove("hidden");
      const url = new URL(g.invite_url, location.href).href;
      const input = document.getElementById("invite-url");
      input.value = url;
      localStorage.setItem("gr.invite." + g.id, url);
      document.getElementById("copy").onclick = () => { input.select(); navigator.clipboard?.writeText(url); };
      document.getElementById("go").href = g.url;
      document.getElementById("new-game").classList.add("hidden");
    } else {
      location.href = g.url;
    }
  } catch (e) { err.textContent = e.message; }
};

init().catch((e) => { document.getElementById("error").textContent = e.message; });
