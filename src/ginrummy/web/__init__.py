"""The web app (FastAPI + SQLite): play against the computer or a friend, history, replays.

See :func:`ginrummy.web.app.create_app`; ``ginrummy serve`` runs it.
"""
