"""Growing a tree by hand (dtlearn.by_hand): the student's choices where given, the algorithm's
everywhere else, and a normal Tree as the result.

PlayTennis (Mitchell 1997): splitting the root on humidity instead of outlook sends High
(3 Yes / 4 No) and Normal (6 Yes / 1 No) down; the counts are checked from the table itself.
"""

from __future__ import annotations

import pickle

import pytest

import dtlearn
from dtlearn.by_hand import LEAF, compare, grow_by_hand

CASES = [("tennis", "id3"), ("tennis", "c45"), ("credit_risk", "cart"), ("iris", "c45"), ("iris", "cart"),
         ("iris", "zaki"), ("watermelon_2alpha", "c45"), ("watermelon_2alpha", "cart"), ("contact_lenses", "id3"),
         ("glass", "cart")]


def decisions(tree):
    return [(s.node_id, s.parent_id, s.branch, s.depth, s.action, s.test, s.class_weights, s.reason, s.child_ids)
            for s in tree.steps if s.action in ("split", "leaf")]


@pytest.mark.parametrize("name, algorithm", CASES)
def test_without_choices_it_is_the_algorithms_tree(name, algorithm):
    grown = dtlearn.fit(dtlearn.load_dataset(name), algorithm, prune=False, collapse=False)
    assert decisions(grow_by_hand(grown, {})) == decisions(grown)


@pytest.mark.parametrize("name, algorithm", CASES)
def test_a_choice_above_the_algorithms_nodes_changes_nothing_else(name, algorithm):
    """Choosing at the root what the algorithm chooses, the rest grown below it step by step."""
    grown = dtlearn.fit(dtlearn.load_dataset(name), algorithm, prune=False, collapse=False)
    root = grown.steps[0]
    if root.action != "split":
        pytest.skip("the root is a leaf")
    deep = next(s for s in grown.steps if s.depth == 2) if grown.depth >= 2 else grown.steps[-1]
    text = root.table.iloc[root.chosen_row]["test"]
    same = grow_by_hand(grown, {(): text, deep.path: _algorithm_choice(deep)})
    assert [(d[0], d[4], d[6]) for d in decisions(same)] == [(d[0], d[4], d[6]) for d in decisions(grown)]


def _algorithm_choice(step):
    return LEAF if step.action == "leaf" else step.table.iloc[step.chosen_row]["test"]


def test_humidity_at_the_root_of_playtennis():
    tree = dtlearn.fit(dtlearn.load_dataset("tennis"), "id3")
    hand = grow_by_hand(tree, {(): "humidity = ?"})
    root = hand.steps[0]
    assert root.test.attribute == "humidity" and root.reason.startswith("Split by hand")
    assert dict(zip(root.test.branch_labels, root.child_weights)) == {"= High": (4.0, 3.0), "= Normal": (1.0, 6.0)}
    assert root.table.iloc[root.chosen_row]["attribute"] == "humidity"  # the hand's row is the one marked
    assert "outlook" in root.reason  # what the algorithm would have taken
    below = [s for s in hand.steps if s.depth == 1]
    assert all(s.test is None or s.test.attribute != "humidity" for s in below)  # ID3: once per path
    assert hand.predict(tree.data.frame).shape == (14,)
    assert hand.at_step(1).n_nodes == 3 and hand.n_leaves >= 2


def test_a_hand_leaf_and_a_choice_deeper_down():
    tree = dtlearn.fit(dtlearn.load_dataset("tennis"), "id3")
    hand = grow_by_hand(tree, {("outlook = Sunny",): LEAF, ("outlook = Rain",): "temperature = ?"})
    sunny = next(s for s in hand.steps if s.path == ("outlook = Sunny",))
    assert sunny.action == "leaf" and sunny.stop == "by_hand" and sunny.prediction == "No"  # 3 No, 2 Yes
    rain = next(s for s in hand.steps if s.path == ("outlook = Rain",))
    assert rain.test.attribute == "temperature"
    comparison = compare(hand, grow_by_hand(tree, {}))
    assert comparison.first_difference == "outlook = Sunny"
    assert comparison.train_accuracy[1] == 1.0 and comparison.train_accuracy[0] < 1.0  # 2 Sunny rows misfit
    assert comparison.train_accuracy[0] == pytest.approx(12 / 14)


def test_a_hand_tree_is_a_normal_tree():
    iris = dtlearn.load_dataset("iris")
    tree = dtlearn.fit(iris, "c45")
    hand = grow_by_hand(tree, {(): "petal_length <= 4.7"})  # the table writes the cut as the tree does
    root = hand.steps[0]
    assert root.test.attribute == "petal_length" and root.test.threshold == 4.7  # J48: the data value below 4.75
    assert "petal_length <= 4.7" in hand.to_text()
    assert dtlearn.prune(hand, "pessimistic").n_leaves <= hand.n_leaves
    again = pickle.loads(pickle.dumps(hand))
    assert (again.predict(iris.frame) == hand.predict(iris.frame)).all()
    assert hand.to_dot().startswith("digraph")
    assert len(hand.steps[1].table) > 0  # tables rebuild at every node


def test_bad_choices_are_refused():
    tree = dtlearn.fit(dtlearn.load_dataset("tennis"), "id3")
    with pytest.raises(ValueError, match="not a candidate"):
        grow_by_hand(tree, {(): "colour = ?"})
    with pytest.raises(ValueError, match="No node has the path"):
        grow_by_hand(tree, {("outlook = Snow",): LEAF})
    with pytest.raises(ValueError, match="classification"):
        grow_by_hand(dtlearn.fit(dtlearn.load_dataset("tips"), "cart", max_depth=2), {})


def test_held_out_accuracy_compared():
    data = dtlearn.load_dataset("iris")
    train, test = dtlearn.train_test_split(data, 0.3, seed=1)
    tree = dtlearn.fit(train, "cart")
    hand = grow_by_hand(tree, {(): LEAF})
    result = compare(hand, grow_by_hand(tree, {}), test)
    assert result.nodes[0] == 1 and result.test_accuracy[0] == pytest.approx(1 / 3, abs=0.05)
    assert result.first_difference == "the root"
