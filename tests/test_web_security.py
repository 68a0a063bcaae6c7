"""Browser-side safety: every response carries the strict policy headers, and no page can run a string.

The headers are checked on every GET route the app has (pages, assets, API, errors). The page
sources are scanned: no script builds markup from strings (innerHTML and kin, eval), and no HTML
the server sends (the static pages and what the Python routes write) has an inline script, an
event-handler attribute, a style attribute or element, or a ``javascript:`` address. The policy
would block those anyway; the scan keeps the pages from needing them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from ginrummy.web.app import create_app
from ginrummy.web.security import HEADERS

STATIC = Path(__file__).resolve().parent.parent / "src" / "ginrummy" / "web" / "static"

POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)

XSS = '"><svg onload=alert(7)>'


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "sec.sqlite3", computer_delay=0, compute="inline")) as c:
        yield c


def assert_safety_headers(response: object, what: str) -> None:
    headers = response.headers  # type: ignore[attr-defined]
    assert headers.get("content-security-policy") == POLICY, what
    assert headers.get("x-content-type-options") == "nosniff", what
    assert headers.get("referrer-policy") == "no-referrer", what
    assert headers.get("x-frame-options") == "DENY", what


def get_routes(client: TestClient) -> list[str]:
    """Every GET route of the app with its path parameters filled in (a made-up id).

    Included routers are walked whether FastAPI lists their routes flat or (newer versions) behind
    a wrapper holding ``original_router``; the callers check the known pages are all found.
    """
    paths: list[str] = []

    def walk(routes: list[Any], prefix: str) -> None:
        for route in routes:
            inner = getattr(route, "original_router", None)
            if inner is not None:
                context = getattr(route, "include_context", None)
                walk(inner.routes, prefix + (getattr(context, "prefix", "") or ""))
            elif isinstance(route, APIRoute) and "GET" in route.methods:
                paths.append(prefix + re.sub(r"\{[^}]+\}", "abc123", route.path))

    walk(client.app.routes, "")  # type: ignore[attr-defined]
    return paths


def test_the_policy_is_the_strict_one() -> None:
    assert HEADERS["Content-Security-Policy"] == POLICY


def test_every_get_route_sends_the_safety_headers(client: TestClient) -> None:
    paths = get_routes(client)
    # The pages and the assets they load must all be among them (a route lost is a page unprotected).
    for page in ("/", "/table/abc123", "/history", "/fair", "/replay/abc123", "/rules", "/scoresheet", "/scorekeeper"):
        assert page in paths
    paths += ["/static/common.js", "/static/style.css", "/static/sheets.js", "/scorekeeper/static/scorekeeper.css",
              "/scorekeeper/static/scorekeeper_hand.js"]
    for path in paths:
        assert_safety_headers(client.get(path), path)


def test_errors_and_api_writes_send_the_safety_headers(client: TestClient) -> None:
    created = client.post("/api/games", json={"opponent": "simple", "names": [XSS]})
    assert created.status_code == 201
    assert_safety_headers(created, "POST /api/games")
    for path, status in (("/api/games/nosuchgame", 404), ("/static/nosuch.js", 404),
                         ("/rules?knock_limt=7", 400), ("/api/games/nosuchgame/state", 404)):
        r = client.get(path)
        assert r.status_code == status, (path, r.status_code)
        assert_safety_headers(r, path)


def test_a_header_a_route_sets_itself_is_kept(client: TestClient) -> None:
    r = client.get("/favicon.ico")
    assert r.headers["cache-control"] == "max-age=86400"
    assert r.headers.get_list("content-security-policy") == [POLICY]


# -- the scans ----------------------------------------------------------------------------------

#: What builds code or markup from a string in a script.
JS_SINKS = re.compile(
    r"\.innerHTML\b|\.outerHTML\b|insertAdjacentHTML|document\.write|\beval\s*\(|new\s+Function\b"
    r"|setAttribute\(\s*['\"](?:style|on\w+)['\"]|set(?:Timeout|Interval)\(\s*['\"`]|createContextualFragment"
    r"|DOMParser|\.srcdoc\b"
)


def js_findings(source: str) -> list[str]:
    return [f"line {source.count(chr(10), 0, m.start()) + 1}: {m.group(0)}" for m in JS_SINKS.finditer(source)]


class _Markup(HTMLParser):
    """Collects what a strict policy would refuse in a page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.findings: list[str] = []
        self._inline_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {k.lower(): v or "" for k, v in attrs}
        for name, value in names.items():
            if name.startswith("on"):
                self.findings.append(f"<{tag} {name}=...>: an inline event handler")
            if name == "style":
                self.findings.append(f"<{tag} style=...>: an inline style")
            if name in ("href", "src", "action", "formaction") and value.strip().lower().startswith("javascript:"):
                self.findings.append(f"<{tag} {name}=javascript:...>")
        if tag == "style":
            self.findings.append("<style>: an inline stylesheet")
        if tag == "script":
            if "src" not in names:
                self.findings.append("<script> without src: an inline script")
            self._inline_script = "src" not in names

    def handle_data(self, data: str) -> None:
        if self._inline_script and data.strip():
            self.findings.append("inline script text")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._inline_script = False


