"""The scorekeeper in a real Chromium: 000's five hands typed in, 263 to 86, kept on reload, corrected.

The server is uvicorn on a free loopback port in a background thread, serving the real web app
when it is importable (else the scorekeeper and sheet routers alone) on a temporary database.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from e2e_chromium import MARKS, free_port, launch, wait_until
from playwright import sync_api

pytestmark = MARKS



def _app(db: Path) -> Any:
    from ginrummy.web.app import create_app

    return create_app(db, compute="inline")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("sk") / "e2e.sqlite3"
    port = free_port()
    config = uvicorn.Config(_app(db), host="127.0.0.1", port=port, log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not srv.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch(sync_api)


def enter_hand(page: Any, kind: str, knocker: int, knocker_count: int | None, other_count: int) -> None:
    """Fill the hand form as a person would: click the radios, type the counts, press Enter."""
    page.click(f"#kind-{kind}")
    page.click(f"#knocker-{knocker}")
    if knocker_count is not None:
        page.fill(f"#dw-{knocker}", str(knocker_count))
    page.fill(f"#dw-{1 - knocker}", str(other_count))
    before = page.locator("#sheet-body tr").count()
    page.press(f"#dw-{1 - knocker}", "Enter")
    wait_until(page, f"document.querySelectorAll('#sheet-body tr').length > {before}", timeout=5)


def test_five_hands_reload_and_correct(server: str, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/scorekeeper")
    page.wait_for_selector("#setup:not([hidden])")
    page.fill("#name-0", "You")
    page.fill("#name-1", "Sam")
    page.click("#start")
    page.wait_for_selector("#game:not([hidden])")
    assert page.inner_text("#game-title") == "You v Sam"

    # 000's worked example.
    enter_hand(page, "knock", 0, 3, 25)
    assert "You knocked with 3" in page.inner_text("#last-hand")
    enter_hand(page, "gin", 1, None, 14)
    enter_hand(page, "knock", 0, 8, 6)
    assert "Sam undercut you" in page.inner_text("#last-hand")
    enter_hand(page, "gin", 0, None, 31)
    enter_hand(page, "knock", 0, 5, 35)

    page.wait_for_selector("#final:not([hidden])")
    assert page.inner_text("#final-total-0") == "263"
    assert page.inner_text("#final-total-1") == "86"
    assert page.inner_text("#margin") == "177"
    assert "You win 263 to 86, by 177." in page.inner_text("#final-result")
    assert page.is_hidden("#hand-form")

    # A reload keeps the sheet (its id is in localStorage; no account).
    page.reload()
    page.wait_for_selector("#final:not([hidden])")
    assert page.inner_text("#final-total-0") == "263"
    assert page.locator("#sheet-body tr").count() == 5

    # Correct hand 3: it was a knock that won, 8 against 15.
    page.click("button[aria-label='Correct hand 3']")
    assert page.inner_text("#hand-legend") == "Correct hand 3"
    assert page.input_value("#dw-0") == "8"
    page.fill("#dw-1", "15")
    page.click("#score-hand")
    wait_until(page, "document.querySelector('#final-total-0').textContent === '290'", timeout=5)
    assert page.inner_text("#final-total-1") == "54"
    assert page.inner_text("#margin") == "236"
    assert "Hand 3 corrected" in page.inner_text("#last-hand")

    # A refused hand shows the rule, and nothing changes.
    page.click("#rematch")
    wait_until(page, "document.querySelectorAll('#sheet-body tr').length === 0", timeout=5)
    page.click("#knocker-0")
    page.fill("#dw-0", "14")
    page.fill("#dw-1", "30")
    page.click("#score-hand")
    page.wait_for_selector("#error:not([hidden])")
    assert "cannot knock: deadwood 14 is over the knock limit 10" in page.inner_text("#error")
    assert page.locator("#sheet-body tr").count() == 0
    assert errors == []
    context.close()


def test_printable_sheets_fit_one_page(server: str, browser: Any) -> None:
    page = browser.new_page()
    for path in ("/rules", "/scoresheet?names=You,Sam", "/scoresheet?hollywood=true"):
        page.goto(server + path)
        for fmt in ("Letter", "A4"):
            pdf = page.pdf(format=fmt)
            pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
            assert pages == 1, f"{path} prints on {pages} {fmt} pages"
    page.close()


# -- three players and two teams, by clicks --------------------------------------------------------

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def fill_table(page: Any, entry: dict[str, Any], sfx: str = "") -> None:
    """Click one table's part of the form for an entry as the examples write it (names, not seats):
    the form shows the two who play, so the names say which radio and which field."""
    if entry.get("dead"):
        page.click(f"#kind-dead{sfx}")
        return
    pair = [page.inner_text(f"#knocker-row{sfx} .pname[data-seat='{s}']") for s in (0, 1)]
    gin = bool(entry.get("gin"))
    page.click(f"#kind-{'gin' if gin else 'knock'}{sfx}")
    page.click(f"#knocker-{pair.index(entry['knocker'])}{sfx}")
    for seat, name in enumerate(pair):
        if not (gin and name == entry["knocker"]):
            page.fill(f"#dw-{seat}{sfx}", str(entry["deadwood"][name]))


def score(page: Any) -> None:
    before = page.locator("#sheet-body tr").count()
    page.click("#score-hand")
    wait_until(page, f"document.querySelectorAll('#sheet-body tr').length > {before} "
                     "|| !document.getElementById('error').hidden", timeout=5)


def new_game(page: Any, names: list[str]) -> None:
    page.wait_for_selector("#setup:not([hidden])")
    page.click(f"#count-{len(names)}")
    for i, n in enumerate(names):
        page.fill(f"#name-{i}", n)
    page.click("#start")
    page.wait_for_selector("#game:not([hidden])")


def test_three_players_by_clicks(server: str, browser: Any) -> None:
    data = json.loads((EXAMPLES / "three_players.json").read_text())
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: d.accept())
    page.goto(server + "/scorekeeper")
    new_game(page, data["players"])
    assert page.inner_text("#game-title") == "Ann, Bob and Cy"
    assert page.inner_text("#next-hand") == "Cy deals and sits out: Ann plays Bob."
    fill_table(page, data["hands"][0])
    score(page)
    # Bob lost: he deals and sits out; the form now asks about Cy and Ann.
    assert page.inner_text("#next-hand") == "Bob deals and sits out: Cy plays Ann."
    assert page.inner_text("#knocker-row .pname[data-seat='0']") == "Cy"
    for entry in data["hands"][1:]:
        fill_table(page, entry)
        score(page)
    page.wait_for_selector("#final:not([hidden])")
    # The command line's totals for this file: Ann 369, Bob 0, Cy 90 (test_web_scorekeeper_multi).
    assert [page.inner_text(f"#final-total-{p}") for p in range(3)] == ["369", "0", "90"]
    assert "Ann wins: Ann 369, Cy 90, Bob 0; by 279 over the next best." in page.inner_text("#final-result")
    assert page.inner_text("#hand-4 td.what") == "Dead hand (Bob dealt)"
    # Correct hand 1 (same loser, Bob 40 not 30): every total after it follows.
    page.click("button[aria-label='Correct hand 1']")
    assert page.input_value("#dw-1") == "30" and page.inner_text("#knocker-row .pname[data-seat='1']") == "Bob"
    page.fill("#dw-1", "40")
    page.click("#score-hand")
    wait_until(page, "document.querySelector('#final-total-0').textContent === '379'", timeout=5)
    # Deleting hand 1 would change who played every later hand: refused, saying so.
    page.click("button[aria-label='Delete hand 1']")
    page.wait_for_selector("#error:not([hidden])")
    assert "Cannot delete hand 1: it changes who deals and plays the hands after it" in page.inner_text("#error")
    page.click("button[aria-label='Delete hand 6']")  # the last hand may go: the game is open again
    wait_until(page, "document.querySelectorAll('#sheet-body tr').length === 5", timeout=5)
    assert page.inner_text("#next-hand") == "Cy deals and sits out: Ann plays Bob."
    assert errors == []
    context.close()


def test_four_players_in_two_teams_by_clicks(server: str, browser: Any) -> None:
    hands = json.loads((EXAMPLES / "four_players.json").read_text())
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/scorekeeper")
    page.wait_for_selector("#setup:not([hidden])")
    page.click("#count-4")
    for i, n in enumerate(["A", "B", "C", "D"]):
        page.fill(f"#name-{i}", n)
    assert page.inner_text("#teams-line").startswith("Teams: A & C against B & D.")
    page.click("#start")
    page.wait_for_selector("#part-t2:not([hidden])")
    assert page.inner_text("#game-title") == "AC v BD"
    assert page.inner_text("#part-title") == "Table 1: A v B (A deals)"
    assert page.inner_text("#part-title-t2") == "Table 2: C v D (C deals)"
    for number, entry in enumerate(hands, start=1):
        tables = entry["tables"]
        # The form's tables are in the sheet's order; the example may list them the other way.
        pair = {page.inner_text(f"#knocker-row .pname[data-seat='{s}']") for s in (0, 1)}
        first, other = tables if tables[0].get("dead") or set(tables[0]["deadwood"]) <= pair else tables[::-1]
        fill_table(page, first)
        fill_table(page, other, "-t2")
        score(page)
        assert page.is_hidden("#error"), page.inner_text("#error")
        if number == 1:
            assert "One hand each: BD have more points and score the difference, 34 - 22 = 12." in \
                page.inner_text("#last-hand")
            assert page.inner_text("#part-title") == "Table 1: A v D (D deals)"  # partners switched opponents
    page.wait_for_selector("#final:not([hidden])")
    assert [page.inner_text(f"#final-total-{p}") for p in range(2)] == ["285", "85"]
    assert "Table 1: Dead hand; Table 2: C undercut D: 6 v 6 (10 to AC)" == page.inner_text("#hand-3 td.what")
    # A correction of both tables at once: hand 5 was A 30 and C 20; make table 2 equal to table 1.
    page.click("button[aria-label='Correct hand 5']")
    assert page.input_value("#dw-1") == "32" and page.input_value("#dw-1-t2") == "21"
    page.fill("#dw-1-t2", "31")
    page.click("#score-hand")
    wait_until(page, "document.querySelector('#final-total-0').textContent === '295'", timeout=5)
    assert errors == []
    context.close()
