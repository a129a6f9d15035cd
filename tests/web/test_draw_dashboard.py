"""Five-card draw on the phones and the admin page: the variant, the draw counts per player, the
phase, showdown results with five-card hand names, the admin's draw count, a draw game from the
new-game form, and the state matching the OpenAPI document."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from table.engine import BlindStructure
from table.session import DrawOptions, SessionSettings
from tests.web.helpers import make_app
from tests.web.test_admin import login, post
from tocktable.service import Service
from tocktable.steps import Act, ChooseButton, Draw, Press, Show
from tocktable.store import Store


def draw_service(data_dir: Path, *, variant: str = "draw", **options: Any) -> Service:
    settings = SessionSettings(seats=4, variant=variant, blinds=BlindStructure.fixed(5, 10),
                               draw=DrawOptions(**options))  # fmt: skip
    players = [("Ann", 500), ("Bob", 500), ("Cleo", 500)]
    return Service(Store(data_dir / "tocktable.sqlite"), settings, players=players, confirm_seconds=None).start()


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Service]:
    svc = draw_service(tmp_path, jokers=1, wild_rank="3")
    yield svc
    svc.stop()
    svc.store.close()


@pytest.fixture
def client(service: Service, tmp_path: Path) -> Any:
    return make_app(service, tmp_path).test_client()


def state(client: Any) -> dict[str, Any]:
    data: dict[str, Any] = client.get("/api/state").get_json()
    return data


def to_the_draw(service: Service) -> None:
    service.call(ChooseButton(seat=0))
    service.call(Act(1, "bet", 20))
    service.call(Act(2, "call"))
    service.call(Act(0, "call"))


def test_the_state_shows_the_variant_the_phase_and_each_players_draw_count(service: Service, client: Any) -> None:
    s = state(client)
    assert s["variant"] == "draw" and s["draw_game"]["name"] == "Five-card draw, 1 joker, threes wild, draw up to 3"
    to_the_draw(service)
    s = state(client)
    assert s["draw_game"]["phase"] == "draw" and s["draw_game"]["to_draw"] == 1 and s["to_act"] is None
    assert s["draw_game"]["rules"]["ante"] == 5 and s["draw_game"]["rules"]["small_bet"] == 10
    service.call(Draw(1, 3))
    service.call(Press("plus"))
    s = state(client)
    assert [p["drew"] for p in s["seats"]] == [None, 3, None, None] and s["pending_draw"] == 1
    service.call(Press("check_call"))
    service.call(Draw(0, 0))
    s = state(client)
    assert [p["drew"] for p in s["seats"]] == [0, 3, 1, None]
    assert s["draw_game"]["phase"] == "second betting" and s["to_act"] == 1
    assert all(p["hole"] == [] for p in s["seats"])  # nobody's cards before the showdown


def test_the_showdown_names_five_card_hands_with_jokers_and_wild_cards(service: Service, client: Any) -> None:
    to_the_draw(service)
    for seat, count in ((1, 2), (2, 1), (0, 3)):
        service.call(Draw(seat, count))
    for seat in (1, 2, 0):
        service.call(Act(seat, "check"))
    assert state(client)["draw_game"]["phase"] == "showdown"
    service.call(Show(1, ("Kh", "Kd", "Ks", "Kc", "Jk")))
    mid = {p["seat"]: p for p in state(client)["seats"]}
    assert mid[1]["hand"] == "Five of a kind, kings (with a joker)"
    assert mid[1]["best_five"] == ["Kh", "Kd", "Ks", "Kc", "Jk"]
    service.call(Show(2, ("3h", "3d", "Ah", "Ad", "7c")))
    service.call(Show(0, ("5s", "4d", "6c", "8h", "7s")))
    s = state(client)
    assert s["phase"] == "settled"
    seats = {p["seat"]: p for p in s["seats"]}
    assert seats[2]["hand"] == "Four of a kind, aces (with 2 wild cards)"
    assert seats[0]["hand"] == "Straight, eight high"
    (pot,) = s["last_hand"]["pots"]
    assert [w["name"] for w in pot["winners"]] == ["Bob"] and pot["winners"][0]["best_five"][-1] == "Jk"
    assert s["last_hand"]["draws"] == [{"seat": 0, "name": "Ann", "count": 3}, {"seat": 1, "name": "Bob", "count": 2},
                                       {"seat": 2, "name": "Cleo", "count": 1}]  # fmt: skip
    history = client.get("/api/history").get_json()
    names = {x["seat"]: x.get("hand") for x in history["hands"][0]["shown"]}
    assert names[1] == "Five of a kind, kings (with a joker)" and names[0] == "Straight, eight high"


def test_petite_misere_names_the_low_hands(tmp_path: Path) -> None:
    service = draw_service(tmp_path, variant="lowball", low_rule="deuce-to-seven")
    try:
        client = make_app(service, tmp_path).test_client()
        to_the_draw(service)
        for seat in (1, 2, 0):
            service.call(Draw(seat, 1))
        for seat in (1, 2, 0):
            service.call(Act(seat, "check"))
        service.call(Show(1, ("7s", "5d", "4c", "3h", "2c")))
        service.call(Show(2, ("8s", "6d", "4h", "3s", "2d")))
        service.call(Show(0, ("As", "Kd", "Qc", "Jh", "Th")))
        s = state(client)
        names = {p["seat"]: p["hand"] for p in s["seats"] if p["hole"]}
        assert names == {1: "Seven-five low (7-5-4-3-2)", 2: "Eight-six low (8-6-4-3-2)",
                         0: "Straight, ace high (A-K-Q-J-T)"}  # fmt: skip
        assert s["last_hand"]["pots"][0]["winners"][0]["hand"] == "Seven-five low (7-5-4-3-2)"
        assert s["draw_game"]["name"] == "Petite Misère (lowball), deuce-to-seven, draw up to 3"
    finally:
        service.stop()
        service.store.close()


def test_the_pages_carry_the_draw_state_and_the_admin_draw_form(service: Service, client: Any) -> None:
    to_the_draw(service)
    page = client.get("/").get_data(as_text=True)
    initial = json.loads(page.split('<script id="initial-state" type="application/json">')[1].split("</script>")[0])
    assert initial["draw_game"]["to_draw"] == 1
    token = login(client)
    html = client.get("/admin").get_data(as_text=True)
    assert 'id="form-draw"' in html and 'value="lowball"' in html and 'name="jokers"' in html
    answer = post(client, "/admin/command", token, {"kind": "draw", "seat": 1, "count": 2})
    assert answer.status_code == 200 and answer.get_json()["steps"] == ["draw"]
    rows = len(service.store.commands(service.session_id))
    refused = post(client, "/admin/command", token, {"kind": "draw", "seat": 1, "count": 1})
    assert refused.status_code == 409 and "already drew 2" in refused.get_json()["error"]
    too_many = post(client, "/admin/command", token, {"kind": "draw", "seat": 2, "count": 4})
    assert too_many.status_code == 409 and "0 (stands pat) to 3 cards" in too_many.get_json()["error"]
    assert len(service.store.commands(service.session_id)) == rows
    assert post(client, "/admin/command", token, {"kind": "draw_count", "count": 2}).status_code == 200
    assert state(client)["pending_draw"] == 2


def test_a_draw_game_from_the_new_game_form(service: Service, client: Any) -> None:
    token = login(client)
    form = {"variant": "lowball", "seats": 5, "players": "Ann, Bob, Cleo", "blinds": "2/4/1", "jokers": 2,
            "wild_rank": "", "low_rule": "deuce-to-seven", "max_draw": 5, "opening_bet": True}  # fmt: skip
    answer = post(client, "/admin/game", token, form)
    assert answer.status_code == 200, answer.get_json()
    s = state(client)
    assert s["variant"] == "lowball" and s["draw_game"]["rules"]["jokers"] == 2
    assert s["draw_game"]["rules"]["opening_bet"] == 2 and s["draw_game"]["rules"]["ante"] == 1
    bad = post(client, "/admin/game", token, {**form, "jokers": 3})
    assert bad.status_code == 400 and "jokers must be a whole number from 0 to 2" in bad.get_json()["error"]


def test_a_heads_up_draw_game_with_the_croupiers_puck_from_the_new_game_form(service: Service, client: Any) -> None:
    token = login(client)
    form = {"variant": "draw", "seats": 2, "players": "Ann, Bob", "blinds": "2/4"}
    refused = post(client, "/admin/game", token, {**form, "first_dealer": "croupier"})
    assert refused.status_code == 400 and "tick the house option two_players" in refused.get_json()["error"]
    answer = post(client, "/admin/game", token, {**form, "first_dealer": "croupier", "two_players": True})
    assert answer.status_code == 200, answer.get_json()
    s = state(client)
    assert s["phase"] == "seating" and s["first_dealer"] == "croupier"
    assert s["draw_game"]["rules"]["two_players"] is True
    # NEXT places the puck in front of the first player to the croupier's right (the last seat
    # dealt in, seat 1) and deals the first hand: no card is drawn for it.
    assert post(client, "/admin/command", token, {"kind": "press", "button": "next"}).status_code == 200
    s = state(client)
    assert s["phase"] == "playing" and s["button"] == 1 and s["hand_number"] == 1


def test_the_draw_state_matches_the_openapi_document(service: Service, tmp_path: Path) -> None:
    schemathesis = pytest.importorskip("schemathesis")
    app = make_app(service, tmp_path)
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)
    operation = schema.find_operation_by_label("GET /api/state")
    to_the_draw(service)
    service.call(Draw(1, 2))
    operation.Case().call_and_validate()  # mid-draw
    service.call(Draw(2, 0))
    service.call(Draw(0, 1))
    for seat in (1, 2, 0):
        service.call(Act(seat, "check"))
    service.call(Show(1, ("Kh", "Kd", "Ks", "Kc", "Jk")))
    service.call(Press("next"))  # settled: five shown cards with a joker, names, draws
    case = operation.Case()
    case.call_and_validate()
    assert case.call().json()["seats"][1]["hole"][-1] == "Jk"
