"""The set-up page's words made at the web's edge from the table's values: whether the zones
match the picture, the cards named while the deck is taught, the dry run's winning hands."""

from __future__ import annotations

import numpy as np

from table.evaluate import evaluate
from tocktable.zone_check import zones_match
from web.words import words_for
from web.words.setup import deck_words, dry_run_words, zone_match_words

EN, FR = words_for("en"), words_for("fr")
ZONES = {"board": [[0.3, 0.3], [0.7, 0.3], [0.7, 0.7], [0.3, 0.7]],
         "seat:0": [[0.0, 0.8], [0.3, 0.8], [0.3, 1.0], [0.0, 1.0]]}  # fmt: skip


def card(x: float, y: float) -> np.ndarray:
    """A 40 x 56 px card outline centred at (x, y) of a 1000 x 500 picture."""
    cx, cy = x * 1000, y * 500
    return np.array([[cx - 20, cy - 28], [cx + 20, cy - 28], [cx + 20, cy + 28], [cx - 20, cy + 28]])


def check(*cards: tuple[float, float]) -> dict[str, object]:
    return zones_match([card(x, y) for x, y in cards], (1000, 500), ZONES)


def test_each_kind_of_zone_check_is_said_in_french_with_its_figures() -> None:
    moved = zone_match_words(FR, check((0.8, 0.5), (0.9, 0.5), (0.5, 0.5), (0.4, 0.5)))
    assert moved["text"].startswith("Les zones ne correspondent plus à l’image\xa0: 2 des 4 cartes vues")
    crowded = zone_match_words(FR, check((0.4, 0.5), (0.6, 0.5)))
    assert "aucune carte dans la zone du siège 1\u202f; 2 cartes dans la zone des cartes communes" in crowded["text"]
    aside = zone_match_words(FR, check((0.4, 0.5), (0.5, 0.5), (0.15, 0.9), (0.9, 0.1)))
    assert aside["ok"] and aside["text"] == (
        "Les zones correspondent à l’image\xa0: 3 des 4 cartes vues sont dans une zone. (1 hors de toute zone)"
    )
    assert zone_match_words(FR, check())["text"].startswith("Aucune carte sur la table")


def test_the_english_zone_check_keeps_the_tables_meaning() -> None:
    crowded = check((0.4, 0.5), (0.6, 0.5))
    said = zone_match_words(EN, crowded)
    assert said["ok"] is False and said["kind"] == crowded["kind"] == "one-per-zone"
    assert "no card in seat 1's zone; 2 cards in the board's zone" in said["text"]
    one = zone_match_words(EN, check((0.4, 0.5), (0.15, 0.9)))
    assert one["text"] == "The zones match the picture: 2 of the 2 cards seen lie in a zone."


def test_the_cards_of_the_deck_teaching_are_named_in_the_phones_language() -> None:
    status = {"state": "teaching", "next": {"card": "Qh", "name": "queen of hearts"},
              "pending": {"card": "Qh", "name": "queen of hearts", "read": "Qd", "read_name": "queen of diamonds"},
              "check": {"cards": [{"card": "Th", "name": "10 of hearts"},
                                  {"card": None, "name": "not read"}]}}  # fmt: skip
    said = deck_words(FR, status)
    assert said["next"] == {"card": "Qh", "name": "la dame de cœur"}
    assert (said["pending"]["name"], said["pending"]["read_name"]) == ("la dame de cœur", "la dame de carreau")
    assert [c["name"] for c in said["check"]["cards"]] == ["le dix de cœur", "non lue"]
    assert status["next"]["name"] == "queen of hearts"  # a new dict: the teacher's own is left as it is
    assert deck_words(EN, status)["next"]["name"] == "the queen of hearts"


def test_the_dry_runs_winning_hand_is_named_from_its_key() -> None:
    key = list(evaluate(["As", "Kd", "Qs", "Jc", "2d", "Tc", "9s"]).key)
    winner = {"seat": "seat 1", "number": 1, "amount": 30, "hand": "Straight, ace high", "hand_key": key}
    report = {"state": "done", "streets": [{"street": "showdown", "game": {"winners": [winner]}}]}
    said = dry_run_words(FR, report)["streets"][0]["game"]["winners"][0]
    assert said["hand"].startswith("Quinte") and said["hand"] != winner["hand"], said["hand"]
    assert dry_run_words(EN, report)["streets"][0]["game"]["winners"][0]["hand"] == "Straight, ace high"
