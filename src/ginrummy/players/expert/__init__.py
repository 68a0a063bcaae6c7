"""The ``expert`` player: exact meld analysis, an opponent model, and sampled knock decisions.

Gin Rummy between decent players is a race to a knockable hand, spiced by two ways to lose it:
feeding the opponent the cards it needs, and knocking into an undercut. The package is split by
concern:

* :mod:`.params`: :class:`ExpertParams`, the tunable numbers;
* :mod:`.knowledge`: the opponent model (:func:`build_knowledge`: the chance that each unseen
  card is in the opponent's hand; meld, layoff and next-discard chances);
* :mod:`.value`: the value of a 10-card hand and the per-decision caches;
* :mod:`.knock`: knock or wait, and what a knock scores (:func:`ginrummy.scoring.score_hand`);
* :mod:`.player`: :class:`ExpertPlayer`, drawing, discarding and laying out.

``docs/strength.md`` has its current strength, ``docs/strength-log.md`` how it was tuned.
"""

from __future__ import annotations

from .knowledge import Knowledge, build_knowledge
from .params import ExpertParams
from .player import ExpertPlayer

__all__ = ["ExpertParams", "ExpertPlayer", "Knowledge", "build_knowledge"]
