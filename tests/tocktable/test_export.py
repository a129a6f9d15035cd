"""Exports of a played session: PHH that pokerkit replays to our results, and a ledger that settles."""

import csv
import io
import json

from table.engine import BlindStructure
from table.session import Session, SessionSettings
from tocktable.config import load_config
from tocktable.export import export_session, ledger_data, payments, phh_text
from tocktable.run import DemoOptions, run_demo
from tocktable.service import replay_session
from tocktable.store import SessionInfo, Store


def test_a_played_session_exports_histories_pokerkit_replays_and_a_ledger_that_settles(tmp_path):
    from pokerkit import HandHistory

    options = DemoOptions(data_dir=tmp_path / "data", fast=True, hands=8, seed=21, web=False, camera="view")
    assert run_demo(load_config(None, data_dir=tmp_path), options, out=io.StringIO()) == 0
    with Store(tmp_path / "data" / "tocktable.sqlite", create=False) as store:
        files = export_session(store, session_id=None, out_dir=tmp_path / "out")
        game, _ = replay_session(store, 1)
    records = game.session.records
    assert [f.name for f in files] == ["session-1.phhs", "session-1-ledger.csv", "session-1-ledger.json"]

    with open(files[0], "rb") as handle:
        histories = list(HandHistory.load_all(handle))
    assert len(histories) == len(records) >= 8
    for history, record in zip(histories, records, strict=True):
        final = list(history)[-1].stacks
        net = {name: end - start for name, start, end in zip(history.players, history.starting_stacks, final,
                                                             strict=True)}  # fmt: skip
        assert net == {record.names[seat]: chips for seat, chips in record.payoffs.items()}
    text = files[0].read_text()
    shown = {str(c) for record in records for cards in record.shown.values() for c in cards}
    dealt = {a.split()[3] for h in histories for a in h.actions if a.startswith("d dh") and "?" not in a}
    assert {pair[i:i + 2] for pair in dealt for i in (0, 2)} <= shown  # only cards shown at a showdown
    assert "????" in text

    data = json.loads(files[2].read_text())
    assert data["hands"] == len(records) and sum(line["net"] for line in data["ledger"]) == 0
    rows = list(csv.DictReader(io.StringIO(files[1].read_text())))
    assert [(r["name"], int(r["net"])) for r in rows] == [(line["name"], line["net"]) for line in data["ledger"]]
    owed = {line["name"]: line["net"] for line in data["ledger"]}
    for payment in data["payments"]:
        owed[payment["payer"]] += payment["amount"]
        owed[payment["payee"]] -= payment["amount"]
    assert set(owed.values()) == {0}


def test_payments_are_few_and_exact():
    ledger = [{"name": "A", "net": -70}, {"name": "B", "net": 50}, {"name": "C", "net": 30}, {"name": "D", "net": -10}]
    plan = payments(ledger)
    assert [(p.payer, p.payee, p.amount) for p in plan] == [("A", "B", 50), ("A", "C", 20), ("D", "C", 10)]


def test_a_settled_hand_not_yet_confirmed_is_in_the_ledger_and_the_results():
    session = Session(SessionSettings(seats=2, blinds=BlindStructure.fixed(1, 2)))
    session.seat_player(0, "Ann", 100)
    session.seat_player(1, "Bob", 100)
    session.set_button(0)
    session.start_hand()  # heads-up: Ann on the button posts the small blind
    session.act(0, "fold")  # settled; the next hand would close it, but there is none (say, the last hand)
    data = ledger_data(session, SessionInfo(id=1, created_at=0.0, closed_at=None, meta={}, commands=0))
    assert {line["name"]: (line["cashed_out"], line["net"]) for line in data["ledger"]} == {
        "Ann": (99, -1), "Bob": (101, 1)}
    assert data["hands"] == 1 and len(data["results"]) == 1
    assert [(p["payer"], p["payee"], p["amount"]) for p in data["payments"]] == [("Ann", "Bob", 1)]
    assert phh_text(session).count("hand = 1") == 1  # the hand histories already had it
