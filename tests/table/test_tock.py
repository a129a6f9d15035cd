import pytest

from table.cards import ALL_CARDS, Card
from table.tock import ALL_MARKS, Mark, MarkParseError, SizeClass, mark_of


def test_every_card_has_exactly_one_mark_and_pools_partition_the_deck():
    assert len(ALL_MARKS) == 16
    pooled = [c for mark in ALL_MARKS for c in mark.cards()]
    assert sorted(pooled) == list(ALL_CARDS)
    for card in ALL_CARDS:
        assert card in mark_of(card).cards()


@pytest.mark.parametrize(
    ("card", "mark"), [("2c", "c:small"), ("5d", "d:small"), ("6h", "h:medium"), ("9s", "s:medium"),
                       ("Tc", "c:large"), ("Kh", "h:large"), ("Ad", "d:ace")]
)  # fmt: skip
def test_size_classes_follow_the_seed_rules(card, mark):
    assert str(mark_of(Card.parse(card))) == mark
    assert Mark.parse(mark) == mark_of(Card.parse(card))


def test_pool_sizes():
    assert [len(Mark.parse(f"s:{s.value}").cards()) for s in SizeClass] == [4, 4, 4, 1]


@pytest.mark.parametrize("text", ["h-large", "x:large", "h:huge", "", "hh:ace"])
def test_bad_marks(text):
    with pytest.raises(MarkParseError, match="expected a suit letter"):
        Mark.parse(text)


def test_the_lens_is_reachable_from_table_tock():
    import table.lens
    import table.tock

    assert table.tock.lens is table.lens.lens and table.tock.showdown is table.lens.showdown
    with pytest.raises(AttributeError, match="has no attribute 'nothing'"):
        table.tock.nothing  # noqa: B018
