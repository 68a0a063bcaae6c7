"""Player words and accessibility in a real Chromium: the start page's labels, one name per player,
the move log in the rule documents' words, keyboard play with the focus kept across redraws, the
stock and the pile as buttons, and 4.5:1 contrast for every text on the table in both themes."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from e2e_chromium import MARKS, launch, serve, wait_until
from playwright import sync_api
from test_browser import click_turn, play_until_hand_end, wait_change

pytestmark = MARKS

#: The contrast of every visible text of the page, as WCAG computes it: the text's colour (its
#: alpha and every ancestor's opacity applied) over the background it stands on, the layers of
#: translucent backgrounds composited down to the first opaque one. A gradient (the felt) counts
#: at each of its colours, so the text must read on the lightest and the darkest part of it.
CONTRAST_JS = """() => {
  const parse = (s) => { const m = s.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 }; };
  const all = (s) => (s.match(/rgba?\\([^)]+\\)/g) || []).map(parse);
  const mix = (t, b, k) => t[k] * t.a + b[k] * (1 - t.a);
  const over = (t, b) => ({ r: mix(t, b, "r"), g: mix(t, b, "g"), b: mix(t, b, "b"), a: 1 });
  const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b); };
  const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  const flat = (layers, base) => layers.reduceRight((acc, l) => over(l, acc), base);
  function bases(el) {
    const layers = [];
    for (let n = el; n && n.nodeType === 1; n = n.parentElement) {
      const cs = getComputedStyle(n);
      const grad = cs.backgroundImage.includes("gradient") ? all(cs.backgroundImage).filter((c) => c.a > 0) : [];
      if (grad.length && grad.every((c) => c.a === 1)) return grad.map((g) => flat(layers, g));
      const col = parse(cs.backgroundColor);
      if (col && col.a > 0) { if (col.a === 1) return [flat(layers, col)]; layers.push(col); }
    }
    return [flat(layers, { r: 255, g: 255, b: 255, a: 1 })];
  }
  const out = [];
  for (const el of document.querySelectorAll("body *")) {
    // Cards are drawings; disabled controls and decorations hidden from assistive technology (the gin
    // celebration's flying suits, WCAG 1.4.3's "pure decoration") are exempt.
    if (el.closest("svg, .hidden, [hidden], :disabled, [aria-hidden='true']")) continue;
    const text = [...el.childNodes].filter((t) => t.nodeType === 3).map((t) => t.textContent).join("").trim();
    if (!text || !el.getClientRects().length || getComputedStyle(el).visibility === "hidden") continue;
    let alpha = 1;
    for (let n = el; n && n.nodeType === 1; n = n.parentElement) alpha *= +getComputedStyle(n).opacity;
    const fg = parse(getComputedStyle(el).color);
    fg.a *= alpha;
    const worst = Math.min(...bases(el).map((b) => ratio(over(fg, b), b)));
    const cls = (el.getAttribute("class") || "").trim();
    out.push({ what: el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + (cls ? "." + cls.replace(/ +/g, ".") : ""),
               text: text.slice(0, 40), ratio: Math.round(worst * 100) / 100, felt: !!el.closest(".felt") });
  }
  return out;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from serve(tmp_path_factory, "words")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch(sync_api)


def new_table(page: Any, base: str, name: str = "Ann", opponent: str = "simple") -> None:
    page.goto(base + "/")
    page.wait_for_selector("#opponent option[value='simple']", state="attached")
    page.fill("#name", name)
    page.select_option("#opponent", opponent)
    page.click("#start")
    page.wait_for_selector("#my-hand .card")


def low_contrast(page: Any) -> list[dict[str, Any]]:
    texts = page.evaluate(CONTRAST_JS)
    assert any(t["felt"] for t in texts), "no text on the felt was measured"
    return [t for t in texts if t["ratio"] < 4.5]


