"""Match equity: the chance of winning a game to the target from a score, for players that weigh
a hand's points by what they do to that chance.

Near the target points stop adding up: at 95 to 95 a one-point knock wins the game as surely
as a gin, and behind 0 to 95 any hand the opponent wins ends it. A player that maximises hand
points plays those hands wrong. :func:`match_equity` gives ``W(a, b)`` for a race of hands
between even players, each hand won by either side with one half and scored like a typical
hand of these rules (:func:`hand_points`); :func:`points_equivalent` turns a hand result into
the change of ``W`` it causes, in points of the local exchange rate, so that early in a game
it is about the points themselves and near the end it is what the result does to the game.

>>> w = match_equity(100, 25, 25)
>>> round(w[0][0], 3), w[99][0] > 0.9, w[0][99] < 0.1
(0.5, True, True)
"""

from __future__ import annotations

from functools import cache

#: A typical hand between decent players: who won it, how, and for how many points (for the
#: knock, the difference in deadwood; for gin and undercut, over the bonus). A rough shape,
#: read from the outcome counts of ``bench/outcomes.py`` (knocks about 55% of scored hands for
#: about 13 points, undercuts about 30% for the bonus and 4, gins about 15% for the bonus and 20);
#: only the shape near the target matters to the decisions it serves.
_KNOCK = ((4, 0.2), (9, 0.3), (14, 0.25), (20, 0.15), (28, 0.1))
_UNDERCUT = ((1, 0.3), (4, 0.4), (8, 0.3))
_GIN = ((10, 0.25), (20, 0.4), (30, 0.25), (45, 0.1))
_KINDS = (0.55, 0.30, 0.15)


def hand_points(gin_bonus: int, undercut_bonus: int) -> tuple[tuple[int, float], ...]:
    """The winner's points of a typical scored hand under these bonuses, as (points, chance).

    >>> round(sum(q for _, q in hand_points(25, 25)), 9)
    1.0
    """
    out: dict[int, float] = {}
    for shape, kind, bonus in ((_KNOCK, _KINDS[0], 0), (_UNDERCUT, _KINDS[1], undercut_bonus),
                               (_GIN, _KINDS[2], gin_bonus)):
        for p, q in shape:
            out[p + bonus] = out.get(p + bonus, 0.0) + kind * q
    return tuple(sorted(out.items()))


@cache
def match_equity(target: int, gin_bonus: int, undercut_bonus: int) -> tuple[tuple[float, ...], ...]:
    """``W[a][b]``: the chance that the player at ``a`` reaches ``target`` before the one at ``b``.

    Filled from the target down: every scored hand adds points to one side only.
    """
    dist = hand_points(gin_bonus, undercut_bonus)
    w = [[0.0] * target for _ in range(target)]
    for a in range(target - 1, -1, -1):
        row = w[a]
        for b in range(target - 1, -1, -1):
            v = 0.0
            for p, q in dist:
                v += q * (1.0 if a + p >= target else w[a + p][b])
                v += q * (0.0 if b + p >= target else row[b + p])
            row[b] = 0.5 * v
    return tuple(tuple(r) for r in w)


def points_equivalent(target: int, gin_bonus: int, undercut_bonus: int, me: int, opp: int,
                      span: int, width: int = 15) -> list[float]:
    """The worth of every hand result from ``-span`` to ``+span`` points (index ``x + span``) at the
    score ``me`` to ``opp``: the change of the match equity it causes, divided by the local rate
    (what ``width`` points either way change), so that mid-game a result is worth about its points.

    >>> u = points_equivalent(100, 25, 25, 0, 0, 30)
    >>> abs(u[30 + 10] - 10) < 2.5, u[30] == 0.0
    (True, True)
    >>> u = points_equivalent(100, 25, 25, 95, 95, 30)
    >>> round(u[30 + 5], 6) == round(u[30 + 30], 6)  # any win ends the game there
    True
    """
    w = match_equity(target, gin_bonus, undercut_bonus)
    me, opp = max(0, min(me, target - 1)), max(0, min(opp, target - 1))

    def at(a: int, b: int) -> float:
        if a >= target:
            return 1.0
        if b >= target:
            return 0.0
        return w[a][b]

    now = w[me][opp]
    rate = (at(me + width, opp) - at(me, opp + width)) / (2 * width)
    rate = max(rate, 1e-4)
    out = []
    for x in range(-span, span + 1):
        after = at(me + x, opp) if x > 0 else at(me, opp - x)
        out.append((after - now) / rate)
    return out


__all__ = ["hand_points", "match_equity", "points_equivalent"]
