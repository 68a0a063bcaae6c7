"""An exact Gin Rummy rules engine, with computer players, apps and a scorekeeper on top.

>>> from ginrummy import CardSet, deadwood
>>> deadwood(CardSet.parse('As 2s 3s 4s 5h 6h 7h 9c 9d 9s').mask)
0
"""

from . import melds as _melds
from .cards import CardSet, card_str, parse_card, parse_cards
from .discard_search import best_discards, min_deadwood_after_discard
from .errors import GinRummyError, IllegalActionError, NotationError, RecordError, RulesError
from .layout import best_defense
from .melds import best_arrangement, deadwood

__version__ = "0.1.0"

#: Whether this is the compiled build (``GINRUMMY_COMPILE=1 pip install .``; ``make fast``): the
#: engine's hot path compiled to C by mypyc from the same source, playing exactly the same.
COMPILED: bool = not str(_melds.__file__).endswith(".py")

__all__ = [
    "COMPILED",
    "CardSet",
    "GinRummyError",
    "IllegalActionError",
    "NotationError",
    "RecordError",
    "RulesError",
    "best_arrangement",
    "best_defense",
    "best_discards",
    "card_str",
    "deadwood",
    "min_deadwood_after_discard",
    "parse_card",
    "parse_cards",
]
