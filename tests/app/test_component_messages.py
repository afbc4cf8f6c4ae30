"""What the browser sends is checked before use: node picks, stage boxes, and a link's values.

A console can send the node picker (pages/stage.py) a list or an object where stage.js sends a
node's number: on the Tree page `node in nodes` raised TypeError (unhashable) and showed a
traceback. A link's values are read by pages/links.py, whose doctests run here.
"""

from __future__ import annotations

import doctest
import math

import pytest

from pages import links, stage

NODES = {0: "root", 1: "left", 2: "right"}  # as the Tree page's {node id: node}


@pytest.mark.parametrize("value, node", [(0, 0), (2, 2), (2.0, 2)])
def test_a_node_number_of_the_tree_is_picked(value, node):
    assert stage.picked(value, NODES) == node


@pytest.mark.parametrize("value", [
    [1, 2], {"node": 1}, {}, [], "1", "node 1", None, True, False, 1.5, math.nan, math.inf, -math.inf, 3, -1,
    10**400, 1e300,
])
def test_anything_else_the_browser_sends_is_ignored(value):
    assert stage.picked(value, NODES) is None


def test_a_pick_reaches_the_page_only_when_it_is_a_node(monkeypatch):
    """The component's callback (what Streamlit calls when the browser sends a pick)."""
    class Sent:
        def __init__(self, node):
            self.node = node

    chosen = []
    for sent in ([1, 2], {"a": 1}, "2", 7, Sent, None):
        monkeypatch.setattr(stage.st, "session_state", {stage.PICKER: Sent(sent)})
        stage._on_pick(NODES, chosen.append)
    monkeypatch.setattr(stage.st, "session_state", {})  # no message at all
    stage._on_pick(NODES, chosen.append)
    monkeypatch.setattr(stage.st, "session_state", {stage.PICKER: Sent(2)})
    stage._on_pick(NODES, chosen.append)
    assert chosen == [2]


@pytest.mark.parametrize("box", [[True, 480], [900, False], {"0": 900, "1": 480}, [[900], [480]], [900, "480"],
                                 [900, math.inf], [-900, 480]])
def test_a_box_of_another_shape_is_ignored(box):
    assert not stage._valid(box)


def test_the_link_readers_say_what_they_refuse():
    failed, tried = doctest.testmod(links)
    assert tried >= 4 and not failed
    for text in ("²", "9" * 5000, "1_000", "nan", "inf", " ", "0x10", "1e99999", "٣", "--1", "1e308"):
        with pytest.raises(ValueError, match="is not a (whole )?number|finite|too large"):
            links.whole(text)
    assert links.whole(" 7 ", low=0) == 7 and links.number("-0.5") == -0.5 and links.number("1e-05") == 1e-05
    with pytest.raises(ValueError, match=r"^'-1' is below 0$"):
        links.whole("-1", low=0)
    with pytest.raises(ValueError, match=r"^'0\.7' is above 0\.5$"):
        links.number("0.7", 0.1, 0.5)
    assert links.quoted("../../etc/passwd") == "(a value of 16 characters)"
    assert links.quoted("<b>") == "(a value of 3 characters)" and links.quoted("iris") == "'iris'"
    read, notes = links.kinds("a:numeric,b:nope,c,:,", ["a", "b"], ("numeric", "ignore"))
    assert read == {"a": "numeric"} and len(notes) == 3
