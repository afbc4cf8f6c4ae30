"""A textbook's table uploaded as printed (tests/fixtures/books/): the sidebar says how its numbers
were read and which column names the rows, one click uses that column after all, and Grow it by
hand works on every row of the small table."""

from __future__ import annotations

from pathlib import Path

from tests.app.conftest import unescape

BOOKS = Path(__file__).resolve().parents[1] / "fixtures" / "books"


def uploaded(open_app, file: str, algorithm: str, page: str = "step", **params: str):
    app = open_app(dataset="tennis", algo=algorithm, page=page, **params)
    app.set("selectbox", "dataset", "__upload__")
    app.at.file_uploader(key="upload_file").upload(file, (BOOKS / file).read_bytes(), "text/csv").run()
    app.assert_clean()
    return app


def captions(app) -> list[str]:
    return [unescape(c.value) for c in app.at.sidebar.caption]


def use_buttons(app) -> list:
    return [b for b in app.at.sidebar.button if b.key.startswith("use|")]


def root(app):
    """The root's test in the tree the page shows."""
    from pages import cached

    return next(s for s in cached.grow(app.at.session_state["choices"]).steps if s.action == "split").test


def test_tans_table_says_how_income_was_read_and_leaves_tid_out(open_app):
    app = uploaded(open_app, "tan_2006_figure_4_6.csv", "cart")
    said = captions(app)
    assert "Annual Income: read as numbers in thousands, 125K as 125 (the K dropped)." in said
    assert any(c.startswith("**Tid** (1, 2, …, 10) is set to *ignore*: a different value in every row") and
               "Attribute kinds" in c for c in said)
    assert [b.label for b in use_buttons(app)] == ["Use Tid as an attribute"]
    choices = app.at.session_state["choices"]
    assert choices.target == "Defaulted Borrower" and choices.kinds == ()
    from pages import cached

    data = cached.prepared(choices.source, choices.target, choices.kinds)
    assert data.attributes == ("Home Owner", "Marital Status", "Annual Income")
    assert data.kinds["Annual Income"] == "numeric"
    test = root(app)  # Annual Income <= 97.5 and Marital Status in {Married} tie at 0.12
    assert (test.attribute, getattr(test, "threshold", None)) in (("Annual Income", 97.5), ("Marital Status", None))


def test_one_click_uses_the_id_column_after_all(open_app):
    app = uploaded(open_app, "han_2012_table_8_1.csv", "cart")
    assert root(app).attribute == "age"
    app.at.session_state["step"] = 3
    app.click(use_buttons(app)[0].key)
    app.assert_clean()
    choices = app.at.session_state["choices"]
    assert choices.kinds == (("RID", "numeric"),)
    assert (root(app).attribute, root(app).threshold) == ("RID", 2.5)  # what the printed table grew before
    assert app.at.session_state["step"] == 0
    assert not use_buttons(app) and not any("is set to *ignore*" in c for c in captions(app))


def test_the_kind_menu_uses_the_id_column_too(open_app):
    app = uploaded(open_app, "mitchell_1997_table_3_2.csv", "id3")
    assert root(app).attribute == "Outlook"
    app.open("kinds_open")
    menu = next(s for s in app.at.sidebar.selectbox if s.key.endswith("|Day"))
    assert menu.value == "ignore" and menu.options == ["categorical", "numeric", "ignore"]
    menu.set_value("categorical").run()
    app.assert_clean()
    assert app.at.session_state["choices"].kinds == (("Day", "categorical"),)
    assert root(app).attribute == "Day"


def test_a_kind_set_to_numeric_on_mixed_units_says_what_to_change(open_app):
    app = open_app(dataset="tennis", algo="cart", page="step")
    app.set("selectbox", "dataset", "__upload__")
    table = b"weight,price,y\n3 kg,$5,a\n2 kg,$7,b\n500 g,$9,a\n1 kg,$4,b\n"
    app.at.file_uploader(key="upload_file").upload("shop.csv", table, "text/csv").run()
    said = captions(app)
    assert "price: read as numbers, $5 as 5 (the $ dropped)." in said
    assert any("data row 1 is in kg and data row 3 in g: write every value in one unit" in c for c in said)
    app.open("kinds_open")
    next(s for s in app.at.sidebar.selectbox if s.key.endswith("|weight")).set_value("numeric").run()
    assert not app.at.exception
    assert any("Column 'weight' is set to numeric, but its cells cannot be read as numbers" in e and
               "write every value in one unit" in e for e in app.errors)


def test_grow_by_hand_uses_every_row_of_tans_table_and_offers_the_books_cut(open_app):
    app = uploaded(open_app, "tan_2006_figure_4_6.csv", "cart", page="practice", mode="hand")
    assert app.at.toggle(key="hand_held_out").value is False
    assert any("Both trees grow on all 10 rows: the table is not split." in unescape(c.value)
               for c in app.at.caption)
    assert any("the root: all 10 rows" in unescape(m.value) for m in app.at.markdown)
    pick = next(s for s in app.at.selectbox if s.key.startswith("hand_pick"))
    assert any(o.startswith("Annual Income ≤ 97.5 (Gini gain 0.1200)") for o in pick.options)
    app.at.toggle(key="hand_held_out").set_value(True).run()
    import dtlearn
    from pages import cached

    choices = app.at.session_state["choices"]
    train, test = dtlearn.train_test_split(cached.prepared(choices.source, choices.target, choices.kinds), 0.25, seed=0)
    said = f"Both trees grow on {len(train.frame)} of the 10 rows and are tested on the other {len(test.frame)}."
    assert any(said in unescape(c.value) for c in app.at.caption) and len(test.frame) > 0
