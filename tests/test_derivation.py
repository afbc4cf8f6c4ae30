"""dtlearn.derivation: the worked formulas a page renders with st.latex.

Expected numbers are derived independently of dtlearn: exact fractions (the `fractions`
module) and the worked examples of Mitchell (1997, ch. 3: PlayTennis) and Zhou (2016,
sec. 4.4.2: watermelon 2.0 alpha with missing values).
"""

from __future__ import annotations

import math
import re
from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import dtlearn
from dtlearn import data_summary
from dtlearn import derivation as dv
from dtlearn.node_rows import rows_at
from presets import every_case

CLASSES = ("No", "Yes")


def log2(fraction: F) -> float:
    return math.log2(fraction.numerator) - math.log2(fraction.denominator)


def ent(*counts: int) -> float:
    total = sum(counts)
    return -sum(float(F(c, total)) * log2(F(c, total)) for c in counts if c)


def gini(*counts: int) -> F:
    total = sum(counts)
    return 1 - sum(F(c, total) ** 2 for c in counts)


@pytest.fixture(scope="module")
def outlook():
    """The PlayTennis root row for outlook: Sunny 3 No / 2 Yes, Overcast 0 / 4, Rain 2 / 3."""
    table = dtlearn.split_table(dtlearn.load_dataset("tennis"), "id3")
    return table[table["attribute"] == "outlook"].iloc[0]


def result(line: str) -> str:
    """The number a derivation line arrives at (after its last '=')."""
    line = line.split(r" \\ \text{(")[0]  # a remark (the textbook's rounding, C4.5's correction), on its own line
    return line.rsplit("=", 1)[1].split(r"\quad")[0].replace(r"\end{aligned}", "").strip()


def test_independent_values_of_the_playtennis_root():
    # Mitchell (1997), section 3.4.2: Entropy(S) = 0.940, Gain(S, Outlook) = 0.246 (truncated)
    assert round(ent(9, 5), 3) == 0.940
    assert round(ent(3, 2), 3) == 0.971
    after = 5 / 14 * ent(3, 2) + 4 / 14 * 0 + 5 / 14 * ent(2, 3)
    assert round(ent(9, 5) - after, 4) == 0.2467
    assert round(ent(5, 4, 5), 3) == 1.577
    assert gini(9, 5) == F(45, 98)


def test_entropy_of_the_root_with_its_fractions(outlook):
    line = dv.entropy_of_node(outlook, CLASSES)
    assert line == (r"\mathrm{Ent}(D) = - \tfrac{5}{14}\log_2\tfrac{5}{14} - \tfrac{9}{14}\log_2\tfrac{9}{14}"
                    " = 0.940")
    counts = dv.node_counts(outlook, CLASSES)
    assert r"|D| = 14" in counts and r"5\ \text{No}" in counts and r"9\ \text{Yes}" in counts


def test_branch_entropies_of_outlook(outlook):
    sunny, overcast, rain = dv.branch_entropies(outlook, CLASSES)
    assert sunny.startswith(r"\mathrm{Ent}(D_{\text{Sunny}}) = - \tfrac{3}{5}\log_2\tfrac{3}{5} - \tfrac{2}{5}")
    assert [result(x) for x in (sunny, overcast, rain)] == [f"{ent(3, 2):.3f}", "0", f"{ent(2, 3):.3f}"]
    assert result(sunny) == "0.971"
    assert overcast == r"\mathrm{Ent}(D_{\text{Overcast}}) = - \tfrac{4}{4}\log_2\tfrac{4}{4} = 0"


