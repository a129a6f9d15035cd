"""The public pages and JSON API with Flask's test client: dashboard, state, history, exports."""

from __future__ import annotations

import csv
import io
import json
import re
import tomllib
from pathlib import Path
from typing import Any

from tests.web.helpers import DEMO_FLOP, DEMO_HAND, DEMO_PREFLOP, DEMO_RIVER, DEMO_TURN, play
from tocktable.steps import ChooseButton, Show

WEB = Path(__file__).resolve().parents[2] / "web"


def initial_state(html: str) -> dict[str, Any]:
    match = re.search(r'<script id="initial-state" type="application/json">(.*?)</script>', html, re.S)
    assert match is not None
    data: dict[str, Any] = json.loads(match.group(1))
    return data


def test_dashboard_draws_the_current_state_at_once(client: Any, service: Any) -> None:
    play(service, [ChooseButton(seat=0), *DEMO_PREFLOP[:1]])
    response = client.get("/")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    state = initial_state(html)
    assert state["hand_number"] == 1 and state["to_act"] == 4
    assert state["seats"][3]["bet"] == 30
    assert state["seats"][3]["bet_chips"] == [[20, 1], [5, 2]]  # the Tock set: fewest chips
    for asset in ("draw.js", "dashboard.js", "style.css"):
        assert f"/static/{asset}" in html
        with client.get(f"/static/{asset}") as served:
            assert served.status_code == 200


def test_pages_load_nothing_from_outside() -> None:
    """The Pi has no internet: no CDN, no font service, no external script anywhere."""
    for path in [*WEB.glob("templates/*.html"), *WEB.glob("static/*")]:
        text = path.read_text(encoding="utf-8")
        urls = re.findall(r"https?://[^\s\"'<>)]+", text)
        assert all(u.startswith("http://www.w3.org/2000/svg") for u in urls), (path.name, urls)


def test_initial_state_cannot_close_its_script_element(client: Any, service: Any) -> None:
    from tocktable.steps import Leave, Seat

    service.call(Leave(5))  # every seat is taken: free one for a hostile name
    service.call(Seat(5, "</script><b>x", 500))
    html = client.get("/").get_data(as_text=True)
    assert "</script><b>" not in html
    assert initial_state(html)["seats"][5]["name"] == "</script><b>x"


def test_state_has_the_contract_fields_and_presentation(client: Any, service: Any) -> None:
    play(service, [ChooseButton(seat=0), *DEMO_PREFLOP, *DEMO_FLOP[:3]])
    response = client.get("/api/state")
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    state = response.get_json()
    for key in ("hand_number", "street", "seats", "board", "pots", "to_act", "blinds"):
        assert key in state
    assert state["street"] == "flop" and state["board"] == ["Ah", "Kd", "7c"]
    assert state["chip_set"]["name"] == "tock"
    assert sum(v * n for v, n in state["pot_chips"]) == state["pot_total"]
    for pot in state["pots"]:
        assert sum(v * n for v, n in pot["chips"]) == pot["amount"]
    assert state["seats"][2]["state"] == "all_in"


def test_state_names_the_shown_hands_and_their_five_cards(client: Any, service: Any) -> None:
    play(service, DEMO_HAND)
    state = client.get("/api/state").get_json()
    assert state["phase"] == "settled"
    cleo = state["seats"][2]
    assert cleo["hand"] == "Three of a kind, kings"
    assert sorted(cleo["best_five"]) == sorted(["Kh", "Kc", "Kd", "Ah", "9h"])
    pots = state["last_hand"]["pots"]
    assert [(w["name"], w["amount"]) for p in pots for w in p["winners"]] == [("Cleo", 1230), ("Dan", 400)]
    assert pots[1]["winners"][0]["hand"] == "Two pair, aces and sevens"
    assert len(pots[0]["winners"][0]["best_five"]) == 5


