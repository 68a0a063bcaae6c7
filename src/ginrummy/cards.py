"""Cards as ints 0..51 and hands as 52-bit int masks.

A card is ``suit * 13 + rank`` with rank 0 = ace .. 12 = king and suits in the order
spades, hearts, diamonds, clubs. So each suit is a 13-bit block of a hand mask, which
makes runs contiguous bits and lets the meld code work one suit at a time.

>>> parse_card('As'), parse_card('10h'), parse_card('K♦')
(0, 22, 38)
>>> card_str(22)
'Th'
>>> CardSet.parse('As 2s 3s Kd')
CardSet('As 2s 3s Kd')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Final

from .errors import NotationError, shown

Card = int

RANKS: Final = "A23456789TJQK"
SUITS: Final = "shdc"
SUIT_SYMBOLS: Final = "♠♥♦♣"
SUIT_NAMES: Final = ("spades", "hearts", "diamonds", "clubs")
RANK_NAMES: Final = ("ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")

SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
FULL_DECK: Final = (1 << 52) - 1
SUIT_MASK: Final = (1 << 13) - 1

#: Deadwood value of each card: ace 1, 2-10 face value, J Q K 10.
CARD_VALUES: Final = tuple(min(c % 13 + 1, 10) for c in range(52))


def rank_of(card: Card) -> int:
    """Rank 0 (ace) .. 12 (king).

    >>> rank_of(parse_card('Kc'))
    12
    """
    return card % 13


def suit_of(card: Card) -> int:
    """Suit 0..3 in the order spades, hearts, diamonds, clubs.

    >>> suit_of(parse_card('7d'))
    2
    """
    return card // 13


def make_card(rank: int, suit: int) -> Card:
    """The card of a rank 0..12 and a suit 0..3.

    >>> card_str(make_card(9, 1))
    'Th'
    """
    if not (0 <= rank < 13 and 0 <= suit < 4):
        raise NotationError(f"no card with rank {rank} and suit {suit}")
    return suit * 13 + rank


def value_of(card: Card) -> int:
    """Deadwood points of a card.

    >>> [value_of(parse_card(c)) for c in ('As', '7h', 'Td', 'Qc')]
    [1, 7, 10, 10]
    """
    return CARD_VALUES[card]


def parse_card(text: str) -> Card:
    """Read a card: rank ``A 2-9 T J Q K`` (or ``10``) then suit ``s h d c`` or ``♠ ♥ ♦ ♣``.

    Case does not matter.

    >>> parse_card('ah') == parse_card('A♥')
    True
    >>> parse_card('1s')
    Traceback (most recent call last):
    ...
    ginrummy.errors.NotationError: not a card: '1s' (rank must be A, 2-10, T, J, Q or K)
    """
    t = text.strip()
    if len(t) < 2:
        raise NotationError(f"not a card: {shown(text)} (write rank then suit, as in As, 10h, K♦)")
    rank_text, suit_text = t[:-1].upper(), t[-1]
    if rank_text == "10":
        rank_text = "T"
    rank = RANKS.find(rank_text) if len(rank_text) == 1 else -1
    if rank < 0:
        raise NotationError(f"not a card: {shown(text)} (rank must be A, 2-10, T, J, Q or K)")
    suit = SUITS.find(suit_text.lower())
    if suit < 0:
        suit = SUIT_SYMBOLS.find(suit_text)
        if suit < 0:
            suit = "♤♡♢♧".find(suit_text)
    if suit < 0:
        raise NotationError(f"not a card: {shown(text)} (suit must be s, h, d, c or ♠ ♥ ♦ ♣)")
    return suit * 13 + rank


def card_str(card: Card, symbols: bool = False) -> str:
    """Short name of a card: ``As``, ``Th``; with ``symbols`` ``A♠``.

    >>> card_str(51), card_str(51, symbols=True)
    ('Kc', 'K♣')
    """
    if not 0 <= card < 52:
        raise NotationError(f"not a card: {shown(card)} (cards are 0..51)")
    suits = SUIT_SYMBOLS if symbols else SUITS
    return RANKS[card % 13] + suits[card // 13]


def card_name(card: Card) -> str:
    """Words for a card, for screens and explanations.

    >>> card_name(parse_card('Qh'))
    'queen of hearts'
    """
    return f"{RANK_NAMES[card % 13]} of {SUIT_NAMES[card // 13]}"


def mask_of(cards: Iterable[Card]) -> int:
    """The bit mask of some cards.

    >>> mask_of([0, 1, 2])
    7
    """
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[Card]:
    """The cards of a mask, lowest first.

    >>> cards_of(0b1011)
    [0, 1, 3]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_value(mask: int) -> int:
    """Sum of the deadwood values of the cards in a mask.

    >>> mask_value(CardSet.parse('As Kh 5d').mask)
    16
    """
    total = 0
    while mask:
        low = mask & -mask
        total += CARD_VALUES[low.bit_length() - 1]
        mask ^= low
    return total


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read cards separated by spaces or commas (or an iterable of card strings).

    >>> parse_cards('As, 2s 3s')
    [0, 1, 2]
    """
    if isinstance(text, str):
        parts = text.replace(",", " ").split()
    else:
        parts = [p for item in text for p in str(item).replace(",", " ").split()]
    cards = [parse_card(p) for p in parts]
    if len(set(cards)) != len(cards):
        dup = [card_str(c) for c, n in sorted(Counter(cards).items()) if n > 1]  # one pass, however long the list
        raise NotationError(f"a card appears twice: {' '.join(dup)}")
    return cards


class CardSet:
    """A set of cards wrapping one 52-bit int, like python-chess's ``SquareSet``.

    >>> hand = CardSet.parse('7h 8h 9h Ks')
    >>> len(hand), parse_card('8h') in hand
    (4, True)
    >>> str(hand - CardSet.parse('Ks'))
    '7h 8h 9h'
    """

    __slots__ = ("mask",)

    def __init__(self, cards: int | Iterable[Card] = 0) -> None:
        if isinstance(cards, int):
            if not 0 <= cards <= FULL_DECK:
                raise NotationError(f"not a 52-bit card mask: {cards}")
            self.mask = cards
        else:
            self.mask = mask_of(cards)

    @classmethod
    def parse(cls, text: str | Iterable[str]) -> CardSet:
        return cls(mask_of(parse_cards(text)))

    def __iter__(self) -> Iterator[Card]:
        return iter(cards_of(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < 52 and bool(self.mask >> card & 1)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CardSet):
            return self.mask == other.mask
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def __bool__(self) -> bool:
        return self.mask != 0

    def value(self) -> int:
        """Deadwood points of all the cards."""
        return mask_value(self.mask)

    def strings(self, symbols: bool = False) -> list[str]:
        return [card_str(c, symbols) for c in cards_of(self.mask)]

    def __str__(self) -> str:
        return " ".join(self.strings())

    def __repr__(self) -> str:
        return f"CardSet({str(self)!r})"