def html_findings(page: str) -> list[str]:
    parser = _Markup()
    parser.feed(page)
    parser.close()
    return parser.findings


def test_the_scans_catch_what_they_look_for() -> None:
    bad_js = 'box.innerHTML = x;\nb.insertAdjacentHTML("beforeend", s); el.setAttribute("onclick", f); eval("1")'
    assert len(js_findings(bad_js)) == 4
    assert js_findings('box.replaceChildren(GR.el("li", {}, name)); el.style.background = c;') == []
    bad_html = ('<p style="x">a</p><button onclick="go()">b</button><script>alert(1)</script>'
                '<a href="javascript:alert(1)">c</a><style>p{}</style>')
    assert len(html_findings(bad_html)) == 6
    assert html_findings('<script src="/static/a.js"></script><p class="muted" data-on="1">ok</p>') == []


@pytest.mark.parametrize("name", sorted(p.name for p in STATIC.glob("*.js")))
def test_no_script_builds_markup_from_strings(name: str) -> None:
    assert js_findings((STATIC / name).read_text(encoding="utf-8")) == [], name


@pytest.mark.parametrize("name", sorted(p.name for p in STATIC.glob("*.html")))
def test_static_pages_have_no_inline_script_handler_or_style(name: str) -> None:
    assert html_findings((STATIC / name).read_text(encoding="utf-8")) == [], name


@pytest.mark.parametrize("path", [
    "/rules", "/rules?preset=online&knock_limit=7&big_gin=yes", "/rules?knock_limt=7",
    "/scoresheet", "/scoresheet?hollywood=true&names=Ann,Bob&hands=10", "/scoresheet?hands=99",
    "/scoresheet?names=" + XSS.replace("&", "%26").replace("#", "%23"), "/scorekeeper",
])
def test_pages_the_routes_write_have_no_inline_script_handler_or_style(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.headers["content-type"].startswith("text/html"), path
    assert html_findings(r.text) == [], path
    assert "<img" not in r.text and "<svg" not in r.text, path  # a name is text in these pages too


def test_every_html_route_is_scanned(client: TestClient) -> None:
    """An HTML page added later must join the scan above (or the static pages' scan)."""
    scanned = {"/rules", "/scoresheet", "/scorekeeper"}
    static_pages = {"/", "/table/abc123", "/history", "/fair", "/replay/abc123"}
    paths = get_routes(client)
    assert scanned | static_pages <= set(paths)
    for path in paths:
        r = client.get(path)
        if r.headers.get("content-type", "").startswith("text/html"):
            assert path in scanned | static_pages, f"{path} answers HTML but is not scanned"


def test_every_stylesheet_closes_each_block_it_opens() -> None:
    """One unclosed block (a merge that lost a ``}``) silently swallows every rule after it."""
    for css in sorted(STATIC.glob("*.css")):
        depth = 0
        for n, line in enumerate(css.read_text().splitlines(), 1):
            depth += line.count("{") - line.count("}")
            assert depth >= 0, f"{css.name}:{n} closes a block it never opened"
        assert depth == 0, f"{css.name} leaves {depth} block(s) open"