def test_the_start_page_names_levels_presets_and_rules_in_plain_words(server: str, browser: Any) -> None:
    page = browser.new_page()
    page.goto(server + "/")
    page.wait_for_selector("#rule-first_dealer option", state="attached")
    opponents = page.eval_on_selector_all("#opponent option", "els => els.map(e => [e.value, e.textContent])")
    assert [t for _, t in opponents] == [
        "Computer: Expert", "Computer: Hard", "Computer: Medium", "Computer: Easy", "Computer: Beginner",
        "A friend (send a link)",
    ]
    assert dict(opponents)["simple"] == "Computer: Medium"  # the API's name stays the value
    presets = page.eval_on_selector_all("#preset option", "els => els.map(e => e.textContent)")
    assert presets == ["Classic (family rules)", "Online rules", "App rules", "Computer challenge rules (EAAI)"]
    page.select_option("#preset", "eaai")
    assert "EAAI" in page.inner_text("#preset-help")
    dealers = page.eval_on_selector_all("#rule-first_dealer option", "els => els.map(e => e.textContent)")
    assert dealers == ["Higher card deals", "Lower card deals", "Chosen at random"]
    nexts = page.eval_on_selector_all("#rule-next_dealer option", "els => els.map(e => e.textContent)")
    assert "Loser of the hand deals" in nexts
    page.click("#custom summary")
    form = page.inner_text("#rule-fields")
    assert "_" not in form and "Higher card deals" in form
    # Every rule's help is read out with its control.
    described = page.eval_on_selector_all(
        "#rule-fields input, #rule-fields select",
        "els => els.map(e => document.getElementById(e.getAttribute('aria-describedby')).textContent.length)",
    )
    assert described and min(described) > 10
    first_line = "(document.querySelector('#rules-preview li') || {}).textContent"
    wait_until(page, f"{first_line} === 'Rules: Computer challenge rules (EAAI)'")
    page.close()


