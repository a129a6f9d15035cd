"""Poker dice announcements: every form the seed uses, relative forms, Min/Max, bad input."""

from __future__ import annotations

import re

import pytest

from table.dice import (
    Announcement,
    AnnouncementError,
    Category,
    Completion,
    Face,
    Roll,
    all_announcements,
    complete,
    highest,
    lowest,
    next_above,
)
from table.errors import TocktableError

A = Announcement.parse


# Every announcement the seed writes out, with the canonical label it stands for.
SEED_FORMS = [
    ("Un Roi", "Un Roi"),
    ("Un As", "Un As"),
    ("Paire de Dames", "Paire de Dames"),
    ("Paire de Noirs", "Paire de Noirs"),
    ("Paire d’As", "Paire d'As"),
    ("Double Paire de Valets et de Rouges", "Double Paire de Valets et de Rouges"),
    ("Double Paire Valets Rouges", "Double Paire de Valets et de Rouges"),
    ("Double Paire d’As et de Dames", "Double Paire d'As et de Dames"),
    ("Double Paire de Dames et d’As", "Double Paire d'As et de Dames"),
    ("Double Paire de Rouges et de Dames", "Double Paire de Dames et de Rouges"),
    ("Double Paire Roi Dames", "Double Paire de Rois et de Dames"),
    ("Double Paire As Noir", "Double Paire d'As et de Noirs"),
    ("Double Paire de Rouges et de Noirs", "Double Paire de Rouges et de Noirs"),
    ("Double Paire de Rois et d’As", "Double Paire d'As et de Rois"),
    ("Brelan de Noir à la Dame", "Brelan de Noirs à la Dame"),
    ("Brelan de Valets à la Dame", "Brelan de Valets à la Dame"),
    ("Brelan de Valets au Roi", "Brelan de Valets au Roi"),
    ("Brelan de Valets à l’As", "Brelan de Valets à l'As"),
    ("Brelan de Noirs au Rouge", "Brelan de Noirs au Rouge"),
    ("Brelan d’As au Roi", "Brelan d'As au Roi"),
    ("Brelan de Valets au Noir", "Brelan de Valets au Noir"),
    ("Full de Rois par les Valets", "Full de Rois par les Valets"),
    ("Full Rois Valets", "Full de Rois par les Valets"),
    ("Full Dames As", "Full de Dames par les As"),
    ("Full As Dame", "Full d'As par les Dames"),
    ("Full de Dames par les As", "Full de Dames par les As"),
    ("Full d’As par les Dames", "Full d'As par les Dames"),
    ("Carré de Dames à l’As", "Carré de Dames à l'As"),
    ("Carré de Noirs au Rouge", "Carré de Noirs au Rouge"),
    ("Carré de Noirs à la Dame", "Carré de Noirs à la Dame"),
    ("Poker de Dames", "Poker de Dames"),
]


@pytest.mark.parametrize(("said", "label"), SEED_FORMS)
def test_every_seed_form_parses(said: str, label: str) -> None:
    assert A(said).french == label


@pytest.mark.parametrize(
    "said",
    [
        "brelan de noirs a la dame",
        "BRELAN DE NOIRS À LA DAME",
        "Brelan de Noirs à la Dame",
        "brelan de noir a la dame",
        "Brelan  de   Noirs, à la Dame",
        "Brelan N D",
        "brelan 9 dame",
        "un brelan de neuf à la dame",
    ],
)
def test_case_accents_articles_and_letters_do_not_matter(said: str) -> None:
    assert A(said) == Announcement(Category.BRELAN, (Face.NOIR, Face.DAME))


@pytest.mark.parametrize(
    ("said", "label"),
    [
        ("une paire de dames", "Paire de Dames"),
        ("Paire de Reines", "Paire de Dames"),
        ("deux paires rois dames", "Double Paire de Rois et de Dames"),
        ("Double Paire D K", "Double Paire de Rois et de Dames"),
        ("Full A D", "Full d'As par les Dames"),
        ("Full aux As par les Dames", "Full d'As par les Dames"),
        ("full 9 10", "Full de Noirs par les Rouges"),
        ("Carre d'As au Roi", "Carré d'As au Roi"),
        ("poker d as", "Poker d'As"),
        ("Une Salade à l'As", "Un As"),
        ("salade roi", "Un Roi"),
    ],
)
def test_other_everyday_spellings(said: str, label: str) -> None:
    assert A(said).french == label


