"""The scorekeeper in a real Chromium: 000's five hands typed in, 263 to 86, kept on reload, corrected.

The server is uvicorn on a free loopback port in a background thread, serving the real web app
when it is importable (else the scorekeeper and sheet routers alone) on a temporary database.
"""

from __future__ import annotations

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