def test_one_name_per_player_and_the_log_in_the_documents_words(server: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    new_table(page, server, "Ann")
    assert page.inner_text("#my-name").startswith("Ann (you)")
    assert page.inner_text("#opp-name") == "Computer (Medium)"
    assert page.inner_text("#rules li:first-child") == "Rules: Classic (family rules)"
    for _ in range(8):
        seen = click_turn(page)
        if seen is not None:
            wait_change(page, seen)
        else:
            page.wait_for_timeout(60)
    play_until_hand_end([page])
    heads = page.eval_on_selector_all("#sheet thead th", "els => els.map(e => e.textContent)")
    assert heads[1:3] == ["Ann (you)", "Computer (Medium)"]
    log = page.eval_on_selector_all("#log li", "els => els.map(e => e.textContent)")
    assert log, "the hand's log is empty"
    for line in log:
        assert line.startswith(("Ann ", "Computer (Medium) ")), line
        assert not re.search(r"\b(stock|pile|layoff|meld) [A2-9TJQK][shdc]|\b[A2-9TJQK][shdc]\b|on meld 0\b", line), line
    text = page.inner_text("body")
    assert not re.search(r"\b[Yy]ou\b(?! \()", text.replace("(you)", "")), text  # "Ann", never "You"
    assert not errors
    page.close()


def my_turn(page: Any, phase: str) -> bool:
    return bool(page.evaluate(f"!!state && state.view.current === state.seat && state.view.phase === '{phase}'"))


def test_keyboard_play_keeps_the_focus_and_presses_the_card(server: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    new_table(page, server, "Kim", "random")
    # The stock and the pile are in the tab order and say what they do.
    for box in ("#stock-box", "#pile-box"):
        assert page.get_attribute(box, "tabindex") == "0" and page.get_attribute(box, "role") == "button"
    # Answer the upcard offer by keyboard until this seat draws.
    for _ in range(200):
        if my_turn(page, "draw"):
            break
        if my_turn(page, "offer"):
            seq = page.evaluate("state.seq")
            page.keyboard.press("x")
            wait_change(page, seq)
        else:
            page.wait_for_timeout(30)
    assert my_turn(page, "draw"), "this seat never came to draw"
    assert page.get_attribute("#stock-box", "aria-disabled") == "false"
    assert page.get_attribute("#stock-box", "aria-label").startswith("Draw from the stock (")
    page.focus("#stock-box")
    seq = page.evaluate("state.seq")
    page.keyboard.press("Enter")
    wait_until(page, f"state.seq !== {seq} && state.view.hand.length === 11")
    assert page.evaluate("document.activeElement.id") == "stock-box"  # still there after the redraw
    # Tab into the hand; Space chooses the card in focus: it is pressed, and keeps the focus.
    first = page.eval_on_selector("#my-hand .card", "e => e.dataset.card")
    page.focus(f"#my-hand .card[data-card='{first}']")
    page.keyboard.press(" ")
    wait_until(page, f"document.querySelector(\"#my-hand .card[data-card='{first}']\").getAttribute('aria-pressed') === 'true'")
    assert page.evaluate("document.activeElement.dataset.card") == first
    assert page.eval_on_selector_all("#my-hand .card[aria-pressed='true']", "els => els.length") == 1
    # The arrow moves the choice and the focus together.
    page.keyboard.press("ArrowRight")
    second = page.evaluate("document.activeElement.dataset.card")
    assert second and second != first
    assert page.get_attribute(f"#my-hand .card[data-card='{second}']", "aria-pressed") == "true"
    assert page.get_attribute(f"#my-hand .card[data-card='{first}']", "aria-pressed") == "false"
    # A state message that redraws the hand keeps the focus on that card.
    page.evaluate("render(state)")
    assert page.evaluate("document.activeElement.dataset.card") == second
    # Enter on the chosen card discards it; the focus moves to its neighbour, not off the page.
    legal = page.evaluate("state.view.legal")
    if second not in legal:
        page.keyboard.press("ArrowLeft")
        second = page.evaluate("document.activeElement.dataset.card")
        assert second in legal
    seq = page.evaluate("state.seq")
    page.keyboard.press("Enter")
    wait_until(page, f"state.seq !== {seq} && !state.view.hand.includes('{second}')")
    assert page.evaluate("document.activeElement.closest('#my-hand') !== null")
    # Enter on a focused button presses that button, never the Enter shortcut (discard).
    for _ in range(300):
        if page.locator("#actions button").count():
            break
        page.wait_for_timeout(30)
    button = page.eval_on_selector("#actions button", "b => b.dataset.action")
    page.focus(f"#actions button[data-action='{button}']")
    page.evaluate("render(state)")
    assert page.evaluate("document.activeElement.dataset.action") == button
    assert not errors
    page.close()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_text_on_the_table_reads_at_4_5_to_1(server: str, browser: Any, theme: str) -> None:
    context = browser.new_context(color_scheme=theme, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    new_table(page, server, "Lee", "simple")
    assert page.evaluate("getComputedStyle(document.body).colorScheme") == theme
    wait_until(page, "document.querySelectorAll('#log li').length > 0 || state.view.current === state.seat")
    assert low_contrast(page) == []
    for _ in range(6):  # some moves: buttons, the opponent's last move, the log
        seen = click_turn(page)
        if seen is not None:
            wait_change(page, seen)
            assert low_contrast(page) == []
        else:
            page.wait_for_timeout(60)
    play_until_hand_end([page])
    assert low_contrast(page) == []  # the hand's end: layouts, scores, the sheet
    context.close()


# -- the scorekeeper and the printed sheets --------------------------------------------------------

LONG = ["Maximilian Alexanderson", "Bartholomew Jonesworth"]  # two long names: the widest headers


def post(base: str, path: str, body: Any) -> Any:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    return json.loads(urllib.request.urlopen(req, timeout=10).read())


def kept_sheet(base: str, hollywood: bool, hands: int = 14) -> str:
    """A scorekeeper sheet of Oklahoma hands with upcards (diamonds and clubs), not yet over."""
    rules = {"preset": "classic", "overrides": {"hollywood": hollywood, "oklahoma": True, "oklahoma_extra_boxes": True}}
    s = post(base, "/api/scorekeeper/sheets", {"names": LONG, "rules": rules})
    for i in range(hands):
        entry = {"knocker": i % 2, "deadwood": [3, 8] if i % 2 == 0 else [9, 2], "upcard": "Kd" if i % 2 else "Tc"}
        post(base, f"/api/scorekeeper/sheets/{s['id']}/hands", entry)
    return str(s["id"])


#: The widest group headers: long names at three players, and two teams of long names.
LONG4 = [*LONG, "Christopher Wolfgangson", "Dorothea Montgomery"]


def kept_group_sheet(base: str, players: int, hands: int = 12) -> str:
    """A scorekeeper sheet of three players or two teams with long names, not yet over."""
    s = post(base, "/api/scorekeeper/sheets", {"names": LONG4[:players], "rules": "classic"})
    for _ in range(hands):
        nxt = s["next"]  # who plays whom in the next hand
        tables = nxt["tables"] if players == 4 else [nxt]
        entries = [{"knocker": t["players"][0], "deadwood": {t["players"][0]: 9, t["players"][1]: 10}} for t in tables]
        s = post(base, f"/api/scorekeeper/sheets/{s['id']}/hands", entries[0] if players == 3 else {"tables": entries})
    return str(s["id"])


def test_the_scorekeeper_has_the_tables_header_and_display_options(server: str, browser: Any) -> None:
    context = browser.new_context(color_scheme="light")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sid = kept_sheet(server, hollywood=False, hands=2)
    page.goto(f"{server}/scorekeeper?sheet={sid}")
    page.wait_for_selector("#sheet-body tr")
    links = page.eval_on_selector_all("header.site nav a", "els => els.map(e => [e.textContent, e.getAttribute('aria-current')])")
    assert links == [["Play", None], ["Scorekeeper", "page"], ["History", None], ["Rules", None]]
    for control in ("#pref-theme", "#pref-four", "#pref-big"):
        assert page.locator(f"header.site {control}").count() == 1, control
    assert "Classic (family rules)" in page.inner_text("#rules-line")
    # Theme: dark and light by the header's option, whatever the device says; every text still reads.
    bg = "getComputedStyle(document.body).backgroundColor"
    light = page.evaluate(bg)
    page.select_option("#pref-theme", "dark")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    dark = page.evaluate(bg)
    assert dark != light and sum(int(x) for x in re.findall(r"\d+", dark)[:3]) < 150
    texts = page.evaluate(CONTRAST_JS)
    assert texts and [t for t in texts if t["ratio"] < 4.5] == []
    page.select_option("#pref-theme", "light")
    assert page.evaluate(bg) == light
    assert [t for t in page.evaluate(CONTRAST_JS) if t["ratio"] < 4.5] == []
    # Four-colour suits: the upcard's diamond turns from red to blue, the club from black to green.
    diamond = "getComputedStyle(document.querySelector('.suit-d')).color"
    club = "getComputedStyle(document.querySelector('.suit-c')).color"
    red, black = page.evaluate(diamond), page.evaluate(club)
    assert page.inner_text("#sheet-body").count("K♦") == 1 and "10♣" in page.inner_text("#sheet-body")
    page.check("#pref-four")
    assert page.evaluate(diamond) != red and page.evaluate(club) != black
    # Large cards: the sheet grows; the choices are kept for the table's pages too.
    size = "parseFloat(getComputedStyle(document.body).fontSize)"
    small = page.evaluate(size)
    page.check("#pref-big")
    assert page.evaluate(size) > small
    page.goto(server + "/")
    assert page.evaluate("document.documentElement.dataset.four") == "1"
    assert page.evaluate("document.documentElement.dataset.big") == "1"
    assert page.is_checked("#pref-four") and page.is_checked("#pref-big")
    assert not errors
    context.close()


#: The printable width of each paper (the sheets' @page margin is 10 mm): 190 mm and 195.9 mm at 96 px an inch.
PAPERS = {"A4": (718, 595.92), "Letter": (740, 612.0)}
#: What overflows its box in the print layout (cut on paper): visually hidden text and scrolling boxes aside.
OVERFLOW_JS = """() => [document.documentElement.scrollWidth, [...document.querySelectorAll('body *')]
  .filter((e) => e.clientWidth && e.scrollWidth > e.clientWidth + 1 && !e.closest('.visually-hidden')
                 && getComputedStyle(e).overflowX === 'visible')
  .map((e) => e.tagName + '.' + e.className + ': ' + e.textContent.slice(0, 30))]"""


def test_printed_score_sheets_fit_a4_and_letter_one_page_wide(server: str, browser: Any) -> None:
    names = ",".join(LONG)
    blank = [f"/scoresheet?names={names}", f"/scoresheet?hollywood=true&names={names}",
             f"/scoresheet?names={names}&oklahoma=true&oklahoma_extra_boxes=true",
             f"/scoresheet?players=3&names={','.join(LONG4[:3])}", f"/scoresheet?players=4&names={','.join(LONG4)}",
             f"/scoresheet?players=3&hollywood=true&names={','.join(LONG4[:3])}",
             f"/scoresheet?players=4&hollywood=true&names={','.join(LONG4)}"]
    kept = [f"/scorekeeper?sheet={kept_sheet(server, True)}", f"/scorekeeper?sheet={kept_sheet(server, False)}",
            f"/scorekeeper?sheet={kept_group_sheet(server, 3)}", f"/scorekeeper?sheet={kept_group_sheet(server, 4)}"]
    for paper, (width, points) in PAPERS.items():
        page = browser.new_page(viewport={"width": width, "height": 1000})  # one page goes to every sheet
        for path in blank + kept:
            page.goto(server + path)
            page.wait_for_selector("main h1")
            if path.startswith("/scorekeeper"):
                page.wait_for_selector("#sheet-body tr")
            page.emulate_media(media="print")
            scroll, cut = page.evaluate(OVERFLOW_JS)
            assert scroll <= width and cut == [], f"{path} on {paper}: {scroll} px wide, cut: {cut}"
            page.emulate_media(media=None)  # page.pdf prints with print media itself
            pdf = page.pdf(format=paper)
            boxes = {round(float(b.split()[2]), 2) for b in re.findall(rb"/MediaBox\s*\[([^\]]+)\]", pdf)}
            pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
            assert boxes == {points}, (path, paper, boxes)
            if path in blank:
                assert pages == 1, f"{path} prints on {pages} {paper} pages"
        page.close()


def test_the_replay_says_each_move_in_words(server: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/")
    body = {"opponent": "simple", "names": ["Ann"], "rules": {"preset": "classic", "overrides": {"target": 1}}}
    g = page.evaluate(f"""async () => (await fetch("/api/games", {{ method: "POST",
        headers: {{ "Content-Type": "application/json" }}, body: JSON.stringify({json.dumps(body)}) }})).json()""")
    page.goto(server + g["url"])
    page.wait_for_selector("#my-hand .card")
    for hand in range(1, 6):  # a game to 1 point ends with the first hand anybody wins
        play_until_hand_end([page])
        if page.evaluate("state.game.status === 'finished'"):
            break
        page.click("#next")
        wait_until(page, f"state && state.game.hand_no === {hand + 1}")
    wait_until(page, "state.game.status === 'finished'")
    page.goto(f"{server}/replay/{g['id']}")
    page.wait_for_selector("#h0 .card")
    assert page.inner_text("#action").endswith(" dealt")
    seen = []
    for _ in range(12):
        page.click("#next")
        seen.append(page.inner_text("#action"))
    assert all(line.startswith(("Ann ", "Computer (Medium) ")) for line in seen), seen
    assert not any(re.search(r"\b[A2-9TJQK][shdc]\b|\b(stock|pile) \(", line) for line in seen), seen
    assert not errors
    page.close()
