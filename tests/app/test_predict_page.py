"""The Predict page with AppTest: an example entered in the form (or taken from a training row)
followed down the tree; what it shows must be what dtlearn's Tree.predict says."""

from __future__ import annotations

import pandas as pd
import pytest

import dtlearn
from pages import stage
from dtlearn.explain import example_frame, explain
from drawn_trees import drawn
from tests.app.conftest import unescape

FORM_SUBMIT = "FormSubmitter:predict_form-Predict"


def key(dataset: str, attribute: str, kind: str = "categorical") -> str:
    target = dtlearn.load_dataset(dataset).target
    return f"predict|{dataset}|{target}|{kind}|{attribute}"


def lines(app) -> str:
    return "\n".join(unescape(m.value) for m in app.at.markdown)


def shown_prediction(app) -> str:
    (metric,) = app.at.metric
    return metric.value


def example_on_page(app, dataset: str) -> dict:
    """The example the form holds, as the page hands it to dtlearn (menus' '(missing)' -> None)."""
    data = dtlearn.load_dataset(dataset)
    example = {}
    for a, kind in data.kinds.items():
        widget = (app.at.selectbox if kind == "categorical" else app.at.number_input)(key=key(dataset, a, kind))
        example[a] = None if widget.value in ("(missing)", None) else widget.value
    return example


@pytest.mark.parametrize("dataset, algorithm", [("tennis", "id3"), ("iris", "c45"), ("watermelon_2alpha", "c45"),
                                                ("tips", "cart")])
def test_the_page_opens_with_a_training_row_predicted(open_app, dataset, algorithm):
    app = open_app(dataset=dataset, algo=algorithm, page="predict")
    app.assert_clean()
    assert app.title == "Predict an example"
    tree = dtlearn.fit(dtlearn.load_dataset(dataset), algorithm)
    example = example_on_page(app, dataset)
    frame = example_frame(tree, example)
    predicted = tree.predict(frame)[0]
    e = explain(tree, example)
    if tree.is_regression:
        assert float(shown_prediction(app)) == pytest.approx(predicted, abs=5e-4)
    else:
        assert shown_prediction(app) == predicted
    assert e.lines()[0] in lines(app)
    # the tree drawn with the example's nodes in blue and its path's end in red: as much of it as the back
    # row reads (tips: 435 nodes, unreadable whole) around the path's end, every node the example reaches kept
    fit = stage.fitted(tree, e.highlight, stage.DEFAULT_BOX, highlight=e.highlight, highlights=e.reached,
                       also=frozenset(e.reached))
    assert app.trees() == [drawn(fit.dot)]
    # legible first: the path's end is drawn, the nodes reached above it drawn where they fit (else folded)
    assert fit.whole or (e.highlight in fit.visible and fit.legible)
    if not fit.whole:  # whole on request
        app.set("segmented_control", "tree_view", "the whole tree")
        whole = stage.fitted(tree, e.highlight, stage.DEFAULT_BOX, highlight=e.highlight, highlights=e.reached,
                             whole=True)
        assert whole.whole and app.trees() == [drawn(whole.dot)]


def test_a_missing_value_shows_the_fractional_path(open_app):
    app = open_app(dataset="watermelon_2alpha", algo="c45", page="predict")
    app.at.selectbox(key=key("watermelon_2alpha", "纹理")).set_value("(missing)").run()
    assert "纹理 is missing" not in lines(app)  # a form: nothing changes before Predict
    app.at.selectbox(key=key("watermelon_2alpha", "纹理")).set_value("(missing)")
    app.at.selectbox(key=key("watermelon_2alpha", "敲声")).set_value("(missing)")
    app.at.selectbox(key=key("watermelon_2alpha", "根蒂")).set_value("蜷缩")
    app.at.button(key=FORM_SUBMIT).click().run()
    app.assert_clean()
    text = lines(app)
    # shares of the 15 rows whose 纹理 is known: 3 模糊, 7 清晰, 5 稍糊 (tests/test_explain.py derives them)
    assert ("纹理 is missing: goes down every branch with weights 0.200, 0.467, 0.333 (the branches' shares of "
            "the training rows, Quinlan 1993)") in text
    assert "敲声 is missing" in text and "it arrived with weight 0.333" in text
    assert "Sum over the leaves of weight × class shares" in text
    tree = dtlearn.fit(dtlearn.load_dataset("watermelon_2alpha"), "c45")
    example = example_on_page(app, "watermelon_2alpha")
    assert example["纹理"] is None and example["根蒂"] == "蜷缩"
    assert shown_prediction(app) == tree.predict(example_frame(tree, example))[0]
    (table,) = [f for f in app.frames() if "weight" in f.columns]
    assert table.loc["sum", "weight"] == pytest.approx(1.0)
    assert len(table) == len(explain(tree, example).endings) + 1


