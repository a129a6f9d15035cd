"""No page and no API ever shows a hole card before the showdown, not even one the camera saw
face up (a peek): pages, JSON, exports, the event stream, the host's camera view and frame. At
an all-in the line is where betting closes: then the tabled hands are shown before the board."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from hardware.frames import Frame
from tests.tocktable.helpers import view
from tests.web.helpers import DEMO_FLOP, DEMO_PREFLOP, DEMO_RIVER, DEMO_SHOWDOWN, DEMO_TURN, play
from tests.web.test_admin import login
from tests.web.test_events import EventReader
from tocktable.steps import Act, ChooseButton
from web.context import EXTENSION

PEEKED = ("As", "Qs")  # Bob's (seat 1) hole cards in the demo hand
CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])(As|Qs)(?![a-z])|AsQs|QsAs")


class StillCamera:
    """A frame source that always has the same frame: white where the peeked cards lie."""

    def __init__(self, image: np.ndarray) -> None:
        self.frame = Frame(image, 0.0, 7)

    def read(self, *, newer_than: int = 0, timeout: float = 1.0) -> Frame | None:
        return self.frame if self.frame.index > newer_than else None


def peek_view() -> Any:
    """The camera's view at the flop: board face up, Bob's two cards face up in his zone."""
    return view(board=["Ah", "Kd", "7c"], seats={1: list(PEEKED)}, frame=7)


def white_in_seat_1_zone(app: Any, width: int = 400, height: int = 300) -> np.ndarray:
    """A black frame, white over seat 1's zone: where Bob's cards lie on the table."""
    import cv2

    from web.camera import _zones

    image = np.zeros((height, width, 3), np.uint8)
    zone = _zones(app.extensions[EXTENSION].config)["seat:1"]
    polygon = np.array([[x * width, y * height] for x, y in zone]).round().astype(np.int32)
    cv2.fillPoly(image, [polygon], (255, 255, 255))
    return image


def everything(client: Any) -> dict[str, str]:
    """The text of every page and API a phone or the host can fetch."""
    urls = ["/", "/api/state", "/api/history?limit=50", "/api/export/phh", "/api/export/ledger.json",
            "/api/export/ledger.csv", "/api/openapi.json", "/admin", "/admin/state", "/admin/camera",
            "/admin/camera/view.json", "/dice"]  # fmt: skip
    out = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        out[url] = response.get_data(as_text=True)
    stream = client.get("/api/events", buffered=False)
    reader = EventReader(stream, until=lambda events: any(kind == "state" for kind, _ in events))
    out["/api/events"] = repr(reader.wait())
    return out


def test_a_peeked_hole_card_is_shown_nowhere_before_the_showdown(app: Any, client: Any, service: Any) -> None:
    image = white_in_seat_1_zone(app)
    app.extensions[EXTENSION].camera = StillCamera(image)
    login(client)
    play(service, [ChooseButton(seat=0), *DEMO_PREFLOP])
    service.call(peek_view())  # the flop read from the table, and Bob's peek
    state = client.get("/api/state").get_json()
    assert state["board"] == ["Ah", "Kd", "7c"] and state["street"] == "flop"
    assert any(w["kind"] == "peek" and w["seat"] == 1 for w in state["warnings"])
    for url, text in everything(client).items():
        assert CARD_TOKEN.search(text) is None, f"{url} shows a peeked card: {CARD_TOKEN.search(text)}"
    camera = client.get("/admin/camera/view.json").get_json()
    hidden = [c for c in camera["cards"] if c["zone"] == "seat:1"]
    assert len(hidden) == 2 and all(c["hidden"] and c["card"] is None for c in hidden)
    assert [c["card"] for c in camera["cards"] if c["zone"] == "board"] == ["Ah", "Kd", "7c"]
    frame = client.get("/admin/camera/frame.jpg")
    assert frame.mimetype == "image/jpeg"
    import cv2

    decoded = cv2.imdecode(np.frombuffer(frame.data, np.uint8), cv2.IMREAD_COLOR)
    bright = image > 0
    assert bright.any()
    assert decoded[bright].mean() < 60  # the whole seat zone blacked out (JPEG blurs the edges a little)


def test_a_peek_the_reader_missed_is_still_blacked_out(app: Any, client: Any, service: Any) -> None:
    import cv2

    image = white_in_seat_1_zone(app)  # Bob's cards face up in his zone...
    app.extensions[EXTENSION].camera = StillCamera(image)
    login(client)
    play(service, [ChooseButton(seat=0), *DEMO_PREFLOP])
    service.call(view(board=["Ah", "Kd", "7c"], frame=7))  # ...but the reader saw only the board
    assert client.get("/api/state").get_json()["street"] == "flop"
    decoded = cv2.imdecode(np.frombuffer(client.get("/admin/camera/frame.jpg").data, np.uint8), cv2.IMREAD_COLOR)
    inside = cv2.erode(image[:, :, 0], np.ones((5, 5), np.uint8)) > 0  # away from the JPEG-blurred edge
    assert inside.any()
    assert decoded[inside].max() < 60  # every pixel of the seat zone is dark


def test_at_the_showdown_the_shown_cards_appear(app: Any, client: Any, service: Any) -> None:
    """The other side of the test above: the same searches do find the cards once shown."""
    image = white_in_seat_1_zone(app)
    app.extensions[EXTENSION].camera = StillCamera(image)
    login(client)
    play(service, [ChooseButton(seat=0), *DEMO_PREFLOP, *DEMO_FLOP, *DEMO_TURN, *DEMO_RIVER, *DEMO_SHOWDOWN])
    texts = everything(client)
    for url in ("/", "/api/state", "/api/history?limit=50", "/api/export/phh", "/api/events"):
        assert CARD_TOKEN.search(texts[url]) is not None, url
    frame = client.get("/admin/camera/frame.jpg")
    import cv2

    decoded = cv2.imdecode(np.frombuffer(frame.data, np.uint8), cv2.IMREAD_COLOR)
    assert decoded[image > 0].mean() > 200  # at the showdown the host sees the table as it is


def test_camera_page_without_a_camera(client: Any) -> None:
    login(client)
    assert client.get("/admin/camera/frame.jpg").status_code == 404
    data = client.get("/admin/camera/view.json").get_json()
    assert data["camera"] is False and data["frame"] is None and data["cards"] == []
    assert set(data["zones"]) == {"board", *(f"seat:{s}" for s in range(6))}


ALLIN_HOLE = {3: ("Qc", "Jh"), 2: ("8s", "8h")}  # Dan's and Cleo's cards in the all-in below
ALLIN_TOKEN = re.compile(r"(?<![A-Za-z0-9])(Qc|Jh|8s|8h)(?![a-z])")


def test_at_an_all_in_a_hand_is_a_peek_until_betting_closes_then_it_is_shown(
    app: Any, client: Any, service: Any
) -> None:
    """Both sides of the all-in rule: Dan's cards face up while Cleo is still to act are a peek
    (shown nowhere); once her call closes the betting, the tabled hands appear before the flop."""
    login(client)
    play(service, [ChooseButton(seat=0), Act(3, "all_in"), *(Act(s, "fold") for s in (4, 5, 0, 1))])
    service.call(view(seats={3: list(ALLIN_HOLE[3])}, frame=3))
    state = client.get("/api/state").get_json()
    assert state["to_act"] == 2 and any(w["kind"] == "peek" and w["seat"] == 3 for w in state["warnings"])
    for url, text in everything(client).items():
        assert ALLIN_TOKEN.search(text) is None, f"{url} shows a peeked card: {ALLIN_TOKEN.search(text)}"
    assert state["hands_may_be_shown"] is False
    service.call(Act(2, "call"))  # Cleo all in: the camera's last view now shows Dan's hand
    state = client.get("/api/state").get_json()
    assert state["street"] == "preflop" and state["board"] == [] and state["hands_may_be_shown"] is True
    camera = client.get("/admin/camera/view.json").get_json()  # the host's camera page shows it too
    assert [c["card"] for c in camera["cards"] if c["zone"] == "seat:3"] == list(ALLIN_HOLE[3])
    assert {s["seat"]: s["hole"] for s in state["seats"] if s["hole"]} == {3: ["Qc", "Jh"]}
    assert not any(w["kind"] == "peek" for w in state["warnings"])
    service.call(view(seats={s: list(c) for s, c in ALLIN_HOLE.items()}, frame=4))
    state = client.get("/api/state").get_json()
    assert {s["seat"]: s["hole"] for s in state["seats"] if s["hole"]} == {2: ["8s", "8h"], 3: ["Qc", "Jh"]}
    texts = everything(client)
    for url in ("/", "/api/state", "/api/events"):
        assert {m.group(1) for m in ALLIN_TOKEN.finditer(texts[url])} == {"Qc", "Jh", "8s", "8h"}, url
