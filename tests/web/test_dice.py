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
    for path in ("new", "announce", "challenge", "roll-off", "throw", "look", "show", "tour-de-poker", "undo"):
        response = client.post(f"/api/dice/{path}", json={"players": "Ana, Ben"}, headers={"X-CSRF-Token": "x"})
        assert response.status_code == 403
    assert client.get("/api/dice").get_json()["active"] is False


# ------------------------------------------------------------------ the throwing phase followed
def _refused(client: Any, response: Any, words: str) -> None:
    """A move the rules forbid: 409 with the rule in its message."""
    assert response.status_code == 409, response.get_json()
    assert words in response.get_json()["error"]


def test_a_followed_series_holds_each_player_to_the_throwing_phase(client: Any, dice: Any) -> None:
    assert dice("new", {"players": "Ana, Ben", "track_throws": True}).status_code == 200
    assert client.get("/api/dice").get_json()["throwing"] == {"hidden": [], "phases": [], "current": None}

    def refused(path: str, body: Any, words: str) -> None:
        before = client.get("/api/dice").get_json()
        _refused(client, dice(path, body), words)
        assert client.get("/api/dice").get_json() == before  # nothing changed, not even the version

    refused("announce", {"announcement": "Paire de Dames"}, "all five dice are thrown first")
    refused("look", {}, "nothing under the cup yet")
    assert dice("throw", {"dice": [0, 1, 2], "under_cup": True}).get_json()["result"] == {
        "player": "Ana", "dice": [0, 1, 2], "under_cup": True}
    refused("throw", {"dice": [2, 3, 4], "under_cup": True}, "dice [2] were already thrown in this phase")
    refused("announce", {"announcement": "Paire de Dames"}, "not yet: [3, 4]")
    dice("undo")
    assert dice("throw", {"dice": [0, 1, 2, 3, 4], "under_cup": True}).status_code == 200
    assert dice("announce", {"announcement": "Paire de Dames"}).status_code == 200

    # Ben receives the cup: he looks (believing), so he must throw before announcing.
    assert dice("look").status_code == 200
    refused("challenge", {"roll": "D D N R K"}, "that is believing the announcement")
    refused("announce", {"announcement": "Supérieur"}, "at least one die is thrown before announcing")
    refused("throw", {"dice": [0], "under_cup": True}, "dice [1, 2, 3, 4] are under the cup and not thrown")
    refused("show", {"dice": [0, 0]}, "each die once")
    shown = dice("show", {"dice": [1, 2]}).get_json()["state"]["throwing"]
    assert shown["hidden"] == [0, 3, 4]
    assert shown["current"] == {"player": "Ben", "looked": True, "tour_de_poker": False, "shown": [1, 2], "throws": []}
    refused("show", {"dice": [2]}, "dice [2] are not under the cup")
    assert dice("throw", {"dice": [0, 3, 4], "under_cup": True}).status_code == 200
    assert dice("announce", {"announcement": "Supérieur"}).get_json()["result"]["french"] == "Paire de Rois"

    state = client.get("/api/dice").get_json()
    assert state["to_act"] == "Ana" and state["throwing"]["hidden"] == [0, 3, 4]
    assert state["throwing"]["phases"] == [
        {"player": "Ana", "looked": False, "tour_de_poker": False, "shown": [],
         "throws": [{"dice": [0, 1, 2, 3, 4], "under_cup": True}]},
        {"player": "Ben", "looked": True, "tour_de_poker": False, "shown": [1, 2],
         "throws": [{"dice": [0, 3, 4], "under_cup": True}]},
    ]  # fmt: skip
    # Ana believes without looking: no throw needed. Ben then lifts the cup: a new game, nothing hidden.
    assert dice("announce", {"announcement": "Supérieur"}).status_code == 200
    outcome = dice("challenge", {"roll": "D D K K N"}).get_json()
    assert outcome["state"]["throwing"] == {"hidden": [], "phases": [], "current": None}
    assert outcome["state"]["game"] == 2


def test_a_tour_de_poker_is_followed_too(client: Any, dice: Any) -> None:
    dice("new", {"players": ["Ana", "Ben"], "track_throws": True})
    dice("throw", {"dice": [0, 1, 2, 3, 4]})
    dice("announce", {"announcement": "Poker de Dames"})
    _refused(client, dice("tour-de-poker"), "once the player has looked under the cup")
    dice("look")
    started = dice("tour-de-poker").get_json()
    throws = started["result"]["throws"]
    assert throws == started["state"]["tour_de_poker_throws"] and throws >= 1
    _refused(client, dice("throw", {"dice": [0, 1]}), "its first throw is all five")
    for _ in range(throws):
        assert dice("throw", {"dice": [0, 1, 2, 3, 4]}).status_code == 200
    _refused(client, dice("throw", {"dice": [0]}), f"this Tour de Poker has {throws} throws, all used")
    _refused(client, dice("announce", {"announcement": "Poker de Rois"}), "announce with tour_de_poker=True")
    done = dice("announce", {"announcement": "Poker de Rois", "tour_de_poker": True}).get_json()
    assert done["state"]["history"][-1]["tour_de_poker_throws"] == throws


def test_throws_of_a_series_that_does_not_follow_them_are_refused(client: Any, dice: Any) -> None:
    dice("new", {"players": "Ana, Ben"})
    assert "throwing" not in client.get("/api/dice").get_json()
    before = client.get("/api/dice").get_json()
    for path, body in (("throw", {"dice": [0, 1, 2, 3, 4]}), ("look", {}), ("show", {"dice": [0]}),
                       ("tour-de-poker", {})):  # fmt: skip
        _refused(client, dice(path, body), "follows the announcements only")
    assert client.get("/api/dice").get_json() == before
    assert dice("announce", {"announcement": "Un Roi"}).status_code == 200  # announcements alone, as before


@pytest.mark.parametrize(("path", "body"), [
    ("new", {"players": "Ana, Ben", "track_throws": "yes"}),
    ("throw", {"dice": "0 1 2"}),
    ("throw", {"dice": []}),
    ("throw", {"dice": [0, 5]}),
    ("throw", {"dice": [True]}),
    ("throw", {"dice": [0], "under_cup": 1}),
    ("show", {}),
    ("show", {"dice": [-1]}),
])  # fmt: skip
def test_malformed_throws_are_refused_as_malformed(client: Any, dice: Any, path: str, body: Any) -> None:
    dice("new", {"players": "Ana, Ben", "track_throws": True})
    before = client.get("/api/dice").get_json()
    response = dice(path, body)
    assert response.status_code == 400 and response.get_json()["ok"] is False
    assert client.get("/api/dice").get_json() == before