def test_every_label_parses_back_to_itself() -> None:
    for announcement in all_announcements():
        assert A(announcement.french) == announcement
        assert A(announcement.french_short) == announcement
        assert A(announcement.french.upper()) == announcement


def test_full_order_matters_double_paire_order_does_not() -> None:
    assert A("Full Dames As") != A("Full As Dames")
    assert A("Full Dames As") < A("Full As Dames")
    assert A("Double Paire Dames As") == A("Double Paire As Dames")


# --- the seed's comparisons, stated as announcements ----------------------------------------


@pytest.mark.parametrize(
    ("low", "high"),
    [
        ("Un Roi", "Un As"),
        ("Un As", "Paire de Noirs"),
        ("Paire d'As", "Double Paire de Rouges et de Noirs"),
        ("Double Paire Roi Dames", "Double Paire As Noir"),
        ("Double Paire d'As et de Rois", "Brelan de Noirs au Rouge"),
        ("Brelan de Valets au Roi", "Brelan de Valets à l'As"),
        ("Brelan de Valets à l'As", "Brelan de Dames au Noir"),
        ("Brelan d'As au Roi", "Full de Noirs par les Rouges"),
        ("Full de Dames par les As", "Full d'As par les Dames"),
        ("Full d'As par les Rois", "Carré de Noirs au Rouge"),
        ("Carré de Noirs au Rouge", "Carré de Noirs à la Dame"),
        ("Carré d'As au Roi", "Poker de Noirs"),
        ("Poker de Dames", "Poker d'As"),
    ],
)
def test_seed_comparisons_between_announcements(low: str, high: str) -> None:
    assert A(low) < A(high)
    assert not A(high) < A(low)
    assert A(low) != A(high)


def test_announcements_compare_with_rolls() -> None:
    assert Roll.parse("V V V D N").combination() == A("Brelan de Valets à la Dame")
    assert Roll.parse("V V V D R").combination() == A("Brelan de Valets à la Dame")
    assert Roll.parse("V V V K N").combination() < A("Brelan de Valets à l'As")
    assert A("Paire de Noirs") == Roll.parse("N N A K D").combination()


# --- relative forms ---------------------------------------------------------------------------


def test_superieur_walks_through_every_announcement_in_order() -> None:
    seen = [lowest()]
    while seen[-1] != highest():
        seen.append(A("Supérieur", previous=seen[-1]))
    assert seen == list(all_announcements())
    assert len(seen) == 2 + 6 + 15 + 30 + 30 + 30 + 6


@pytest.mark.parametrize(
    ("previous", "superieur"),
    [
        ("Un Roi", "Un As"),
        ("Un As", "Paire de Noirs"),
        ("Paire de Dames", "Paire de Rois"),
        ("Paire d'As", "Double Paire de Rouges et de Noirs"),
        ("Double Paire de Rouges et de Noirs", "Double Paire de Valets et de Noirs"),
        ("Double Paire de Valets et de Rouges", "Double Paire de Dames et de Noirs"),
        ("Double Paire d'As et de Rois", "Brelan de Noirs au Rouge"),
        ("Brelan de Valets au Roi", "Brelan de Valets à l'As"),
        ("Brelan de Valets à l'As", "Brelan de Dames au Noir"),
        ("Brelan d'As au Roi", "Full de Noirs par les Rouges"),
        ("Full de Dames par les As", "Full de Rois par les Noirs"),
        ("Full d'As par les Rois", "Carré de Noirs au Rouge"),
        ("Carré d'As au Roi", "Poker de Noirs"),
        ("Poker de Rois", "Poker d'As"),
    ],
)
def test_superieur(previous: str, superieur: str) -> None:
    assert A("Supérieur", previous=A(previous)).french == superieur
    assert A("superieur", previous=previous).french == superieur  # the previous one may be text too
    above = next_above(A(previous))
    assert above is not None
    assert above.french == superieur


