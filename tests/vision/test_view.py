from vision.view import BOARD, SeenCard, TableView, seat_zone

CORNERS = ((0.1, 0.1), (0.2, 0.1), (0.2, 0.3), (0.1, 0.3))


def _seen(card: str | None, face_up: bool = True, zone: str = BOARD) -> SeenCard:
    return SeenCard(card=card, face_up=face_up, mark=None, zone=zone, confidence=0.99, corners=CORNERS)


def test_face_up_board_stops_at_the_first_card_still_face_down() -> None:
    view = TableView(frame_index=7, timestamp=1.0, board=(_seen("Ah"), _seen("Kd"), _seen(None, False), _seen("2c")))
    assert view.face_up_board() == ("Ah", "Kd")


def test_seat_cards_of_an_empty_seat_is_empty() -> None:
    view = TableView(frame_index=0, timestamp=0.0, seats={2: (_seen(None, False, seat_zone(2)),)})
    assert view.seat_cards(5) == ()
    assert view.seat_cards(2)[0].zone == "seat:2"
