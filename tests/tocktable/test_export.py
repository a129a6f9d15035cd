"""Exports of a played session: PHH that pokerkit replays to our results, and a ledger that settles."""

import csv
import io
import json

from tocktable.config import load_config
from tocktable.export import export_session, payments
from tocktable.run import DemoOptions, run_demo
from tocktable.service import replay_session
from tocktable.store import Store


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
