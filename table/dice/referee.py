"""Settling a poker dice game: challenges, the Tour de Poker, the loss tally, and a referee.

"Ne pas croire": the cup is lifted and the announcement was a lie only if the dice show less
than announced ("annoncer en-dessous n'est pas mentir"). The liar loses; otherwise the one who
lifted the cup does.

>>> result = challenge(Announcement.parse("Brelan de Dames à l'As"), Roll.parse("D D D K N"))
>>> result.lie, result.loser.value, result.actual.french
(True, 'announcer', 'Brelan de Dames au Roi')
>>> bool(challenge(Announcement.parse("Paire de Noirs"), Roll.parse("A A K K N")))
False
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from table.dice.announce import Announcement, Visible, highest, lowest, next_above
from table.dice.combination import Category, Combination
from table.dice.errors import DiceError, IllegalTurnError, RollError, ThrowError
from table.dice.faces import Face, normalize_word
from table.dice.roll import Roll
from table.phrases import N_, NP_, Number, Phrase, Verbatim, Word, given

TOUR_DE_POKER_THROWS = 5
DICE = 5
"""The five dice, numbered 0 to 4 by the referee (any fixed order the table agrees on)."""


class Side(Enum):
    """Who loses a challenge."""

    ANNOUNCER = "announcer"
    CHALLENGER = "challenger"


@dataclass(frozen=True)
class ChallengeResult:
    """The outcome of lifting the cup. Truthy when the announcement was a lie."""

    announced: Combination
    roll: Roll
    actual: Combination
    lie: bool
    loser: Side

    def __bool__(self) -> bool:
        return self.lie


def challenge(announcement: Combination | str, roll: Roll | str) -> ChallengeResult:
    """Settle "ne pas croire": a lie only if ``roll`` is worth less than ``announcement``."""
    announced = Announcement.parse(announcement) if isinstance(announcement, str) else announcement
    dice = Roll.parse(roll) if isinstance(roll, str) else roll
    actual = dice.combination()
    lie = actual < announced
    return ChallengeResult(announced, dice, actual, lie, Side.ANNOUNCER if lie else Side.CHALLENGER)


def tour_de_poker_throws(received: Combination, *, aces_accepted_before: int = 0) -> int:
    """How many throws a player who believes the Poker ``received`` has in a Tour de Poker.

    Five, except along a chain of Poker d'As: the first player of the game to accept one has 5
    throws to re-announce it, the next 4, then 3, 2, 1 (``aces_accepted_before`` counts the
    players who already accepted a Poker d'As this game). After the one-throw Poker d'As, the
    only move is to not believe it.
    """
    if received.category is not Category.POKER:
        raise IllegalTurnError(N_("a Tour de Poker follows a Poker only, not {french}"), french=given(received.french))
    if aces_accepted_before < 0:
        raise IllegalTurnError(
            N_("aces_accepted_before counts players, so it is 0 or more, got {aces_accepted_before}"),
            aces_accepted_before=Number(aces_accepted_before),
        )
    if received != highest():
        return TOUR_DE_POKER_THROWS
    throws = TOUR_DE_POKER_THROWS - aces_accepted_before
    if throws < 1:
        raise IllegalTurnError(
            N_(
                "{aces_accepted_before} players already accepted a Poker d'As: the Poker d'As in one throw cannot be "
                "believed, it must be challenged"
            ),
            aces_accepted_before=Number(aces_accepted_before),
        )
    return throws


def roll_off(dice: Mapping[str, Face | str]) -> tuple[str, ...]:
    """Who starts the first game: each player throws one die, the lowest starts. Returns the
    players with the lowest face (several on a tie: they throw again, among themselves)."""
    if not dice:
        raise RollError(N_("a roll-off needs one die per player, got none"))
    faces = {name: f if isinstance(f, Face) else Face.parse(f) for name, f in dice.items()}
    low = min(faces.values())
    return tuple(name for name, face in faces.items() if face == low)


_DIRECTIONS = {"left": NP_("direction", "left"), "right": NP_("direction", "right")}


class Direction(Enum):
    """Where the cup goes. Players are listed in seating order going to each one's left."""

    LEFT = "left"
    RIGHT = "right"

    @property
    def step(self) -> int:
        """+1 along the list of players for LEFT, -1 for RIGHT."""
        return 1 if self is Direction.LEFT else -1

    @classmethod
    def parse(cls, text: str) -> Direction:
        """``"left"``/``"gauche"`` or ``"right"``/``"droite"``."""
        word = normalize_word(text.strip())
        if word in ("left", "gauche", "g", "l"):
            return cls.LEFT
        if word in ("right", "droite", "d", "r"):
            return cls.RIGHT
        raise IllegalTurnError(
            N_("unknown direction {text}: expected 'left'/'gauche' or 'right'/'droite'"), text=given(text)
        )


@dataclass(frozen=True)
class Throw:
    """Dice thrown at once by one player: ``dice`` are die numbers (0-4), thrown on the table
    (seen by all) or under the cup (hidden)."""

    player: str
    dice: tuple[int, ...]
    under_cup: bool


@dataclass(frozen=True)
class ThrowingPhase:
    """What the player holding the cup did before announcing: whether they looked under the
    cup, the throws in order, and the dice they showed (took out from under the cup)."""

    player: str
    looked: bool = False
    throws: tuple[Throw, ...] = ()
    shown: tuple[int, ...] = ()
    tour_de_poker: bool = False

    @property
    def thrown(self) -> frozenset[int]:
        """Every die thrown in this phase."""
        return frozenset(d for throw in self.throws for d in throw.dice)


@dataclass(frozen=True)
class Turn:
    """One announcement of the current game (with its throwing phase when throws are tracked)."""

    player: str
    announcement: Announcement
    tour_de_poker_throws: int | None = None
    phase: ThrowingPhase | None = None


@dataclass(frozen=True)
class ChallengeOutcome:
    """A settled game: who lifted the cup on whom, what the dice showed, who lost."""

    game: int
    challenger: str
    announcer: str
    result: ChallengeResult
    loser: str


@dataclass(frozen=True)
class _State:
    game: int
    holder: int  # the player who must act: announce, or (once announced to) believe or challenge
    direction: Direction | None
    current: Announcement | None
    announcer: int | None
    aces_accepted: int
    history: tuple[Turn, ...]
    points: tuple[int, ...]
    last_challenge: ChallengeOutcome | None
    hidden: frozenset[int] = frozenset()
    """Dice under the cup (when throws are tracked); the others in play lie on the table."""
    phase: ThrowingPhase | None = field(default=None)
    """The throwing phase of the player to act, once they looked, showed or threw."""


class DiceReferee:
    """Referee of a series of poker dice games at one table.

    A game starts with no announcement: the player to act (the loser of the previous game, or
    ``first``) announces, choosing the direction for the whole game. Each next player either
    announces higher (``announce``) or lifts the cup (``challenge``), which ends the game, scores
    a point to the loser (lowest total wins the series) and starts the next game with the loser.
    Every method that changes the state checks first and leaves it unchanged on error;
    ``undo`` takes back the last move.

    With ``track_throws=True`` the referee is also told of each throwing phase (:meth:`look`,
    :meth:`show`, :meth:`throw`, :meth:`start_tour_de_poker`) and holds the player to the
    text's rules, refusing with :class:`~table.dice.errors.ThrowError`: the first turn of a
    game throws all five dice; a die already thrown in the phase is not thrown again; looking
    under the cup commits to believing, and at least one die is then thrown before announcing
    (so no looking without throwing); a throw under the cup holds only the dice thrown, the
    other dice under it being shown first. Without it (the default) only announcements and
    challenges are judged.
    """

    def __init__(self, players: Sequence[str], *, first: str | None = None, track_throws: bool = False) -> None:
        names = [str(p).strip() for p in players]
        if len(names) < 2:
            raise IllegalTurnError(N_("poker dice needs at least 2 players, got {n_names}"), n_names=Number(len(names)))
        if any(not n for n in names) or len(set(names)) != len(names):
            raise IllegalTurnError(N_("player names must be non-empty and distinct, got {names}"), names=given(names))
        self._players = tuple(names)
        self.track_throws = track_throws
        start = 0 if first is None else self._index(first)
        self._states = [
            _State(
                game=1, holder=start, direction=None, current=None, announcer=None, aces_accepted=0,
                history=(), points=(0,) * len(names), last_challenge=None,
            )
        ]  # fmt: skip

    # --- reading the state -----------------------------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        """The players in seating order (going left)."""
        return self._players

    @property
    def game(self) -> int:
        """The number of the game in progress, from 1."""
        return self._state.game

    @property
    def to_act(self) -> str:
        """The player who must act now."""
        return self._players[self._state.holder]

    @property
    def current(self) -> Announcement | None:
        """The announcement the player to act received (``None`` at the start of a game)."""
        return self._state.current

    @property
    def announcer(self) -> str | None:
        """Who made the current announcement."""
        index = self._state.announcer
        return None if index is None else self._players[index]

    @property
    def direction(self) -> Direction | None:
        """The direction of this game, once the first announcement chose it."""
        return self._state.direction

    @property
    def history(self) -> tuple[Turn, ...]:
        """The announcements of the game in progress, in order."""
        return self._state.history

    @property
    def last_challenge(self) -> ChallengeOutcome | None:
        """How the previous game ended."""
        return self._state.last_challenge

    @property
    def points(self) -> dict[str, int]:
        """Lost games per player (a point per loss)."""
        return dict(zip(self._players, self._state.points, strict=True))

    def standings(self) -> list[tuple[str, int]]:
        """Players from fewest points (winning) to most (losing the series); ties keep seat order."""
        return sorted(self.points.items(), key=lambda item: item[1])

    @property
    def must_challenge(self) -> bool:
        """True after the Poker d'As in one throw: it cannot be believed."""
        state = self._state
        return state.current == highest() and state.aces_accepted >= TOUR_DE_POKER_THROWS

    def tour_de_poker_throws(self) -> int | None:
        """Throws the player to act would have in a Tour de Poker, or ``None`` if it is not allowed."""
        current = self._state.current
        if current is None or current.category is not Category.POKER or self.must_challenge:
            return None
        return tour_de_poker_throws(current, aces_accepted_before=self._state.aces_accepted)

    def legal_next(self) -> Announcement | None:
        """The lowest announcement the player to act may make ("Supérieur"), ``None`` if they must
        challenge."""
        current = self._state.current
        if self.must_challenge:
            return None
        if current is None:
            return lowest()
        if current == highest():
            return highest()  # only by a Tour de Poker, re-announcing it
        return next_above(current)

    # --- moves -----------------------------------------------------------------------------

    def verify_announce(
        self,
        announcement: Announcement | str,
        *,
        direction: Direction | str | None = None,
        visible: Visible | None = None,
        tour_de_poker: bool = False,
    ) -> Announcement:
        """Check that the player to act may make ``announcement`` now; return it as read.

        Raises :class:`~table.dice.errors.IllegalTurnError` (or ``AnnouncementError`` for text
        that cannot be read) saying why not and what is allowed.
        """
        state = self._state
        current = state.current
        if self.must_challenge:
            raise IllegalTurnError(
                N_("{to_act} received the Poker d'As in one throw: it cannot be believed, only challenged"),
                to_act=Verbatim(self.to_act),
            )
        said = (
            Announcement.parse(announcement, previous=current, visible=visible)
            if isinstance(announcement, str)
            else Announcement.of(announcement)
        )
        self._checked_direction(direction)
        if self.track_throws:
            self._check_phase_before_announcing(tour_de_poker)
        if current is None:
            if tour_de_poker:
                raise IllegalTurnError(N_("a Tour de Poker follows a Poker received; the game has just started"))
            return said
        if current == highest():
            if said != current:
                raise IllegalTurnError(
                    N_(
                        "after a Poker d'As the only announcement is the Poker d'As again, by a Tour de Poker "
                        "({tour_de_poker_throws} throws); {french} is not allowed, or challenge it"
                    ),
                    tour_de_poker_throws=Number(self.tour_de_poker_throws() or 0),
                    french=given(said.french),
                )
            return said
        if tour_de_poker and current.category is not Category.POKER:
            raise IllegalTurnError(
                N_("a Tour de Poker follows a Poker only, not {french}"), french=given(current.french)
            )
        if said <= current:
            above = next_above(current)
            assert above is not None  # current is below the Poker d'As here
            raise IllegalTurnError(
                N_(
                    "{said} does not beat {received}: an announcement must be higher than the one received; the "
                    "lowest legal one is {lowest} ('Supérieur')"
                ),
                said=given(said.french),
                received=given(current.french),
                lowest=given(above.french),
            )
        return said

    def can_announce(
        self,
        announcement: Announcement | str,
        *,
        direction: Direction | str | None = None,
        visible: Visible | None = None,
        tour_de_poker: bool = False,
    ) -> bool:
        """Whether :meth:`announce` would accept this move."""
        try:
            self.verify_announce(announcement, direction=direction, visible=visible, tour_de_poker=tour_de_poker)
        except DiceError:
            return False
        return True

    def announce(
        self,
        announcement: Announcement | str,
        *,
        direction: Direction | str | None = None,
        visible: Visible | None = None,
        tour_de_poker: bool = False,
    ) -> Announcement:
        """The player to act announces to the next player (believing what they received, if anything).

        ``direction`` is chosen with the first announcement of a game (needed with 3 players or
        more) and holds until someone loses; ``visible`` are the dice showing on the table (for
        Petit/Grand Full); ``tour_de_poker`` marks a Tour de Poker (implied after a Poker d'As).
        """
        said = self.verify_announce(announcement, direction=direction, visible=visible, tour_de_poker=tour_de_poker)
        state = self._state
        chosen = state.direction or self._checked_direction(direction) or Direction.LEFT
        throws: int | None = None
        aces = state.aces_accepted
        if state.current is not None and (tour_de_poker or state.current == highest()):
            throws = tour_de_poker_throws(state.current, aces_accepted_before=aces)
            if state.current == highest():
                aces += 1
        turn = Turn(self._players[state.holder], said, throws, state.phase)
        self._states.append(
            replace(
                state,
                holder=(state.holder + chosen.step) % len(self._players),
                direction=chosen,
                current=said,
                announcer=state.holder,
                aces_accepted=aces,
                history=(*state.history, turn),
                phase=None,
            )
        )
        return said

    def challenge(self, roll: Roll | str) -> ChallengeOutcome:
        """The player to act does not believe: the cup is lifted on ``roll``. Ends the game; the loser
        scores a point and starts the next game."""
        state = self._state
        dice = Roll.parse(roll) if isinstance(roll, str) else roll
        if state.current is None or state.announcer is None:
            raise IllegalTurnError(
                N_("nothing to challenge: {to_act} must announce first"), to_act=Verbatim(self.to_act)
            )
        if state.phase is not None and (state.phase.looked or state.phase.throws):
            raise ThrowError(
                N_(
                    "{to_act} looked under the cup or threw: that is believing the announcement, so the turn ends "
                    "with a higher announcement, not a challenge"
                ),
                to_act=Verbatim(self.to_act),
            )
        result = challenge(state.current, dice)
        loser = state.announcer if result.lie else state.holder
        outcome = ChallengeOutcome(
            game=state.game,
            challenger=self._players[state.holder],
            announcer=self._players[state.announcer],
            result=result,
            loser=self._players[loser],
        )
        points = list(state.points)
        points[loser] += 1
        self._states.append(
            _State(
                game=state.game + 1, holder=loser, direction=None, current=None, announcer=None, aces_accepted=0,
                history=(), points=tuple(points), last_challenge=outcome,
            )
        )  # fmt: skip
        return outcome

    # --- the throwing phase (track_throws=True) -----------------------------------------------

    @property
    def hidden(self) -> frozenset[int]:
        """The dice under the cup (tracked throws)."""
        return self._state.hidden

    @property
    def phase(self) -> ThrowingPhase | None:
        """The throwing phase of the player to act so far (None before they look, show or throw)."""
        return self._state.phase

    def look(self) -> None:
        """The player to act looks secretly under the cup they received: they believe the
        announcement, and must now throw at least one die before announcing higher."""
        state = self._tracked(Word(N_("look under the cup")))
        if state.current is None:
            raise ThrowError(
                N_("{to_act} opens the game: there is nothing under the cup yet, throw all five dice"),
                to_act=Verbatim(self.to_act),
            )
        phase = self._phase(state)
        if phase.looked:
            raise ThrowError(N_("{to_act} already looked under the cup"), to_act=Verbatim(self.to_act))
        if phase.throws:
            raise ThrowError(
                N_("{to_act} looks under the cup on receiving it, before throwing"), to_act=Verbatim(self.to_act)
            )
        self._states.append(replace(state, phase=replace(phase, looked=True)))

    def show(self, dice: Iterable[int]) -> None:
        """The player to act takes ``dice`` out from under the cup and shows them (this is
        looking too). Dice kept out of a throw under the cup must be shown this way first."""
        state = self._tracked(Word(N_("show dice")))
        chosen = self._dice(dice, Word(NP_("dice", "show"), "dice"))
        phase = self._phase(state)
        not_hidden = sorted(chosen - state.hidden)
        if not_hidden:
            raise ThrowError(
                N_("dice {not_hidden} are not under the cup (under it: {value}): only hidden dice are shown"),
                not_hidden=given(not_hidden),
                value=given(sorted(state.hidden)) if state.hidden else Phrase(N_("none")),
            )
        phase = replace(phase, looked=True, shown=(*phase.shown, *sorted(chosen)))
        self._states.append(replace(state, hidden=state.hidden - chosen, phase=phase))

    def start_tour_de_poker(self) -> int:
        """After looking under the cup at a Poker, the player to act plays a Tour de Poker: all
        five dice are taken back and thrown again, up to the returned number of times, keeping
        any of them between throws."""
        state = self._tracked(Word(N_("start a Tour de Poker")))
        allowed = self.tour_de_poker_throws()
        if allowed is None:
            what = Phrase(N_("nothing")) if state.current is None else given(state.current.french)
            raise ThrowError(
                N_("a Tour de Poker follows a Poker received (and believable); {to_act} received {what}"),
                to_act=Verbatim(self.to_act),
                what=what,
            )
        phase = self._phase(state)
        if not phase.looked or phase.throws or phase.tour_de_poker:
            raise ThrowError(N_("a Tour de Poker starts once the player has looked under the cup, before any throw"))
        self._states.append(replace(state, phase=replace(phase, tour_de_poker=True)))
        return allowed

    def throw(self, dice: Iterable[int], *, under_cup: bool = False) -> Throw:
        """The player to act throws ``dice`` (die numbers 0-4) on the table, or under the cup.

        Refused (:class:`ThrowError`) when a die was already thrown in this phase (outside a
        Tour de Poker), when a Tour de Poker's first throw is not all five dice or its throws
        are spent, or when a throw under the cup would leave dice under it unthrown: show them
        first."""
        state = self._tracked(Word(N_("throw dice")))
        chosen = self._dice(dice, Word(NP_("dice", "throw"), "dice"))
        phase = self._phase(state)
        if state.current is not None and self.must_challenge:
            raise ThrowError(
                N_("{to_act} received the Poker d'As in one throw: it can only be challenged"),
                to_act=Verbatim(self.to_act),
            )
        if phase.tour_de_poker:
            allowed = self.tour_de_poker_throws()
            assert allowed is not None  # a Tour de Poker was started after a believable Poker
            if not phase.throws and len(chosen) != DICE:
                raise ThrowError(N_("a Tour de Poker takes back all five dice: its first throw is all five, none kept"))
            if len(phase.throws) >= allowed:
                raise ThrowError(
                    N_("this Tour de Poker has {allowed} throws, all used: announce a higher Poker"),
                    allowed=Number(allowed),
                )
        else:
            again = sorted(chosen & phase.thrown)
            if again:
                raise ThrowError(
                    N_(
                        "dice {again} were already thrown in this phase: a die thrown stays as it is until the turn "
                        "ends (still free: {value})"
                    ),
                    again=given(again),
                    value=given(sorted(set(range(DICE)) - phase.thrown))
                    if len(phase.thrown) < DICE
                    else Phrase(N_("none")),
                )
        if under_cup:
            kept = sorted(state.hidden - chosen)
            if kept:
                raise ThrowError(
                    N_(
                        "dice {kept} are under the cup and not thrown: a throw under the cup holds only the dice "
                        "thrown, so show them first (show({kept}))"
                    ),
                    kept=given(kept),
                )
        record = Throw(self.to_act, tuple(sorted(chosen)), under_cup)
        hidden = state.hidden | chosen if under_cup else state.hidden - chosen
        self._states.append(replace(state, hidden=hidden, phase=replace(phase, throws=(*phase.throws, record))))
        return record

    def _tracked(self, what: Word) -> _State:
        if not self.track_throws:
            raise ThrowError(
                N_("cannot {what}: this referee judges announcements only (create it with track_throws=True)"),
                what=what,
            )
        return self._state

    def _phase(self, state: _State) -> ThrowingPhase:
        return state.phase if state.phase is not None else ThrowingPhase(self._players[state.holder])

    @staticmethod
    def _dice(dice: Iterable[int], what: Word) -> frozenset[int]:
        try:
            chosen = list(dice)
        except TypeError:
            raise ThrowError(
                N_("{what} takes die numbers 0 to {last_die}, e.g. [0, 3], got {got}"),
                what=what,
                last_die=Number(DICE - 1),
                got=given(dice),
            ) from None
        if not chosen or any(isinstance(d, bool) or not isinstance(d, int) or not 0 <= d < DICE for d in chosen):
            raise ThrowError(
                N_("{what} takes one or more die numbers 0 to {last_die}, e.g. [0, 3], got {chosen}"),
                what=what,
                last_die=Number(DICE - 1),
                chosen=given(chosen),
            )
        if len(set(chosen)) != len(chosen):
            raise ThrowError(N_("{what}: each die once, got {chosen}"), what=what, chosen=given(chosen))
        return frozenset(chosen)

    def _check_phase_before_announcing(self, tour_de_poker: bool) -> None:
        state = self._state
        phase = self._phase(state)
        who = self.to_act
        if state.current is None:
            if phase.thrown != frozenset(range(DICE)):
                missing = sorted(set(range(DICE)) - phase.thrown)
                raise ThrowError(
                    N_("{who} opens game {game}: all five dice are thrown first (not yet: {missing})"),
                    who=Verbatim(who),
                    game=Number(state.game),
                    missing=given(missing),
                )
            return
        if (tour_de_poker or state.current == highest()) and not phase.tour_de_poker:
            raise ThrowError(
                N_("a Tour de Poker is played first: {who} looks under the cup, then start_tour_de_poker()"),
                who=Verbatim(who),
            )
        if phase.tour_de_poker and not tour_de_poker and state.current != highest():
            raise ThrowError(
                N_("{who} is playing a Tour de Poker: announce with tour_de_poker=True"), who=Verbatim(who)
            )
        if phase.looked and not phase.throws:
            raise ThrowError(
                N_(
                    "{who} looked under the cup: at least one die is thrown before announcing (believing without "
                    "throwing is allowed only without looking)"
                ),
                who=Verbatim(who),
            )

    def roll_off(self, dice: Mapping[str, Face | str]) -> tuple[str, ...]:
        """Choose who starts the first game from one die per player (see :func:`roll_off`). With
        one lowest player, they start; on a tie, the tied players are returned to throw again."""
        state = self._state
        if state.game != 1 or state.history:
            raise IllegalTurnError(N_("the roll-off only chooses who starts the first game, before any announcement"))
        for name in dice:
            self._index(name)
        lowest_players = roll_off(dice)
        if len(lowest_players) == 1:
            self._states.append(replace(state, holder=self._index(lowest_players[0])))
        return lowest_players

    def undo(self) -> None:
        """Take back the last move (announcement, challenge or roll-off)."""
        if len(self._states) == 1:
            raise IllegalTurnError(N_("nothing to undo"))
        self._states.pop()

    # --- for a page --------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The whole state as plain dicts, lists, strings, numbers and ``None`` (JSON-ready)."""
        state = self._state
        legal = self.legal_next()
        last = state.last_challenge
        return {
            "game": state.game,
            "players": [
                {"name": name, "seat": seat, "points": points, "to_act": seat == state.holder}
                for seat, (name, points) in enumerate(zip(self._players, state.points, strict=True))
            ],
            "direction": None if state.direction is None else state.direction.value,
            "to_act": self.to_act,
            "announcer": self.announcer,
            "current": None if state.current is None else state.current.to_dict(),
            "legal_next": None if legal is None else legal.to_dict(),
            "must_challenge": self.must_challenge,
            "tour_de_poker_throws": self.tour_de_poker_throws(),
            "history": [
                {
                    "player": turn.player,
                    "announcement": turn.announcement.to_dict(),
                    "tour_de_poker_throws": turn.tour_de_poker_throws,
                }
                for turn in state.history
            ],
            "last_challenge": None if last is None else _outcome_dict(last),
            "standings": [{"name": name, "points": points} for name, points in self.standings()],
            **({"throwing": self._throwing_dict()} if self.track_throws else {}),
        }

    def _throwing_dict(self) -> dict[str, Any]:
        state = self._state
        phases = [turn.phase for turn in state.history if turn.phase is not None]
        if state.phase is not None:
            phases.append(state.phase)
        return {
            "hidden": sorted(state.hidden),
            "phases": [_phase_dict(p) for p in phases],
            "current": None if state.phase is None else _phase_dict(state.phase),
        }

    # --- internals ---------------------------------------------------------------------------

    @property
    def _state(self) -> _State:
        return self._states[-1]

    def _index(self, name: str) -> int:
        try:
            return self._players.index(name)
        except ValueError:
            raise IllegalTurnError(
                N_("unknown player {name}: the players are {players}"),
                name=given(name),
                players=Verbatim(", ".join(self._players)),
            ) from None

    def _checked_direction(self, direction: Direction | str | None) -> Direction | None:
        chosen = Direction.parse(direction) if isinstance(direction, str) else direction
        state = self._state
        if state.direction is not None:
            if chosen is not None and chosen is not state.direction:
                raise IllegalTurnError(
                    N_("the direction of this game is {value}: it holds until someone loses"),
                    value=Word(_DIRECTIONS[state.direction.value], "direction"),
                )
            return state.direction
        if chosen is None and state.current is None and len(self._players) > 2:
            raise IllegalTurnError(
                N_("{to_act} opens game {game} and chooses the direction: pass direction='left' or 'right'"),
                to_act=Verbatim(self.to_act),
                game=Number(state.game),
            )
        return chosen


def _phase_dict(phase: ThrowingPhase) -> dict[str, Any]:
    return {
        "player": phase.player,
        "looked": phase.looked,
        "tour_de_poker": phase.tour_de_poker,
        "shown": list(phase.shown),
        "throws": [{"dice": list(t.dice), "under_cup": t.under_cup} for t in phase.throws],
    }


def _outcome_dict(outcome: ChallengeOutcome) -> dict[str, Any]:
    result = outcome.result
    return {
        "game": outcome.game,
        "challenger": outcome.challenger,
        "announcer": outcome.announcer,
        "announced": result.announced.to_dict(),
        "roll": [f.letter for f in result.roll.faces],
        "actual": result.actual.to_dict(),
        "lie": result.lie,
        "loser": outcome.loser,
    }