def test_gain_split_info_and_ratio_of_outlook(outlook):
    weighted = dv.weighted_entropy(outlook)
    assert r"\tfrac{5}{14}\cdot 0.971 + \tfrac{4}{14}\cdot 0 + \tfrac{5}{14}\cdot 0.971 = 0.694" in weighted
    gain = dv.information_gain(outlook)
    # The exact gain 0.24675 rounds to 0.247, but the printed operands give 0.940 - 0.694 = 0.246,
    # the figure Mitchell (1997, p. 60) prints: the line says so rather than leave 0.940 - 0.694 = 0.247.
    assert gain == (r"\begin{gathered}\mathrm{Gain}(D, \text{outlook}) = "
                    r"\mathrm{Ent}(D) - \mathrm{Ent}_{\text{after}} = "
                    r"0.940 - 0.694 = 0.247 \\ \text{(exact, rounded; the rounded values shown give 0.246)}"
                    r"\end{gathered}")
    four = dv.information_gain(outlook, digits=4)  # exact 0.24675 -> 0.2467; by hand 0.9403 - 0.6935 = 0.2468
    assert "0.9403 - 0.6935 = 0.2467" in four and "values shown give 0.2468" in four
    assert "values shown" not in dv.information_gain(outlook, digits=None)  # all decimals: nothing rounded
    assert dv.split_information(outlook, digits=None).endswith(f"= {ent(5, 4, 5):.12f}".rstrip("0"))
    info = dv.split_information(outlook)
    assert r"\tfrac{4}{14}\log_2\tfrac{4}{14}" in info and result(info) == "1.577"
    (ratio,) = dv.gain_ratio(outlook)
    expected = (ent(9, 5) - 10 / 14 * ent(3, 2)) / ent(5, 4, 5)
    assert round(expected, 3) == 0.156
    # 0.247 / 1.577 = 0.1566 by hand (Quinlan 1993 prints 0.156 from his gain 0.246): remarked
    assert ratio.endswith(r"= \frac{0.247}{1.577} = 0.156"
                          r" \\ \text{(exact, rounded; the rounded values shown give 0.157)}\end{gathered}")


def test_gini_sums_of_outlook(outlook):
    before = dv.gini_of_node(outlook, CLASSES)
    assert before == r"\mathrm{Gini}(D) = 1 - \bigl(\tfrac{5}{14}\bigr)^2 - \bigl(\tfrac{9}{14}\bigr)^2 = 0.459"
    sunny, overcast, rain = dv.branch_ginis(outlook, CLASSES)
    assert result(sunny) == f"{float(gini(3, 2)):.3f}" == "0.480"
    assert result(overcast) == "0"
    after = F(5, 14) * gini(3, 2) + F(5, 14) * gini(2, 3)  # = 12/35
    assert result(dv.weighted_gini(outlook)) == f"{float(after):.3f}" == "0.343"
    assert result(dv.gini_gain(outlook)) == f"{float(gini(9, 5) - after):.3f}" == "0.116"


def test_missing_values_weight_the_gain_by_rho():
    # Zhou (2016), section 4.4.2: rho = 15/17 for texture, Gain(D, texture) = 0.424
    table = dtlearn.split_table(dtlearn.load_dataset("watermelon_2alpha"), "c45")
    row = table[table["attribute"] == "纹理"].iloc[0]
    assert r"\tfrac{15}{17}" in dv.known_share(row)
    gain = dv.information_gain(row)
    assert r"\mathrm{Gain}(D, \text{纹理}) = \rho\," in gain and result(gain) == "0.424"
    assert "rounded values shown" not in gain  # 15/17 x (0.997 - 0.517) = 0.42353 -> 0.424 too
    assert dv.entropy_of_node(row, ("否", "是")).startswith(r"\mathrm{Ent}(\tilde D)")
    info = dv.split_information(row)
    assert r"\tfrac{2}{17}\log_2\tfrac{2}{17}" in info  # the two unknown rows: one more part
    assert result(info) == f"{ent(3, 7, 5, 2):.3f}"


def test_c45_threshold_correction_is_shown():
    table = dtlearn.split_table(dtlearn.load_dataset("iris"), "c45")
    row = table[table["chosen"]].iloc[0]
    lines = dv.gain_ratio(row)
    assert len(lines) == 2 and lines[0].startswith(r"\begin{gathered}\mathrm{Gain}' = \mathrm{Gain} - \frac{\log_2 ")
    # the ratio after the correction is the score the table ranks by
    assert float(result(lines[1])) == pytest.approx(row["score"], abs=5e-4)


