"""The example session of docs/protocol.md is what the current engine says: played again here
(two expert engine processes, one hand) and compared line for line with the document."""

from __future__ import annotations

import difflib

from protocol_host import BEGIN, DOC, END, example_section, with_example


def test_the_protocol_docs_example_session_is_what_the_engine_says_now():
    doc = DOC.read_text(encoding="utf-8")
    section = doc[doc.index(BEGIN) : doc.index(END) + len(END)]
    fresh = example_section()
    if section != fresh:
        diff = "\n".join(difflib.unified_diff(section.splitlines(), fresh.splitlines(), "docs", "engine", lineterm="", n=1))
        raise AssertionError(
            "docs/protocol.md's example session is out of date; rewrite it with\n"
            "    python tests/protocol_host.py --update\n" + diff[:4000]
        )
    assert with_example(doc, fresh) == doc
