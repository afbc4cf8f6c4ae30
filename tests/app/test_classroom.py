"""Classroom details in AppTest: projector mode in the link, the shared stepper, a pasted
table (semicolon-separated with decimal commas, as European Excel writes it) and the message
for a numeric target that names where Task is."""

from __future__ import annotations

import pytest

from tests.app.conftest import unescape

SEMICOLONS = "hours;weight;passed\n1,5;60,2;no\n6;71,0;yes\n3,25;55;no\n8;80,5;yes\n5,5;66;yes\n"


def test_projector_mode_is_in_the_link_and_compacts_the_header(open_app):
    app = open_app(dataset="tennis", algo="id3", page="step", step="1", projector="1")
    assert not app.at.exception
    assert app.at.query_params["projector"] in ("1", ["1"])
    assert not app.at.title  # no big title: one compact line instead
    assert any(m.value.startswith("**Step through** · **PlayTennis** · ID3") for m in app.at.markdown)
    assert not app.at.slider  # the keys and buttons step; the slider's row is the stage's view (tree / numbers)
    assert app.at.segmented_control(key="stage_view").value == "Tree"
    off = open_app(dataset="tennis", algo="id3", page="step", step="1")
    assert off.at.title and "projector" not in off.at.query_params


@pytest.mark.parametrize(("name", "line", "intro"), [
    ("data", "**Data** · **Iris** ·", "150 iris flowers"),  # (not "Data: Iris · Iris")
    ("compare", "**Compare the algorithms**", "The same rows grown four ways"),
    ("partitions", "**Partitions of the plane**", "A tree that tests only thresholds"),
    ("pruning", "**Pruning**", "Overfitting: a tree grown"),
])
def test_projector_mode_compacts_every_pages_header(open_app, name, line, intro):
    # (not `page`: that is pytest-playwright's fixture, and the name would group this test with the browser's)
    # the Compare page kept its big title in projector mode; Partitions and Pruning put a
    # paragraph of introduction above the plane and the tree (their first screen at 1280x720)
    app = open_app(dataset="iris", algo="cart", page=name, projector="1")
    app.assert_clean()
    assert not app.at.title
    assert any(m.value.startswith(line) for m in app.at.markdown)
    captions = [c.value for c in app.at.caption]
    assert (name == "data") == any(c.startswith(intro) for c in captions[:1])  # Compare: its trees come first
    off = open_app(dataset="iris", algo="cart", page=name)
    assert off.at.title and any(c.value.startswith(intro) for c in off.at.caption)


def test_every_stepper_has_the_buttons_the_keys_press(open_app):
    """The keys (pages/assets/stage.js) press buttons by key: next/prev/first/last, prune_*."""
    app = open_app(dataset="iris", algo="cart", page="step", step="2")
    for key in ("first", "prev", "next", "last"):
        assert app.at.button(key=key)
    app.click("next")
    assert app.at.slider(key="step_slider").value == 3
    app.page("pruning")
    for key in ("prune_first", "prune_prev", "prune_next", "prune_last"):
        assert app.at.button(key=key)
    app.click("prune_last")
    assert app.at.slider(key="prune_slider").value == app.at.slider(key="prune_slider").max


def test_a_pasted_semicolon_table_is_read_with_a_note(open_app):
    app = open_app(dataset="tennis", algo="cart", page="data")
    app.set("selectbox", "dataset", "__upload__")
    app.set("text_area", "paste_text", SEMICOLONS)
    app.click("paste_use")
    assert not app.at.exception and not app.errors
    captions = [c.value for c in app.at.sidebar.caption]
    assert any("semicolon" in c for c in captions)
    assert any("Decimal commas" in c and "hours" in c and "weight" in c for c in captions)
    assert app.title == "Data: pasted table"
    # hours read as 1.5, 6, 3.25, 8, 5.5 (no, yes, no, yes, yes): CART cuts between 3.25 and 5.5,
    # at their midpoint 4.375, which separates the classes
    app.page("step").click("next")
    assert any("hours <= 4.375" in unescape(s.value) for s in app.at.success), [s.value for s in app.at.success]