def test_history_lists_hands_newest_first_with_stacks(client: Any, service: Any) -> None:
    from tocktable.steps import Act, Confirm

    play(service, DEMO_HAND)
    service.call(Confirm())  # hand 2: button seat 1; everyone folds to the big blind
    state = client.get("/api/state").get_json()
    while state["to_act"] is not None and state["hand_number"] == 2:
        service.call(Act(state["to_act"], "fold"))
        state = client.get("/api/state").get_json()
    history = client.get("/api/history?limit=5").get_json()
    assert history["hands_played"] == 2
    assert [h["number"] for h in history["hands"]] == [2, 1]
    stacks = history["stacks"]
    assert stacks["hands"] == [0, 1, 2]
    series = {p["name"]: p["stacks"] for p in stacks["players"]}
    assert series["Cleo"][:2] == [400, 1230]
    assert series["Dan"][:2] == [1000, 800]
    now = {line["name"]: line["cashed_out"] for line in history["ledger"]}
    assert {name: values[-1] for name, values in series.items()} == now
    assert client.get("/api/history?limit=1").get_json()["hands"][0]["number"] == 2


def test_last_hands_name_each_winner_once_with_the_net_result(client: Any, service: Any) -> None:
    """The demo hand: Cleo's kings take the main pot (1,230), Dan's aces up the side pot (400).
    What a winner took from the pots is not what the hand made him: the ledger's net is."""
    play(service, DEMO_HAND)
    history = client.get("/api/history").get_json()
    hand = history["hands"][0]
    net = {line["name"]: line["net"] for line in history["ledger"]}  # after one hand: that hand's net
    assert [(w["name"], w["won"], w["net"]) for w in hand["winners"]] == [("Cleo", 1230, 830), ("Dan", 400, -200)]
    assert {w["name"]: w["net"] for w in hand["winners"]} == {"Cleo": net["Cleo"], "Dan": net["Dan"]}
    assert hand["winners"][0]["hand"] == "Three of a kind, kings"
    assert client.get("/api/state").get_json()["last_hand"]["winners"] == hand["winners"]


def test_a_winner_of_two_pots_is_one_line(client: Any, service: Any) -> None:
    """The same hand, but Dan shows two aces: trips, best of all, so he takes both pots."""
    play(service, [ChooseButton(seat=0), *DEMO_PREFLOP, *DEMO_FLOP, *DEMO_TURN, *DEMO_RIVER,
                   Show(2, ("Qh", "Qc")), Show(1, ("As", "Qs")), Show(3, ("Ac", "Ad"))])  # fmt: skip
    history = client.get("/api/history").get_json()
    hand = history["hands"][0]
    assert [len(p["winners"]) for p in hand["pots"]] == [1, 1]  # Dan in each pot...
    winners = hand["winners"]  # ...one line for the hand
    assert [(w["name"], w["won"]) for w in winners] == [("Dan", 1630)]
    assert winners[0]["net"] == next(line["net"] for line in history["ledger"] if line["name"] == "Dan") == 1030


def test_history_refuses_a_bad_limit(client: Any) -> None:
    for bad in ("-1", "x", "501", "1.5"):
        response = client.get(f"/api/history?limit={bad}")
        assert response.status_code == 400
        assert "limit must be a whole number" in response.get_json()["error"]


def test_exports_hold_the_finished_hands(client: Any, service: Any) -> None:
    from tocktable.steps import Confirm

    play(service, [*DEMO_HAND, Confirm()])  # the ledger counts closed hands; hand 2 has begun
    phh = client.get("/api/export/phh")
    assert phh.status_code == 200
    assert "attachment" in phh.headers["Content-Disposition"]
    hands = tomllib.loads(phh.get_data(as_text=True))
    assert list(hands) == ["1"]
    assert hands["1"]["players"] == ["Bob", "Cleo", "Dan", "Eve", "Finn", "Ann"]
    ledger = client.get("/api/export/ledger.json").get_json()
    assert {line["name"]: line["net"] for line in ledger["ledger"]}["Cleo"] == 830
    assert sum(p["amount"] for p in ledger["payments"]) == 830  # Bob 600, Dan 200, Finn 30 pay Cleo
    rows = list(csv.DictReader(io.StringIO(client.get("/api/export/ledger.csv").get_data(as_text=True))))
    assert {r["name"]: int(r["net"]) for r in rows} == {line["name"]: line["net"] for line in ledger["ledger"]}


def test_openapi_documents_every_json_route(app: Any, client: Any) -> None:
    document = client.get("/api/openapi.json").get_json()
    assert document["openapi"].startswith("3.")
    documented = set(document["paths"])
    for rule in app.url_map.iter_rules():
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
        json_route = path.startswith("/api/") or path.endswith(".json") or (
            path.startswith("/admin/") and "POST" in (rule.methods or ())
        )
        if json_route and path not in ("/admin/login", "/admin/logout"):
            assert path in documented, f"{path} is not in the OpenAPI document"