@pytest.mark.parametrize("name, algorithm", every_case())
def test_derivations_agree_with_the_table(name, algorithm):
    tree = dtlearn.fit(dtlearn.load_dataset(name), algorithm)
    for step in tree.steps[:6]:
        if tree.is_regression:
            for _, row in step.table.iterrows():
                lines = [line for section in dv.derivation(row, tree.classes) for line in section.lines]
                assert float(result(lines[-1])) == pytest.approx(row["score"], abs=5e-5)
                assert all(balanced(line) for line in lines)
            continue
        table = step.table
        for _, row in table.iloc[::max(1, len(table) // 150)].iterrows():  # glass: ~2,000 rows, a spread of them
            got = dv.measures(row)
            for column, value in got.items():
                assert value == pytest.approx(row[column], abs=1e-9), (name, step.number, row["test"], column)
            for section in dv.derivation(row, tree.classes):
                assert all(balanced(line) for line in section.lines)


def balanced(latex: str) -> bool:
    """Braces balance once escaped characters (\\{, \\}) are skipped, and no $ is left bare."""
    depth, i = 0, 0
    while i < len(latex):
        c = latex[i]
        if c == "\\":
            i += 2
            continue
        if c == "$":
            return False
        depth += {"{": 1, "}": -1}.get(c, 0)
        if depth < 0:
            return False
        i += 1
    return depth == 0


MALICIOUS = "a}\\text{x}$\\\\"  # a}\text{x}$\\


def test_a_malicious_name_is_escaped_inside_text():
    assert dv.text(MALICIOUS) == r"\text{a\}\textbackslash{}text\{x\}\$\textbackslash{}\textbackslash{}}"
    assert balanced(dv.text(MALICIOUS))
    every = "\\{}$&#^_%~"
    escaped = dv.escape(every)
    assert escaped == r"\textbackslash{}\{\}\$\&\#\textasciicircum{}\_\%\textasciitilde{}"
    assert dv.escape("two\nlines") == "two lines"


def test_names_from_a_file_reach_latex_only_escaped():
    frame = pd.DataFrame({MALICIOUS: ["x&y", "x&y", "50%", "50%"], "cls": ["$1", "#2", "#2", "$1"]})
    data = dtlearn.Dataset(frame, "cls")
    row = dtlearn.split_table(data, "id3").iloc[0]
    lines = [line for section in dv.derivation(row, data.classes) for line in section.lines]
    text = "\n".join(lines)
    assert MALICIOUS not in text and dv.escape(MALICIOUS) in text
    assert r"\text{x\&y}" in text and r"\text{50\%}" in text and r"\text{\$1}" in text
    assert all(balanced(line) for line in lines)


def test_branch_names_for_each_kind_of_test():
    assert dv.branch_name("= Sunny") == r"D_{\text{Sunny}}"
    assert dv.branch_name("<= 2.45") == r"D_{\le \text{2.45}}"
    assert dv.branch_name("> 2.45") == r"D_{> \text{2.45}}"
    assert dv.branch_name("in {a, b}") == r"D_{\in \text{\{a, b\}}}"
    assert dv.branch_name("not in {a, b}", r"\tilde D") == r"\tilde D_{\notin \text{\{a, b\}}}"


def test_an_empty_branch_and_a_single_branch():
    row = {"branch_counts": ((0.0, 0.0), (2.0, 3.0)), "n": 5.0, "known": 1.0, "attribute": "a"}
    assert "no rows" in dv.branch_entropies(row, CLASSES)[0]
    assert dv.split_information(row) == r"\mathrm{SplitInfo}(\text{a}) = 0"
    assert "split information 0" in dv.gain_ratio(row)[-1]
    assert dv.number(-1e-12) == "0.000"
    assert dv.number(0.0) == "0" and dv.number(0.25, 2) == "0.25"


@pytest.mark.parametrize("name, algorithm", [("watermelon_2alpha", "c45"), ("iris", "cart"), ("tennis", "id3")])
def test_rows_at_a_node_carry_its_class_weights(name, algorithm):
    data = dtlearn.load_dataset(name)
    tree = dtlearn.fit(data, algorithm)
    labels = data.frame[data.target].map(dtlearn.formatting.label).to_numpy()
    for node in tree.nodes():
        rows, weights = rows_at(tree, data.frame, node.id)
        by_class = [weights[labels[rows] == c].sum() for c in tree.classes]
        np.testing.assert_allclose(by_class, node.class_weights, atol=1e-9)


def test_class_counts_and_column_summary():
    tennis = dtlearn.load_dataset("tennis")
    counts = data_summary.class_counts(tennis)
    assert counts["class"].tolist() == ["No", "Yes"] and counts["rows"].tolist() == [5, 9]
    melon = dtlearn.load_dataset("watermelon_2alpha")
    summary = data_summary.column_summary(melon).set_index("column")
    assert summary.loc["色泽", "missing"] == 3 and summary.loc["好瓜", "role"] == "target"  # Zhou table 4.4
    iris = dtlearn.load_dataset("iris")
    forced = iris.with_kinds({"sepal_length": "categorical"})
    note = data_summary.column_summary(forced, inferred=iris.kinds).set_index("column").loc["sepal_length", "note"]
    assert re.search("numeric", note)


def test_a_regression_row_is_worked_out_from_its_sums_of_squares():
    table = dtlearn.split_table(dtlearn.load_dataset("tips"), "cart")
    row = table[table["chosen"]].iloc[0]
    sections = dv.derivation(row, ())
    assert [s.family for s in sections] == ["node", "squared_error"]
    node, sse = sections
    n, mean = float(row["n"]), sum(b[0] * b[1] for b in row["branch_stats"]) / float(row["n"])
    assert node.lines[0].startswith(r"|D| = 244") and result(node.lines[0]) == f"{mean:.4f}"
    assert result(sse.lines[0]) == f"{row['sse_before']:.3f}"
    assert result(sse.lines[2]) == f"{row['sse_before'] / n:.3f}"
    assert float(result(sse.lines[3])) == pytest.approx(row["score"], abs=5e-5)


def test_a_long_sum_is_broken_over_lines():
    row = {"branch_counts": tuple((1.0, 0.0) if i % 2 else (0.0, 1.0) for i in range(9)), "n": 9.0, "known": 1.0,
           "attribute": "id"}
    line = dv.split_information(row)
    assert line.startswith(r"\begin{aligned}\mathrm{SplitInfo}(\text{id}) &= ") and line.endswith(r"\end{aligned}")
    assert line.count(r"\\") == 3 and result(line) == f"{math.log2(9):.3f}"  # 9 terms: 4 + 4 + 1, then = value


def test_long_lines_are_broken_for_a_projector():
    """Glass (six long class names): the node's class list and C4.5's correction ran off the width
    of a 1280x720 projector on one line; the list is broken into aligned lines of at most
    LIST_CHARS characters of text, the correction's remark goes below its equation. The counts
    are the CSV's own, counted by pandas."""
    data = dtlearn.load_dataset("glass")
    classes = dtlearn.fit(data, "c45").classes
    table = dtlearn.split_table(data, "c45")
    row = table[table["chosen"]].iloc[0]
    counts = dv.node_counts(row, classes)
    assert counts.startswith(r"\begin{aligned}|D| = 214:\quad &") and balanced(counts)
    rows = counts.removesuffix(r"\end{aligned}").split(r":\quad &", 1)[1].split(r" \\ &")
    plain = [re.sub(r"\\text\{([^}]*)\}", r"\1", line).replace(r"\ ", " ") for line in rows]
    assert len(plain) > 1 and all(len(line) <= dv.LIST_CHARS for line in plain)
    expected = pd.read_csv(Path(__file__).resolve().parents[1] / "datasets" / "glass.csv")["Type"].value_counts()
    assert " ".join(plain) == ", ".join(f"{expected[c]} {c}" for c in classes)  # 70 build wind float, ...
    correction, ratio = dv.gain_ratio(row)
    assert correction.endswith(r" \\ \text{(C4.5's correction for choosing among " + str(int(row["cuts"]))
                               + r" thresholds)}\end{gathered}")
    assert dv.node_counts(dtlearn.split_table(dtlearn.load_dataset("tennis"), "id3").iloc[0], ("No", "Yes")) == \
        r"|D| = 14:\quad 5\ \text{No},\ 9\ \text{Yes}"  # a short list stays on one line
