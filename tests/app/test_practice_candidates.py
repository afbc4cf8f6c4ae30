"""Check my numbers on every candidate, a whole column at once, and ties (issue 32, points 3-4).

Tan, Steinbach & Kumar, Introduction to Data Mining (2006), the loan table of Figure 4.6 (Tid
1..10 left out: an identifier): Home Owner, Marital Status, Annual Income (printed "125K":
typed here in thousands), Defaulted. At the root CART's Marital Status in {Married} and Annual
Income <= 97.5 both leave Gini 3/10 (6 rows 3 Yes 3 No, and 4 No), a decrease of
21/50 - 3/10 = 3/25 = 0.12: a tie, won by Marital Status, first in the table.
PlayTennis (Mitchell 1997, table 3.2): the root's gains by attribute.
"""

from __future__ import annotations

from fractions import Fraction

import dtlearn
from tests.exact import gini, gini_after, info_gain

TAN = (b"Home Owner,Marital Status,Annual Income,Defaulted\n"
       b"Yes,Single,125,No\nNo,Married,100,No\nNo,Single,70,No\nYes,Married,120,No\nNo,Divorced,95,Yes\n"
       b"No,Married,60,No\nYes,Divorced,220,No\nNo,Single,85,Yes\nNo,Married,75,No\nNo,Single,90,Yes\n")
MARRIED = [(4, 0), (3, 3)]  # (No, Yes): Married | Single or Divorced
INCOME_97_5 = [(3, 3), (4, 0)]  # <= 97.5: 60 70 75 85 90 95 | > 97.5: 100 120 125 220
DIVORCED = [(1, 1), (6, 2)]  # Divorced | Single or Married
# Outlook, Temperature, Humidity, Wind at PlayTennis's root, (No, Yes) per branch
TENNIS = {"outlook": [(3, 2), (0, 4), (2, 3)], "temperature": [(2, 2), (2, 4), (1, 3)],
          "humidity": [(4, 3), (1, 6)], "wind": [(2, 6), (3, 3)]}


def submit(app, label: str):
    [button for button in app.at.button if button.label == label][0].click().run()
    return app


def tan(open_app, **params):
    app = open_app(dataset="tennis", algo="cart", page="practice", **params)
    app.set("selectbox", "dataset", "__upload__")
    app.at.file_uploader(key="upload_file").upload("tan.csv", TAN, "text/csv").run()
    assert not app.at.exception, [e.value for e in app.at.exception]
    return app


def test_the_menu_offers_every_candidate_and_grades_a_partition_the_shortcut_skips(open_app):
    app = tan(open_app)
    menu = app.at.selectbox(key="practice_row_1")
    labels = list(menu.options)
    # Marital Status's three partitions ({Divorced} too, which Breiman's ordering never scores),
    # Home Owner's one, Annual Income's nine cuts between its ten distinct values
    assert len(labels) == 3 + 1 + 9, labels
    assert sum("{Divorced}" in o for o in labels) == 1
    table = dtlearn.split_table(dtlearn.read_csv(TAN), "cart")  # the menu's values are the table's positions
    menu.set_value(int(table.index[table["test"] == "Marital Status in {Divorced}"][0])).run()
    exact = float(gini_after(DIVORCED))
    assert f"{exact:.3f}" == "0.400"
    app.at.text_input(key="answer_gini_after").set_value("0.400")
    submit(app, "Check my answers")
    assert any("Weighted Gini index" in s.value for s in app.at.success), app.errors
    # the Gini after Annual Income <= 80 (3 No | 3 Yes 4 No), entered for {Divorced}: named
    at_80 = float(gini_after([(3, 0), (4, 3)]))
    assert f"{at_80:.3f}" == "0.343"
    app.at.text_input(key="answer_gini_after").set_value("0.343")
    submit(app, "Check my answers")
    assert any("Annual Income <= 80" in e and "other candidates at this node" in e for e in app.errors), app.errors


def test_a_whole_column_of_gains_at_once(open_app):
    app = open_app(dataset="tennis", algo="id3", page="practice")
    app.set("segmented_control", "practice_entry", "column")
    assert app.at.selectbox(key="column_quantity").value == "entropy_after"
    app.set("selectbox", "column_quantity", "gain")
    boxes = [t for t in app.at.text_input if t.key.startswith("column_answer_")]
    assert len(boxes) == 4  # each attribute's best: one split per attribute under ID3
    gains = {a: info_gain(b) for a, b in TENNIS.items()}
    for box in boxes:
        attribute = box.label.split(" ")[0]
        box.set_value(f"{gains[attribute]:.3f}" if attribute != "wind" else "0.500")
    submit(app, "Check my column")
    assert any("3 of 4 right" in h.value for h in app.at.subheader)
    assert len(app.at.success) == 3 and len(app.errors) == 1 and "wind" in app.errors[0]


def test_the_quiz_gives_full_points_for_a_tied_answer(open_app):
    root = Fraction(gini((7, 3)))
    assert root == Fraction(21, 50)
    assert root - gini_after(MARRIED) == root - gini_after(INCOME_97_5) == Fraction(3, 25)
    app = tan(open_app, mode="guess")
    app.at.radio(key="guess_attribute_1").set_value("Annual Income").run()
    menu = app.at.selectbox(key="guess_test_1_Annual Income")
    menu.set_value(next(o for o in menu.options if o.endswith("<= 97.5"))).run()
    app.click("reveal_1")
    assert any("Score: 1 of 1" in m.value for m in app.at.markdown)
    assert [s.value for s in app.at.success if "ties with" in s.value and "first in the table" in s.value]


def test_the_checker_accepts_the_tied_attribute(open_app):
    app = tan(open_app)
    app.at.selectbox(key="answer_attribute").set_value("Annual Income")
    submit(app, "Check my answers")
    assert any("ties with" in s.value and "first in the table" in s.value for s in app.at.success), app.errors


def test_growing_by_hand_says_a_tied_split_is_as_good(open_app):
    app = tan(open_app, mode="hand")
    pick = next(s for s in app.at.selectbox if s.label == "Your decision here")
    pick.set_value("Annual Income <= 97.5").run()
    app.click("hand_apply")
    said = [m.value for m in app.at.markdown if "First difference" in m.value]
    assert said and "ties with" in said[0] and "first in the table" in said[0], said
