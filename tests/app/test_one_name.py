"""One name per quantity in the interface (issue: Gini gain was also 'Gini index' and ΔGini, split
information 'Split info' in the table and IV in the formulas), the textbooks' names said once where
a quantity is worked out, and a criterion menu that offers only what applies to the target."""

from __future__ import annotations

from dtlearn.quantities import QUANTITIES
from tests.app.conftest import unescape


def test_no_two_quantities_share_a_name_a_heading_or_a_symbol():
    for field in ("name", "heading", "plain", "latex"):
        values = [getattr(q, field) for q in QUANTITIES.values()]
        assert len(set(values)) == len(values), field


def test_the_step_page_names_cart_s_measure_one_way(open_app):
    app = open_app(dataset="tennis", algo="cart").page("step").click("next")
    app.assert_clean()
    caption = next(c.value for c in app.at.caption if "ranks them by" in c.value)
    assert "ranks them by **Gini gain**" in caption
    table = app.frames()[-1]
    assert "★ Gini gain" in table.columns and "Gini index" not in " ".join(table.columns)
    # the formulas of the chosen row: the section that works out Gini gain says its other names once
    titles = [m.value for m in app.at.markdown if m.value.startswith("**") and m.value.endswith("**")]
    assert "**Gini index and Gini gain**" in titles
    captions = [unescape(c.value) for c in app.at.caption]
    said = [c for c in captions if "Breiman et al. (1984)" in c and "Δi(s, t)" in c]
    assert len(said) == 1 and said[0].startswith("Gini index (Gini) is the Gini impurity"), said
    assert any(r"\Delta\mathrm{Gini}(D, " in line for line in app.latex())


def test_c45_s_split_information_has_one_symbol_in_table_and_formulas(open_app):
    app = open_app(dataset="tennis", algo="c45").page("step").click("next")
    app.assert_clean()
    assert "Split info" in app.frames()[-1].columns
    formulas = " ".join(app.latex())
    assert r"\mathrm{SplitInfo}(" in formulas and r"\mathrm{IV}" not in formulas
    said = " ".join(unescape(c.value) for c in app.at.caption)
    assert said.count("the intrinsic value IV(a) in Zhou (2016)") == 1


def test_the_criterion_menu_offers_only_the_criteria_of_a_class_target(open_app):
    app = open_app(dataset="tennis", algo="cart")
    menu = app.at.selectbox(key="criterion")
    assert menu.options == ["Information gain", "Gini gain", "Gain ratio", "Twoing value"]  # no squared error
    # a link asking a class target for squared error gets the preset's criterion, not a failure
    app = open_app(dataset="tennis", algo="cart", criterion="squared_error").page("step")
    app.assert_clean()
    assert app.at.selectbox(key="criterion").value == "gini"
