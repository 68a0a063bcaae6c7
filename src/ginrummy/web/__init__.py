"""The web app (FastAPI + SQLite): play the computer or a friend, history, statistics, replays.

``ginrummy serve [--host 127.0.0.1] [--port 8000] [--db ginrummy.sqlite3]`` runs it; see
:func:`ginrummy.web.app.create_app`.

Protocol (the browser pages use exactly this; so do the tests and ``bench/load.py``):

- ``POST /api/games`` ``{"opponent": "simple" | ... | "human", "rules": {"preset": "classic",
  "overrides": {...}}, "names": ["Ann"]}`` → ``{"id", "token", "url"}`` (plus ``invite_url`` for a
  friend). Tokens are secrets: the server keeps only their hashes.
- ``WS /api/ws/{id}``: first send ``{"type": "hello", "token": ...}``; then
  ``{"type": "action", "action": "Kd", "seq": N}`` (``seq`` is the ``seq`` of the state being
  answered; an old or replayed message is refused as ``stale``), ``{"type": "auto", "seq": N}``
  (the best layout / defence after a knock), ``{"type": "next"}`` (ready for the next hand),
  ``{"type": "pace", "seconds": 0..5 | null}`` (the pause before each computer move at this table;
  null: the server's own), ``{"type": "hint"}``, ``{"type": "state"}``, ``{"type": "ping"}``. The
  server answers with ``{"type": "state", ...}`` to every connection of both seats after each change
  (that is the acknowledgement, sent only after the action is stored), or ``{"type": "error",
  "error": code, "message": ..., "rule": ...}`` to the sender alone (with the message's ``ref``).
- A state holds ``view`` (the seat's :class:`~ginrummy.observation.SeatView`), ``game`` (public
  facts), ``mine`` (from the seat's own cards: best melds, deadwood; ``plan``, while it lays out
  after a knock: the engine's layout still to play, its melds, layoffs and the deadwood left, which
  ``auto`` plays) and ``knock`` (the knock's kind, ``gin`` / ``big_gin`` / ``knock``, and the
  knocker's count, each once this seat may know it).
- The same over HTTP with the ``X-Seat-Token`` header: ``GET /api/games/{id}/state``,
  ``POST .../actions``, ``.../auto``, ``.../next``, ``GET .../hint``.
- Public: ``GET /api/games/{id}`` (names, score sheet), ``/api/history``, ``/api/stats``; for
  finished games only (all cards face up): ``/api/games/{id}/replay`` and ``/api/games/{id}/record``.

Limits (:mod:`ginrummy.web.inputs`): a body of at most 64 KiB (else 413), an address of at most
8 KiB (414), JSON nested at most 32 levels, names of 1 to 24 characters without control
characters, ``seq`` 0..2^31-1. A WebSocket message over 16 KiB is answered with an ``error``
(``too_large``) and the socket stays open; a frame over 64 KiB is closed by the server with code
1009. A bad hello closes the socket: 4403 for a wrong token, 1009 when too large, 4400 otherwise.
Every refusal is ``{"error": code, "message": ...}`` with a 4xx status, and no message quotes more
than about 40 characters of what was sent.
"""
