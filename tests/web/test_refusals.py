"""A refusal reads whole in the phone's language: the host's answer to a refused command, the
warning the host's page shows afterwards, the dice referee's refusal and the aim advice, with
their figures (seats, chips, counts) written as each language writes them."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import numpy as np
import pytest

from hardware.aim import aim_advice
from table.errors import IllegalActionError
from table.phrases import N_, Chips, Counted, Listed, Phrase, Seat, Seats, Verbatim, Word
from tests.web.helpers import PIN
from tests.web.test_admin import login, post
from tocktable.steps import ChooseButton
from web.words import words_for
from web.words.phrases import say, say_error
from web.words.setup import advice_words

EN, FR = words_for("en"), words_for("fr")
NNBSP, NBSP = "\u202f", "\u00a0"  # French digit groups; before a colon

# English words of the refusals below: none may be left in the French.
ENGLISH = re.compile(r"\b(seat|cannot|raise|check|call|fold|allowed|there is|bet of|turn|not)\b", re.IGNORECASE)


def refuse(client: Any, token: str, body: dict[str, Any], language: str) -> Any:
    return client.post("/admin/command", json=body, headers={"X-CSRF-Token": token, "Accept-Language": language})


def test_a_refused_raise_reads_in_french_with_french_numbers(client: Any, service: Any) -> None:
    token = login(client)
    service.call(ChooseButton(seat=0))  # Dan (seat 4) is first to act; his stack is 1000
    raise_ = {"kind": "act", "seat": 3, "action": "raise", "amount": 1500}
    french = refuse(client, token, raise_, "fr-FR,fr;q=0.9")
    english = refuse(client, token, raise_, "en")
    assert french.status_code == english.status_code == 409
    assert french.get_json()["error"] == (
        f"le siège 4 ne peut pas relancer à 1{NNBSP}500{NBSP}: relancer de 20 à 1{NNBSP}000"
    )
    assert english.get_json()["error"] == "seat 4 cannot raise to 1,500: raise to 20..1,000"

    warnings = client.get("/admin/state", headers={"Accept-Language": "fr"}).get_json()["warnings"]
    assert [w["message"] for w in warnings] == [
        f"Refusé{NBSP}: le siège 4 ne peut pas relancer à 1{NNBSP}500{NBSP}: relancer de 20 à 1{NNBSP}000"
    ] * 2  # one warning per refused command, said for this phone
    assert "phrase" not in warnings[0]  # the phrase's data is for the edge, not the page
    said_in_english = client.get("/admin/state", headers={"Accept-Language": "en"}).get_json()["warnings"]
    assert [w["message"] for w in said_in_english] == ["seat 4 cannot raise to 1,500: raise to 20..1,000"] * 2


def test_a_refused_check_names_every_allowed_action_in_french(client: Any, service: Any) -> None:
    token = login(client)
    service.call(ChooseButton(seat=0))
    answer = refuse(client, token, {"kind": "act", "seat": 3, "action": "check"}, "fr").get_json()["error"]
    assert answer == (
        f"le siège 4 ne peut pas dire parole{NBSP}: il y a une mise de 10 à suivre{NNBSP}; permis{NBSP}: "
        f"se coucher, suivre (10), relancer de 20 à 1{NNBSP}000, faire tapis (1{NNBSP}000)"
    )
    assert not ENGLISH.search(answer)
    wrong_seat = refuse(client, token, {"kind": "act", "seat": 2, "action": "call"}, "fr").get_json()["error"]
    assert wrong_seat == "le siège 4 a la parole, pas le siège 3"


def test_the_script_api_and_a_correction_answer_in_the_phones_language(client: Any, service: Any) -> None:
    token = login(client)
    service.call(ChooseButton(seat=0))
    scripted = client.post("/api/command", json={"kind": "act", "seat": 0, "action": "fold"},
                           headers={"X-Admin-Pin": PIN, "Accept-Language": "fr"})  # fmt: skip
    assert scripted.status_code == 409 and scripted.get_json()["error"] == "le siège 4 a la parole, pas le siège 1"
    corrected = post(client, "/admin/command", token, {"kind": "correct", "seat": None, "index": 1, "card": "7d"})
    assert corrected.get_json()["error"] == (
        "there is no board card 2 to correct: no board card is dealt yet"  # no language asked: English
    )
    french = refuse(client, token, {"kind": "correct", "seat": None, "index": 1, "card": "7d"}, "fr")
    assert french.get_json()["error"] == (
        f"il n’y a pas de carte commune 2 à corriger{NBSP}: aucune carte commune n’est encore retournée"
    )


def test_the_new_game_form_refuses_in_french(client: Any) -> None:
    token = login(client)
    answer = client.post("/admin/game", json={"seats": 4, "players": "Ann, Bob, Cleo, Dan, Eve"},
                         headers={"X-CSRF-Token": token, "Accept-Language": "fr"})  # fmt: skip
    assert answer.status_code == 400
    assert answer.get_json()["error"] == f"5 joueurs pour 4 sièges{NBSP}: ajoutez des sièges ou retirez des joueurs"
    blinds = client.post("/admin/game", json={"blinds": "5/10, 10/x"},
                         headers={"X-CSRF-Token": token, "Accept-Language": "fr"})  # fmt: skip
    assert blinds.get_json()["error"] == (
        f"blindes{NBSP}: niveau 2 '10/x'{NBSP}: 'x' n’est pas un nombre entier de jetons"
    )


def test_a_dice_refusal_reads_in_french(client: Any) -> None:
    html = client.get("/dice").get_data(as_text=True)
    token = re.search(r'<meta name="csrf-token" content="([^"]+)">', html)
    assert token is not None
    headers = {"X-CSRF-Token": token.group(1), "Accept-Language": "fr"}
    client.post("/api/dice/new", json={"players": "Ana, Ben, Cyd"}, headers=headers)
    opened = client.post("/api/dice/announce", json={"announcement": "Paire de Dames"}, headers=headers)
    assert opened.status_code == 409 and opened.get_json()["error"] == (
        f"Ana ouvre la partie 1 et choisit le sens{NBSP}: passez direction='left' ou 'right'"
    )
    client.post("/api/dice/announce", json={"announcement": "Paire de Dames", "direction": "left"}, headers=headers)
    lower = client.post("/api/dice/announce", json={"announcement": "Paire de Valets"}, headers=headers)
    error = lower.get_json()["error"]
    assert error == (
        f"'Paire de Valets' ne bat pas 'Paire de Dames'{NBSP}: une annonce doit être plus haute que celle reçue"
        f"{NNBSP}; la plus basse permise est 'Paire de Rois' («{NBSP}Supérieur{NBSP}»)"
    )


@pytest.mark.parametrize(
    ("phrase", "english", "french"),
    [
        (Phrase(N_("seat {seat} cannot {action} to {amount}: {allowed}"), seat=Seat(9),
                action=Word("raise", "action"), amount=Chips(12345),
                allowed=Phrase(N_("{action} to {amount}"), action=Word("call", "action"), amount=Chips(2000))),
         "seat 10 cannot raise to 12,345: call to 2,000",
         f"le siège 10 ne peut pas relancer à 12{NNBSP}345{NBSP}: suivre à 2{NNBSP}000"),
        (Phrase(N_("seat {seat} is empty (occupied: {taken})"), seat=Seat(1), taken=Seats([0, 2, 3])),
         "seat 2 is empty (occupied: seats 1, 3 and 4)", f"le siège 2 est vide (occupés{NBSP}: sièges 1, 3 et 4)"),
        (Phrase(N_("seat {seat} is empty (occupied: {taken})"), seat=Seat(1), taken=Seats([5])),
         "seat 2 is empty (occupied: seat 6)", f"le siège 2 est vide (occupés{NBSP}: siège 6)"),
        (Phrase(N_("seat {seat} already drew {drew}: one draw per player"), seat=Seat(0),
                drew=Counted(1, "{n} card", "{n} cards")),
         "seat 1 already drew 1 card: one draw per player",
         f"le siège 1 a déjà tiré 1 carte{NBSP}: un tirage par joueur"),
        (Phrase(N_("{refusal}; did you mean {suggestions}?"), refusal=Phrase(N_("no dice")),
                suggestions=Listed([Verbatim("'Un Roi'"), Verbatim("'Un As'")], "or")),
         "no dice; did you mean 'Un Roi' or 'Un As'?",
         f"aucun dé{NNBSP}; vouliez-vous dire 'Un Roi' ou 'Un As'{NNBSP}?"),
    ],
)  # fmt: skip
def test_figures_are_written_as_each_language_writes_them(phrase: Phrase, english: str, french: str) -> None:
    assert say(EN, phrase) == english and say(FR, phrase) == french
    if "," not in english:  # the table's own English is the same words, with its plain digits
        assert phrase.english() == english


def test_str_of_a_refusal_stays_english_and_an_error_without_phrase_is_said_as_written() -> None:
    error = IllegalActionError(N_("there is a bet of {amount} to call"), amount=Chips(1500))
    assert str(error) == "there is a bet of 1500 to call"
    assert say_error(FR, error) == f"il y a une mise de 1{NNBSP}500 à suivre"
    assert say_error(FR, ValueError("plain words")) == "plain words"


def test_the_aim_advice_reads_in_french() -> None:
    frame = np.full((720, 1280, 3), 40, np.uint8)
    items = [item.to_dict() for item in aim_advice(frame, [])]
    assert items[0]["text"].startswith("No card is seen")
    said = advice_words(FR, items)
    assert said[0]["text"].startswith("Aucune carte n’est vue") and "phrase" not in said[0]
    corners = [[[100 + 150 * i, 300], [190 + 150 * i, 300], [190 + 150 * i, 430], [100 + 150 * i, 430]]
               for i in range(3)]  # fmt: skip
    found = advice_words(FR, [item.to_dict() for item in aim_advice(frame, corners)])
    assert found[0]["text"] == "3 cartes vues."
    assert all(not re.search(r"\b(the|camera|cards|is)\b", item["text"]) for item in found)


RULE_FR = "de 1 à 24 caractères imprimables (lettres, chiffres, espaces, ponctuation)"
RULE_EN = "1 to 24 printable characters (letters, digits, spaces, punctuation)"


@pytest.mark.parametrize("language", ["fr", "en"])
def test_a_refused_name_reads_wholly_in_the_phones_language(client: Any, language: str) -> None:
    """The one rule of names (the new-game form, a seat taken, the dice players) is said in the
    phone's language, the name itself shown as typed."""
    token = login(client)

    def error(path: str, body: dict[str, Any]) -> str:
        answer = client.post(path, json=body, headers={"X-CSRF-Token": token, "Accept-Language": language})
        assert answer.status_code == 400, answer.get_data(as_text=True)
        said: str = answer.get_json()["error"]
        return said

    long_name = "x" * 25
    said = [
        error("/admin/game", {"players": ["Ann", long_name], "seats": 4}),
        error("/admin/command", {"kind": "seat", "seat": 3, "name": "Ann\x1b[31m", "chips": 500}),
        error("/admin/command", {"kind": "seat", "seat": 3, "name": "   ", "chips": 500}),
        error("/api/dice/new", {"players": ["Ann", "Bob"], "first": ["Ann"]}),
    ]
    if language == "fr":
        assert said == [
            f"joueurs{NBSP}: le nom d’un joueur doit compter {RULE_FR}{NBSP}: {long_name!r} compte 25 caractères",
            f"le nom d’un joueur doit compter {RULE_FR}{NBSP}: 'Ann\\x1b[31m' contient U+001B en position 4",
            f"le nom d’un joueur ne doit pas être vide{NBSP}: {RULE_FR}",
            f"le nom du premier joueur doit être du texte{NBSP}: {RULE_FR}{NNBSP}; reçu list",
        ]
        assert not any(re.search(r"\b(players|name|must|printable|characters|long|got)\b", s) for s in said)
    else:
        assert said == [
            f"players: a player's name must be {RULE_EN}: {long_name!r} is 25 characters long",
            f"a player's name must be {RULE_EN}: 'Ann\\x1b[31m' has U+001B at position 4",
            f"a player's name must not be empty: {RULE_EN}",
            f"the first player's name must be text: {RULE_EN}; got list",
        ]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_refusal_quoting_a_number_of_any_size_writes_it_whole(client: Any, language: str) -> None:
    # A script may send any integer; the refusal quotes it back, every digit, in the phone's digit groups.
    huge = 10**25 - 1
    answer = client.post("/api/command", json={"kind": "sit_out", "seat": huge},
                         headers={"X-Admin-Pin": PIN, "Accept-Language": language})  # fmt: skip
    assert answer.status_code in (400, 409)
    group = "," if language == "en" else NNBSP
    assert group.join(["10"] + ["000"] * 8) in answer.get_json()["error"]  # seat index + 1 = 10**25


@pytest.mark.parametrize("value", [0, -7, 10**25, -(10**40), 10**400, 2.5, 1e300])
def test_every_number_is_written_whole_in_every_language(value: float) -> None:
    for words in (EN, FR):
        digits = re.sub(r"[^0-9]", "", words.number(value).split(words.number(0.5)[1])[0])
        whole = str(abs(int(Decimal(repr(value)))))  # a float as it is written, not its binary value
        assert digits == whole, (words.language, value)
