"""The 1993 book's C4.5 (`algo=c45_1993`) everywhere a preset is: the sidebar and its link, the
Step page, the checker, the quiz, the worksheet and Compare.

Weka's weather.numeric has golf's sunny rows (Quinlan 1993, Figure 1-2): Humidity 70, 70 Play;
85, 90, 95 Don't Play. Its cut at 75 puts the two classes apart, so its gain equals its split
information and the book's gain ratio is exactly 1; J48 (C4.5 Release 8) subtracts log2(2 cuts)/5
from the gain first: (H - 1/5) / H with H = H(2/5, 3/5) (tests/test_c45_1993.py).
"""

from __future__ import annotations

from tests.exact import entropy

H = entropy((2, 3))
J48 = (H - 1 / 5) / H


def test_the_link_opens_the_1993_book_in_the_sidebar_and_its_table(open_app):
    app = open_app(dataset="weather_numeric", algo="c45_1993", page="step", step="2")
    app.assert_clean()
    control = app.at.segmented_control(key="algo")
    assert control.value == "c45_1993" and control.options == ["ID3", "C4.5 1993", "C4.5 R8", "CART", "Zaki"]
    assert any("C4.5 as in Quinlan (1993)" in c.value for c in app.at.caption)
    table = next(f for f in app.frames() if "candidate" in f.columns)
    ranked = next(c for c in table.columns if c.startswith("★"))
    chosen = table[table["candidate"].str.startswith("✓")]
    assert chosen["candidate"].tolist() == ["✓ humidity ≤ 75"] and chosen[ranked].tolist() == [1.0]


def test_the_sidebar_switches_between_the_two_versions(open_app):
    app = open_app(dataset="weather_numeric", algo="c45", page="step", step="2")
    assert any("Weka's J48" in c.value for c in app.at.caption)
    app.set("segmented_control", "algo", "c45_1993")
    app.assert_clean()
    assert app.at.query_params["algo"] in ("c45_1993", ["c45_1993"])


def test_the_checker_grades_the_books_gain_ratio(open_app):
    for algorithm, right, wrong in (("c45_1993", "1.000", f"{J48:.3f}"), ("c45", f"{J48:.3f}", "1.000")):
        app = open_app(dataset="weather_numeric", algo=algorithm, page="practice")
        app.at.selectbox(key="practice_node").set_value(1).run()  # step 2: outlook = sunny
        app.at.text_input(key="answer_gain_ratio").set_value(right)
        [b for b in app.at.button if b.label == "Check my answers"][0].click().run()
        assert not app.errors and any("Gain ratio" in s.value for s in app.at.success), algorithm
        app.at.text_input(key="answer_gain_ratio").set_value(wrong)
        [b for b in app.at.button if b.label == "Check my answers"][0].click().run()
        assert app.errors, algorithm


def test_the_quiz_names_the_1993_book(open_app):
    app = open_app(dataset="weather_numeric", algo="c45_1993", page="practice", mode="guess")
    app.at.radio(key="guess_attribute_1").set_value("outlook").run()
    app.click("reveal_1").click("quiz_next")
    app.at.radio(key="guess_attribute_2").set_value("windy").run()
    app.click("reveal_2")
    assert any("C4.5 as in Quinlan 1993 splits on humidity <= 75" in e for e in app.errors), app.errors


def test_the_worksheet_and_compare_name_the_1993_book(open_app):
    sheet = open_app(dataset="weather_numeric", algo="c45_1993", page="practice", mode="worksheet")
    sheet.assert_clean()
    assert any("C4.5 as in Quinlan 1993" in m.value for m in sheet.at.markdown)
    compare = open_app(dataset="weather_numeric", algo="c45_1993", page="compare")
    assert not compare.at.exception
    titles = [m.value for m in compare.at.markdown if m.value.startswith("**")]
    assert any(t.startswith("**C4.5 as in Quinlan 1993**") for t in titles), titles
    assert not any("J48" in t for t in titles)
