"""The compiled build (``setup.py``, ``make fast``: the hot path compiled to C by mypyc from the
same source) is the same engine.

``make test`` runs the suite on the pure source, then the engine's tests again on the compiled
build with ``GINRUMMY_COMPILED=1``; the first test here checks that each run tested the build it
says (so a stale extension beside the source, or a missing one in ``build/fast``, fails loudly).
The others play fixed-seed hands of ``bench/play_hash.py`` on both builds (40 a pairing and rule
set; the expert's games 10) and compare every view, history and result.
"""

from __future__ import annotations

import ast
import importlib
import os
import subprocess
import sys
from pathlib import Path

import ginrummy

ROOT = Path(__file__).resolve().parents[1]
FAST = ROOT / "build" / "fast"
#: Set by ``make compiled``: this run imports ``ginrummy`` from build/fast.
COMPILED_RUN = os.environ.get("GINRUMMY_COMPILED") == "1"


def compiled_modules() -> list[str]:
    """``setup.py``'s ``COMPILED_MODULES``, as module names (read, not imported: it calls setup())."""
    tree = ast.parse((ROOT / "setup.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "COMPILED_MODULES":
            return ["ginrummy." + m.replace("/", ".") for m in ast.literal_eval(node.value)]
    raise AssertionError("setup.py has no COMPILED_MODULES")


def test_this_run_tests_the_build_it_names() -> None:
    names = compiled_modules()
    assert "ginrummy.hand" in names and "ginrummy.melds" in names
    for name in names:
        path = Path(str(importlib.import_module(name).__file__))
        if COMPILED_RUN:
            assert path.suffix == ".so" and FAST in path.parents, f"{name} is not compiled: {path}"
        else:
            assert path.suffix == ".py" and ROOT / "src" in path.parents, f"{name} is not the source: {path}"
    assert ginrummy.COMPILED is COMPILED_RUN


def play_hash(pythonpath: Path, *args: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(pythonpath)}
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "play_hash.py"), *args], env=env, cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout


def test_the_compiled_build_plays_exactly_as_the_pure_source() -> None:
    assert (FAST / ".built").exists(), "build/fast is missing or half built: run `make fast`"
    pure, compiled = play_hash(ROOT / "src", "--hands", "40"), play_hash(FAST, "--hands", "40")
    assert "total" in pure
    assert compiled == pure


def test_the_compiled_expert_plays_exactly_as_the_pure_one() -> None:
    assert (FAST / ".built").exists(), "build/fast is missing or half built: run `make fast`"
    args = ("--hands", "10", "--pairing", "expert:simple", "--pairing", "greedy:expert")
    pure, compiled = play_hash(ROOT / "src", *args), play_hash(FAST, *args)
    assert "total" in pure
    assert compiled == pure
