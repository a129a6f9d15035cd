"""Poker dice: faces, rolls, and the value of a roll with the seed's tie rules."""

from __future__ import annotations

import itertools

import pytest

from table.dice import AnnouncementError, Category, Combination, Face, Roll, RollError
from table.errors import TocktableError


def value(text: str) -> Combination:
    return Roll.parse(text).combination()


# --- faces and rolls -------------------------------------------------------------------------


def test_faces_are_ordered_noir_rouge_valet_dame_roi_as() -> None:
    assert [f.letter for f in sorted(Face)] == list("NRVDKA")
    assert [f.french for f in Face] == ["Noir", "Rouge", "Valet", "Dame", "Roi", "As"]
    assert Face.NOIR < Face.ROUGE < Face.VALET < Face.DAME < Face.ROI < Face.AS


@pytest.mark.parametrize(
    ("text", "face"),
    [("N", Face.NOIR), ("9", Face.NOIR), ("noir", Face.NOIR), ("Rouges", Face.ROUGE), ("10", Face.ROUGE),
     ("V", Face.VALET), ("dame", Face.DAME), ("K", Face.ROI), ("Roi", Face.ROI), ("a", Face.AS), ("As", Face.AS)],
)  # fmt: skip
def test_face_parse_accepts_letters_and_names(text: str, face: Face) -> None:
    assert Face.parse(text) is face


def test_face_parse_rejects_unknown_faces_with_the_allowed_ones() -> None:
    with pytest.raises(RollError, match=r"unknown die face 'Z'.*N \(Noir, 9\)") as info:
        Face.parse("Z")
    assert isinstance(info.value, TocktableError)
    assert isinstance(info.value, ValueError)


def test_roll_parse_forms_and_order_independence() -> None:
    roll = Roll.parse("N N D D A")
    assert roll.faces == (Face.NOIR, Face.NOIR, Face.DAME, Face.DAME, Face.AS)
    assert str(roll) == "N N D D A"
    assert Roll.parse("A D N D N") == roll
    assert Roll.parse("NNDDA") == roll
    assert Roll.parse("9, 9, Dame, dame, As") == roll
    assert Roll.of([Face.AS, "D", "N", Face.DAME, "noir"]) == roll
    assert eval(repr(roll)) == roll


@pytest.mark.parametrize(
    ("text", "message"),
    [("N N D D", "5 faces"), ("N N D D A K", "5 faces"), ("N N D D Z", "unknown die face 'Z'"), ("", "5 faces")],
)
def test_roll_parse_rejects_bad_input(text: str, message: str) -> None:
    with pytest.raises(RollError, match=message):
        Roll.parse(text)


def test_roll_needs_five_dice() -> None:
    with pytest.raises(RollError, match="a roll is 5 dice, got 4"):
        Roll((Face.AS,) * 4)


def test_all_rolls_cover_every_throw_once() -> None:
    rolls = list(Roll.all())
    assert len(rolls) == len(set(rolls)) == 252
    assert sum(r.ways for r in rolls) == 6**5
    assert Roll.parse("A A A A A").ways == 1
    assert Roll.parse("N R V D K").ways == 120


# --- what a roll is worth --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("roll", "category", "faces"),
    [
        ("N R V D K", Category.SALADE, "K"),
        ("N R V D A", Category.SALADE, "A"),
        ("R V D K A", Category.SALADE, "A"),
        ("D D N R A", Category.PAIRE, "D"),
        ("N N D D A", Category.DOUBLE_PAIRE, "DN"),
        ("V V V D N", Category.BRELAN, "VD"),
        ("K K K V V", Category.FULL, "KV"),
        ("D D D D A", Category.CARRE, "DA"),
        ("N N N N R", Category.CARRE, "NR"),
        ("D D D D D", Category.POKER, "D"),
    ],
)
def test_roll_combination(roll: str, category: Category, faces: str) -> None:
    combination = value(roll)
    assert combination.category is category
    assert "".join(f.letter for f in combination.faces) == faces


def test_categories_rank_salade_to_poker() -> None:
    # One roll of each kind, written in the order of the seed's table: each beats the one before.
    rolls = ["N R V D A", "N N R V D", "N N R R V", "N N N R V", "N N N R R", "N N N N R", "N N N N N"]
    values = [value(r) for r in rolls]
    assert [v.category for v in values] == list(Category)
    assert values == sorted(values)
    assert all(a < b for a, b in itertools.pairwise(values))


