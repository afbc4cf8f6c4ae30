"""How trees and steps show themselves in Jupyter (`dtlearn.display`, `_repr_html_`).

The numbers in the HTML are the candidate table's (tested against hand-derived values in
test_splits and test_derivation); here the expected gain is derived again by hand, so a
display that showed another column, or rounded differently, fails. PlayTennis is Mitchell's
(1997) Table 3.2; its root gains are his worked example (Gain(S, Outlook) = 0.246).
"""

from __future__ import annotations

from html import escape as html_escape
import math
import os
import pickle
import re
import shutil

import pandas as pd
import pytest

import dtlearn
from dtlearn import display, layout, steps


def H(*counts):  # entropy in bits of class counts
    n = sum(counts)
    return -sum(c / n * math.log2(c / n) for c in counts if c)


# Gain(S, Outlook): 9 yes / 5 no; Sunny 2/3, Overcast 4/0, Rain 3/2
GAIN_OUTLOOK = H(9, 5) - 5 / 14 * H(2, 3) - 4 / 14 * H(4, 0) - 5 / 14 * H(3, 2)


def cells(html: str, first: str) -> list[str]:
    """The cells of the table row whose first cell is `first`."""
    for row in re.findall(r"<tr>(.*?)</tr>", html, re.S):
        values = re.findall(r"<td>(.*?)</td>", row, re.S)
        if values and values[0] == first:
            return values
    raise AssertionError(f"no row {first!r}")


def headings(html: str) -> list[str]:
    return re.findall(r"<th>(.*?)</th>", html)


@pytest.fixture(scope="module")
def tennis_id3():
    return dtlearn.fit(dtlearn.load_dataset("tennis"), "id3")


def test_a_step_shows_its_reason_table_and_formulas(tennis_id3):
    step = tennis_id3.steps[0]
    html = step._repr_html_()
    assert html.startswith("<p><b>Step 1: Split</b> at the root.")
    assert step.reason in html
    assert headings(html)[:2] == ["test", "gain (ranks)"]  # ID3 ranks by information gain
    assert cells(html, "outlook = ?")[1] == f"{GAIN_OUTLOOK:.4f}" == "0.2467"
    # the chosen row's formulas, one $$...$$ per line, as `derivation` writes them
    row = step.table.iloc[step.chosen_row]
    expected = [line for section in dtlearn.derivation.derivation(row, tennis_id3.classes) for line in section.lines]
    assert re.findall(r"\$\$(.*?)\$\$", html) == expected
    assert r"\mathrm{Gain}(D, \text{outlook})" in html


def test_each_algorithm_puts_its_own_measure_first():
    data = dtlearn.load_dataset("iris")
    assert headings(dtlearn.fit(data, "c45").steps[0]._repr_html_())[1] == "gain_ratio (ranks)"
    assert headings(dtlearn.fit(data, "cart").steps[0]._repr_html_())[1] == "gini_gain (ranks)"
    tips = dtlearn.fit(dtlearn.load_dataset("tips"), "cart", max_depth=1)
    assert headings(tips.steps[0]._repr_html_())[1] == "score (ranks)"


def test_columns_appear_where_they_say_something(tennis_id3):
    # C4.5's threshold correction only with numeric cuts; rho only with missing values
    assert "correction" not in headings(tennis_id3.steps[0]._repr_html_())
    assert "known" not in headings(tennis_id3.steps[0]._repr_html_())
    assert "correction" in headings(dtlearn.fit(dtlearn.load_dataset("iris"), "c45").steps[0]._repr_html_())
    missing = dtlearn.fit(dtlearn.load_dataset("watermelon_2alpha"), "c45")
    assert "known" in headings(missing.steps[0]._repr_html_())


def test_a_big_node_lists_each_attributes_best_row():
    step = dtlearn.fit(dtlearn.load_dataset("iris"), "cart").steps[0]
    html = step._repr_html_()
    assert len(step.candidates) > display.MAX_ROWS
    assert f"{len(step.candidates)} candidates: each attribute's best shown." in html
    assert html.count("<tr>") == 4  # body rows: four numeric attributes, one best cut each (the chosen among them)


def test_a_leaf_step_has_no_chosen_row_and_no_formulas(tennis_id3):
    leaf = next(s for s in tennis_id3.steps if s.action == steps.LEAF and s.candidates is not None
                and len(s.candidates))
    html = leaf._repr_html_()
    assert f"Step {leaf.number}: Leaf" in html and "$$" not in html
    tests = re.findall(r"<tr>\s*<td>(.*?)</td>", html)
    assert len(tests) == len(leaf.candidates.best_rows())  # one row per attribute's best: not vacuous
    assert all(cells(html, test)[headings(html).index("chosen")] == "False" for test in tests)


def test_names_from_a_file_are_escaped():
    frame = pd.DataFrame({"<b>x&": ["<i>", "a&b", "<i>", "a&b"], "y}$": ["<s>", "t", "<s>", "t"]})
    tree = dtlearn.fit(dtlearn.Dataset(frame, "y}$"), "id3")
    for html in (tree.steps[0]._repr_html_(), tree._repr_html_()):
        assert "<b>x" not in html and "<i>" not in html and "<s>" not in html
        assert "&lt;b&gt;x&amp;" in html
    # in the formulas: LaTeX-escaped, then HTML-escaped
    assert r"\text{a\&amp;b}" in tree.steps[0]._repr_html_()


@pytest.mark.skipif(shutil.which("dot") is None and not os.environ.get("CI"),
                    reason="needs Graphviz's dot (CI installs it)")
def test_a_tree_is_its_drawing(tennis_id3):
    html = tennis_id3._repr_html_()
    assert html.startswith('<div class="dtlearn-tree"><svg')
    assert html.count('class="node"') == tennis_id3.n_nodes == 8
    # after one step: the root and its three undecided children
    assert tennis_id3.at_step(1)._repr_html_().count('class="node"') == 4


def test_without_dot_a_tree_is_its_text(tennis_id3, monkeypatch):
    monkeypatch.setattr(layout.shutil, "which", lambda name: None)
    assert tennis_id3._repr_html_() == f'<pre class="dtlearn-tree">{tennis_id3.to_text()}</pre>'
    iris = dtlearn.fit(dtlearn.load_dataset("iris"), "cart")  # its text has "<=": escaped for HTML
    assert iris._repr_html_() == f'<pre class="dtlearn-tree">{html_escape(iris.to_text())}</pre>'
    assert "&lt;=" in iris._repr_html_()


def test_a_failing_dot_falls_back_to_text(tennis_id3, monkeypatch):
    false = shutil.which("false")  # a program that fails whatever it is given
    monkeypatch.setattr(layout.shutil, "which", lambda name: false)
    assert tennis_id3._repr_html_().startswith('<pre class="dtlearn-tree">outlook = Sunny')


def test_a_pickled_tree_shows_the_same(tennis_id3):
    again = pickle.loads(pickle.dumps(tennis_id3))
    assert again.steps[0]._repr_html_() == tennis_id3.steps[0]._repr_html_()


def test_ipython_finds_the_html():
    from IPython.core.interactiveshell import InteractiveShell

    tree = dtlearn.fit(dtlearn.load_dataset("tennis"), "id3")
    data, _ = InteractiveShell.instance().display_formatter.format(tree.steps[1])
    assert data["text/html"] == tree.steps[1]._repr_html_()
