import numpy as np

from table import evaluate_tables as tables


def test_rank_keys_give_unique_sums_for_every_hand_size():
    keys = np.array(tables.RANK_KEYS)
    for size, expected in ((5, 6175), (6, 18395), (7, 49205)):
        counts = tables.rank_count_array(size)
        assert len(counts) == expected
        assert (counts.sum(axis=1) == size).all() and counts.max() <= 4
        sums = counts @ keys
        assert len(np.unique(sums)) == len(sums), f"two {size}-card rank multisets share a key sum"


def test_rank_keys_are_not_unique_if_one_is_lowered():
    # The keys are the smallest that work: lowering the last one breaks uniqueness.
    keys = np.array((*tables.RANK_KEYS[:-1], tables.RANK_KEYS[-1] - 1))
    sums = tables.rank_count_array(7) @ keys
    assert len(np.unique(sums)) < len(sums)


def test_there_are_7462_classes_in_order():
    classes = tables.class_keys()
    assert len(classes) == 7462 and list(classes) == sorted(classes)
    counts = np.bincount([k[0] for k in classes])
    assert counts.tolist() == [1277, 2860, 858, 858, 10, 1277, 156, 156, 10]


def test_flush_suit_table():
    table = tables.flush_suit_table()
    assert table[5 * 64 + 2 * 1] == 2  # five hearts, two clubs
    assert table[4 * 512 + 3 * 8] == -1  # four spades, three diamonds
    assert table[7] == 0
