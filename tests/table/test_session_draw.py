"""Five-card draw in a session: settings and options, hands dealt as DrawHands, draws logged
and replayed, the snapshot's draw state, records with hand names, PHH where PHH has a variant."""

from __future__ import annotations

import json
import random

import pytest

from table.engine import ActionKind, BlindLevel, BlindStructure, Street
from table.engine.draw import DrawHand, DrawPhase, IllegalDrawError
from table.errors import IllegalDealError, RulesError, TocktableError
from table.session import DrawOptions, Session, SessionError, SessionSettings


def draw_table(*stacks: int, variant: str = "draw", seats: int = 6, **options: object) -> Session:
    settings = SessionSettings(seats=seats, variant=variant, blinds=BlindStructure.fixed(1, 2),
                               draw=DrawOptions(**options))  # type: ignore[arg-type]  # fmt: skip
    session = Session(settings)
    for seat, chips in enumerate(stacks):
        if chips:
            session.seat_player(seat, f"P{seat}", chips)
    return session


def call_round(session: Session) -> None:
    hand = session.hand
    assert hand is not None
    while hand.to_act is not None:
        legal = {a.action for a in hand.legal_actions()}
        session.act(hand.to_act, "check" if ActionKind.CHECK in legal else "call")


def on_table(session: Session) -> int:
    hand = session.hand
    live = hand is not None and session._hand_open and not hand.is_complete
    return sum(session.stack(s) for s in session.players) + (hand.pot_total if live and hand is not None else 0)