# The seed's "Tableau de distinction de combinaisons proches", then the rules of its first table.
EQUAL = [
    # Salade: the highest die only.
    ("N R V D A", "R V D K A"),
    # Paire: the pair only ("Paire de Noirs"), whatever the three other dice.
    ("N N R V D", "N N V K A"),
    # Double Paire: the two pairs only ("Double Paire de Rouges et de Dames"), not the fifth die.
    ("R R D D N", "R R D D A"),
    # Brelan: the three, then the highest remaining die ("Brelan de Valets à la Dame"): the lowest does not count.
    ("V V V D N", "V V V D R"),
    # Carré and Full and Poker: nothing is left to differ.
    ("D D D D A", "A D D D D"),
]
LESS = [
    # Salade: Un Roi < Un As.
    ("N R V D K", "N R V D A"),
    # Paire: the pair decides, the others never do.
    ("N N K D A", "R R N V D"),
    ("D D N R V", "K K N R V"),
    # Double Paire Roi Dames < Double Paire As Noir: the higher pair first.
    ("K K D D A", "A A N N R"),
    # Same higher pair: the other pair decides.
    ("A A N N K", "A A R R N"),
    # Brelan de Valets au Roi < Brelan de Valets à l'As.
    ("V V V K D", "V V V A N"),
    # Brelan: the three before the remaining die.
    ("V V V A K", "D D D V N"),
    # Full: the three, then the pair.
    ("D D D A A", "K K K N N"),
    ("K K K N N", "K K K V V"),
    # Carré de Noirs au Rouge < Carré de Noirs à la Dame.
    ("N N N N R", "N N N N D"),
    ("N N N N A", "R R R R N"),
    # Poker: the face.
    ("D D D D D", "K K K K K"),
    # Full Dames As is not Full As Dames (the three come first).
    ("D D D A A", "A A A D D"),
]


@pytest.mark.parametrize(("left", "right"), EQUAL)
def test_seed_equal_values(left: str, right: str) -> None:
    assert value(left) == value(right)
    assert not value(left) < value(right)
    assert not value(right) < value(left)
    assert hash(value(left)) == hash(value(right))


@pytest.mark.parametrize(("low", "high"), LESS)
def test_seed_comparisons(low: str, high: str) -> None:
    assert value(low) < value(high)
    assert value(high) > value(low)
    assert value(low) != value(high)
    assert value(low) <= value(high)
    assert not value(high) <= value(low)


def test_combination_labels() -> None:
    assert value("V V V D N").french == "Brelan de Valets à la Dame"
    assert value("V V V A N").french == "Brelan de Valets à l'As"
    assert value("K K K V V").french == "Full de Rois par les Valets"
    assert value("K K K V V").french_short == "Full Rois Valets"
    assert value("A A D D N").french == "Double Paire d'As et de Dames"
    assert value("A A D D N").french_short == "Double Paire As Dames"
    assert value("D D D D A").french == "Carré de Dames à l'As"
    assert value("N R V D A").french == "Un As"
    assert value("K K K V V").english == "Kings full of Jacks"
    assert value("A A D D N").english == "Two pair, Aces and Queens"
    assert value("N N N N R").english == "Four Nines with a Ten"
    assert value("V V V A N").english == "Three Jacks with an Ace"
    assert value("N R V D K").english == "King high"
    assert value("A A A A A").english == "Five Aces"
    assert str(value("D D N R V")) == "Paire de Dames"


def test_combination_compares_only_with_combinations() -> None:
    assert value("D D N R V") != "Paire de Dames"
    with pytest.raises(TypeError):
        _ = value("D D N R V") < 3  # type: ignore[operator]


@pytest.mark.parametrize(
    ("category", "faces", "message"),
    [
        (Category.FULL, (Face.DAME, Face.DAME), "impossible Full with Dames twice"),
        (Category.DOUBLE_PAIRE, (Face.ROI, Face.ROI), "impossible Double Paire"),
        (Category.SALADE, (Face.DAME,), "impossible Salade 'Une Dame'"),
        (Category.PAIRE, (Face.DAME, Face.ROI), "named by 1 face"),
        (Category.BRELAN, (Face.DAME,), "named by 2 face"),
    ],
)
def test_impossible_combinations_are_refused(category: Category, faces: tuple[Face, ...], message: str) -> None:
    with pytest.raises(AnnouncementError, match=message) as info:
        Combination(category, faces)
    assert isinstance(info.value, TocktableError)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(("category", "faces"), [(9, (Face.AS,)), (Category.PAIRE, (7,)), (Category.PAIRE, ("x",))])
def test_combination_of_non_faces_is_refused(category: object, faces: tuple[object, ...]) -> None:
    with pytest.raises(AnnouncementError, match="not a combination"):
        Combination(category, faces)  # type: ignore[arg-type]


def test_double_paire_faces_are_put_high_first() -> None:
    assert Combination(Category.DOUBLE_PAIRE, (Face.NOIR, Face.AS)).faces == (Face.AS, Face.NOIR)