def test_every_training_row_is_predicted_as_predict_does(open_app):
    data = dtlearn.load_dataset("watermelon_2alpha")
    tree = dtlearn.fit(data, "cart")
    app = open_app(dataset="watermelon_2alpha", algo="cart", page="predict")
    row_key = f"predict|watermelon_2alpha|{data.target}|row"
    for row in (2, 5, 11, 17):
        app.at.number_input(key=row_key).set_value(row).run()
        app.assert_clean()
        frame = data.frame.iloc[[row - 1]].drop(columns=data.target)
        assert shown_prediction(app) == tree.predict(frame)[0], row


def test_cart_cites_its_surrogates(open_app):
    app = open_app(dataset="watermelon_2alpha", algo="cart", page="predict")
    app.at.selectbox(key=key("watermelon_2alpha", "纹理")).set_value("(missing)")
    app.at.selectbox(key=key("watermelon_2alpha", "脐部")).set_value("凹陷")
    app.at.button(key=FORM_SUBMIT).click().run()
    app.assert_clean()
    assert "纹理 is missing: surrogate 脐部 in {凹陷}" in lines(app) and "Breiman et al. 1984" in lines(app)


def test_an_unseen_value_and_an_empty_number(open_app):
    app = open_app(dataset="tennis", algo="c45", page="predict")
    app.at.selectbox(key=key("tennis", "outlook")).set_value("(a value the tree never saw)")
    app.at.button(key=FORM_SUBMIT).click().run()
    app.assert_clean()
    assert "outlook = other, a value the tree never saw, treated as missing" in lines(app)
    tree = dtlearn.fit(dtlearn.load_dataset("tennis"), "c45")
    example = {**example_on_page(app, "tennis"), "outlook": "other"}
    assert shown_prediction(app) == tree.predict(example_frame(tree, example))[0]

    app = open_app(dataset="iris", algo="c45", page="predict")
    app.at.number_input(key=key("iris", "petal_width", "numeric")).set_value(None)
    app.at.button(key=FORM_SUBMIT).click().run()
    app.assert_clean()
    assert "petal_width is missing: goes down every branch" in lines(app)


def test_the_example_survives_a_visit_to_another_page(open_app):
    app = open_app(dataset="tennis", algo="id3", page="predict")
    app.at.selectbox(key=key("tennis", "outlook")).set_value("(missing)")
    app.at.button(key=FORM_SUBMIT).click().run()
    assert "outlook is missing" in lines(app)
    app.page("tree").page("predict")
    app.assert_clean()
    assert app.at.selectbox(key=key("tennis", "outlook")).value == "(missing)"
    assert "outlook is missing" in lines(app)


def test_an_attribute_of_many_values_is_typed_not_picked_from_a_menu(open_app):
    # 600 codes over 1,500 rows (kept as an attribute: fewer values than half the rows); the class is
    # the code's parity, so the tree tests `code` and an example's code decides its class
    codes = [f"c{i:03d}" for i in range(600)] * 2 + [f"c{i:03d}" for i in range(300)]
    frame = pd.DataFrame({"code": codes, "noise": [i % 3 for i in range(1500)],
                          "y": ["even" if int(c[1:]) % 2 == 0 else "odd" for c in codes]})
    app = open_app(dataset="tennis", algo="id3", page="predict")
    app.set("selectbox", "dataset", "__upload__")
    app.at.file_uploader(key="upload_file").upload("codes.csv", frame.to_csv(index=False).encode(), "text/csv").run()
    app.assert_clean()
    assert not [s for s in app.at.selectbox if s.label == "code"]  # no menu of 600 values
    def box():
        (found,) = [t for t in app.at.text_input if t.label == "code"]
        return found

    assert box().value == "c000"  # training row 1's value
    tree = dtlearn.fit(dtlearn.Dataset(frame, "y"), "id3")
    for typed, expected in (("c017", "odd"), ("c204", "even")):
        box().set_value(typed)
        app.at.button(key=FORM_SUBMIT).click().run()
        app.assert_clean()
        assert shown_prediction(app) == expected == tree.predict(example_frame(tree, {"code": typed, "noise": 0}))[0]
    box().set_value("zzz")  # a value no training row has: the tree's rule for an unseen value, in words
    app.at.button(key=FORM_SUBMIT).click().run()
    app.assert_clean()
    assert "code = zzz, a value the tree never saw" in lines(app)
    box().set_value("")
    app.at.button(key=FORM_SUBMIT).click().run()
    app.assert_clean()
    assert "code is missing" in lines(app)
