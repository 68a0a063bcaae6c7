"""The words a player reads: presets, computer strengths, every rule and its choices, and each move.

One home for every label, so the web pages, the terminal UI and the command line name things the
same way, in the rule documents' words ("Higher card deals", "Loser of the hand deals") rather
than the engine's (``first_dealer = "high_cut"``). The internal names stay those of the API, the
records and the command line; these are what a person sees next to them.

>>> PRESET_LABELS['eaai'], STRENGTH_LABELS['simple'], choice_label('first_dealer', 'high_cut')
('Computer challenge rules (EAAI)', 'Medium', 'Higher card deals')
>>> from .actions import Kind
>>> hand_log([Event(0, Kind.PILE, 45), Event(1, Kind.STOCK), Event(1, Kind.LAYOFF, 4, target=1)], ('Ann', 'Bo'))
['Ann took the upcard 7♣', 'Bo drew from the stock', 'Bo laid off 5♠ on meld 2']
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import Action, Kind
from .cards import RANKS, SUIT_SYMBOLS, cards_of
from .events import Event

#: Each preset by the name of the rule document it reproduces, and where that document comes from.
PRESET_LABELS: dict[str, str] = {
    "classic": "Classic (family rules)",
    "online": "Online rules",
    "app": "App rules",
    "eaai": "Computer challenge rules (EAAI)",
}
PRESET_HELP: dict[str, str] = {
    "classic": "The family rules reference, checked against Bicycle and Pagat.",
    "online": "The how-to-play page of an online gin rummy site.",
    "app": "The help page of a gin rummy app: big gin 31, no game or box bonus.",
    "eaai": "The 2021 EAAI computer-player challenge, for comparing computer players: "
    "the deal alternates, no game or box bonus.",
}

#: The computer players offered to people, weakest first, by the names people use for a level.
STRENGTH_LABELS: dict[str, str] = {
    "random": "Beginner",
    "easy": "Easy",
    "simple": "Medium",
    "greedy": "Hard",
    "expert": "Expert",
}
STRENGTH_HELP: dict[str, str] = {
    "random": "Plays any legal move: good for learning the rules.",
    "easy": "Plays like a beginner: keeps pairs, knocks late.",
    "simple": "Keeps what makes melds and knocks as soon as it can.",
    "greedy": "Always takes the lowest deadwood now.",
    "expert": "Counts the cards it has seen and plans its knocks.",
}

#: Every rule: a short label and one sentence of help, in the rule documents' words.
RULE_LABELS: dict[str, tuple[str, str]] = {
    "gin_bonus": ("Gin bonus", "Points for going gin, added to the other player's deadwood."),
    "undercut_bonus": (
        "Undercut bonus", "Points for beating a knock with equal or less deadwood, added to the difference."
    ),
    "big_gin": ("Big gin", "All 11 cards in melds after the draw: lay them out without a discard."),
    "big_gin_bonus": ("Big gin bonus", "Points for big gin, added to the other player's deadwood."),
    "knock_limit": ("Knock with at most", "The most deadwood a player may knock with (0 means gin only)."),
    "straight_gin": ("Straight gin (no knocking)", "A hand ends only by gin or as a dead hand."),
    "upcard": ("Turn up a card after the deal", "Off: the non-dealer gets 11 cards and starts by discarding."),
    "last_chance": (
        "Last chance", "When a discard leaves the stock at its last cards, the other player may take it to knock."
    ),
    "throw_back": ("Throw-back", "The top discard may be taken and thrown back on the same turn."),
    "dead_hand_stock": (
        "Dead hand when the stock is down to", "Cards left in the stock when a hand with no knock ends with no score."
    ),
    "repetition_limit": (
        "Dead hand when a position comes back",
        "Times the same position may come round (players only trading discards) before the hand is dead; 0 means never.",
    ),
    "oklahoma": ("Oklahoma", "The first upcard's value is the knock limit of the hand (face cards 10)."),
    "oklahoma_ace_gin_only": ("Oklahoma: an ace upcard means gin only", "With an ace turned up, nobody may knock: gin only."),
    "oklahoma_spade_double": ("Oklahoma: a spade upcard doubles the hand", "The hand's score, bonuses included, counts double."),
    "oklahoma_extra_boxes": ("Oklahoma: extra boxes", "An undercut wins 1 extra box and gin 2 (2 and 4 with a spade upcard)."),
    "target": ("Game to", "The first player whose total reaches this many points wins the game."),
    "game_bonus": ("Game bonus", "Points for the winner of the game."),
    "box_bonus": ("Box bonus", "Points for each hand won, added at the end (they do not count toward the target)."),
    "shutout": ("Shutout", "What the winner gets when the loser scored nothing."),
    "shutout_bonus": ("Shutout game bonus", "The game bonus, instead of the usual one, when the loser scored nothing."),
    "first_dealer": ("First dealer", "Who deals the first hand."),
    "next_dealer": ("Next dealer", "Who deals each later hand; after a dead hand the same dealer deals again."),
    "hollywood": ("Hollywood scoring", "Three games scored at once on one sheet."),
    # Three and four players (the score ledgers of ``ginrummy.multisheet``); two-player tables ignore them.
    "three_player_bonuses": ("Three players: game, box and shutout bonuses", "Off: a three-player game scores hand points only."),
    "team_target": ("Four players: team game to", "The points a team needs to win a four-player game."),
    "team_bonuses": ("Four players: game and box bonuses", "Off: a team game scores hand points only."),
}

#: The choices of each rule that is a choice among words.
CHOICE_LABELS: dict[str, dict[str, str]] = {
    "shutout": {
        "bonus": "A bigger game bonus",
        "double_total": "The winner's whole score doubled",
        "double_hands": "Each hand doubled (for winning every hand)",
        "none": "No shutout bonus",
    },
    "first_dealer": {"high_cut": "Higher card deals", "low_cut": "Lower card deals", "random": "Chosen at random"},
    "next_dealer": {"winner": "Winner of the hand deals", "loser": "Loser of the hand deals", "alternate": "Players take turns"},
}


def preset_label(name: str) -> str:
    """A preset's name for people (an unknown one as it is)."""
    return PRESET_LABELS.get(name, name)


