"""The console's pending inputs across a restart: the dealer set 150 with +/-, the power blinked.

What a table expects: the phones showed "bet 150" before the cut, so they show it after, and
BET/RAISE bets 150, not silently the minimum raise. Once the decision it was for is gone (the
seat acted, an undo, the next hand), the amount is gone too, exactly as in a running service.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from table.engine import BlindStructure
from table.session import DrawOptions, SessionSettings
from tocktable.service import Service
from tocktable.steps import ChooseButton, PauseClock, Press, SetBet, SetDraw
from tocktable.store import SCHEMA_VERSION, Store, StoreError

from .helpers import FakeClock, make_service


def state(svc: Service) -> dict[str, Any]:
    return svc.snapshot().to_dict()


def power_cut(svc: Service) -> None:
    """The process dies: nothing is finished or flushed beyond what the store already holds."""
    svc.stop()
    svc.store.close()


def restart(path: Path, clock: FakeClock, **kwargs: Any) -> Service:
    svc = make_service(path, clock=clock, **kwargs)
    assert svc.resumed
    return svc.start()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "t.sqlite"


def preflop(path: Path, clock: FakeClock, **kwargs: Any) -> Service:
    svc = make_service(path, clock=clock, **kwargs).start()
    svc.call(ChooseButton(seat=0))  # three seats: 1 small blind, 2 big blind, 0 to act
    return svc


def test_the_amount_set_with_plus_survives_a_power_cut_and_is_what_bet_raise_bets(path, clock):
    svc = preflop(path, clock)
    for _ in range(13):  # min raise to 20, then 13 steps of the big blind would pass 150: stop at 150
        if state(svc)["pending_bet"] == 150:
            break
        svc.call(Press("plus"))
    assert state(svc)["pending_bet"] == 150
    power_cut(svc)
    again = restart(path, clock)
    try:
        assert state(again)["pending_bet"] == 150  # the phones show what the dealer set
        again.call(Press("bet_raise"))
        s = state(again)
        assert s["seats"][0]["bet"] == 150 and s["pending_bet"] is None
    finally:
        power_cut(again)


def test_an_amount_set_from_the_admin_page_survives_too(path, clock):
    svc = preflop(path, clock)
    svc.call(SetBet(60))
    power_cut(svc)
    again = restart(path, clock)
    try:
        assert state(again)["pending_bet"] == 60
    finally:
        power_cut(again)


@pytest.mark.parametrize("then", ["check_call", "fold", "undo"])
def test_an_amount_whose_decision_is_gone_does_not_come_back(path, clock, then):
    svc = preflop(path, clock)
    svc.call(Press("check_call"))  # Ann calls: Bob (small blind) decides
    svc.call(SetBet(80))
    svc.call(Press(then))  # Bob acted, or the dealer took back Ann's call
    assert state(svc)["pending_bet"] is None
    power_cut(svc)
    again = restart(path, clock)
    try:
        assert state(again)["pending_bet"] is None
        again.call(Press("bet_raise"))  # whoever decides now raises the minimum, not the old 80
        assert max(p["bet"] for p in state(again)["seats"]) == 20
    finally:
        power_cut(again)


def test_a_step_that_does_not_end_the_decision_keeps_the_amount(path, clock):
    svc = preflop(path, clock, level_minutes=20)
    svc.call(SetBet(70))
    svc.call(PauseClock())  # the host pauses the blind clock: Ann still decides
    assert state(svc)["pending_bet"] == 70
    power_cut(svc)
    again = restart(path, clock, level_minutes=20)
    try:
        assert state(again)["pending_bet"] == 70
    finally:
        power_cut(again)


def test_an_amount_that_no_longer_fits_the_game_is_dropped(path, clock):
    svc = preflop(path, clock)
    svc.call(SetBet(500))
    seq = svc.store.commands(svc.session_id)[-1].seq
    power_cut(svc)
    with Store(path) as store:  # a row from an older build, or hand-edited: out of the raise range
        store.save_console(1, {"bet": 5000, "draw": None}, after_seq=seq)
    again = restart(path, clock)
    try:
        assert state(again)["pending_bet"] is None
    finally:
        power_cut(again)


def test_a_failed_write_leaves_the_pending_amount_unchanged(path, clock, monkeypatch):
    svc = preflop(path, clock)
    svc.call(SetBet(40))

    def full(*args: Any, **kwargs: Any) -> None:
        raise StoreError("disk full")

    monkeypatch.setattr(svc.store, "save_console", full)
    with pytest.raises(StoreError, match="not saving: disk full"):
        svc.call(Press("plus"))
    monkeypatch.undo()
    with pytest.raises(StoreError, match="not saving"):  # the service takes no step once it cannot keep one
        svc.call(SetBet(90))
    assert state(svc)["pending_bet"] == 40
    power_cut(svc)
    again = restart(path, clock)  # the disk is fixed, the table started again: the amount kept is 40
    try:
        assert state(again)["pending_bet"] == 40
        again.call(Press("bet_raise"))
        assert state(again)["seats"][0]["bet"] == 40
    finally:
        power_cut(again)


def test_the_same_amount_again_writes_nothing(path, clock, monkeypatch):
    svc = preflop(path, clock)
    svc.call(SetBet(40))
    writes: list[Any] = []
    original = svc.store.save_console
    monkeypatch.setattr(svc.store, "save_console", lambda *a, **k: writes.append(a) or original(*a, **k))
    svc.call(SetBet(40))
    assert writes == []
    svc.call(SetBet(50))
    assert len(writes) == 1
    power_cut(svc)


def draw_night(path: Path, clock: FakeClock) -> Service:
    settings = SessionSettings(seats=3, variant="draw", blinds=BlindStructure.fixed(5, 10), draw=DrawOptions())
    return Service(Store(path, clock=clock), settings, players=[("Ann", 500), ("Bob", 500), ("Cy", 500)],
                   clock=clock, confirm_seconds=None)  # fmt: skip


def test_a_draw_count_survives_a_restart_until_the_draw_is_recorded(path, clock):
    svc = draw_night(path, clock).start()
    svc.call(ChooseButton(seat=0))
    while state(svc)["to_act"] is not None:
        svc.call(Press("check_call"))
    svc.call(Press("plus"))
    svc.call(Press("plus"))
    assert state(svc)["pending_draw"] == 2
    power_cut(svc)
    again = draw_night(path, clock).start()
    assert again.resumed and state(again)["pending_draw"] == 2
    again.call(Press("check_call"))  # records the draw of 2 for the seat to draw
    seat = [p for p in state(again)["seats"] if p["drew"] is not None]
    assert [p["drew"] for p in seat] == [2] and state(again)["pending_draw"] is None
    again.call(SetDraw(1))
    again.call(Press("next"))  # recorded: the count is cleared for good
    power_cut(again)
    third = draw_night(path, clock).start()
    assert state(third)["pending_draw"] is None
    power_cut(third)


# ------------------------------------------------------------------------------- the store
def test_the_console_row_round_trips_and_kinds_after_lists_later_commands(tmp_path):
    with Store(tmp_path / "s.sqlite") as store:
        session = store.new_session({}, [("seat", {"n": 0})])
        assert store.console(session) is None
        first = store.append(session, "act", {})
        store.save_console(session, {"bet": 150, "draw": None}, after_seq=first)
        store.save_console(session, {"bet": 200, "draw": None}, after_seq=first)  # one row per session
        store.append(session, "rebuy", {})
        saved = store.console(session)
        assert saved is not None and saved.state == {"bet": 200, "draw": None} and saved.after_seq == first
        assert store.kinds_after(session, first) == ["rebuy"]
        assert store.kinds_after(session, None) == ["seat", "act", "rebuy"]
        with pytest.raises(StoreError):
            store.save_console(999, {"bet": 1}, after_seq=None)  # no such session


def older_file(path, version):
    """What an older build wrote: the same log, without the console table (version 1) and
    without the checksums (versions 1 and 2)."""
    db = sqlite3.connect(path)
    if version < 2:
        db.execute("DROP TABLE console")
    for table, column in (("sessions", "digest"), ("sessions", "head"), ("commands", "digest")):
        db.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
    db.execute(f"PRAGMA user_version={version}")
    db.commit()
    db.close()


@pytest.mark.parametrize("version", [1, 2])
def test_an_older_file_is_upgraded_in_place_and_keeps_its_log(tmp_path, version):
    path = tmp_path / "old.sqlite"
    with Store(path) as store:
        session = store.new_session({"n": 1}, [("seat", {"n": 0})])
        store.append(session, "act", {"i": 1}, [("ActionTaken", {"seat": 0})])
    older_file(path, version)
    with Store(path) as store:
        assert store._db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 3
        assert [c.kind for c in store.commands(session)] == ["seat", "act"]
        # the steps stored before are sealed as they were: the chain checks, and new steps extend it
        assert [c.kind for c in store.verified_session(session)[1]] == ["seat", "act"]
        store.append(session, "act", {"i": 2})
        assert [c.payload.get("i") for c in store.verified_session(session)[1]] == [None, 1, 2]
        store.save_console(session, {"bet": 40, "draw": None}, after_seq=None)
        assert store.console(session).state["bet"] == 40
