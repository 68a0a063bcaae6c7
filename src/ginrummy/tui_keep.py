"""The terminal app's question on quitting a saved game in progress: keep it for ``--resume``,
leave it (the store marks it abandoned, ``--resume`` will not offer it), or go back to the
table. It is ``ginrummy play``'s "Keep this game to continue it later? [Y/n]", as a screen:
``y`` or Enter keeps it, ``n`` leaves it, Escape goes back.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Static

#: The question, as ``ginrummy play`` asks it.
QUESTION = "Keep this game to continue it later?"


class KeepScreen(ModalScreen[bool | None]):
    """Quitting a game in progress: True keeps it, False leaves it, None goes back to the table."""

    DEFAULT_CSS = """
    KeepScreen { align: center middle; }
    KeepScreen > Vertical { width: 64; height: auto; border: round $primary; padding: 0 1; background: $surface; }
    KeepScreen #keep-buttons { height: auto; margin: 1 0 0 0; }
    KeepScreen Button { margin: 0 1 0 0; }
    KeepScreen.ascii > Vertical { border: ascii $primary; }
    """
    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("y", "answer(True)", "Keep it"),
        Binding("n", "answer(False)", "Leave it"),
        Binding("escape", "answer(None)", "Back to the game"),
    ]

    def __init__(self, resume: str, ascii: bool = False) -> None:
        """``resume`` is the command that continues the game (``ginrummy tui --resume``)."""
        super().__init__(classes="ascii" if ascii else None)
        self.resume = resume

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Quit"
            yield Static(f"[b]{QUESTION}[/]\nKept, it goes on with: {self.resume}", id="keep-question")
            with Horizontal(id="keep-buttons"):
                yield Button("Keep it (y)", name="yes", compact=True)
                yield Button("Leave it (n)", name="no", compact=True)
                yield Button("Back (Esc)", name="back", compact=True)
        yield Footer()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss({"yes": True, "no": False}.get(event.button.name or ""))

    def action_answer(self, keep: bool | None) -> None:
        self.dismiss(keep)


__all__ = ["QUESTION", "KeepScreen"]
