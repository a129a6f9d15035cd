"""The lens worker: public information only, worked out again only when it changes, the same
figures as table.lens, table seats mapped right, Hold'em all-in equity, and a game that never
waits for it."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from table.lens import LENS_PRECISION, lens_of_hand, showdown
from tests.tocktable.helpers import view
from tests.tocktable.lens_hands import (
    ALLIN_BOARD,
    ALLIN_HAND,
    ALLIN_HOLES,
    ALLIN_PREFLOP,
    ALLIN_SHOW,
    TOCK_BOARD,
    TOCK_FLOP,
    TOCK_HAND,
    TOCK_HOLES,
    TOCK_PREFLOP,
    TOCK_RIVER,
    TOCK_SHOWDOWN,
    TOCK_TURN,
    mark,
    tock_marks,
)
from tests.web.helpers import DEMO_HAND, play
from tocktable import lens_worker as worker_module
from tocktable.lens_worker import LensWorker, last_of_each_stage, public_table
from tocktable.steps import Act, ChooseButton, Confirm, DealBoard, SitOut


def follow(service: Any, worker: LensWorker, steps: list[Any]) -> list[bool]:
    """Play ``steps``, handing the worker the snapshot after each; whether it worked the lens out."""
    out = []
    for step in steps:
        service.call(step)
        out.append(worker.handle(service.snapshot()))
    return out


def doc(worker: LensWorker) -> dict[str, Any]:
    return worker.latest().to_dict()


def test_worked_out_again_on_a_street_a_mark_or_a_fold_and_not_otherwise(tock_service: Any) -> None:
    worker = LensWorker(tock_service)
    assert follow(tock_service, worker, [ChooseButton(seat=0)]) == [True]
    assert all(follow(tock_service, worker, tock_marks()))  # every mark read is news
    assert worker.handle(tock_service.snapshot()) is False  # the same table again
    # Dan calls, Eve folds, Finn, Ann and Bob call, Cleo checks: only the fold is public news.
    assert follow(tock_service, worker, TOCK_PREFLOP) == [False, True, False, False, False, False]
    flop = follow(tock_service, worker, TOCK_FLOP)
    assert flop[0] is True  # the flop turned
    assert flop[1:] == [False, False, False, True, False, True, False]  # bets and checks no; Finn's and Bob's folds yes
    assert follow(tock_service, worker, TOCK_TURN) == [True, False, False, False]
    assert follow(tock_service, worker, TOCK_RIVER) == [True, False, False, False]
    assert follow(tock_service, worker, TOCK_SHOWDOWN) == [True, True, True]  # each hand turned face up
    computed = worker.computations
    for _ in range(3):  # the clock ticking, phones asking: nothing new
        assert worker.handle(tock_service.snapshot()) is False
    assert worker.computations == computed == 1 + 17 + 1 + 1 + 2 + 1 + 1 + 3


def test_the_lens_is_table_lens_of_the_same_public_table_with_table_seats(tock_service: Any) -> None:
    play(tock_service, [SitOut(1)])  # Bob sits out: the lens's seat 1 is Cleo at table seat 2
    holes = {s: c for s, c in TOCK_HOLES.items() if s != 1}
    worker = LensWorker(tock_service)
    # Button Ann (0): Cleo (2) posts the small blind, Dan (3) the big one, Eve (4) acts first.
    preflop = [Act(4, "fold"), Act(5, "call"), Act(0, "call"), Act(2, "call"), Act(3, "check")]
    follow(tock_service, worker, [ChooseButton(seat=0), *tock_marks(holes), *preflop, TOCK_FLOP[0]])
    got = doc(worker)
    assert got["mode"] == "tock" and got["stage"] == "flop" and got["hand_number"] == 1
    hand = tock_service.game.hand
    assert list(hand.in_hand) == [0, 2, 3, 4, 5]
    expected = lens_of_hand(hand, seed=0, precision=LENS_PRECISION).to_json()
    assert [s["name"] for s in expected["seats"]] == ["Seat 1", "Seat 3", "Seat 4", "Seat 5", "Seat 6"]
    for mine, theirs in zip(got["lens"]["seats"], expected["seats"], strict=True):
        assert mine["seat"] == int(theirs["name"].split()[1]) - 1  # "Seat N" is table seat N-1
        assert mine["index"] == theirs["seat"]
        same = ("shows", "folded", "win", "tie", "equity", "stderr", "hands", "best", "best_hand", "nuts", "outs")
        assert {k: mine[k] for k in same} == {k: theirs[k] for k in same}
    assert got["lens"]["seats"][1]["seat"] == 2 and got["lens"]["seats"][1]["name"] == "Cleo"
    assert got["lens"]["seats"][1]["shows"] == [mark("Kc"), mark("Kd")]
    assert got["lens"]["seats"][3]["folded"] is True  # Eve, table seat 4
    # With the players' names, the whole lens (sentences too) is table.lens's.
    names = ["Ann", "Cleo", "Dan", "Eve", "Finn"]
    with_names = lens_of_hand(hand, seed=0, precision=LENS_PRECISION, names=names).to_json()
    for entry in with_names["seats"]:
        entry["index"], entry["seat"] = entry["seat"], [0, 2, 3, 4, 5][entry["seat"]]
    assert got["lens"] == with_names


def test_no_hole_card_reaches_the_lens_before_the_showdown_not_even_a_peek(tock_service: Any) -> None:
    worker = LensWorker(tock_service).start()
    try:
        play(tock_service, [ChooseButton(seat=0), *tock_marks(), *TOCK_PREFLOP])
        tock_service.call(view(board=list(TOCK_BOARD[:3]), seats={1: list(TOCK_HOLES[1])}))  # the flop, and Bob's peek
        state = tock_service.snapshot().to_dict()
        assert state["street"] == "flop" and any(w["kind"] == "peek" for w in state["warnings"])
        got = worker.wait_until(lambda d: d["stage"] == "flop" and not d["pending"])
        text = worker.latest().json
        for seat, cards in TOCK_HOLES.items():
            for card in cards:
                assert f'"{card}"' not in text, f"seat {seat}'s {card} is in the lens"
        assert [s["shows"] for s in got["lens"]["seats"]] == [[mark(a), mark(b)] for a, b in TOCK_HOLES.values()]
        assert got["lens"]["view"] == "public" and got["lens"]["viewer"] is None
        # The showdown is the other side: the shown hands appear, nothing else.
        play(tock_service, [*TOCK_FLOP[1:], *TOCK_TURN, *TOCK_RIVER, *TOCK_SHOWDOWN])
        got = worker.wait_until(lambda d: d["complete"] and not d["pending"])
        shows = {s["seat"]: s["shows"] for s in got["lens"]["seats"]}
        assert shows[0] == list(TOCK_HOLES[0]) and shows[2] == list(TOCK_HOLES[2])
        assert shows[1] == [mark(c) for c in TOCK_HOLES[1]]  # Bob folded: still only his marks
    finally:
        worker.stop()


def test_a_whole_tock_hand_gives_a_chart_by_stage_then_it_is_the_last_hand(tock_service: Any) -> None:
    worker = LensWorker(tock_service)
    follow(tock_service, worker, TOCK_HAND)
    got = doc(worker)
    assert got["complete"] is True and got["stage"] == "showdown"
    history = got["history"]
    assert history["stages"] == ["preflop", "flop", "turn", "river", "showdown"]
    assert [len([c for c in b if c and ":" not in c]) for b in history["boards"]] == [0, 3, 4, 5, 5]
    rows = {row["seat"]: row for row in history["seats"]}
    assert rows[0]["name"] == "Ann" and rows[0]["equity"][-1] == 1.0  # her flush
    assert rows[4]["folded"] == [False, True, True, True, True]  # Eve folded before the flop turned
    assert rows[1]["folded"] == [False, False, True, True, True]  # Bob on the flop
    for row in rows.values():
        assert all(0.0 <= v <= 1.0 for v in row["equity"])
    for k in (2, 3, 4):  # nobody folded during these stages: the chances add up to one
        assert sum(row["equity"][k] for row in rows.values()) == pytest.approx(1.0, abs=0.002)
    assert rows[4]["equity"][0] > 0 and rows[1]["equity"][1] > 0  # a folder's last chances, on its street
    follow(tock_service, worker, [Confirm()])
    after = doc(worker)
    assert after["hand_number"] == 2 and after["stage"] == "preflop" and after["complete"] is False
    assert after["last"] == {"hand_number": 1, "mode": "tock", "history": history}


def test_holdem_shows_each_hands_chances_once_turned_after_an_all_in(service: Any) -> None:
    worker = LensWorker(service)
    follow(service, worker, ALLIN_HAND[:-3])
    waiting = doc(worker)
    assert waiting["mode"] == "allin" and waiting["lens"] is None and "turned face up" in waiting["note"]
    assert worker.computations == 0
    follow(service, worker, [*ALLIN_HAND[-3:], *ALLIN_SHOW])
    got = doc(worker)
    assert got["mode"] == "allin" and got["allin_stage"] == "preflop" and worker.computations == 1
    history = got["history"]
    assert history["stages"] == ["preflop", "flop", "turn", "river"]
    assert [row["seat"] for row in history["seats"]] == [2, 3]  # Cleo and Dan, by table seat
    hands = [list(ALLIN_HOLES[2]), list(ALLIN_HOLES[3])]
    for k, size in enumerate((0, 3, 4, 5)):
        tv = showdown(hands, list(ALLIN_BOARD[:size]))
        for row, seat in zip(history["seats"], tv.seats, strict=True):
            tolerance = 0.006 if size == 0 else 1e-4  # pre-flop is sampled to +-0.5 points; the rest exact
            assert row["equity"][k] == pytest.approx(seat.equity, abs=tolerance)
    turn = showdown(hands, list(ALLIN_BOARD[:4]))
    assert history["seats"][1]["outs"][2] == [str(c) for c in turn.seats[1].outs or ()]
    assert history["seats"][1]["outs"][2] == ["4h", "5h", "6h", "8h", "9h", "Th", "Jh"]  # Dan's flush cards
    assert history["seats"][1]["equity"][-1] == 1.0 and got["lens"]["seats"][1]["seat"] == 3


def test_holdem_all_in_chances_are_live_street_by_street_once_the_hands_are_tabled(
    service: Any, monkeypatch: Any
) -> None:
    """The hands turned face up as soon as Cleo's call closes the betting (read by the camera):
    the chances are on the phones before the flop, then after the flop and the turn, each stage
    worked out once, before the river is dealt."""
    boards: list[int] = []
    real = worker_module.lens

    def counted(hands: Any, board: Any = (), **kwargs: Any) -> Any:
        boards.append(len(board))
        return real(hands, board, **kwargs)

    monkeypatch.setattr(worker_module, "lens", counted)
    worker = LensWorker(service)
    follow(service, worker, [ChooseButton(seat=0), *ALLIN_PREFLOP])
    assert doc(worker)["lens"] is None and "turned face up" in doc(worker)["note"]
    service.call(view(seats={s: list(c) for s, c in ALLIN_HOLES.items()}))  # both hands tabled
    state = service.snapshot().to_dict()
    assert state["street"] == "preflop" and state["board"] == [] and state["status"] == "playing"
    assert {s["seat"]: s["hole"] for s in state["seats"] if s["hole"]} == {s: list(c) for s, c in ALLIN_HOLES.items()}
    assert worker.handle(service.snapshot()) is True
    hands = [list(ALLIN_HOLES[2]), list(ALLIN_HOLES[3])]
    got = doc(worker)
    assert got["mode"] == "allin" and got["stage"] == "preflop" and got["complete"] is False
    assert got["allin_stage"] == "preflop" and got["history"]["stages"] == ["preflop"]
    assert "runs out" in got["note"]
    preflop = showdown(hands, [])
    for mine, truth in zip(got["lens"]["seats"], preflop.seats, strict=True):
        assert mine["equity"] == pytest.approx(truth.equity, abs=0.006)  # sampled to +-0.5 points
    computed = []
    for size, stage in ((3, "flop"), (4, "turn")):
        before = worker.computations
        follow(service, worker, [DealBoard(ALLIN_BOARD[len(service.snapshot().to_dict()["board"]) : size])])
        computed.append(worker.computations - before)
        got = doc(worker)
        assert got["stage"] == stage and got["complete"] is False and len(got["lens"]["board"]) == 5
        assert got["history"]["stages"] == ["preflop", "flop", "turn"][: 2 if stage == "flop" else 3]
        exact = showdown(hands, list(ALLIN_BOARD[:size]))
        for mine, truth in zip(got["lens"]["seats"], exact.seats, strict=True):
            assert mine["equity"] == pytest.approx(truth.equity, abs=1e-4)  # exact from the flop on
    assert computed == [1, 1]
    dan = got["lens"]["seats"][1]
    assert dan["seat"] == 3 and dan["outs"] == ["4h", "5h", "6h", "8h", "9h", "Th", "Jh"]  # his flush cards
    assert got["history"]["seats"][1]["equity"][0] == pytest.approx(preflop.seats[1].equity, abs=0.006)
    follow(service, worker, [DealBoard(ALLIN_BOARD[4:])])  # the river: Dan's flush; the hand settles itself
    got = doc(worker)
    assert got["complete"] is True and got["history"]["stages"] == ["preflop", "flop", "turn", "river"]
    assert got["history"]["seats"][1]["equity"][-1] == 1.0
    assert boards == [0, 3, 4, 5]  # every stage worked out once: a street costs only its own


def test_holdem_without_an_all_in_shows_nothing(service: Any) -> None:
    worker = LensWorker(service)
    versions = {doc(worker)["version"]}
    for step in DEMO_HAND:  # an all-in, but the others bet on: no run-out to show
        service.call(step)
        worker.handle(service.snapshot())
        versions.add(doc(worker)["version"])
    got = doc(worker)
    assert got["mode"] is None and got["lens"] is None and got["last"] is None
    assert worker.computations == 0 and versions == {0}  # no phone was sent anything


def test_the_game_never_waits_for_the_lens_and_a_late_one_is_labelled(tock_service: Any, monkeypatch: Any) -> None:
    release = threading.Event()
    calls: list[int] = []
    real = worker_module.lens

    def slow_lens(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) > 1:  # the first (the deal) at once, then hold until released
            assert release.wait(20)
        return real(*args, **kwargs)

    monkeypatch.setattr(worker_module, "lens", slow_lens)
    worker = LensWorker(tock_service).start()
    try:
        play(tock_service, [ChooseButton(seat=0)])
        worker.wait_until(lambda d: d["hand_number"] == 1 and d["lens"] is not None and not d["pending"])
        play(tock_service, [*tock_marks(), *TOCK_PREFLOP, TOCK_FLOP[0]])  # the service answers every step meanwhile
        assert tock_service.snapshot().to_dict()["street"] == "flop"
        stale = worker.wait_until(lambda d: d["pending"])
        assert stale["stage"] == "preflop" and stale["hand_number"] == 1  # the old figures, labelled as such
        release.set()
        fresh = worker.wait_until(lambda d: d["stage"] == "flop" and not d["pending"])
        assert fresh["state_version"] == tock_service.snapshot().version
        assert len(calls) < 1 + 17 + 2  # snapshots that piled up were skipped, only the newest worked out
    finally:
        release.set()
        worker.stop()


def test_subscribers_get_each_new_lens_once(tock_service: Any) -> None:
    worker = LensWorker(tock_service)
    subscription = worker.subscribe()
    first = subscription.get(timeout=1)
    assert first is not None and first.version == 0
    follow(tock_service, worker, [ChooseButton(seat=0)])
    got = []
    while (item := subscription.get(timeout=0)) is not None:
        got.append(item)
    assert [d.version for d in got] == [1] and got[0].to_dict()["mode"] == "tock"
    worker.handle(tock_service.snapshot())
    assert subscription.get(timeout=0) is None  # nothing changed: nothing sent
    subscription.close()
    follow(tock_service, worker, tock_marks()[:1])
    assert subscription.get(timeout=0) is None


def test_public_table_reads_only_marks_face_up_cards_and_shown_hands() -> None:
    state = {
        "status": "playing", "session": 3, "hand_number": 7, "variant": "tock",
        "board": ["Kh", "9h", "5s"], "board_marks": ["h:large", "h:medium", "s:small", "h:small", None],
        "seats": [
            {"seat": 0, "name": "Ann", "in_hand": True, "folded": False, "hole": [], "marks": ["h:ace", "h:large"]},
            {"seat": 1, "name": None, "in_hand": False, "hole": [], "marks": []},
            {"seat": 2, "name": "Cleo", "in_hand": True, "folded": True, "hole": [], "marks": ["c:large", None]},
            {"seat": 3, "name": "Dan", "in_hand": True, "mucked": True, "hole": [], "marks": [None, None]},
        ],
    }  # fmt: skip
    table = public_table(state)
    assert table is not None
    assert table.seats == (0, 2, 3) and table.names == ("Ann", "Cleo", "Dan")
    assert table.holes == (("h:ace", "h:large"), ("c:large", None), (None, None))
    assert table.folded == (False, True, True) and table.board == ("Kh", "9h", "5s", "h:small", None)
    assert table.stage == "flop" and table.live == [0]
    shown = {**state, "seats": [{**state["seats"][0], "hole": ["Ah", "Kh"]}, *state["seats"][1:]]}
    assert public_table(shown).holes[0] == ("Ah", "Kh")
    assert public_table(shown).stage == "flop"  # tabled at an all-in: the street still counts
    whole = {**shown, "board": ["Kh", "9h", "5s", "2h", "Js"]}
    assert public_table(whole).stage == "showdown"
    assert public_table({**state, "status": "waiting"}) is None


def test_a_worker_behind_the_game_still_charts_every_stage(tock_service: Any) -> None:
    worker = LensWorker(tock_service).start()
    try:
        play(tock_service, TOCK_HAND)  # as fast as the service goes: the worker falls behind and catches up
        got = worker.wait_until(lambda d: d["complete"] and not d["pending"] and d["stage"] == "showdown", timeout=30)
        assert got["history"]["stages"] == ["preflop", "flop", "turn", "river", "showdown"]
        assert worker.computations <= 1 + 17 + 1 + 1 + 2 + 1 + 1 + 3
    finally:
        worker.stop()


def test_last_of_each_stage_keeps_the_newest_table_of_every_stage(tock_service: Any) -> None:
    snapshots = [tock_service.snapshot()]
    for step in [ChooseButton(seat=0), *tock_marks()[:3], *TOCK_PREFLOP, TOCK_FLOP[0], TOCK_FLOP[1]]:
        tock_service.call(step)
        snapshots.append(tock_service.snapshot())
    kept = last_of_each_stage(snapshots)
    assert kept == [snapshots[0], snapshots[-3], snapshots[-1]]  # no hand; pre-flop's last; the flop's last
    assert last_of_each_stage(snapshots[-1:]) == snapshots[-1:]