def test_superieur_of_a_roll_value() -> None:
    assert A("Sup", previous=Roll.parse("D D D A N").combination()) == A("Brelan de Rois au Noir")


def test_superieur_needs_a_previous_announcement_and_something_above_it() -> None:
    with pytest.raises(AnnouncementError, match="needs the announcement received"):
        A("Supérieur")
    with pytest.raises(AnnouncementError, match='nothing is above "Poker d\'As"'):
        A("Supérieur", previous="Poker d'As")
    assert next_above(highest()) is None


def test_superieur_is_said_alone() -> None:
    with pytest.raises(AnnouncementError, match="said alone"):
        A("Supérieur de Dames", previous="Paire de Rois")


@pytest.mark.parametrize("visible", ["D A", "D D A", "A D D A A", [Face.AS, Face.DAME], Roll.parse("D D D A A")])
def test_petit_and_grand_full_from_two_faces_on_the_table(visible: object) -> None:
    # The seed: with Dames and As on the table, Petit Full = Full de Dames par les As, Grand Full = Full d'As par
    # les Dames.
    assert A("Petit Full", visible=visible).french == "Full de Dames par les As"  # type: ignore[arg-type]
    assert A("Grand Full", visible=visible).french == "Full d'As par les Dames"  # type: ignore[arg-type]


@pytest.mark.parametrize(("visible", "shows"), [("D A K", "Dames, Rois, As"), ("D D", "Dames"), ("", "no dice")])
def test_petit_full_needs_exactly_two_faces(visible: str, shows: str) -> None:
    with pytest.raises(AnnouncementError, match=f"exactly two faces show on the table; it shows {shows}"):
        A("Petit Full", visible=visible)


def test_petit_full_needs_the_visible_dice() -> None:
    with pytest.raises(AnnouncementError, match=r"visible=\.\.\."):
        A("Grand Full")
    with pytest.raises(AnnouncementError, match="at most 5 dice"):
        A("Grand Full", visible="N N N N N A")


# The seed's list of Min / Max completions, and the other kinds by the same rule.
COMPLETIONS = [
    ("Paire Minimum", "Paire de Noirs"),
    ("Paire Maximum", "Paire d'As"),
    ("Paire Min", "Paire de Noirs"),
    ("Double Paire Min", "Double Paire de Rouges et de Noirs"),
    ("Double Paire Max", "Double Paire d'As et de Rois"),
    ("Brelan Min", "Brelan de Noirs au Rouge"),
    ("Brelan Max", "Brelan d'As au Roi"),
    ("Brelan de Valets Min", "Brelan de Valets au Noir"),
    ("Brelan de Valets Max", "Brelan de Valets à l'As"),
    ("Brelan d'As Max", "Brelan d'As au Roi"),
    ("Double Paire de Dames Min", "Double Paire de Dames et de Noirs"),
    ("Double Paire de Dames Max", "Double Paire d'As et de Dames"),
    ("Full Min", "Full de Noirs par les Rouges"),
    ("Full Max", "Full d'As par les Rois"),
    ("Full de Dames Min", "Full de Dames par les Noirs"),
    ("Full de Dames maxi", "Full de Dames par les As"),
    ("Carré Min", "Carré de Noirs au Rouge"),
    ("Carré de Rois Max", "Carré de Rois à l'As"),
    ("Poker Min", "Poker de Noirs"),
    ("Poker Max", "Poker d'As"),
    ("Salade Min", "Un Roi"),
    ("Salade Max", "Un As"),
]


@pytest.mark.parametrize(("said", "label"), COMPLETIONS)
def test_min_max_completions(said: str, label: str) -> None:
    assert A(said).french == label


def test_complete_function() -> None:
    assert complete(Category.BRELAN, [Face.VALET], completion=Completion.MAX) == A("Brelan de Valets à l'As")
    assert complete(Category.PAIRE, completion=Completion.MIN) == A("Paire de Noirs")


