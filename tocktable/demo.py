"""The demo: a whole table on this machine with no Pi, no camera and no players.

A simulated dealer changes a :class:`hardware.table_model.TableModel` (the physical table: the
draw for the button, hole cards face down, the board turned street by street, hands shown at
the showdown or tabled at an all-in before the board runs out, folded hands mucked); the
camera watches it; simulated players press the console buttons on gpiozero mock pins; the
service runs the game, lights the mock LEDs and publishes snapshots to the dashboard.

``fast=True`` plays lock-step on a virtual clock: each change on the table is read by the camera
at once, every press is taken before the next, and nobody waits for the wall clock. A demo
started again on the same data directory resumes the stored game: the dealer lays the table
out again to match it (the same board and shown hands; hole cards consistent with the marks).

Five-card draw (``variant = "draw"`` or ``"lowball"``): the dealer deals five cards to each
seat; at the draw the simulated player throws the cards it does not want (the count is pressed
on the console: + per card, then CHECK/CALL) and the dealer replaces them from the stock. The
deck's jokers (``[draw] jokers``) are dealt like any card, the first printed in colour and the
second in black (:mod:`vision.render.joker_faces`); the camera reads either as ``"Jk"`` at the showdown,
and a hand it cannot read is entered by the host on the admin page, as at a real table. The
counts printed at the end say how many jokers the camera read.

The host may use the admin page while the demo plays (a correction, a rebuy, a player leaving, a
new game, the end of the session): the demo follows what the game shows. After a new game the
dealer gathers the table and starts again; a game the synthetic table cannot lay out (more seats
than it has, Tock on plain backs, five-card draw on seats made for two cards) is named once and
waited out until the host starts one it can. In the live demo a move that fails is reported and
the dealer starts the hand's table again, and the play stops only when the store stops saving.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TextIO

from hardware.pins import ConsoleButton, PinMap
from hardware.table_model import JOKERS as TABLE_JOKERS
from table.cards import Card
from table.steps import ChooseButton, Confirm, Correct, DealBoard, Rebuy, Show, Tick
from table.tock import mark_of
from table.wording import seat_word
from tocktable.camera import Watcher, view_signature
from tocktable.players import (
    STYLES,
    HostEntry,
    Patience,
    Style,
    cards_to_correct,
    cards_to_enter,
    choose_discards,
    decide,
    draw_strength,
)
from tocktable.service import NotSaving
from tocktable.store import StoreError
from tocktable.tap import tracks_of

NAMES = ("Ann", "Bob", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jade")
ALL_CARDS = tuple(str(Card.from_id(i)) for i in range(52))
JOKER = "Jk"

Move = Callable[[], object]


class DemoStuck(RuntimeError):
    """The demo found nothing to do for too long (a bug: the message says where it stood)."""


@dataclass(frozen=True)
class CardCounts:
    """Face-up cards the game took in one demo run, by who got them in."""

    camera: int
    """Read by the camera (and right)."""
    host: int
    """Entered by the host: the camera could not read them."""
    corrected: int
    """Read wrong by the camera, corrected by the host."""
    jokers: int = 0
    """Jokers among the cards read by the camera (five-card draw with jokers)."""
    jokers_by_host: int = 0
    """Jokers the host entered, or corrected a card the camera read into."""

    @property
    def camera_fraction(self) -> float:
        total = self.camera + self.host + self.corrected
        return self.camera / total if total else 1.0

    def line(self) -> str:
        return (
            f"Cards: {self.camera} read by the camera, {self.host} entered by the host, {self.corrected} "
            f"corrected by the host ({self.camera_fraction:.0%} read by the camera)."
            + (f" Jokers: {self.jokers} read by the camera, {self.jokers_by_host} entered or corrected by the host."
               if self.jokers or self.jokers_by_host else "")
            + "\n"
        )


class VirtualClock:
    """Seconds that pass only when told to (the fast demo's wall clock)."""

    def __init__(self, start: float | None = None) -> None:
        self._now = time.time() if start is None else start
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> None:
        with self._lock:
            self._now += seconds


@dataclass
class DealtHand:
    """What the dealer put on the table for one hand (the truth the tests compare against)."""

    number: int
    holes: dict[int, list[str]] = field(default_factory=dict)
    board: list[str] = field(default_factory=list)
    stock: list[str] = field(default_factory=list)
    """Five-card draw: the cards not dealt yet (a joker is ``"Jk"``)."""
    thrown: list[str] = field(default_factory=list)
    """Five-card draw: the discards (shuffled into a new stock if it runs out)."""
    discards: dict[int, list[str]] = field(default_factory=dict)
    """Five-card draw: the cards each player chose to throw (before the dealer serves them)."""
    served: set[int] = field(default_factory=set)
    """Five-card draw: seats whose draw the dealer has served."""


class Buttons:
    """Presses console buttons on mock pins (holds ALL-IN and UNDO for ``hold`` seconds).

    Between two presses it lets ``gap`` seconds pass (on ``clock`` when it is the demo's
    virtual clock, else really), or the console's debounce would take a second press of the
    same button (+ + + for three cards) for chatter."""

    def __init__(self, factory: Any, pins: PinMap, *, hold: float, gap: float = 0.06, clock: Any = None) -> None:
        self.factory, self.pins, self.hold = factory, pins, hold
        self.gap, self.clock = gap, clock
        self.pressed = 0

    def press(self, button: ConsoleButton) -> None:
        pin = self.factory.pin(self.pins.buttons[button])
        pin.drive_low()
        if button.needs_hold:
            time.sleep(self.hold + 0.03)
        pin.drive_high()
        self.pressed += 1
        if self.clock is not None and hasattr(self.clock, "advance"):
            self.clock.advance(self.gap)
        else:
            time.sleep(self.gap)


class DemoDealer:
    """The dealer's hands on the table model, driven by what the game shows."""

    def __init__(self, model: Any, rng: random.Random, *, camera: Callable[[], Any] = lambda: None) -> None:
        self.model = model
        self.rng = rng
        self.camera = camera
        """The camera's latest table view (None: not known)."""
        self.tock = getattr(model, "back", "plain") == "tock"
        self.dealt: DealtHand | None = None
        self.history: list[DealtHand] = []

    def start_again(self, *, tock: bool | None = None) -> None:
        """Gather every card and forget the hand dealt (a new game, or a table to lay out again)."""
        self.model.gather()
        self.dealt = None
        if tock is not None:
            self.tock = tock

    def next_move(self, snap: dict[str, Any]) -> Move | None:
        phase, state = snap["phase"], self.model.state()
        if phase == "seating":
            if state.cards:
                return None
            seats = [p["seat"] for p in snap["seats"] if p["name"] and p["stack"] > 0 and not p["sitting_out"]]
            if len(seats) < 2:
                return None  # nobody to draw for the button (the session ended): the host starts a game
            return lambda: self._draw(seats)
        if phase not in ("playing", "settled"):
            return None
        if self.dealt is None or self.dealt.number != snap["hand_number"]:
            if state.cards:
                return self._gather
            if self.camera_sees_cards():
                return None  # like a dealer shuffling: the camera sees the table empty before the deal
            return lambda: self.deal_hand(snap)
        if phase == "settled":
            return None
        for p in snap["seats"]:
            if p["folded"] and state.in_zone(p["seat"]):
                return partial(self.model.muck, p["seat"])
        if snap.get("draw_game"):
            return self._draw_move(snap, state)
        street = snap["street"]
        face_up = [c for c in state.in_zone("board") if c.face_up]
        if snap["hands_may_be_shown"]:  # the showdown, or an all-in: hands are tabled, then the board runs out
            show = self._unshown(snap, state)
            if show is not None:
                return show
        if snap["to_act"] is None and street in ("preflop", "flop", "turn"):
            target = {"preflop": 3, "flop": 4, "turn": 5}[street]
            if len(face_up) < target:
                return lambda: self._turn_board(len(face_up), target)
        return None

    def _unshown(self, snap: dict[str, Any], state: Any) -> Move | None:
        """Turn the next live hand still face down (at the showdown, or at an all-in)."""
        for p in snap["seats"]:
            cards = state.in_zone(p["seat"])
            if p["in_hand"] and not p["folded"] and not p["hole"] and cards and not all(c.face_up for c in cards):
                return partial(self.model.show, p["seat"])
        return None

    def _gather(self) -> None:
        self.model.gather()

    def camera_sees_cards(self) -> bool:
        view = self.camera()
        return view is not None and bool(view.board or any(view.seats.values()))

    def _draw(self, seats: list[int]) -> None:
        cards = self.rng.sample(ALL_CARDS, len(seats))
        for seat, card in zip(seats, cards, strict=True):
            self.model.deal_hole(seat, [card], face_up=True)

    def _turn_board(self, shown: int, target: int) -> None:
        assert self.dealt is not None
        for card in self.dealt.board[shown:target]:
            if self.tock:
                self.model.turn(card, face_up=True)
            else:
                self.model.deal_board([card], face_up=True)

    # ------------------------------------------------------------------ five-card draw
    def _draw_move(self, snap: dict[str, Any], state: Any) -> Move | None:
        """Serve each recorded draw; turn the hands still in at the showdown."""
        game = snap["draw_game"]
        assert self.dealt is not None
        for entry in game["draws"]:
            if entry["seat"] not in self.dealt.served:
                return partial(self._serve_draw, entry["seat"], entry["count"])
        if snap["street"] == "showdown":
            return self._unshown(snap, state)
        return None

    def _take(self, dealt: DealtHand) -> str:
        if not dealt.stock:  # the stock ran out: the discards are shuffled into a new one
            dealt.stock, dealt.thrown = dealt.thrown, []
            self.rng.shuffle(dealt.stock)
        return dealt.stock.pop()

    def _serve_draw(self, seat: int, count: int) -> None:
        """Take the player's discards and give as many cards from the stock."""
        dealt = self.dealt
        assert dealt is not None
        hole = dealt.holes[seat]
        chosen = [c for c in dealt.discards.pop(seat, []) if c in hole]
        thrown = (chosen + [c for c in hole if c not in chosen])[:count]
        for card in thrown:
            hole.remove(card)
            if card == JOKER:  # whichever of the deck's two lies in front of the player
                card = next(c.card for c in self.model.state().in_zone(seat) if c.card in TABLE_JOKERS)
            self.model.remove(card)
        new = [self._take(dealt) for _ in range(count)]
        dealt.thrown += thrown
        hole += new
        self.model.deal_hole(seat, self._on_table(new), face_up=False)
        dealt.served.add(seat)

    def _deal_draw_hand(self, snap: dict[str, Any]) -> DealtHand:
        game = snap["draw_game"]
        shown = {p["seat"]: list(p["hole"]) for p in snap["seats"] if p["hole"]}
        used = {c for cards in shown.values() for c in cards if c != JOKER}
        jokers = game["rules"]["jokers"] - sum(cards.count(JOKER) for cards in shown.values())
        stock = [c for c in ALL_CARDS if c not in used] + [JOKER] * jokers
        self.rng.shuffle(stock)
        dealt = DealtHand(snap["hand_number"], stock=stock)
        dealt.served = {entry["seat"] for entry in game["draws"]}  # drawn before a restart: dealt afresh
        for p in snap["seats"]:
            if p["in_hand"] and not p["folded"]:
                dealt.holes[p["seat"]] = shown.get(p["seat"]) or [self._take(dealt) for _ in range(5)]
        for seat, cards in dealt.holes.items():
            self.model.deal_hole(seat, self._on_table(cards), face_up=seat in shown)
        return dealt

    def _on_table(self, cards: list[str]) -> list[str]:
        """The table model's names of ``cards``: a joker is the first of the deck's two
        (:data:`hardware.table_model.JOKERS`) not on the table yet."""
        free = [j for j in TABLE_JOKERS if self.model.state().find(j) is None]
        return [free.pop(0) if card == JOKER else card for card in cards]

    def deal_hand(self, snap: dict[str, Any]) -> None:
        """Gather, shuffle and deal the hand the game is at, consistent with what it already
        knows (board, shown hands, Tock marks): a fresh hand, or a resumed one."""
        self.model.gather()
        if snap.get("draw_game"):
            self.dealt = self._deal_draw_hand(snap)
            self.history.append(self.dealt)
            return
        board_known = list(snap["board"])
        shown = {p["seat"]: list(p["hole"]) for p in snap["seats"] if p["hole"]}
        used = set(board_known) | {c for cards in shown.values() for c in cards}
        deck = [c for c in ALL_CARDS if c not in used]
        self.rng.shuffle(deck)

        def take(mark: str | None) -> str:
            card = next(c for c in deck if mark is None or str(mark_of(Card.parse(c))) == mark)
            deck.remove(card)
            return card

        dealt = DealtHand(snap["hand_number"])
        for p in snap["seats"]:
            if not p["in_hand"] or p["folded"]:
                continue
            marks = list(p.get("marks") or [None, None])
            dealt.holes[p["seat"]] = shown.get(p["seat"]) or [take(m) for m in [*marks, None, None][:2]]
        board_marks = list(snap.get("board_marks") or [None] * 5)
        dealt.board = board_known + [take(board_marks[i] if i < len(board_marks) else None)
                                     for i in range(len(board_known), 5)]  # fmt: skip
        for seat, cards in dealt.holes.items():
            self.model.deal_hole(seat, cards, face_up=seat in shown)
        if self.tock:
            self.model.deal_board(dealt.board, face_up=False)
            for card in board_known:
                self.model.turn(card, face_up=True)
        elif board_known:
            self.model.deal_board(board_known, face_up=True)
        self.dealt = dealt
        self.history.append(dealt)


class DemoPlayers:
    """Every seat's simulated player: decides from its own cards and presses the buttons."""

    def __init__(self, dealer: DemoDealer, buttons: Buttons, rng: random.Random) -> None:
        self.dealer, self.buttons, self.rng = dealer, buttons, rng
        self.styles: dict[int, Style] = {}

    def style(self, seat: int) -> Style:
        return self.styles.setdefault(seat, STYLES[seat % len(STYLES)])

    def next_move(self, snap: dict[str, Any]) -> Move | None:
        seat = snap["to_act"]
        dealt = self.dealer.dealt
        game = snap.get("draw_game")
        if game and seat is None and game["to_draw"] is not None and snap["phase"] == "playing":
            return self._draw(game, game["to_draw"])
        if snap["phase"] != "playing" or seat is None or dealt is None or dealt.number != snap["hand_number"]:
            return None
        player = snap["seats"][seat]
        hole = dealt.holes.get(seat, [])
        score = draw_strength(hole, game["rules"]) if game and len(hole) == 5 else None
        presses = decide(self.style(seat), hole, snap["board"], snap["legal_actions"],
                         bet=player["bet"], pot=snap["pot_total"], rng=self.rng, score=score)  # fmt: skip
        return self._pressing(presses)

    def _draw(self, game: dict[str, Any], seat: int) -> Move | None:
        """The seat to draw throws what it does not want: + once per card, then CHECK/CALL."""
        dealt = self.dealer.dealt
        if dealt is None or seat not in dealt.holes:
            return None
        throw = choose_discards(dealt.holes[seat], game["rules"])
        dealt.discards[seat] = throw
        return self._pressing([ConsoleButton.PLUS] * len(throw) + [ConsoleButton.CHECK_CALL])

    def _pressing(self, presses: list[ConsoleButton]) -> Move:
        def press() -> None:
            for button in presses:
                self.buttons.press(button)

        return press


class Demo:
    """The director: asks the dealer, then the players, for the next move, and (fast) feeds the
    camera after each change so the game sees the table at once."""

    def __init__(
        self, service: Any, model: Any, watcher: Watcher, buttons: Buttons, *, clock: VirtualClock | None,
        buy_in: int, seed: int | None = None, steady_frames: int = 1, out: TextIO | None = None,
    ) -> None:  # fmt: skip
        self.service, self.model, self.watcher, self.buttons = service, model, watcher, buttons
        self.clock = clock
        self.buy_in = buy_in
        self.rng = random.Random(seed)
        self.dealer = DemoDealer(model, random.Random(self.rng.random()), camera=lambda: service.view)
        self.players = DemoPlayers(self.dealer, buttons, random.Random(self.rng.random()))
        self.steady_frames = steady_frames
        self.max_frames = max(1, 4 * steady_frames)
        self.out = out
        self._frame = 0
        self._signature: Any = None
        self._steady_version: int | None = None
        self.snapshots: list[dict[str, Any]] = []
        """Every settled hand's last snapshot before the next hand, as published (fast mode)."""
        self.lights: Any = None
        self.factory: Any = None
        self.tap: Any = None
        """A :class:`tocktable.tap.CameraTap`: every filmed frame goes to the host's camera page."""
        self.app: Any = None
        """The dashboard's Flask app (None without ``web``)."""
        self.rig: Any = None
        """The live camera's :class:`hardware.camera_rig.CameraRig` (the set-up page moves it)."""
        self.aim: Any = None
        """The set-up page's :class:`tocktable.aim.AimCheck`."""
        self.dry_run: Any = None
        """The set-up page's :class:`tocktable.dry_run.DryRun`."""
        self.zones: Any = None
        """The :class:`tocktable.table_zones.ZoneKeeper` (zones drawn on the set-up page)."""
        self.patience = Patience(2.5)
        self.teacher: Any = None
        """The set-up page's :class:`tocktable.deck_teacher.DeckTeacher`."""
        self._lent = threading.Event()
        self._paused = threading.Event()
        self._live = False
        self.entered = 0
        """Cards the host entered because the camera could not read them."""
        self.corrected = 0
        """Cards the camera read wrong and the host corrected."""
        self.host_cards: list[tuple[int, int]] = []
        """(hand number, cards) of each entry or correction of the host (:meth:`learning_line`)."""
        self.jokers_entered = 0
        """Jokers the host entered because the camera could not read them."""
        self.jokers_corrected = 0
        """Cards the camera read as another card that the host corrected into a joker."""
        self.jokers_miscalled = 0
        """Cards the camera read as a joker that the host corrected into another card."""
        self.counts: CardCounts | None = None
        """The cards counted at the end of the last run (:meth:`count_cards`)."""
        self.played = 0
        """Hands finished since this demo started, in every game the host started."""
        self.failures = 0
        """Moves of the live demo that failed (each reported; the table was laid out again)."""
        stored = service.store.commands(service.session_id)
        self._first_seq = stored[-1].seq if stored else 0
        first = service.snapshot().to_dict()
        self._session = first["session"]
        self._last_number = _last_number(first)
        self._first_number = self._last_number
        self._unplayable: str | None = self._cannot_deal(first)

    @property
    def hands_done(self) -> int:
        """Hands finished in the session being played."""
        return len(self.service.game.session.records)

    # ------------------------------------------------------------------ following the host
    def _follow(self, snap: dict[str, Any]) -> None:
        """Count and report the hands finished since the last look; notice a new game."""
        if snap["session"] != self._session:
            self._session = snap["session"]
            self._last_number = _last_number(snap)
            self.dealer.start_again(tock=snap["variant"] == "tock")
            self.patience = Patience(2.5)
            self._unplayable = self._cannot_deal(snap)
            self._say(f"new game (session {self._session}, {snap['variant']}, {len(snap['seats'])} seats)"
                      + (f": {self._unplayable}" if self._unplayable else ""))  # fmt: skip
            return
        number = _last_number(snap)
        if number > self._last_number:
            self.played += number - self._last_number
            self._last_number = number
            if self.out is not None and snap["last_hand"]["number"] == number:
                self._report_hand(snap["last_hand"])

    def _cannot_deal(self, snap: dict[str, Any]) -> str | None:
        """Why the synthetic table cannot lay out this game (None: it can)."""
        seats, variant = len(snap["seats"]), snap["variant"]
        if seats > self.model.seats:
            return (f"the synthetic table has {self.model.seats} seats and cannot deal {seats}: the demo waits for a "
                    f"game of {self.model.seats} seats or fewer")  # fmt: skip
        if variant == "tock" and getattr(self.model, "back", "plain") != "tock":
            return "Tock needs marked backs, and this table's cards have plain ones: start the demo with --variant tock"
        if variant in ("draw", "lowball") and self.model.layout.hole_cards < 5:
            return (f"{variant} deals five cards a seat, and this table's seats hold two: start the demo with "
                    f"--variant {variant}")  # fmt: skip
        return None

    def _host(self, snap: dict[str, Any]) -> Move | None:
        """The host's part: deal the next hand when the table waits between hands, rebuy a
        busted player during a hand they are not in (a settled hand is left for the clock, unless
        one player holds every chip and nothing could be dealt), and
        enter on the admin page the cards the camera read wrong (at once) or could not read (after
        a while: :class:`tocktable.players.Patience`)."""
        busted = [p["seat"] for p in snap["seats"] if p["name"] and p["stack"] == 0 and not p["sitting_out"]]
        with_chips = [p for p in snap["seats"] if p["name"] and p["stack"] > 0 and not p["sitting_out"]]
        if snap["phase"] in ("settled", "ready") and busted and len(with_chips) < 2:
            # One player holds every chip: no hand can be dealt until a busted player buys in
            # again (a rebuy closes the settled hand), so the clock alone would wait forever.
            return partial(self._call, Rebuy(busted[0], self.buy_in))
        if snap["phase"] == "ready":
            return partial(self._call, Confirm())
        if snap["phase"] == "playing":
            for p in snap["seats"]:
                if p["name"] and p["stack"] == 0 and not p["in_hand"] and not p["sitting_out"]:
                    return partial(self._call, Rebuy(p["seat"], self.buy_in))
        dealt = self.dealer.dealt
        holes: dict[int, list[str]] = {}
        board: list[str] = []
        if dealt is not None and dealt.number == snap["hand_number"]:
            holes, board = dealt.holes, dealt.board
        elif snap["phase"] != "seating":
            return None
        wrong = cards_to_correct(snap, holes=holes, board=board)
        if wrong:
            return partial(self._enter, wrong[0])
        now = self.clock() if self.clock is not None else time.monotonic()
        entry = self.patience.due(cards_to_enter(snap, self.model.state(), holes=holes, board=board), now)
        return partial(self._enter, entry) if entry is not None else None

    def _enter(self, entry: HostEntry) -> None:
        """Send the host's entry through the admin page's step; count and log it."""
        step: Any
        if entry.kind == "correct":
            step = Correct(entry.seat, entry.index, entry.cards[0])
        elif entry.kind == "show":
            assert entry.seat is not None
            step = Show(entry.seat, entry.cards)
        elif entry.kind == "deal_board":
            step = DealBoard(entry.cards)
        else:
            step = ChooseButton(draws=dict(entry.draws))
        unread = [c for c in entry.cards if c not in self._camera_read(entry)]
        if not self._call(step):
            return
        where = (
            "on the board"
            if entry.seat is None and entry.kind != "choose_button"
            else ("for the draw for the button" if entry.kind == "choose_button" else f"for {seat_word(entry.seat)}")
        )
        number = int(self.service.snapshot().to_dict()["hand_number"])
        if entry.kind == "correct":
            self.corrected += 1
            self.host_cards.append((number, 1))
            self.jokers_corrected += entry.cards[0] == JOKER
            self.jokers_miscalled += entry.was == JOKER
            place = (
                f"board card {entry.index + 1}"
                if entry.seat is None
                else f"{seat_word(entry.seat)}'s card {entry.index + 1}"
            )
            self._say(f"host corrected {place} to {entry.cards[0]}: the camera read it as {entry.was}")
        else:
            self.entered += len(unread)
            if unread:
                self.host_cards.append((number, len(unread)))
            self.jokers_entered += unread.count(JOKER)
            them = "it" if len(unread or entry.cards) == 1 else "them"
            if unread:
                self._say(f"host entered {' '.join(unread)} {where}: the camera could not read {them}")
            else:  # the game takes the board only up to its first unread card, so a later one waits
                self._say(f"host entered {' '.join(entry.cards)} {where}: the camera read {them}, the game "
                          f"could not take {them} yet")  # fmt: skip

    def learning_line(self, window: int = 20) -> str:
        """The host's corrections and entries in the first ``window`` hands of this run against
        its last ``window`` (fewer when fewer hands were played): with a deck the models never saw,
        the reader learns from them (:mod:`tocktable.teaching`), so the last need fewer."""
        first, last = self._first_number + 1, self._last_number
        size = min(window, (last - first + 1) // 2)
        if size < 1:
            return ""
        early = sum(k for n, k in self.host_cards if n < first + size)  # the draw for the button too
        late = sum(k for n, k in self.host_cards if last - size < n <= last)
        return (f"Host corrections (cards corrected or entered): {early} in the first {size} hands, {late} in the "
                f"last {size}.\n")  # fmt: skip

    def _camera_read(self, entry: HostEntry) -> set[str]:
        """The cards the camera's latest view reads where the entry's cards lie."""
        view = self.service.view
        if view is None:
            return set()
        if entry.kind == "deal_board":  # the game takes the board only up to the first unread card
            return {str(c.card) for c in view.board if c.face_up and c.card}
        seats = [s for s, _ in entry.draws] if entry.kind == "choose_button" else [entry.seat]
        return {str(c.card) for s in seats if s is not None for c in view.seat_cards(s) if c.face_up and c.card}

    def _say(self, line: str) -> None:
        if self.out is not None:
            self.out.write(f"  {line}\n")
            self.out.flush()

    def count_cards(self) -> CardCounts:
        """Face-up cards the game took in this run, read by the camera or entered by the host
        (also kept in :attr:`counts` at the end of each run)."""
        applied = jokers = 0
        for command in self.service.store.commands(self.service.session_id):
            if command.seq <= self._first_seq:
                continue
            step = command.payload.get("step") or {}
            if command.kind in ("deal_board", "show"):
                applied += len(step.get("cards") or ())
                jokers += list(step.get("cards") or ()).count(JOKER)
            elif command.kind == "choose_button":
                applied += len(step.get("draws") or {})
        return CardCounts(camera=max(0, applied - self.entered - self.corrected), host=self.entered,
                          corrected=self.corrected, jokers_by_host=self.jokers_entered + self.jokers_corrected,
                          jokers=max(0, jokers - self.jokers_entered - self.jokers_miscalled))  # fmt: skip

    def _call(self, item: Any) -> bool:
        try:
            self.service.call(item)
        except StoreError:  # not saving: the service says so, and the command running the demo stops
            return False
        except Exception as exc:  # the demo host's command was refused: show it, play on
            if self.out is not None:
                self.out.write(f"  (demo: {type(item).__name__} refused: {exc})\n")
            return False
        return True

    def next_move(self) -> Move | None:
        snap = self.service.snapshot().to_dict()
        self._follow(snap)
        if self._unplayable is not None or snap["session"] != self._session:
            return None
        return self.dealer.next_move(snap) or self._host(snap) or self.players.next_move(snap)

    def _check_saving(self) -> None:
        fault = self.service.fault
        if fault is not None:
            raise fault

    def feed_camera(self) -> None:
        """Film the table until the camera's view is steady (the tracker wants a card read the
        same way over several frames), then hand a changed view to the service. A table that has
        not changed since the view was last steady is filmed once only (the tracker still counts the
        frame): this keeps the fast demo through the real reader quick."""
        version = self.model.state().version
        frames = 1 if version == self._steady_version else self.max_frames
        view, steady, last = None, 0, None
        for _ in range(frames):
            self._frame += 1
            image = self.model.frame() if self.watcher.needs_image else None
            stamp = self.clock() if self.clock is not None else time.monotonic()
            view = self.watcher.watch(image, index=self._frame, timestamp=stamp)
            if self.tap is not None:
                self.tap.record(image, index=self._frame, timestamp=stamp, view=view, tracks=tracks_of(self.watcher))
            signature = view_signature(view)
            steady = steady + 1 if signature == last else 1
            last = signature
            if steady >= self.steady_frames:
                break
        if frames > 1:
            self._steady_version = version if steady >= self.steady_frames else None
        if view is not None and last != self._signature:
            self._signature = last
            self.service.call(view)

    def run_fast(self, hands: int, *, confirm_seconds: float) -> None:
        """Play until ``hands`` more hands are confirmed, lock-step, on the virtual clock
        (:class:`tocktable.service.NotSaving` as soon as the store stops keeping the game)."""
        assert self.clock is not None
        self._follow(self.service.snapshot().to_dict())
        goal = self.played + hands
        idle = 0
        self.feed_camera()
        while self.played < goal:
            self._check_saving()
            move = self.next_move()
            if move is None:
                idle += 1
                if idle > 50:
                    self._check_saving()
                    raise DemoStuck(f"nothing happens: {self._unplayable or self.service.game.describe_phase()}")
                self.clock.advance(confirm_seconds / 4)
                self.service.call(Tick())
            else:
                idle = 0
                move()
                self.service.sync()
                self.clock.advance(0.6)
            self.feed_camera()
            snap = self.service.snapshot().to_dict()
            if snap["phase"] == "settled":  # the latest: the host may correct a card after the settle
                if self.snapshots and self.snapshots[-1]["hand_number"] == snap["hand_number"]:
                    self.snapshots[-1] = snap
                else:
                    self.snapshots.append(snap)
            self._follow(snap)
        self._check_saving()
        self.counts = self.count_cards()
        if self.out is not None:
            self.out.write(self.counts.line() + self.learning_line())

    def run_live(self, stop: threading.Event, *, pace: float = 1.0) -> None:
        """Play in real time until ``stop`` is set or the store stops saving (the camera runs on
        its own thread; the host may use the admin page meanwhile)."""
        self._follow(self.service.snapshot().to_dict())
        self._live = True
        try:
            self._play_live(stop, pace)
        finally:
            self._live = False
            self._paused.set()

    def _play_live(self, stop: threading.Event, pace: float) -> None:
        while not stop.is_set() and self.service.fault is None:
            if self._lent.is_set():  # the set-up page teaches the deck on the table: nobody plays
                self._paused.set()
                stop.wait(0.1)
                continue
            self._paused.clear()
            move = self.next_move()  # reports the hands settled meanwhile (by the camera or the clock too)
            if move is None:
                stop.wait(0.1)
                continue
            try:
                move()
                self.service.sync()
            except NotSaving:
                break
            except Exception as exc:  # the host changed the game under the move: lay the table out again
                if stop.is_set() or self.service.fault is not None:
                    break  # the demo is closing under the move (its console, its service): nothing to report
                self.failures += 1
                self._say(f"(demo: a move failed: {type(exc).__name__}: {exc}; the dealer lays the table out again)")
                self.dealer.start_again()
                continue
            stop.wait(pace)
        if self.service.fault is not None:
            return
        self.counts = self.count_cards()
        if self.out is not None:
            self.out.write(self.counts.line() + self.learning_line())

    # ------------------------------------------------------------------ lending the table
    def lend_table(self) -> None:
        """The players stop (once the move under way is done): the table is the set-up page's."""
        self._paused.clear()
        self._lent.set()
        if self._live:
            self._paused.wait(timeout=5)

    def give_table_back(self) -> None:
        """The players play on; the dealer lays the hand the game is at out afresh."""
        self.dealer.start_again()
        self._lent.clear()

    def _report_hand(self, record: dict[str, Any] | None) -> None:
        """One line for a finished hand (from the published snapshot: safe on any thread)."""
        if self.out is None or record is None:
            return
        winners = "; ".join(f"{w['name']} wins {w['amount']} ({w['hand']})"
                            for pot in record["pots"] for w in pot["winners"])  # fmt: skip
        if "draws" in record:
            drew = ", ".join(f"{d['name']} {d['count'] or 'pat'}" for d in record["draws"])
            self.out.write(f"hand {record['number']:3d}: {winners}  [draws: {drew or 'none'}]\n")
        else:
            board = " ".join(record["board"]) or "-"
            self.out.write(f"hand {record['number']:3d}: {winners}  [board {board}]\n")
        self.out.flush()


class TeachingHands:
    """The demo's hands for the set-up page's deck teaching (:class:`tocktable.deck_teacher.TableHands`):
    the cards asked for are laid face up in the middle of the synthetic table, in rows."""

    def __init__(self, demo: Demo) -> None:
        self.demo = demo

    def lend(self) -> None:
        self.demo.lend_table()

    def give_back(self) -> None:
        self.demo.model.gather()
        self.demo.give_table_back()

    def lay(self, cards: Sequence[str]) -> None:
        model = self.demo.model
        model.gather()
        count = len(cards)
        rows = 1 if count <= 6 else 2
        per_row = -(-count // rows)
        width = model.card_height * model.size[1] * 63 / 88 / model.size[0]
        step = min(1.45 * width, 0.8 / max(per_row, 1))
        for k, card in enumerate(cards):
            row, col = divmod(k, per_row)
            in_row = min(per_row, count - row * per_row)
            x = 0.5 + (col - (in_row - 1) / 2) * step
            y = 0.5 if rows == 1 else 0.5 + (row - 0.5) * 1.15 * model.card_height
            model.deal(card, at=(x, y), face_up=True)


def _last_number(snap: dict[str, Any]) -> int:
    """The number of the last hand confirmed in a snapshot's session (0 before the first): a settled
    hand is not, until it is confirmed (the host may still correct a card)."""
    last = snap.get("last_hand")
    number = int(last["number"]) if last else 0
    return number - 1 if snap["phase"] == "settled" and number else number
