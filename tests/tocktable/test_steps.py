import pytest

from tocktable.steps import (
    STEP_TYPES,
    Act,
    ChooseButton,
    CommandError,
    DealBoard,
    MarkRead,
    Press,
    payload_of,
    step_from_json,
    step_to_json,
)


@pytest.mark.parametrize(
    "step",
    [Act(2, "raise", 40), Act(0, "fold"), DealBoard(("Ah", "7d", "2c")), ChooseButton(draws={0: "Kd", 3: "As"}),
     ChooseButton(seat=1), MarkRead(None, 4, "s:ace"), Press("undo")],
)  # fmt: skip
def test_steps_survive_json(step):
    assert step_from_json(step_to_json(step)) == step


def test_payload_is_the_fields_without_the_kind():
    assert payload_of(Act(1, "call")) == {"seat": 1, "action": "call", "amount": None}
    assert set(STEP_TYPES) >= {"act", "undo", "deal_board", "show", "confirm", "correct", "choose_button"}


def test_board_cards_may_be_given_as_text():
    assert step_from_json({"kind": "deal_board", "cards": "Ah 7d 2c"}) == DealBoard(("Ah", "7d", "2c"))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([1, 2], "a command is a JSON object"),
        ({"kind": "dance"}, "unknown command kind 'dance': use one of"),
        ({"kind": "act", "seat": 1}, "missing field 'action'"),
        ({"kind": "act", "seat": "one", "action": "call"}, "seat must be a whole number"),
        ({"kind": "act", "seat": True, "action": "call"}, "seat must be a whole number"),
        ({"kind": "act", "seat": 1, "action": "call", "chips": 5}, "unknown field 'chips'"),
        ({"kind": "deal_board", "cards": [1, 2]}, "list of cards"),
        ({"kind": "choose_button", "draws": {"x": "Ah"}}, "keys are seat numbers"),
        ({"kind": "sit_out", "seat": 1, "back": "yes"}, "true or false"),
        ({"kind": "act", "seat": None, "action": "call"}, "must not be null"),
    ],
)
def test_malformed_commands_say_what_is_wrong(data, message):
    with pytest.raises(CommandError, match=message):
        step_from_json(data)
