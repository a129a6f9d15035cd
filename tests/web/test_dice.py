"""The poker dice page and its API, with Flask's test client."""

from __future__ import annotations

import re
from typing import Any

import pytest


@pytest.fixture
def dice(client: Any) -> Any:
    """A poster for dice moves with the page's CSRF token; ``dice(path, body)`` -> response."""
    html = client.get("/dice").get_data(as_text=True)
    match = re.search(r'<meta name="csrf-token" content="([^"]+)">', html)
    assert match is not None

    def post(path: str, body: Any = None) -> Any:
        return client.post(f"/api/dice/{path}", json=body if body is not None else {},
                           headers={"X-CSRF-Token": match.group(1)})  # fmt: skip

    return post


def test_page_and_empty_state(client: Any) -> None:
    page = client.get("/dice")
    assert page.status_code == 200 and b"dice.js" in page.data
    assert client.get("/api/dice").get_json() == {"active": False, "version": 0}
    labels = client.get("/api/dice/announcements").get_json()
    assert len(labels) == 119 and labels[0]["french"] == "Un Roi" and labels[-1]["french"] == "Poker d'As"


def test_a_game_announced_believed_and_challenged(client: Any, dice: Any) -> None:
    assert dice("new", {"players": "Ana, Ben, Cyd"}).status_code == 200
    state = client.get("/api/dice").get_json()
    assert state["active"] and state["to_act"] == "Ana" and state["direction"] is None
    refused = dice("announce", {"announcement": "Paire de Dames"})  # 3 players: the opener picks a direction
    assert refused.status_code == 409 and "direction" in refused.get_json()["error"]
    opened = dice("announce", {"announcement": "Paire de Dames", "direction": "left"}).get_json()
    assert opened["result"]["english"] == "Pair of Queens"
    assert opened["state"]["legal_next"]["french"] == "Paire de Rois" and opened["state"]["to_act"] == "Ben"
    lower = dice("announce", {"announcement": "Paire de Valets"})
    assert lower.status_code == 409 and "does not beat" in lower.get_json()["error"]
    assert dice("announce", {"announcement": "Supérieur"}).get_json()["result"]["french"] == "Paire de Rois"
    outcome = dice("challenge", {"roll": ["D", "D", "D", "N", "R"]}).get_json()
    assert outcome["result"]["lie"] is False and outcome["result"]["loser"] == "Cyd"
    after = outcome["state"]
    assert after["game"] == 2 and after["to_act"] == "Cyd"
    assert after["last_challenge"]["roll"] == ["N", "R", "D", "D", "D"]
    assert {r["name"]: r["points"] for r in after["standings"]} == {"Ana": 0, "Ben": 0, "Cyd": 1}
    assert dice("undo").get_json()["state"]["current"]["french"] == "Paire de Rois"  # the challenge taken back


def test_a_lie_makes_the_announcer_lose(dice: Any) -> None:
    dice("new", {"players": ["Ana", "Ben"]})
    dice("announce", {"announcement": "Full de Rois par les Valets"})
    outcome = dice("challenge", {"roll": "K K V V N"}).get_json()["result"]
    assert outcome["lie"] is True and outcome["loser"] == "Ana"


def test_misspelt_announcements_get_suggestions(dice: Any) -> None:
    dice("new", {"players": "Ana, Ben"})
    response = dice("announce", {"announcement": "Pare de Dmaes"})
    assert response.status_code == 409
    assert response.get_json()["suggestions"][0] == "Paire de Dames"


def test_roll_off_and_petit_full(dice: Any) -> None:
    dice("new", {"players": "Ana, Ben, Cyd"})
    tie = dice("roll-off", {"dice": {"Ana": "K", "Ben": "N", "Cyd": "N"}}).get_json()
    assert tie["result"] == ["Ben", "Cyd"] and tie["state"]["to_act"] == "Ana"  # a tie: throw again
    one = dice("roll-off", {"dice": {"Ben": "R", "Cyd": "N"}}).get_json()
    assert one["result"] == ["Cyd"] and one["state"]["to_act"] == "Cyd"
    full = dice("announce", {"announcement": "Petit Full", "direction": "right", "visible": "D D A"}).get_json()
    assert full["result"]["french"] == "Full de Dames par les As"
    assert full["state"]["direction"] == "right" and full["state"]["to_act"] == "Ben"


@pytest.mark.parametrize(("path", "body", "status"), [
    ("announce", {"announcement": "Paire de Dames"}, 409),  # no game yet
    ("new", {"players": "Ana"}, 409),  # one player
    ("new", {"players": 3}, 400),
    ("new", "players", 400),
    ("challenge", {}, 409),
])  # fmt: skip
def test_bad_moves_change_nothing(client: Any, dice: Any, path: str, body: Any, status: int) -> None:
    before = client.get("/api/dice").get_json()
    response = dice(path, body)
    assert response.status_code == status
    assert response.get_json()["ok"] is False
    assert client.get("/api/dice").get_json() == before


def test_malformed_fields_of_a_running_game(client: Any, dice: Any) -> None:
    dice("new", {"players": "Ana, Ben"})
    before = client.get("/api/dice").get_json()
    for path, body in (("announce", {"announcement": 5}), ("announce", {"announcement": "Un As", "tour_de_poker": 1}),
                       ("challenge", {"roll": 12345}), ("roll-off", {"dice": ["K"]})):  # fmt: skip
        assert dice(path, body).status_code == 400, (path, body)
    assert dice("challenge", {"roll": "N N D"}).status_code == 409  # nothing announced yet (and not five dice)
    assert client.get("/api/dice").get_json() == before


def test_moves_need_the_page_token(client: Any) -> None:
    for path in ("new", "announce", "challenge", "roll-off", "undo"):
        response = client.post(f"/api/dice/{path}", json={"players": "Ana, Ben"}, headers={"X-CSRF-Token": "x"})
        assert response.status_code == 403
    assert client.get("/api/dice").get_json()["active"] is False