# ----------------------------------------------------------------------------- settings
def test_draw_settings_default_options_and_round_trip_through_plain_data() -> None:
    settings = SessionSettings(seats=5, variant="lowball", blinds=BlindStructure.fixed(5, 10))
    assert settings.is_draw and settings.draw == DrawOptions()
    again = SessionSettings.from_dict(json.loads(json.dumps(settings.to_dict())))
    assert again == settings
    wild = SessionSettings(variant="draw", draw=DrawOptions(jokers=2, wild_rank="3", max_draw=5))
    assert SessionSettings.from_dict(wild.to_dict()).draw == DrawOptions(jokers=2, wild_rank="3", max_draw=5)
    assert "draw" not in SessionSettings().to_dict()  # Hold'em settings are unchanged


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: DrawOptions(jokers=3), "jokers must be 0, 1 or 2"),
        (lambda: DrawOptions(max_draw=6), "max_draw must be 1 to 5"),
        (lambda: DrawOptions(wild_rank="X"), "not a rank"),
        (lambda: DrawOptions(low_rule="queen-high"), "'ace-to-five', 'deuce-to-seven'"),
        (lambda: DrawOptions(opening_bet="yes"), "opening_bet must be true or false"),  # type: ignore[arg-type]
        (lambda: SessionSettings(variant="holdem", draw=DrawOptions()), "draw options apply to the five-card"),
        (lambda: SessionSettings(variant="stud"), "variant"),
        (lambda: SessionSettings.from_dict({"variant": "draw", "draw": {"fools": 1}}), "unknown draw options"),
    ],
)
def test_bad_draw_settings_say_what_is_allowed(make: object, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        make()  # type: ignore[operator]


def test_the_blind_level_sets_the_ante_or_the_opening_bet_and_the_smallest_bet() -> None:
    level = BlindLevel(5, 10)
    ante_game = SessionSettings(variant="draw").draw_rules_for(level)
    assert (ante_game.ante, ante_game.opening_bet, ante_game.small_bet) == (5, 0, 10)
    assert SessionSettings(variant="draw").draw_rules_for(BlindLevel(5, 10, 2)).ante == 2  # the level's ante
    opening = SessionSettings(variant="draw", draw=DrawOptions(opening_bet=True)).draw_rules_for(BlindLevel(5, 10, 1))
    assert (opening.ante, opening.opening_bet, opening.small_bet) == (1, 5, 10)
    assert SessionSettings(variant="lowball").draw_rules_for(level).lowball is not None
    with pytest.raises(RulesError, match="not a five-card draw variant"):
        SessionSettings().draw_rules_for(level)


# ----------------------------------------------------------------------------- hands
def test_a_draw_session_deals_draw_hands_and_logs_the_draws() -> None:
    session = draw_table(100, 100, 100, jokers=1)
    session.set_button(0)
    hand = session.start_hand()
    assert isinstance(hand, DrawHand) and hand.pot_total == 3  # everyone antes the small blind
    session.act(1, "bet", 4)
    call_round(session)
    assert hand.phase == DrawPhase.DRAW and hand.to_draw == 1
    session.draw_cards(1, 3)
    session.draw_cards(2, 0)
    session.draw_cards(0, 1)
    assert session.log[-3:] == [{"op": "draw", "seat": 1, "count": 3}, {"op": "draw", "seat": 2, "count": 0},
                                {"op": "draw", "seat": 0, "count": 1}]  # fmt: skip
    call_round(session)
    session.deal_hole(1, ["Jk", "Ah", "Ad", "7c", "2s"])
    session.deal_hole(2, "Kh Kd Ks 9c 4h")
    session.deal_hole(0, "2h 3h 5h 6h 8h")
    record = session.last_record
    assert record is not None and record.draws == {0: 1, 1: 3, 2: 0}
    data = record.to_dict()
    assert data["pots"][0]["winners"][0]["hand"] == "Flush, eight high"
    names = {s["seat"]: s["hand"] for s in data["shown"]}
    assert names == {0: "Flush, eight high", 1: "Three of a kind, aces (with a joker)", 2: "Three of a kind, kings"}
    assert data["draws"] == [{"seat": 0, "name": "P0", "count": 1}, {"seat": 1, "name": "P1", "count": 3},
                             {"seat": 2, "name": "P2", "count": 0}]  # fmt: skip
    assert Session.replay(session.settings, session.log).snapshot() == session.snapshot()


def test_illegal_draws_are_refused_and_change_nothing() -> None:
    session = draw_table(100, 100, 100)
    session.set_button(0)
    hand = session.start_hand()
    log, before = list(session.log), json.dumps(session.snapshot())
    with pytest.raises(IllegalDrawError, match="first betting round is still open"):
        session.draw_cards(1, 2)
    session.act(1, "fold")
    call_round(session)
    cases = [
        ((1, 2), "seat 2 folded"),
        ((0, 2), "it is seat 3's turn to draw, not seat 1's"),
        ((2, 4), r"0 \(stands pat\) to 3 cards"),
        ((2, -1), r"0 \(stands pat\) to 3 cards"),
        ((7, 1), "not in this hand"),
    ]
    log, before = list(session.log), json.dumps(session.snapshot())
    for (seat, count), message in cases:
        with pytest.raises(IllegalDrawError, match=message):
            session.draw_cards(seat, count)
        assert session.log == log and json.dumps(session.snapshot()) == before
    session.draw_cards(2, 2)
    with pytest.raises(IllegalDrawError, match="already drew 2"):
        session.draw_cards(2, 1)
    with pytest.raises(IllegalDrawError):
        session.apply({"op": "draw", "seat": 0, "count": True})
    with pytest.raises(TocktableError, match="betting is closed during the draw"):
        session.act(0, "check")
    assert hand.to_draw == 0


def test_draws_are_refused_in_holdem_and_board_cards_in_draw() -> None:
    holdem = Session(SessionSettings(seats=3, blinds=BlindStructure.fixed(1, 2)))
    for seat in range(3):
        holdem.seat_player(seat, f"P{seat}", 50)
    holdem.start_hand()
    with pytest.raises(SessionError, match="only in five-card draw"):
        holdem.draw_cards(0, 1)
    session = draw_table(50, 50, two_players=True)
    session.start_hand()
    with pytest.raises(IllegalDealError, match="no board cards"):
        session.deal_board("Ah Kd 7c")


def test_shown_hands_check_jokers_and_count() -> None:
    session = draw_table(50, 50, jokers=1, two_players=True)
    session.set_button(0)
    session.start_hand()
    call_round(session)
    session.draw_cards(1, 0)
    session.draw_cards(0, 0)
    call_round(session)
    log = list(session.log)
    with pytest.raises(SessionError, match="duplicate"):
        session.deal_hole(1, "Ah Ah Kd 7c 2s")
    with pytest.raises(IllegalDealError, match="5 cards"):
        session.deal_hole(1, "Ah Kd")
    session.deal_hole(1, "Jk Kd Qc 7c 2s")
    with pytest.raises(IllegalDealError, match="1 joker"):
        session.deal_hole(0, "Jk 9d 9c 7h 2h")
    assert session.log == [*log, {"op": "deal_hole", "seat": 1, "cards": ["Jk", "Kd", "Qc", "7c", "2s"]}]


def test_a_table_of_more_than_eight_is_refused_and_more_than_six_is_noted() -> None:
    crowded = draw_table(*[100] * 9, seats=10)
    with pytest.raises(SessionError, match="3 to 8 players, 9 would be dealt in"):
        crowded.start_hand()
    crowded.sit_out(8)
    crowded.start_hand()  # eight players: allowed (pytest turns a stray warning into an error)
    assert "the seed rules plan for 3 to 6" in crowded.snapshot()["draw_game"]["warning"]
    assert draw_table(100, 100, 100).snapshot()["draw_game"]["warning"] is None


def test_two_players_are_dealt_a_draw_hand_only_with_the_house_option() -> None:
    pair = draw_table(100, 100)
    log = list(pair.log)
    with pytest.raises(SessionError, match=r"played by 3 to 6 players, 2 would be dealt in.*house option two_players"):
        pair.start_hand()
    assert pair.hand is None and pair.log == log
    heads_up = draw_table(100, 100, two_players=True)
    assert heads_up.start_hand().in_hand == (0, 1)
    assert heads_up.snapshot()["draw_game"]["name"].endswith("two players allowed")
    with pytest.raises(RulesError, match="two_players must be true or false"):
        DrawOptions(two_players="yes")  # type: ignore[arg-type]


def test_the_croupier_puts_the_puck_in_front_of_the_first_player_to_the_right() -> None:
    """Seats are numbered clockwise from the croupier's left: the first player to the croupier's
    right is the last seat dealt in; the next two seats clockwise post the blinds."""
    holdem = Session(SessionSettings(seats=8, blinds=BlindStructure.fixed(1, 2)))
    for seat in (1, 3, 4, 6):
        holdem.seat_player(seat, f"P{seat}", 100)
    holdem.sit_out(6)
    assert holdem.croupier_button() == 4  # seat 6 sits out: seat 4 is the last one dealt in
    assert holdem.log[-1] == {"op": "croupier_button"}
    hand = holdem.start_hand()
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (4, 1, 3)
    assert Session.replay(holdem.settings, holdem.log).hand.button == 4  # type: ignore[union-attr]
    empty = Session(SessionSettings(seats=4, blinds=BlindStructure.fixed(1, 2)))
    with pytest.raises(SessionError, match="seat the players first"):
        empty.croupier_button()


# ----------------------------------------------------------------------------- snapshot
def test_the_snapshot_shows_the_game_phase_and_draw_counts_but_no_card_before_the_showdown() -> None:
    session = draw_table(100, 100, 100, variant="lowball", opening_bet=True)
    waiting = session.snapshot()
    assert waiting["variant"] == "lowball" and waiting["draw_game"]["phase"] is None
    assert waiting["draw_game"]["name"] == "Petite Misère (lowball), ace-to-five, draw up to 3"
    session.set_button(2)
    session.start_hand()
    snap = session.snapshot()
    game = snap["draw_game"]
    assert game["phase"] == "first betting" and game["opening_seat"] == 0 and game["rules"]["opening_bet"] == 1
    assert snap["small_blind_seat"] is None and snap["big_blind_seat"] is None
    call_round(session)
    session.draw_cards(0, 2)
    snap = session.snapshot()
    assert snap["draw_game"]["to_draw"] == 1 and snap["draw_game"]["phase"] == "draw"
    assert [s["drew"] for s in snap["seats"]] == [2, None, None, None, None, None]
    assert snap["draw_game"]["draws"] == [{"seat": 0, "count": 2}]
    assert all(s["hole"] == [] for s in snap["seats"])
    assert json.loads(json.dumps(snap)) == snap


# ----------------------------------------------------------------------------- a night, replayed
def play_random_night(seed: int, *, variant: str, hands: int = 12) -> Session:
    """Random legal actions and draws; shown hands from a shuffled deck, jokers included."""
    rng = random.Random(seed)
    jokers = 1 if variant == "draw" else 0
    # Heads-up once players bust: the house option.
    session = draw_table(80, 60, 120, 40, variant=variant, jokers=jokers, max_draw=5, two_players=True)
    for _ in range(hands):
        if len(session._dealt_in()) < 2:
            broke = next(s for s in session.players if session.stack(s) == 0)
            session.rebuy(broke, 50)
        hand = session.start_hand()
        assert isinstance(hand, DrawHand)
        while not hand.is_complete:
            if hand.to_act is not None:
                option = rng.choice(hand.legal_actions())
                amount = rng.randint(option.min_to, option.max_to) if option.action.value in ("bet", "raise") else None
                session.act(hand.to_act, option.action, amount)
                if rng.random() < 0.05:
                    session.undo()
            elif hand.to_draw is not None:
                session.draw_cards(hand.to_draw, rng.randint(0, 5))
            else:
                assert hand.street == Street.SHOWDOWN
                deck = ["Jk"] * hand.draw_rules.jokers + [r + s for r in "23456789TJQKA" for s in "cdhs"]
                rng.shuffle(deck)
                for seat in [s for s in hand.in_hand if not hand.folded[s]]:
                    if hand.is_complete:
                        break
                    if rng.random() < 0.2 and hand.can_muck(seat):
                        session.muck(seat)
                    else:
                        session.deal_hole(seat, [deck.pop() for _ in range(5)])
            assert on_table(session) == sum(line.bought_in for line in session.ledger())
    return session


@pytest.mark.parametrize("variant", ["draw", "lowball"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_random_draw_night_replays_exactly_and_conserves_chips(variant: str, seed: int) -> None:
    session = play_random_night(seed, variant=variant)
    assert len(session.records) >= 11
    assert any(op["op"] == "draw" for op in session.log)
    again = Session.replay(session.settings, json.loads(json.dumps(session.log)))
    assert again.snapshot() == session.snapshot()
    assert [r.to_dict() for r in again.records] == [r.to_dict() for r in session.records]


# ----------------------------------------------------------------------------- hand histories
def test_only_deuce_to_seven_no_limit_hands_become_phh_and_pokerkit_replays_them() -> None:
    assert play_random_night(4, variant="draw", hands=4).hand_histories() == []  # no PHH variant for high draw
    session = draw_table(100, 100, 100, variant="lowball", low_rule="deuce-to-seven", two_players=True)
    session.set_button(0)
    session.start_hand()
    session.act(1, "bet", 4)
    call_round(session)
    for seat, count in ((1, 3), (2, 0), (0, 2)):
        session.draw_cards(seat, count)
    call_round(session)
    session.deal_hole(1, "7s 5d 4c 3h 2c")
    session.deal_hole(2, "8s 6d 4h 3s 2d")
    session.muck(0)
    (text,) = session.hand_histories(event="Friday")
    assert 'variant = "N2L1D"' in text and '"p1 sd ??????", "p2 sd", "p3 sd ????"' in text
    pokerkit = pytest.importorskip("pokerkit")
    states = list(pokerkit.HandHistory.loads(text))
    assert list(states[-1].stacks) == [session.stack(s) for s in (1, 2, 0)]
