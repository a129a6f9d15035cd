"""A whole game across hands: players and seats, stacks carried over, the button, blind levels.

A :class:`Session` is driven by commands (seat a player, start a hand, act, deal...). Every
accepted command is appended to :attr:`Session.log` as plain JSON-ready data, and
:meth:`Session.replay` rebuilds an identical session from the settings and that log: the
service persists the log and replays it after a restart. A rejected command raises a typed
error and changes nothing (not even the log).

Time is never read from the system: commands that need it take ``now`` (seconds), or read the
``clock`` callable given to the session, and the time used is written into the log.

The settings (:mod:`table.session_settings`), the players, ledger and hand records
(:mod:`table.session_records`) and the dashboard snapshot (:mod:`table.session_snapshot`) live
in their own modules; import them from here.

>>> session = Session(SessionSettings(seats=4, blinds=BlindStructure.fixed(5, 10)))
>>> session.seat_player(0, "Ann", 500); session.seat_player(2, "Bob", 500)
>>> session.seat_player(3, "Cy", 500)
>>> session.draw_for_button({0: "Kd", 2: "Ks", 3: "9c"})  # kings tie: spades beat diamonds
2
>>> hand = session.start_hand()
>>> hand.button, hand.small_blind_seat, hand.big_blind_seat, hand.to_act
(2, 3, 0, 2)
>>> session.act(2, "fold"); session.act(3, "fold")
>>> [session.snapshot()["seats"][s]["stack"] for s in (0, 2, 3)]  # the big blind won the small blind
[505, 500, 495]
>>> session.start_hand().button  # the button moves clockwise to the next seat dealt in
3
>>> replayed = Session.replay(session.settings, session.log)
>>> replayed.snapshot() == session.snapshot()
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar, cast

from table.cards import Card, parse_cards
from table.draw import parse_draw_cards
from table.engine import ActionKind, BlindLevel, BlindStructure, Hand, LevelClock
from table.engine.draw import DrawHand
from table.errors import RulesError, TocktableError
from table.history import to_phh
from table.session_draw import DRAW_VARIANTS, MAX_PLAYERS, MIN_PLAYERS, DrawOptions, draw_phh
from table.session_records import HandRecord, LedgerLine, Player, record_of
from table.session_settings import FIRST_DEALERS, SessionSettings
from table.session_snapshot import snapshot_of
from table.tock_marks import Mark
from table.wording import seat_numbers, seat_word
from table.wording import seats as seats_words

Command = dict[str, Any]
"""One logged command: ``{"op": name, ...arguments as plain data}``."""


class SessionError(TocktableError, ValueError):
    """A session command that is not allowed now (seat taken, hand still running...)."""


class Session:
    """A game night at one table. See the module docstring for the command/log/replay model."""

    def __init__(self, settings: SessionSettings | None = None, *, clock: Callable[[], float] | None = None) -> None:
        self.settings = settings if settings is not None else SessionSettings()
        if not isinstance(self.settings, SessionSettings):
            raise RulesError("settings must be a table.session.SessionSettings")
        self.clock = clock
        self.players: dict[int, Player] = {}
        self.hand: Hand | None = None
        """The current hand (complete but still open to corrections until the next command
        that needs the table between hands), or None before the first hand."""
        self.hand_number = 0
        self.hands: list[Hand] = []
        """Every hand started, in order (the last may be the current one)."""
        self.records: list[HandRecord] = []
        """Every closed hand's results, in order."""
        self.levels = LevelClock(self.settings.blinds)
        self.hand_level: BlindLevel | None = None
        self.button: int | None = None
        """The button of the current (or last) hand."""
        self.next_button: int | None = None
        """A button chosen for the next hand (by the draw or by hand), None to move it on."""
        self.draw: dict[int, Card] = {}
        self.eliminated: list[str] = []
        """Names in the order they busted without rebuying (first out first)."""
        self.departed: list[LedgerLine] = []
        self.log: list[Command] = []
        self._hand_open = False

    # ----------------------------------------------------------------- helpers
    def _now(self, now: float | None, *, needed: bool) -> float | None:
        if now is None and self.clock is not None:
            now = float(self.clock())
        if now is None and needed:
            raise SessionError("this needs the time: pass now= (seconds) or give the session a clock")
        if now is not None and (isinstance(now, bool) or not isinstance(now, int | float)):
            raise SessionError(f"now must be a number of seconds, got {now!r}")
        return None if now is None else float(now)

    def _seat(self, seat: int, *, occupied: bool = True) -> Player | None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.settings.seats:
            raise SessionError(f"there is no {seat_word(seat)}: seats are {seat_numbers(self.settings.seats)}")
        player = self.players.get(seat)
        if occupied and player is None:
            taken = seats_words(sorted(self.players)) if self.players else "none"
            raise SessionError(f"{seat_word(seat)} is empty (occupied: {taken})")
        return player

    def _in_current_hand(self, seat: int) -> bool:
        return self._hand_open and self.hand is not None and seat in self.hand.in_hand

    def _require_between_hands(self, what: str, seat: int | None = None) -> None:
        """Refuse ``what`` while a hand is being played (by ``seat``, if given)."""
        if self.hand is None or not self._hand_open or self.hand.is_complete:
            return
        if seat is None or seat in self.hand.in_hand:
            who = f"{seat_word(seat)} is" if seat is not None else "players are"
            raise SessionError(f"cannot {what} now: {who} in hand {self.hand_number}, which is not finished")

    def _chips(self, chips: int, what: str) -> int:
        if isinstance(chips, bool) or not isinstance(chips, int) or chips < 1:
            raise SessionError(f"{what} must be a whole number of chips above 0, got {chips!r}")
        return chips

    def _record(self, op: str, **args: Any) -> None:
        self.log.append({"op": op, **args})

    def _close_hand(self) -> None:
        """Carry a finished hand's stacks over to the players (once)."""
        hand = self.hand
        if hand is None or not self._hand_open or not hand.is_complete:
            return
        self.records.append(self._record_of(hand))
        self._hand_open = False
        for seat in hand.in_hand:
            self.players[seat].stack = hand.stacks[seat]
        if not self.settings.rebuys:
            busted = [s for s in hand.in_hand if hand.stacks[s] == 0]
            # Two players out in the same hand: the one who started it with fewer chips is out first.
            for seat in sorted(busted, key=lambda s: (hand.starting_stacks[s], -s)):
                self.eliminated.append(self.players[seat].name)

    def _record_of(self, hand: Hand) -> HandRecord:
        return record_of(hand, number=self.hand_number, level=self.hand_level, players=self.players)

    def _dealt_in(self) -> list[int]:
        """Seats to deal into the next hand: seated, not sitting out, with chips."""
        return sorted(s for s, p in self.players.items() if not p.sitting_out and self.stack(s) > 0)

    # ----------------------------------------------------------------- players
    def seat_player(self, seat: int, name: str, chips: int) -> None:
        """A player sits down at an empty seat with ``chips`` (dealt in from the next hand)."""
        self._seat(seat, occupied=False)
        if seat in self.players:
            raise SessionError(f"{seat_word(seat)} is taken by {self.players[seat].name}: choose an empty seat")
        if not isinstance(name, str) or not name.strip():
            raise SessionError(f"a player needs a name, got {name!r}")
        clean = name.strip()
        if any(p.name.casefold() == clean.casefold() for p in self.players.values()):
            raise SessionError(f"{clean!r} is already at the table: names must differ")
        self._chips(chips, "a buy-in")
        self.players[seat] = Player(clean, seat, chips, chips)
        self._record("seat_player", seat=seat, name=clean, chips=chips)

    def leave(self, seat: int) -> int:
        """The player at ``seat`` leaves with their chips (returned); not during their hand."""
        player = self._seat(seat)
        assert player is not None
        self._require_between_hands("leave", seat)
        self._close_hand()
        del self.players[seat]
        self.departed.append(LedgerLine(player.name, player.bought_in, player.stack))
        self._record("leave", seat=seat)
        return player.stack

    def sit_out(self, seat: int) -> None:
        """Skip this player from the next hand on (their chips stay at the table)."""
        player = self._seat(seat)
        assert player is not None
        if player.sitting_out:
            raise SessionError(f"{player.name} ({seat_word(seat)}) is already sitting out")
        player.sitting_out = True
        self._record("sit_out", seat=seat)

    def sit_in(self, seat: int) -> None:
        """Deal this player in again from the next hand."""
        player = self._seat(seat)
        assert player is not None
        if not player.sitting_out:
            raise SessionError(f"{player.name} ({seat_word(seat)}) is not sitting out")
        player.sitting_out = False
        self._record("sit_in", seat=seat)

    def rebuy(self, seat: int, chips: int) -> None:
        """Add ``chips`` to a player's stack between their hands (if the game allows rebuys)."""
        player = self._seat(seat)
        assert player is not None
        if not self.settings.rebuys:
            raise SessionError("this game has no rebuys (a tournament): a player who busts is out")
        self._chips(chips, "a rebuy")
        self._require_between_hands("rebuy", seat)
        self._close_hand()
        player.stack += chips
        player.bought_in += chips
        self._record("rebuy", seat=seat, chips=chips)

    # ----------------------------------------------------------------- the button
    def draw_for_button(self, draws: Mapping[int, Card | str]) -> int:
        """First dealer by the cards drawn: the highest rank wins the button, and between
        equal ranks the suit decides, spades > hearts > diamonds > clubs (no redraw).
        Returns the seat that gets the button for the next hand."""
        self._require_between_hands("draw for the button")
        if not isinstance(draws, Mapping) or len(draws) < 2:
            raise SessionError("the draw needs one card for each of at least two players: {seat: card}")
        for seat in draws:
            self._seat(seat)
        try:
            cards = {seat: c if isinstance(c, Card) else Card.parse(c) for seat, c in draws.items()}
            parse_cards(list(cards.values()))
        except TocktableError as exc:
            raise SessionError(f"the draw for the button: {exc}") from None
        # Card order is rank first, then suit in the order clubs < diamonds < hearts < spades.
        winner = max(cards, key=lambda s: cards[s])
        self._close_hand()
        self.draw = dict(sorted(cards.items()))
        self.next_button = winner
        self._record("draw_for_button", draws={str(s): str(c) for s, c in self.draw.items()})
        return winner

    def set_button(self, seat: int) -> None:
        """Put the button on ``seat`` for the next hand (the host's choice)."""
        self._seat(seat)
        self._require_between_hands("move the button")
        self._close_hand()
        self.next_button = seat
        self._record("set_button", seat=seat)

    def croupier_button(self) -> int:
        """First dealer by the dealer rules: the puck goes in front of the first player to the
        croupier's right, so the croupier's left-hand neighbour posts the small blind.

        Seats are numbered clockwise from the croupier's left, so the first player to the
        croupier's right is the last seat dealt in (the highest-numbered seat with chips that
        is not sitting out). Returns that seat; the puck moves on clockwise from there."""
        self._require_between_hands("place the puck")
        dealt = self._dealt_in()
        if not dealt:
            raise SessionError("the puck goes in front of a player: seat the players first")
        self._close_hand()
        self.next_button = dealt[-1]
        self._record("croupier_button")
        return dealt[-1]

    def _button_for(self, dealt: list[int]) -> int:
        def at_or_after(seat: int) -> int:
            return min(dealt, key=lambda s: (s - seat) % self.settings.seats)

        if self.next_button is not None:
            return at_or_after(self.next_button)
        if self.button is not None:
            return at_or_after(self.button + 1)
        return dealt[0]

    # ----------------------------------------------------------------- blinds and the clock
    def start_clock(self, *, now: float | None = None) -> None:
        """Start the level clock (the first hand starts it anyway)."""
        when = self._now(now, needed=True)
        assert when is not None
        self.levels.start(now=when)
        self._record("start_clock", now=when)

    def pause_clock(self, *, now: float | None = None) -> None:
        when = self._now(now, needed=True)
        assert when is not None
        self.levels.pause(now=when)
        self._record("pause_clock", now=when)

    def resume_clock(self, *, now: float | None = None) -> None:
        when = self._now(now, needed=True)
        assert when is not None
        self.levels.resume(now=when)
        self._record("resume_clock", now=when)

    def set_level(self, index: int, *, now: float | None = None) -> None:
        """Jump to blind level ``index`` (0-based) from the next hand; a timed level restarts now."""
        when = self._now(now, needed=self.settings.blinds.timed_levels)
        self.levels.set_level(index, now=when)
        self._record("set_level", index=index, now=when)

    # ----------------------------------------------------------------- hands
    def start_hand(self, *, now: float | None = None) -> Hand:
        """Deal a new hand to every seated player with chips who is not sitting out: the
        button moves clockwise to the next seat dealt in, blinds are posted at the level of
        the clock at ``now``."""
        timed = self.settings.blinds.timed_levels
        when = self._now(now, needed=timed)
        if self.hand is not None and self._hand_open and not self.hand.is_complete:
            raise SessionError(f"hand {self.hand_number} is not finished: finish it (or undo) before the next")
        dealt = self._dealt_in()
        if len(dealt) < 2:
            raise SessionError(
                f"a hand needs at least two players with chips who are not sitting out (now {len(dealt)})"
            )
        if self.settings.is_draw and len(dealt) > MAX_PLAYERS:
            raise SessionError(
                f"five-card draw deals {MIN_PLAYERS} to {MAX_PLAYERS} players, {len(dealt)} would be dealt in: "
                "sit some players out"
            )
        heads_up = self.settings.draw is not None and self.settings.draw.two_players
        if self.settings.is_draw and len(dealt) < MIN_PLAYERS and not heads_up:
            raise SessionError(
                f"five-card draw is played by {MIN_PLAYERS} to 6 players, {len(dealt)} would be dealt in: seat "
                "another player, or play heads-up with the house option two_players"
            )
        if timed and self.levels.started_at is None:
            assert when is not None
            self.levels.start(now=when)
        level = self.levels.level(now=when if when is not None else 0.0)
        self._close_hand()
        button = self._button_for(dealt)
        stacks = [self.players[s].stack if s in dealt else 0 for s in range(self.settings.seats)]
        hand = self.settings.new_hand(level, stacks, button)
        self.hand = hand
        self._hand_open = True
        self.hands.append(hand)
        self.hand_number += 1
        self.hand_level = level
        self.button = button
        self.next_button = None
        self._record("start_hand", now=when)
        return hand

    def _open_hand(self) -> Hand:
        if self.hand is None or not self._hand_open:
            raise SessionError("no hand is being played: start one with start_hand()")
        return self.hand

    def act(self, seat: int, action: ActionKind | str, amount: int | None = None) -> None:
        """A betting action in the current hand (see :meth:`table.engine.Hand.act`)."""
        hand = self._open_hand()
        hand.act(seat, action, amount)
        self._record("act", seat=seat, action=ActionKind(action).value, amount=amount)

    def deal_board(self, cards: Iterable[Card | str] | str) -> None:
        """Board cards turned face up in the current hand."""
        hand = self._open_hand()
        try:
            new = parse_cards(cards)
        except TocktableError as exc:
            raise SessionError(f"board cards: {exc}") from None
        hand.deal_board(new)
        self._record("deal_board", cards=[str(c) for c in new])

    def deal_hole(self, seat: int, cards: Iterable[Card | str] | str) -> None:
        """A seat's hole cards, turned face up at the showdown, or at an all-in as soon as
        betting is closed for the rest of the hand (every hand is tabled before the board runs
        out; :attr:`table.engine.Hand.hands_may_be_shown`). Before that they are refused: a
        face-up hole card is a peek, never part of the game's state. In five-card draw these
        are the five cards of the hand, jokers written ``"Jk"``, shown at the showdown only."""
        hand = self._open_hand()
        if not hand.hands_may_be_shown:
            raise SessionError(
                "hole cards are recorded only at the showdown, or at an all-in once betting is closed for the "
                "rest of the hand, when the players turn them"
            )
        if seat not in hand.in_hand or hand.folded[seat]:
            raise SessionError(f"{seat_word(seat)} has no live hand to show")
        try:
            # A draw hand's five cards may hold jokers, which only table.draw reads.
            new = cast(list[Card], parse_draw_cards(cards)) if isinstance(hand, DrawHand) else parse_cards(cards)
        except TocktableError as exc:
            raise SessionError(f"hole cards: {exc}") from None
        hand.deal_hole(seat, new)
        self._record("deal_hole", seat=seat, cards=[str(c) for c in new])

    def draw_cards(self, seat: int, count: int) -> None:
        """Five-card draw: the player at ``seat`` exchanges ``count`` cards (0: stands pat), in
        turn from the left of the dealer (see :meth:`table.engine.draw.DrawHand.draw`). Logged
        as ``{"op": "draw", "seat": ..., "count": ...}``."""
        hand = self._open_hand()
        if not isinstance(hand, DrawHand):
            raise SessionError(
                f"players draw cards only in five-card draw ({', '.join(DRAW_VARIANTS)}); "
                f"this game is {self.settings.variant!r}"
            )
        hand.draw(seat, count)
        self._record("draw", seat=seat, count=count)

    def mark(self, seat: int | None, index: int, mark: Mark | str) -> None:
        """A Tock mark read on a face-down card (hole card ``index`` of ``seat``, or board
        position ``index`` when ``seat`` is None)."""
        hand = self._open_hand()
        if not isinstance(mark, Mark):
            try:
                mark = Mark.parse(mark)
            except TocktableError as exc:
                raise SessionError(str(exc)) from None
        hand.mark(seat, index, mark)
        self._record("mark", seat=seat, index=index, mark=str(mark))

    def muck(self, seat: int) -> None:
        self._open_hand().muck(seat)
        self._record("muck", seat=seat)

    def settle(self) -> None:
        """Settle the showdown now; unshown hands count as mucked."""
        self._open_hand().settle()
        self._record("settle")

    def undo(self) -> None:
        """Take back the last player action of the current hand (and what followed it)."""
        self._open_hand().undo()
        self._record("undo")

    # ----------------------------------------------------------------- log and replay
    _OPS: ClassVar[dict[str, tuple[str, ...]]] = {
        "seat_player": ("seat", "name", "chips"),
        "leave": ("seat",),
        "sit_out": ("seat",),
        "sit_in": ("seat",),
        "rebuy": ("seat", "chips"),
        "draw_for_button": ("draws",),
        "set_button": ("seat",),
        "croupier_button": (),
        "start_clock": ("now",),
        "pause_clock": ("now",),
        "resume_clock": ("now",),
        "set_level": ("index", "now"),
        "start_hand": ("now",),
        "act": ("seat", "action", "amount"),
        "deal_board": ("cards",),
        "deal_hole": ("seat", "cards"),
        "draw": ("seat", "count"),
        "mark": ("seat", "index", "mark"),
        "muck": ("seat",),
        "settle": (),
        "undo": (),
    }
    _KEYWORD: ClassVar[frozenset[str]] = frozenset({"now"})
    _METHODS: ClassVar[dict[str, str]] = {"draw": "draw_cards"}
    """Logged names whose method is called otherwise (``draw`` is the draw for the button)."""

    def apply(self, command: Mapping[str, Any]) -> Any:
        """Run one command given as plain data (``{"op": "act", "seat": 2, "action": "call"}``),
        as found in :attr:`log`. Returns what the command's method returns."""
        if not isinstance(command, Mapping) or not isinstance(command.get("op"), str):
            raise SessionError(f"a command is a mapping with an 'op' name, got {command!r}")
        op = command["op"]
        names = self._OPS.get(op)
        if names is None:
            raise SessionError(f"unknown command {op!r}: allowed are {', '.join(self._OPS)}")
        extra = sorted(set(command) - {"op", *names})
        if extra:
            raise SessionError(f"command {op!r} takes {list(names)}, not {extra}")
        args = {name: command[name] for name in names if name in command}
        if op == "draw_for_button" and isinstance(args.get("draws"), Mapping):
            try:
                args["draws"] = {int(s): c for s, c in args["draws"].items()}
            except (TypeError, ValueError):
                raise SessionError(f"draws are {{seat: card}}, got {args['draws']!r}") from None
        positional = [args.pop(n) for n in names if n in args and n not in self._KEYWORD]
        try:
            return getattr(self, self._METHODS.get(op) or op)(*positional, **args)
        except TypeError as exc:
            raise SessionError(f"command {op!r} needs {list(names)}: {exc}") from None

    @classmethod
    def replay(
        cls,
        settings: SessionSettings,
        log: Iterable[Mapping[str, Any]],
        *,
        clock: Callable[[], float] | None = None,
    ) -> Session:
        """Rebuild a session from its settings and command log (times come from the log)."""
        session = cls(settings)
        for command in log:
            session.apply(command)
        session.clock = clock
        return session

    # ----------------------------------------------------------------- reading
    def stack(self, seat: int) -> int:
        """The chips in front of a seat right now (live during a hand)."""
        player = self._seat(seat)
        assert player is not None
        if self._in_current_hand(seat):
            assert self.hand is not None
            return self.hand.stacks[seat]
        return player.stack

    def ledger(self) -> list[LedgerLine]:
        """Bought in and cashed out per name (seated players: their chips now count as out)."""
        lines: dict[str, tuple[int, int]] = {}
        for line in self.departed:
            bought, out = lines.get(line.name, (0, 0))
            lines[line.name] = (bought + line.bought_in, out + line.cashed_out)
        for seat, player in sorted(self.players.items()):
            bought, out = lines.get(player.name, (0, 0))
            lines[player.name] = (bought + player.bought_in, out + self.stack(seat))
        return [LedgerLine(name, bought, out) for name, (bought, out) in lines.items()]

    def hand_histories(self, *, event: str | None = None) -> list[str]:
        """Every finished hand as PHH text, with the players' names and the hand numbers
        (join them with :func:`table.history.to_phhs` for one file)."""
        records = list(self.records)
        if self.hand is not None and self._hand_open and self.hand.is_complete:
            records.append(self._record_of(self.hand))
        texts = []
        for r in records:
            hand = self.hands[r.number - 1]
            if isinstance(hand, DrawHand):
                # PHH has a variant for deuce-to-seven single draw only; other draw hands are left out.
                text = draw_phh(hand, names=r.names, number=r.number, event=event)
                if text is not None:
                    texts.append(text)
            else:
                texts.append(to_phh(hand, names=r.names, number=r.number, event=event))
        return texts

    @property
    def last_record(self) -> HandRecord | None:
        """The results of the last finished hand (the current one once complete)."""
        if self.hand is not None and self._hand_open and self.hand.is_complete:
            return self._record_of(self.hand)
        return self.records[-1] if self.records else None

    def snapshot(self, *, now: float | None = None) -> dict[str, Any]:
        """The table as plain JSON-ready data for the dashboard. Hole cards appear only once
        shown, at the showdown or at an all-in; ``now`` (or the clock) gives the time left in
        the level."""
        hand = self.hand if self._hand_open else None
        return snapshot_of(self, now, hand=hand, dealt_in=len(self._dealt_in()))


__all__ = [
    "FIRST_DEALERS",
    "BlindLevel",
    "BlindStructure",
    "Command",
    "DrawOptions",
    "HandRecord",
    "LedgerLine",
    "Player",
    "Session",
    "SessionError",
    "SessionSettings",
]