def test_attainable_is_false_only_for_brelans_with_the_lowest_other_face_as_kicker() -> None:
    unattainable = {c.french for c in _every_combination() if not c.attainable}
    assert unattainable == {
        "Brelan de Noirs au Rouge", "Brelan de Rouges au Noir", "Brelan de Valets au Noir",
        "Brelan de Dames au Noir", "Brelan de Rois au Noir", "Brelan d'As au Noir",
    }  # fmt: skip
    # And every attainable one is the value of some roll.
    values = {r.combination() for r in Roll.all()}
    assert values == {c for c in _every_combination() if c.attainable}


def _every_combination() -> list[Combination]:
    from table.dice import all_combinations

    return list(all_combinations())


def test_there_are_119_combinations_counted_by_category() -> None:
    from collections import Counter

    from table.dice import Category, all_combinations

    counts = Counter(c.category for c in all_combinations())
    # Salade: king or ace high (five different faces of six); pairs of 6 faces; two of 6 faces in
    # either order for a double pair; a face and another for Brelan, Full, Carré; one for Poker.
    assert counts == {
        Category.SALADE: 2, Category.PAIRE: 6, Category.DOUBLE_PAIRE: 15, Category.BRELAN: 30,
        Category.FULL: 30, Category.CARRE: 30, Category.POKER: 6,
    }  # fmt: skip
    assert sum(counts.values()) == 119


def test_the_enumeration_itself_gives_each_combination_once() -> None:
    """The generator behind the cached ``all_combinations()``, run afresh (its cached copy would
    hide a change to it from a test process forked after the cache was filled)."""
    from table.dice.combination import _enumerate, all_combinations

    fresh = list(_enumerate())
    assert len(fresh) == len(set(fresh)) == 119
    assert tuple(sorted(fresh)) == all_combinations()
    assert [c.french for c in sorted(fresh)[:3]] == ["Un Roi", "Un As", "Paire de Noirs"]


@pytest.mark.parametrize(("category", "faces", "message", "suggestions"), [
    (9, (Face.AS,), "not a combination: category 9 with faces (<Face.AS: 5>,); expected a Category and faces "
     "N R V D K A (Face.NOIR .. Face.AS)", ()),
    (Category.PAIRE, (Face.DAME, Face.ROI), "a Paire is named by 1 face, the face of the pair; got 2: D K", ()),
    (Category.BRELAN, (), "a Brelan is named by 2 faces, the face of the three, then a different face: the highest "
     "other die; got 0: none", ()),
    (Category.SALADE, (Face.DAME,), "impossible Salade 'Une Dame': five different faces always include a Roi or an "
     "As, so a Salade is 'Un Roi' or 'Un As'; did you mean 'Un Roi' or 'Un As'?", ("Un Roi", "Un As")),
    (Category.FULL, (Face.DAME, Face.DAME), "impossible Full with Dames twice: a Full is named by the face of the "
     "three, then the different face of the pair; did you mean 'Full de Dames par les Valets', 'Full de Dames par "
     "les Rois' or 'Poker de Dames'?",
     ("Full de Dames par les Valets", "Full de Dames par les Rois", "Poker de Dames")),
    (Category.CARRE, (Face.ROI, Face.ROI), "impossible Carré with Rois twice: a Carré is named by the face of the "
     "four, then the different face of the last die; did you mean 'Carré de Rois à la Dame', \"Carré de Rois à "
     "l'As\" or 'Carré de Rois au Valet'?",
     ("Carré de Rois à la Dame", "Carré de Rois à l'As", "Carré de Rois au Valet")),
    (Category.DOUBLE_PAIRE, (Face.ROI, Face.ROI), "impossible Double Paire with Rois twice: a Double Paire is named "
     "by the faces of the two pairs, two different faces; did you mean 'Double Paire de Rois et de Dames', "
     "'Double Paire de Rois et de Valets' or 'Double Paire de Rois et de Rouges'?",
     ("Double Paire de Rois et de Dames", "Double Paire de Rois et de Valets", "Double Paire de Rois et de Rouges")),
])  # fmt: skip
def test_impossible_combinations_say_exactly_why_and_what_is_near(
    category: object, faces: tuple[Face, ...], message: str, suggestions: tuple[str, ...]
) -> None:
    """The whole message and the suggestions, word for word: the page shows them as they are, and
    only a Full's suggestions end with the Poker that five such dice would be."""
    with pytest.raises(AnnouncementError) as info:
        Combination(category, faces)  # type: ignore[arg-type]
    assert str(info.value) == message
    assert info.value.suggestions == suggestions


def test_a_combination_given_plain_numbers_holds_its_category_and_faces() -> None:
    made = Combination(1, (4,))  # type: ignore[arg-type]
    assert made.category is Category.PAIRE and made.faces == (Face.ROI,) and type(made.faces[0]) is Face
    assert made == Combination(Category.PAIRE, (Face.ROI,)) and made.french == "Paire de Rois"


def test_a_combination_is_shown_by_its_french_name() -> None:
    assert repr(Combination(Category.FULL, (Face.ROI, Face.VALET))) == "Combination('Full de Rois par les Valets')"
