// Start page: choose the opponent and the rules (a preset plus any switch), then create the game.
"use strict";
GR.header("Play");

let options = null;

function playerCount() { return +document.getElementById("players").value; }

function currentOverrides() {
  const preset = options.presets[document.getElementById("preset").value];
  const out = {};
  for (const f of options.rules) {
    const el = document.getElementById("rule-" + f.name);
    if (!el || (f.players && f.players !== playerCount())) continue;
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
  // Every label and help text comes from the server (ginrummy.words): one home for the players' words.
  const opp = document.getElementById("opponent");
  const strengths = options.strengths.slice().reverse();
  opp.prepend(...strengths.map((s) => GR.el("option", { value: s, title: options.strength_labels[s].help },
    `Computer: ${options.strength_labels[s].label}`)));
  opp.value = strengths.includes("simple") ? "simple" : strengths[0];
  const showLevel = () => {
    const info = options.strength_labels[opp.value];
    document.getElementById("opponent-help").textContent = info ? info.help : "They play from their own browser, by a link you send.";
  };
  opp.addEventListener("change", showLevel);
  showLevel();
  const preset = document.getElementById("preset");
  GR.fill(preset, Object.keys(options.presets).map((p) => GR.el("option", { value: p }, options.preset_labels[p].label)));
  const showPreset = () => { document.getElementById("preset-help").textContent = options.preset_labels[preset.value].help; };
  showPreset();
  const box = document.getElementById("rule-fields");
  for (const f of options.rules) {
    const id = "rule-" + f.name;
    const help = GR.el("span", { class: "help muted", id: id + "-help" }, f.help);
    const described = { "aria-describedby": id + "-help" };
    let input;
    if (f.type === "bool") input = GR.el("label", {}, GR.el("input", { type: "checkbox", id, attrs: described }), " " + f.label);
    else if (f.type === "int") {
      input = GR.el("label", {}, f.label + " ",
        GR.el("input", { type: "number", min: String(f.min ?? 0), max: f.max === undefined ? null : String(f.max), id, class: "num-short", attrs: described }));
    } else {
      input = GR.el("label", {}, f.label + " ",
        GR.el("select", { id, attrs: described }, f.choices.map((c) => GR.el("option", { value: c }, f.choice_labels[c] || c))));
    }
    box.append(GR.el("div", { class: "rule-field", dataset: f.players ? { players: f.players } : null }, input, help));
  }
  fillFields();
  preset.onchange = () => { fillFields(); showPreset(); preview(); };
  box.addEventListener("input", preview);
  box.addEventListener("change", preview);
  const name = document.getElementById("name");
  name.value = localStorage.getItem("gr.name") || "";
  const players = document.getElementById("players");
  players.addEventListener("change", () => { showSeats(); preview(); });
  showSeats();
  preview();
  showResume();
}

// Three or four players: who plays each other seat (a friend by link, or a computer) and its name;
// the rules of that game only (three players' bonuses, the team target and bonuses).
const PLAYERS_HELP = {
  2: "",
  3: "Two play each hand and the dealer sits out; the loser deals the next.",
  4: "You and seat 3 against seats 2 and 4; partners play at two tables at once and switch opponents every hand.",
};
function showSeats() {
  const n = playerCount();
  document.getElementById("opponent-label").classList.toggle("hidden", n !== 2);
  document.getElementById("opponent-help").classList.toggle("hidden", n !== 2);
  document.getElementById("players-help").textContent = PLAYERS_HELP[n];
  document.getElementById("seats").classList.toggle("hidden", n === 2);
  for (const f of document.querySelectorAll("#rule-fields .rule-field[data-players]")) f.classList.toggle("hidden", +f.dataset.players !== n);
  const rows = document.getElementById("seat-rows");
  const kept = [...rows.querySelectorAll(".seat-row")].map((r) => [r.querySelector("select").value, r.querySelector("input").value]);
  const strengths = options.strengths.slice().reverse();
  GR.fill(rows, Array.from({ length: n - 1 }, (_, i) => {
    const seat = i + 2;
    const team = n === 4 ? (seat === 3 ? " (your partner)" : " (the other team)") : "";
    const select = GR.el("select", { id: `seat-${seat}`, attrs: { "aria-label": `Seat ${seat}` } },
      strengths.map((s) => GR.el("option", { value: s, title: options.strength_labels[s].help }, `Computer: ${options.strength_labels[s].label}`)),
      GR.el("option", { value: "human" }, "A friend (send a link)"));
    select.value = kept[i] ? kept[i][0] : strengths.includes("simple") ? "simple" : strengths[0];
    const input = GR.el("input", { type: "text", id: `seat-name-${seat}`, maxlength: "24", placeholder: "name (optional)", attrs: { "aria-label": `Seat ${seat} name` } });
    input.value = kept[i] ? kept[i][1] : "";
    return GR.el("div", { class: "row seat-row" }, GR.el("strong", {}, `Seat ${seat}${team}`), select, input);
  }));
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
  const n = playerCount();
  const opponent = document.getElementById("opponent").value;
  const name = document.getElementById("name").value.trim();
  const rules = { preset: document.getElementById("preset").value, overrides: currentOverrides() };
  const body = n === 2 ? { opponent, rules, names: name ? [name] : [] } : {
    players: n,
    seats: Array.from({ length: n - 1 }, (_, i) => document.getElementById(`seat-${i + 2}`).value),
    rules,
    names: [name, ...Array.from({ length: n - 1 }, (_, i) => document.getElementById(`seat-name-${i + 2}`).value.trim())],
  };
  if (name) localStorage.setItem("gr.name", name); else localStorage.removeItem("gr.name");
  try {
    const g = await GR.api("/api/games", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const games = JSON.parse(localStorage.getItem("gr.games") || "[]");
    const level = options.strength_labels[opponent];
    const label = n === 2 ? `vs ${level ? `Computer (${level.label})` : "a friend"}` : `${n} players`;
    games.push({ url: g.url, label, at: Date.now() });
    localStorage.setItem("gr.games", JSON.stringify(games.slice(-30)));
    if (n > 2 && g.invites.length) {
      // One link per friend, each for its own seat (each sees only their own cards).
      document.getElementById("invite").classList.remove("hidden");
      document.getElementById("invite-one").classList.add("hidden");
      document.getElementById("invite-title").textContent = g.invites.length > 1 ? "Send each friend their own link" : "Send this link to your friend";
      GR.fill("invite-list", g.invites.map((inv) => {
        const url = new URL(inv.url, location.href).href;
        const input = GR.el("input", { type: "text", readonly: true, class: "invite-url", dataset: { seat: inv.seat }, attrs: { "aria-label": `link for ${inv.name}` } });
        input.value = url;
        return GR.el("li", {}, GR.el("strong", {}, `Seat ${inv.seat + 1}: ${inv.name}`),
          GR.el("div", { class: "invite" }, input, GR.el("button", { type: "button", onclick: () => { input.select(); navigator.clipboard?.writeText(url); } }, "Copy")));
      }));
      // The table keeps the links at hand for seat 1 until each friend has joined.
      localStorage.setItem("gr.invites." + g.id, JSON.stringify(g.invites.map((inv) => ({ seat: inv.seat, url: new URL(inv.url, location.href).href }))));
      document.getElementById("go").href = g.url;
      document.getElementById("new-game").classList.add("hidden");
    } else if (n === 2 && opponent === "human") {
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