def test_a_numeric_target_says_where_task_is(open_app):
    app = open_app(dataset="tips", algo="id3", page="step")
    assert any("Task" in e and "Missing values, priors, regression" in e for e in app.errors), app.errors


def test_the_drawn_tree_numbers_its_nodes_as_the_headings_do(open_app):
    """Step 3 of ID3 on PlayTennis: humidity = High under Sunny (3 No) becomes a leaf; the
    heading names its node, and the drawing writes the same number on it."""
    import re

    from drawn_trees import node_numbers

    app = open_app(dataset="tennis", algo="id3", page="step", step="3")
    heading = app.headers[0]
    match = re.search(r"node (\d+) becomes a leaf", heading)
    assert match, heading
    drawn = node_numbers(app.trees()[0])
    assert int(match[1]) in drawn
    assert sorted(drawn) == list(range(len(drawn)))  # every node of the partial tree, ids 0..n-1


def test_the_partitions_page_has_its_own_steps_and_they_are_in_the_link(open_app):
    """Iris with CART: the Step page's tree (4 attributes) and the tree on the petals alone have
    different step counts; the Partitions page never shows the other tree's step number."""
    app = open_app(dataset="iris", algo="cart", page="partitions", step="17", part_x="petal_length",
                   part_y="petal_width", part_step="2")
    assert not app.at.exception
    assert app.at.slider(key="step_slider").value == 2
    assert any("petal_length and petal_width only: 15 steps" in unescape(c.value) and "has 17" in c.value
               for c in app.at.caption)
    params = app.at.query_params
    assert all(params[k] in (v, [v]) for k, v in (("part_x", "petal_length"), ("part_y", "petal_width"),
                                                   ("part_step", "2"), ("step", "17")))
    app.click("next")
    assert app.at.query_params["part_step"] in ("3", ["3"])
    assert app.at.session_state["step"] == 17  # the Step page's step is left alone


def test_the_pruning_view_is_in_the_link(open_app):
    app = open_app(dataset="iris", algo="cart", page="pruning", prune_method="cost_complexity",
                   prune_alpha_mode="by hand", prune_alpha="0.02", prune_step="2")
    assert not app.at.exception
    assert app.at.selectbox(key="prune_method").value == "cost_complexity"
    assert app.at.number_input(key="prune_alpha").value == 0.02
    assert app.at.slider(key="prune_slider").value == 2
    params = app.at.query_params
    assert params["prune_alpha"] in ("0.02", ["0.02"]) and params["prune_step"] in ("2", ["2"])
    bad = open_app(dataset="iris", algo="cart", page="pruning", prune_alpha="99")
    assert any("prune_alpha" in w for w in bad.warnings) and not bad.at.exception


def test_the_formula_row_is_in_the_link(open_app):
    """Step 1 of ID3 on PlayTennis, formulas of humidity (row 2 of the root's table)."""
    app = open_app(dataset="tennis", algo="id3", page="step", step="1", row="2")
    assert not app.at.exception
    assert app.at.selectbox(key="formula_row_1").value == 2
    assert any(r"\text{humidity}" in block.body for block in app.at.latex)
    assert app.at.query_params["row"] in ("2", ["2"])


def test_only_a_chosen_formula_row_is_in_the_link(open_app):
    """The default row (the chosen candidate) stays out of the link, so that a link copied before
    or after the page set its default reads the same; a row the student picked is in it."""
    app = open_app(dataset="tennis", algo="id3", page="step", step="1")
    app.at.run()  # a second run (the browser reports the tree's box): the default row is set by now
    assert "row" not in app.at.query_params
    app.set("selectbox", "formula_row_1", 2)  # humidity
    assert app.at.query_params["row"] in ("2", ["2"])


