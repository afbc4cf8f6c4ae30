"""The Practice page in AppTest: check my numbers, guess the next split, worksheet, precision.

Expected numbers are PlayTennis's (Mitchell 1997), derived in tests/exact.py terms: the root's
entropy H(9/14, 5/14) = 0.940, Gain(Outlook) = 0.2467 (0.171 in nats: 0.2467 x ln 2).
"""

from __future__ import annotations

import math

import pytest
from streamlit.testing.v1.element_tree import AppTestError

from tests.exact import entropy, gini_gain, info_gain

GAIN = info_gain([(3, 2), (0, 4), (2, 3)])


def submit(app, label: str):
    [button for button in app.at.button if button.label == label][0].click().run()
    return app


def answer(app, key: str, text: str):
    app.at.text_input(key=key).set_value(text)
    return app


def test_check_names_the_natural_log_and_accepts_the_fix(open_app):
    app = open_app(dataset="tennis", algo="id3", page="practice")
    assert not app.at.exception
    assert [t.value for t in app.at.title] == ["Practice"] and not app.at.header  # no other page inside it
    wrong = f"{GAIN * math.log(2):.3f}"
    assert wrong == "0.171"
    submit(answer(answer(app, "answer_gain", wrong), "answer_node_entropy", f"{entropy((9, 5)):.3f}"),
           "Check my answers")
    assert any("natural logarithm" in e for e in app.errors), app.errors
    assert any("0.247" in e for e in app.errors)
    assert [s for s in app.at.success if "Entropy of the node" in s.value]
    assert any(r"\mathrm{Gain}" in block.body for block in app.at.latex)  # the worked formula
    submit(answer(app, "answer_gain", f"{GAIN:.3f}"), "Check my answers")
    assert not app.errors and any("Information gain" in s.value for s in app.at.success)
    assert not app.at.exception


def test_check_any_node_and_candidate(open_app):
    app = open_app(dataset="tennis", algo="id3", page="practice")
    app.at.selectbox(key="practice_node").set_value(1).run()  # step 2: outlook = Sunny
    assert "Sunny" in app.at.markdown[1].value or any("Sunny" in m.value for m in app.at.markdown)
    submit(answer(app, "answer_node_entropy", f"{entropy((9, 5)):.3f}"), "Check my answers")
    assert any("whole dataset" in e for e in app.errors), app.errors  # 0.940 is the root's entropy, not 0.971


def test_check_the_attribute_and_the_threshold(open_app):
    app = open_app(dataset="iris", algo="cart", page="practice")
    app.at.selectbox(key="answer_attribute").set_value("petal_length")
    submit(answer(app, "answer_threshold", "1.9"), "Check my answers")
    assert any("data value instead of the midpoint" in e for e in app.errors), app.errors
    assert any("attribute chosen" in s.value for s in app.at.success)


def test_guess_keeps_score_and_reveals_the_table(open_app):
    app = open_app(dataset="tennis", algo="id3", page="practice", mode="guess")
    assert not app.at.exception
    app.at.radio(key="guess_attribute_1").set_value("humidity").run()  # Reveal is enabled once an answer is chosen
    submit(app, "Reveal")
    assert any("outlook" in e and "information gain" in e for e in app.errors), app.errors
    assert app.at.dataframe, "the table is revealed"
    assert any("Score: 0 of 1" in m.value for m in app.at.markdown)
    app.click("quiz_next")
    app.at.radio(key="guess_attribute_2").set_value("humidity").run()  # Sunny: ID3 splits on humidity
    submit(app, "Reveal")
    assert any("Score: 1 of 2" in m.value for m in app.at.markdown)
    assert app.at.query_params["mode"] in ("guess", ["guess"])


def test_nothing_is_preselected_and_reveal_needs_a_choice(open_app):
    """A preselected first option was the right answer at PlayTennis's root (outlook, Mitchell 1997)."""
    app = open_app(dataset="tennis", algo="id3", page="practice", mode="guess")
    radio = app.at.radio(key="guess_attribute_1")
    assert radio.value is None and radio.index is None
    assert app.at.button(key="reveal_1").disabled
    with pytest.raises(AppTestError, match="disabled"):  # as in a browser: a disabled button takes no click
        app.at.button(key="reveal_1").click()
    assert any("Score: 0 of 0" in m.value for m in app.at.markdown)
    assert not app.at.success and not app.at.error
    app.at.radio(key="guess_attribute_1").set_value("outlook").run()
    assert not app.at.button(key="reveal_1").disabled