def strength_label(name: str) -> str:
    """A computer player's level for people (an unknown one as it is)."""
    return STRENGTH_LABELS.get(name, name)


def computer_name(strength: str) -> str:
    """The name a computer seat takes: ``Computer (Medium)``."""
    return f"Computer ({strength_label(strength)})"


def choice_label(rule: str, value: str) -> str:
    return CHOICE_LABELS.get(rule, {}).get(value, value.replace("_", " "))


def rule_words(rule: str) -> tuple[str, str]:
    """A rule's label and help (a rule without them, if one is ever added, by its name)."""
    return RULE_LABELS.get(rule, (rule.replace("_", " ").capitalize(), ""))


def rule_label(rule: str) -> str:
    return rule_words(rule)[0]


def card_words(card: int) -> str:
    """A card as a player writes it: ``10♥``, ``Q♠`` (never the notation's ``T``).

    >>> card_words(9 + 13), card_words(0)
    ('10♥', 'A♠')
    """
    rank = RANKS[card % 13]
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[card // 13]


def _cards(mask: int) -> str:
    return " ".join(card_words(c) for c in cards_of(mask))


def hand_log(events: Sequence[Event], names: Sequence[str], knocker_deadwood: int | None = None) -> list[str]:
    """One sentence per event of a hand, in the seeds' words; the knocker's melds numbered from 1.

    ``events`` are as one seat saw them (a hidden card is -1 and stays unsaid); ``knocker_deadwood``
    is the knocker's count when that seat may know it (its own knock, or once the hand is scored).

    >>> from .actions import Kind
    >>> hand_log([Event(0, Kind.PASS), Event(1, Kind.STOCK, 21), Event(1, Kind.DISCARD, 12),
    ...           Event(0, Kind.PILE, 12), Event(0, Kind.KNOCK)], ('Ann', 'Bo'), 6)
    ['Ann passed on the upcard', 'Bo drew the 9♥ from the stock', 'Bo discarded the K♠', \
'Ann took the K♠ from the discard pile', 'Ann knocked with 6 deadwood']
    """
    out: list[str] = []
    offer = True  # until the first draw or discard, a pile take or a pass answers the upcard offer
    knocker: int | None = None
    knocker_melds = 0
    defender_done = 0  # the defender's first "done" ends their own layout, the second their layoffs
    for e in events:
        who = names[e.seat]
        k = e.kind
        if k is Kind.STOCK:
            out.append(f"{who} drew the {card_words(e.card)} from the stock" if e.card >= 0 else f"{who} drew from the stock")
        elif k is Kind.PILE:
            card = card_words(e.card) if e.card >= 0 else "top card"
            out.append(f"{who} took the upcard {card}" if offer else f"{who} took the {card} from the discard pile")
        elif k is Kind.PASS:
            out.append(f"{who} passed on the upcard" if offer else f"{who} passed on the last discard")
        elif k is Kind.DISCARD:
            out.append(f"{who} discarded the {card_words(e.card)}")
        elif k is Kind.KNOCK:
            knocker = e.seat
            face_down = f", discarding the {card_words(e.card)} face down" if e.card >= 0 else ""
            if knocker_deadwood == 0:
                out.append(f"{who} went gin{face_down}")
            elif knocker_deadwood is not None:
                out.append(f"{who} knocked with {knocker_deadwood} deadwood{face_down}")
            else:
                out.append(f"{who} knocked{face_down}")
        elif k is Kind.BIG_GIN:
            knocker = e.seat
            out.append(f"{who} went big gin")
        elif k is Kind.MELD:
            if e.seat == knocker:
                knocker_melds += 1
                out.append(f"{who} laid out meld {knocker_melds}: {_cards(e.meld)}")
            else:
                out.append(f"{who} laid out {_cards(e.meld)}")
        elif k is Kind.LAYOFF:
            out.append(f"{who} laid off {card_words(e.card)} on meld {e.target + 1}")
        elif k is Kind.DONE:
            if e.seat != knocker:
                defender_done += 1
            laying = "off" if e.seat != knocker and defender_done > 1 else "out"
            out.append(f"{who} finished laying {laying}")
        if k is not Kind.PASS:
            offer = False
    return out


def sentence(text: str) -> str:
    """A message as a sentence: a capital first letter and a full stop (an error shown to a player).

    >>> sentence("cannot knock: deadwood 14 is over the knock limit 10")
    'Cannot knock: deadwood 14 is over the knock limit 10.'
    >>> sentence("Dead hand."), sentence("")
    ('Dead hand.', '')
    """
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?…" else text + "."


def action_words(action: Action, top: int | None = None) -> str:
    """A legal action as a button or a hint says it; ``top`` is the discard pile's top card.

    >>> action_words(Action.parse('layoff 5h 0')), action_words(Action.parse('pile'), 8)
    ('Lay off 5♥ on meld 1', 'Take the 9♠ from the discard pile')
    >>> action_words(Action.parse('knock Td')), action_words(Action.parse('meld 7h8h9h'))
    ('Knock, discarding the 10♦ face down', 'Lay out 7♥ 8♥ 9♥')
    """
    k = action.kind
    if k is Kind.STOCK:
        return "Draw from the stock"
    if k is Kind.PILE:
        return f"Take the {card_words(top)} from the discard pile" if top is not None else "Take the top discard"
    if k is Kind.PASS:
        return "Pass"
    if k is Kind.DISCARD:
        return f"Discard the {card_words(action.card)}"
    if k is Kind.KNOCK:
        return f"Knock, discarding the {card_words(action.card)} face down"
    if k is Kind.BIG_GIN:
        return "Go big gin"
    if k is Kind.MELD:
        return f"Lay out {_cards(action.meld)}"
    if k is Kind.LAYOFF:
        return f"Lay off {card_words(action.card)} on meld {action.target + 1}"
    return "Done"
