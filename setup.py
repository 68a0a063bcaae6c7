"""Optional compiled build of the engine's hot path with mypyc (the same source, compiled to C).

    GINRUMMY_COMPILE=1 pip install .         # a user's install, compiled (needs gcc and Python's headers)
    make fast                                # the same build unpacked in build/fast, for tests and benchmarks

Without ``GINRUMMY_COMPILE=1`` (``make run``, the editable install ``make test`` tests first)
nothing is compiled and the package is pure Python; everything else lives in ``pyproject.toml``. The
modules below are those a whole hand runs through, and the expert player's; the compiled build
plays exactly as the pure one (``tests/test_compiled.py`` compares them).
"""

import os
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext


class ParallelBuildExt(build_ext):
    """Compile the modules' extensions on every core (one C compiler run each)."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:
            self.parallel = os.cpu_count() or 1


#: The engine's hot path and the expert player, in import order (each imports only earlier ones
#: or pure-Python modules).
COMPILED_MODULES = [
    "cards",
    "actions",
    "events",
    "melds",
    "discard_search",
    "scoring",
    "observation",
    "layout",
    "hand",
    "players/driver",
    "players/simple_players",
    "players/expert/params",
    "players/expert/knowledge",
    "players/expert/knock",
    "players/expert/value",
    "players/expert/player",
]

ext_modules = []
setup_requires = []
if os.environ.get("GINRUMMY_COMPILE") == "1":
    # pip's isolated build asks for the build's requirements first (mypy is not there yet), then
    # builds with them installed; a build without isolation needs mypy installed (the dev extra).
    setup_requires = ["mypy>=1.10,<3"]
    try:
        from mypyc.build import mypycify
    except ImportError:
        if "egg_info" not in sys.argv and "dist_info" not in sys.argv:
            sys.exit("GINRUMMY_COMPILE=1 needs mypy (pip install 'mypy>=1.10,<3'), which compiles the build")
    else:
        ext_modules = mypycify([f"src/ginrummy/{m}.py" for m in COMPILED_MODULES], opt_level="3", separate=True)

setup(ext_modules=ext_modules, setup_requires=setup_requires, cmdclass={"build_ext": ParallelBuildExt})