# --- labels -----------------------------------------------------------------------------------


def test_english_labels_are_distinct_and_name_the_faces() -> None:
    labels = [a.english for a in all_announcements()]
    assert len(set(labels)) == len(labels)
    assert A("Full Rois Valets").english == "Kings full of Jacks"
    assert A("Brelan de Noirs à la Dame").english == "Three Nines with a Queen"
    assert A("Un Roi").english == "King high"


def test_to_dict_is_plain() -> None:
    assert A("Full Rois Valets").to_dict() == {
        "french": "Full de Rois par les Valets",
        "french_short": "Full Rois Valets",
        "english": "Kings full of Jacks",
        "category": "full",
        "faces": ["K", "V"],
        "attainable": True,
    }


# --- bad input --------------------------------------------------------------------------------


def _error(said: str, **context: object) -> AnnouncementError:
    with pytest.raises(AnnouncementError) as info:
        A(said, **context)  # type: ignore[arg-type]
    assert isinstance(info.value, TocktableError)
    assert isinstance(info.value, ValueError)
    return info.value


@pytest.mark.parametrize(
    ("said", "first_suggestion", "message"),
    [
        ("Full de Dames par les Dames", "Full de Dames par les Valets", "impossible Full with Dames twice"),
        ("Double Paire de Rois et de Rois", "Double Paire de Rois et de Dames", "impossible Double Paire"),
        ("Carré de Rois au Roi", "Carré de Rois à la Dame", "impossible Carré"),
        ("Une Dame", "Un Roi", "a Salade is 'Un Roi' or 'Un As'"),
        ("Pare de Dmaes", "Paire de Dames", r"unknown words 'Pare', 'Dmaes'"),
        ("Fulll de Rois par les Valets", "Full de Rois par les Valets", "unknown word"),
        ("Brelan de Dammes au Roi", "Brelan de Dames au Roi", "unknown word"),
        ("Carré de Dames a l'Ass", "Carré de Dames à l'As", "unknown word"),
        ("pair of queens", "Paire de Dames", r"unknown words 'pair', 'of'"),
        ("Full de Zèbres", None, r"unknown word 'Zèbres'"),
        ("Paire de Dames et de Rois", "Double Paire de Rois et de Dames", "too many faces"),
        ("Dames", "Paire de Dames", "names no combination"),
        ("Brelan de Dames", "Brelan de Dames au Noir", "incomplete"),
        ("Full Dames", "Full de Dames par les Noirs", "incomplete"),
        ("Salade", "Un Roi", "incomplete"),
        ("Brelan Full de Dames", None, "more than one combination"),
        ("Double Dames", "Double Paire Min", "'double' must be followed by 'Paire'"),
        ("", "Un Roi", "empty announcement"),
        ("Paire Min Max", None, "Min or Max twice"),
        ("Full de Dames par les Rois Max Noirs", "Full Max", "at most 2 face"),
    ],
)
def test_bad_announcements_say_why_and_suggest(said: str, first_suggestion: str | None, message: str) -> None:
    error = _error(said)
    assert error.args[0]  # a message
    assert re.search(message, str(error)), str(error)
    if first_suggestion is not None:
        assert error.suggestions[0] == first_suggestion
        assert repr(first_suggestion) in str(error)
    for suggestion in error.suggestions:
        if suggestion not in ("Supérieur", "Petit Full", "Grand Full") and "Min" not in suggestion:
            A(suggestion)  # every suggestion is itself valid


def test_a_typo_in_a_relative_form_suggests_it() -> None:
    assert _error("Supérieru").suggestions[0] == "Supérieur"


def test_lower_case_single_letters_are_french_words_not_faces() -> None:
    # "a" is "à", never the As: "Brelan de Noirs a la Dame" has two faces, not three.
    assert A("Brelan de Noirs a la Dame") == A("Brelan de Noirs à la Dame")
    assert A("Brelan de Valets A") == A("Brelan de Valets à l'As")
