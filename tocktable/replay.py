"""A session rebuilt from the store: its stored steps replayed, once the store has checked them."""

from __future__ import annotations

from collections.abc import Callable

from table.errors import TocktableError
from table.session import SessionSettings
from tocktable.game import Game
from tocktable.store import Store, StoreError

__all__ = ["replay_session"]


def replay_session(
    store: Store, session_id: int, *, clock: Callable[[], float] | None = None
) -> tuple[Game, int | None]:
    """Rebuild a session's game from its stored steps: the game and the last step's sequence number.

    The steps are replayed only once their checksums are all found as written
    (:meth:`tocktable.store.Store.verified_session`): an altered file is reported, never replayed."""
    info, commands = store.verified_session(session_id)
    try:
        settings = SessionSettings.from_dict(info.meta["settings"])
    except (KeyError, TypeError, TocktableError) as exc:
        raise StoreError(f"session {session_id} in {store.path} has unreadable settings ({exc})") from None
    try:
        game = Game.replay(settings, [c.payload["commands"] for c in commands], clock=clock)
    except (KeyError, TypeError, TocktableError) as exc:
        raise StoreError(
            f"session {session_id} in {store.path} does not replay ({exc}); "
            "start a new session (--new-session) and keep this file for a bug report"
        ) from None
    return game, commands[-1].seq if commands else None