def test_the_chosen_formula_row_stays_after_stepping_away_and_back(open_app):
    app = open_app(dataset="tennis", algo="id3", page="step", step="1")
    app.set("selectbox", "formula_row_1", 2)  # humidity
    app.click("next").click("prev")
    assert app.at.selectbox(key="formula_row_1").value == 2
    assert any(r"\text{humidity}" in block.body for block in app.at.latex)


def test_an_uploads_column_names_stay_out_of_the_link(open_app):
    """Only "dataset=upload" says the view was of a file: no target, kinds or axes by name."""
    exam = "hours,slept,name,passed\n1,7,Ann,no\n6,6,Ben,yes\n3,8,Eve,no\n8,5,Dev,yes\n5,7,Eli,yes\n".encode()
    app = open_app(dataset="tennis", algo="cart", page="partitions")
    app.set("selectbox", "dataset", "__upload__")
    app.at.file_uploader(key="upload_file").upload("exam.csv", exam, "text/csv").run()
    app.set("selectbox", "target", "name")
    app.set("selectbox", "target", "slept")
    link = "&".join(f"{k}={v}" for k, v in app.at.query_params.items())
    assert "dataset=upload" in link and not app.at.exception
    for name in ("hours", "slept", "name", "passed"):
        assert name not in link, link


def test_a_large_tree_is_drawn_around_the_current_node(open_app):
    """Glass with C4.5 (Weka's glass.arff): more nodes than a projector can show; the Step page
    draws the decided node's neighbourhood, folded boxes counting the rest, or the whole tree."""
    from drawn_trees import node_count

    app = open_app(dataset="glass", algo="c45", page="step", step="70")  # 71 nodes by then (over 40)
    assert not app.at.exception
    around = app.trees()[0]
    assert "folded:" in around
    app.set("segmented_control", "tree_view", "the whole tree")
    whole = app.trees()[0]
    assert "folded:" not in whole and node_count(whole) > node_count(around)
    assert app.at.query_params["tree_view"] in ("the whole tree", ["the whole tree"])


def test_the_tree_page_shows_the_picked_nodes_rows_and_candidates(open_app):
    """Iris CART, node 2 (petal_length > 2.45: the 100 versicolor and virginica rows)."""
    app = open_app(dataset="iris", algo="cart", page="tree", complete="1", tree_node="2")
    assert not app.at.exception
    app.open("rows_open_17").open("tree_node_table")
    frames = app.frames()
    rows = next(f for f in frames if "species" in f.columns)
    assert len(rows) == 100 and set(rows["species"]) == {"versicolor", "virginica"}
    table = frames[-1]
    assert "✓ petal_width ≤ 1.75" in list(table["candidate"])  # node 2's split, marked chosen


def test_another_algorithm_starts_at_step_zero_and_keeps_the_partitions_axes(open_app):
    """CART step 8 -> ID3 showed "Step 8 of 8" (the step number kept into another tree), while another
    dataset started at 0; the Partitions page's axes swapped with the algorithm (C4.5 and CART test
    the petals in another order) after the lecturer had chosen them."""
    app = open_app(dataset="iris", algo="cart", page="step", step="8")
    assert app.headers[0].startswith("Step 8 of ")
    app.set("segmented_control", "algo", "id3")
    assert app.headers[0].startswith("Step 0 of ")
    app.page("partitions")
    app.set("selectbox", "part_x", "sepal_length").set("selectbox", "part_y", "petal_width")
    app.click("next").click("next")
    for algorithm in ("c45", "cart"):
        app.set("segmented_control", "algo", algorithm)
        app.assert_clean()
        assert (app.at.selectbox(key="part_x").value, app.at.selectbox(key="part_y").value) == \
            ("sepal_length", "petal_width")
        assert any(m.value.startswith("**Step 0 of ") for m in app.at.markdown)