def test_which_test_starts_empty(open_app):
    """CART's binary tests: an attribute has several (PlayTennis's outlook: three subsets), so the
    student picks one; the algorithm's own choice is offered, not preselected."""
    app = open_app(dataset="tennis", algo="cart", page="practice", mode="guess")
    app.at.radio(key="guess_attribute_1").set_value("outlook").run()
    menu = app.at.selectbox(key="guess_test_1_outlook")
    assert menu.value is None and any(o.startswith("its best test") for o in menu.options)
    assert app.at.button(key="reveal_1").disabled
    menu.set_value(next(o for o in menu.options if o.startswith("its best test"))).run()
    app.click("reveal_1")
    # CART's root: outlook in {Overcast} against the rest has the largest Gini gain of every two-way
    # split of PlayTennis (Mitchell 1997's table; (No, Yes) counts of each side, exact fractions)
    others = [[(3, 2), (2, 7)], [(2, 3), (3, 6)],  # outlook {Sunny}, {Rain}
              [(4, 3), (1, 6)], [(2, 6), (3, 3)],  # humidity, wind
              [(2, 2), (3, 7)], [(1, 3), (4, 6)], [(2, 4), (3, 5)]]  # temperature {Hot}, {Cool}, {Mild}
    assert gini_gain([(0, 4), (5, 5)]) > max(gini_gain(split) for split in others)
    assert any("Score: 1 of 1" in m.value for m in app.at.markdown)
    assert [s.value.startswith("Right") for s in app.at.success] == [True]
    assert app.at.selectbox(key="guess_test_1_outlook").disabled


def test_worksheet_downloads_and_preview(open_app):
    app = open_app(dataset="tennis", algo="id3", page="practice", mode="worksheet")
    assert not app.at.exception
    labels = [b.label for b in app.at.get("download_button")]
    assert labels == ["Exercises (LaTeX)", "Solution (LaTeX)", "Exercises (Markdown)", "Solution (Markdown)"]
    assert any("outlook" in m.value for m in app.at.markdown)


def test_precision_is_in_the_link_and_the_formulas(open_app):
    app = open_app(dataset="tennis", algo="id3", page="step", step="1", digits="4")
    assert app.at.query_params["digits"] in ("4", ["4"])
    assert any("0.9403" in block.body for block in app.at.latex)
    three = open_app(dataset="tennis", algo="id3", page="step", step="1")
    assert any("0.940 - 0.694 = 0.247" in b.body and "give 0.246" in b.body for b in three.at.latex)
    bad = open_app(dataset="tennis", digits="7")
    assert any("digits" in w for w in bad.warnings)


def test_a_numeric_target_says_practice_is_for_classes(open_app):
    app = open_app(dataset="tips", algo="cart", page="practice")
    assert not app.at.exception
    assert any("classification" in i.value for i in app.at.info)


def test_grow_by_hand_side_by_side(open_app):
    """Humidity at PlayTennis's root: both trees drawn, compared, the first difference named."""
    app = open_app(dataset="tennis", algo="id3", page="practice", mode="hand")
    assert not app.at.exception
    assert app.at.toggle(key="hand_held_out").value is False  # every row unless the student asks
    app.at.toggle(key="hand_held_out").set_value(True).run()
    assert any("Your tree is the algorithm's" in i.value for i in app.at.info)
    pick = next(s.key for s in app.at.selectbox if s.key.startswith("hand_pick"))
    app.at.selectbox(key=pick).set_value("humidity = ?").run()
    app.click("hand_apply")
    assert any("First difference:** at the root" in m.value for m in app.at.markdown)
    table = app.at.dataframe[0].value
    assert list(table.columns) == ["", "your tree", "the algorithm's"]
    assert "held-out accuracy" in list(table[""])
    assert len(app.at.session_state["hand"]["choices"]) == 1
    app.click("hand_reset")
    assert app.at.session_state["hand"]["choices"] == {}
    assert not app.at.exception
