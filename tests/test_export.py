"""Exports: Graphviz DOT (valid whatever the names), Weka-style text, IF-THEN rules, JSON.

Expected texts and rules are written from Mitchell's tree (1997, fig. 3.1) with the counts
of his Table 3.2; DOT validity is judged by Graphviz itself (the `dot` program).
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pandas as pd
import pytest

import dtlearn

DOT = shutil.which("dot")
NASTY = ['say "hi"', "x<y>", "A&B", "back\\slash", "two\nlines", "{brace}", "it's", "]]>",
         "<b>bold</b>", '\\"', "&amp;", "a;b", "->", "--", "中文 é", "tab\there", "%d %s"]


def render_svg(source: str) -> str:
    """Render DOT with Graphviz; fail the test on any error or warning."""
    result = subprocess.run([DOT, "-Tsvg"], input=source.encode("utf-8"), capture_output=True, timeout=30)
    assert result.returncode == 0 and not result.stderr, result.stderr.decode("utf-8", "replace")
    return result.stdout.decode("utf-8")


def check_dot(source: str) -> str:
    """Valid DOT: rendered by `dot` when installed (here and in CI), else a minimal syntax check."""
    if DOT:
        return render_svg(source)
    # Fallback: statement structure and balanced HTML-like labels (< > only as markup).
    assert source.startswith("digraph tree {") and source.rstrip().endswith("}")
    for label in re.findall(r"label=<(.*?)>(?:\s|\]|$)", source):
        assert label.count("<") == label.count(">")
        assert "&" not in re.sub(r"&(lt|gt|amp|quot|#x27);", "", label)
    return ""


def svg_text(svg: str) -> str:
    """All text Graphviz drew, one line per SVG text element (the XML parser decodes entities)."""
    root = ET.fromstring(svg)
    return "\n".join("".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text"))


def svg_lines(svg: str) -> list[str]:
    """The text elements Graphviz drew, each stripped (a label's table cells pad with spaces)."""
    return [line.strip() for line in svg_text(svg).splitlines()]


# --- DOT --------------------------------------------------------------------------------------

def test_dot_has_every_node_and_edge(tennis):
    tree = dtlearn.fit(tennis, "id3")
    source = tree.to_dot()
    for node in tree.nodes():
        assert re.search(rf"^\s*n{node.id} \[label=", source, re.M), node.id
        for child in node.children:
            assert re.search(rf"^\s*n{node.id} -> n{child.id} ", source, re.M)
    assert len(re.findall(r"^\s*n\d+ \[label=", source, re.M)) == tree.n_nodes
    assert len(re.findall(r"->", source)) == tree.n_nodes - 1
    svg = check_dot(source)
    if DOT:
        text = svg_lines(svg)
        # Mitchell's counts at the root: 14 days, 5 No and 9 Yes; Ent = 0.940.
        assert "n = 14" in text and "5 No, 9 Yes" in text and "entropy 0.940" in text
        for label in ("= Sunny", "= Overcast", "= Rain", "humidity", "wind", "play = Yes"):
            assert label in text


def test_dot_highlight_marks_one_node(tennis):
    tree = dtlearn.fit(tennis, "id3")
    lines = [line for line in tree.to_dot(highlight=3).splitlines() if "penwidth" in line]
    assert len(lines) == 1 and lines[0].strip().startswith("n3 [")
    assert "penwidth" not in tree.to_dot()


def test_dot_highlights_mark_several_nodes_blue_and_keep_the_red_one(tennis):
    # an example's paths (dtlearn.explain): every node reached in blue, the main path's end in red
    tree = dtlearn.fit(tennis, "id3")
    source = tree.to_dot(highlight=2, highlights=[0, 2, 5])
    marked = {re.match(r"\s*n(\d+) ", line)[1]: line for line in source.splitlines() if "penwidth" in line}
    assert set(marked) == {"0", "2", "5"}
    for blue in ("0", "5"):
        assert 'color="#1f77b4"' in marked[blue] and "penwidth=2.5" in marked[blue]
    assert 'color="#d62728"' in marked["2"] and "penwidth=4" in marked["2"] and "#1f77b4" not in marked["2"]
    assert tree.to_dot(highlights=()) == tree.to_dot()
    assert source == dtlearn.export.to_graphviz(tree, 2, highlights={0, 2, 5}).source
    check_dot(source)


def test_dot_of_partial_trees(tennis):
    tree = dtlearn.fit(tennis, "id3")
    for k in range(tree.total_steps + 1):
        source = tree.at_step(k).to_dot()
        pending = sum(1 for n in tree.at_step(k).nodes() if n.status == "pending")
        assert source.count("not decided yet") == pending
        assert source.count("dashed") == pending
        check_dot(source)


@pytest.mark.parametrize("name", NASTY)
def test_dot_escapes_names_from_the_data(name):
    # A name from the data may hold DOT or HTML syntax; it must neither break the DOT source nor
    # inject markup, whether it is the attribute, a value, a class label or the target's name.
    # Graphviz must draw the name itself (so "<b>bold</b>" appears as text, not bold).
    frame = pd.DataFrame({name: [name, name, "w", "w"], "num": [1.0, 2.0, 3.0, 4.0],
                          name + " (target)": [name, name, "D", "D"]})
    data = dtlearn.Dataset(frame, name + " (target)")
    tree = dtlearn.fit(data, "id3")
    assert tree.root.test.attribute == name
    svg = check_dot(tree.to_dot())
    if DOT and "\n" not in name and "\t" not in name:  # Graphviz draws those as spaces
        drawn = svg_text(svg)
        assert f"= {name}" in drawn  # the edge label of the value
        # the leaf: target = class, on one line or, too long for a node, broken after the '='
        assert f"{name} (target) = {name}" in " ".join(drawn.splitlines())
        assert name in drawn.splitlines()  # the split node's title: the attribute


def test_dot_of_a_csv_with_quoted_newlines_and_markup():
    # The same through read_csv: quoted CSV fields may hold commas, quotes and newlines.
    raw = ('"x<y>, \\""","class {1}"\n'
           '"a\nb",A&B\n"a\nb",A&B\nc,"q""uote"\nc,"q""uote"\n').encode("utf-8")
    data = dtlearn.read_csv(raw)
    assert data.attributes == ('x<y>, \\"',) and data.target == "class {1}"
    tree = dtlearn.fit(data, "id3")
    svg = check_dot(tree.to_dot())
    if DOT:
        assert "A&B" in svg_text(svg) and 'q"uote' in svg_text(svg)


def test_dot_survives_control_characters_from_a_csv():
    # Regression (Graphviz rejected the DOT before f9444a0): read_csv keeps a vertical tab (\x0b)
    # inside a cell (only NUL marks a file as binary), and export.py promises that no name from
    # a file can break the DOT source.
    data = dtlearn.read_csv(b"a,y\nx\x0by,A\nx\x0by,A\nz,B\nz,B\n")
    assert data.frame["a"].iloc[0] == "x\x0by"
    tree = dtlearn.fit(data, "id3")
    source = tree.to_dot()
    assert DOT, "the `dot` program is needed to check this"
    render_svg(source)


# --- text and rules ---------------------------------------------------------------------------

def test_text_of_mitchells_tree(tennis):
    # Weka J48 style: "attribute = value: class (n)" with the counts of Mitchell's Table 3.2.
    expected = "\n".join([
        "outlook = Sunny",
        "|   humidity = High: No (3)",
        "|   humidity = Normal: Yes (2)",
        "outlook = Overcast: Yes (4)",
        "outlook = Rain",
        "|   wind = Weak: Yes (3)",
        "|   wind = Strong: No (2)",
    ])
    assert dtlearn.fit(tennis, "id3").to_text() == expected


def test_text_shows_training_errors(credit_risk):
    # Credit-risk ID3 (test_induction): leaf (3 N, 1 Y) -> "N (4/1)": 4 rows, 1 misclassified;
    # missed = Y (1 N, 2 Y) -> "Y (3/1)".
    text = dtlearn.fit(credit_risk, "id3").to_text()
    assert "|   under_2_years = Y: N (4/1)" in text.splitlines()
    assert "missed_payments = Y: Y (3/1)" in text.splitlines()


def test_text_of_a_single_leaf_and_a_pending_tree(xor, tennis):
    assert dtlearn.fit(xor, "id3").to_text() == ": N (4/2)"  # 2 N, 2 Y: 2 errors
    assert dtlearn.fit(tennis, "id3").at_step(0).to_text() == ": ? (not decided yet)"
    partial = dtlearn.fit(tennis, "id3").at_step(1).to_text().splitlines()
    assert partial == ["outlook = Sunny: ? (not decided yet)", "outlook = Overcast: ? (not decided yet)",
                       "outlook = Rain: ? (not decided yet)"]


def test_text_line_count_and_indentation(iris):
    tree = dtlearn.fit(iris, "cart")
    lines = tree.to_text().splitlines()
    # One line per edge, indented by the depth of the node the edge leaves.
    assert len(lines) == tree.n_nodes - 1
    depths = [line.count("|   ") for line in lines]
    expected = [node.depth - 1 for node in tree.nodes() if node.depth > 0]
    assert depths == expected


def test_rules_of_mitchells_tree(tennis):
    # Mitchell (1997) section 3.2: the tree is the disjunction of its root-to-leaf paths.
    rules = dtlearn.fit(tennis, "id3").rules()
    assert rules == [
        "IF outlook = Sunny AND humidity = High THEN play = No (3 rows)",
        "IF outlook = Sunny AND humidity = Normal THEN play = Yes (2 rows)",
        "IF outlook = Overcast THEN play = Yes (4 rows)",
        "IF outlook = Rain AND wind = Weak THEN play = Yes (3 rows)",
        "IF outlook = Rain AND wind = Strong THEN play = No (2 rows)",
    ]


def test_rules_of_thresholds_and_edge_cases(xor, tennis):
    # Internship (seed 001): one cut, years_experience <= 2.5 (rows 0, 1, 2 years -> 0).
    rules = dtlearn.fit(dtlearn.load_dataset("internship"), "cart").rules()
    assert rules == ["IF years_experience <= 2.5 THEN internship = 0 (3 rows)",
                     "IF years_experience > 2.5 THEN internship = 1 (3 rows)"]
    assert dtlearn.fit(xor, "id3").rules() == ["IF TRUE THEN y = N (4 rows)"]
    assert dtlearn.fit(tennis, "id3").at_step(1).rules()[1] == "IF outlook = Overcast THEN play = ? (4 rows)"


# --- JSON ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("name,algorithm", [("tennis", "id3"), ("iris", "cart"), ("watermelon_2alpha", "c45"),
                                            ("weather_numeric", "c45"), ("watermelon_3", "c45")])
def test_to_dict_round_trips_through_json(name, algorithm):
    tree = dtlearn.fit(dtlearn.load_dataset(name), algorithm)
    for k in {0, 1, tree.total_steps}:
        d = tree.at_step(k).to_dict()
        text = json.dumps(d, ensure_ascii=False, allow_nan=False)
        assert json.loads(text) == d


def test_to_dict_structure(tennis):
    tree = dtlearn.fit(tennis, "id3")
    d = tree.to_dict()
    assert d["target"] == "play" and d["classes"] == ["No", "Yes"] and d["algorithm"] == "id3"
    assert d["steps"] == d["total_steps"] == tree.total_steps

    def walk(node):
        yield node
        for child in node["children"]:
            yield from walk(child)

    nodes = list(walk(d["root"]))
    assert [n["id"] for n in nodes] == [n.id for n in tree.nodes()]
    root = d["root"]
    assert root["test"] == {"kind": "multiway", "attribute": "outlook", "values": ["Sunny", "Overcast", "Rain"]}
    assert root["class_weights"] == [5.0, 9.0] and root["n"] == 14.0  # Mitchell: [9+, 5-]
    assert root["branches"] == ["= Sunny", "= Overcast", "= Rain"]


def test_to_dict_of_threshold_and_subset_tests():
    iris_tree = dtlearn.fit(dtlearn.load_dataset("iris"), "cart")
    assert iris_tree.to_dict()["root"]["test"] == {"kind": "threshold", "attribute": "petal_length",
                                                   "threshold": pytest.approx(2.45)}
    # A subset test (the hand-built table of test_splits.test_no_reuse_rule_is_stated_in_the_table).
    rows = [("p", "u", "A")] * 3 + [("p", "v", "A")] * 3 + [("q", "u", "B"), ("q", "v", "A"),
                                                             ("r", "u", "B"), ("r", "v", "A")]
    data = dtlearn.Dataset(pd.DataFrame(rows, columns=["a", "b", "y"]), "y")
    test = dtlearn.fit(data, "cart").to_dict()["root"]["test"]
    assert test["kind"] == "subset" and test["attribute"] == "a"
    assert {frozenset(test["left"]), frozenset(test["right"])} == {frozenset({"p"}), frozenset({"q", "r"})}


@pytest.mark.parametrize("name, algorithm", [("tennis", "id3"), ("iris", "cart"), ("tips", "cart"),
                                             ("watermelon_2alpha", "c45")])
def test_the_dot_is_what_the_graphviz_package_writes(name, algorithm):
    # export writes DOT itself (the core needs no Graphviz); the graphviz package, given the same
    # nodes and attributes, must write the very same source, partial trees and highlights included
    import graphviz  # noqa: F401  (the app's package: here only to compare with)

    tree = dtlearn.fit(dtlearn.load_dataset(name), algorithm)
    for k in (0, 2, tree.total_steps):
        partial = tree.at_step(k)
        for highlight in (None, 0, 1):
            assert partial.to_dot(highlight) == dtlearn.export.to_graphviz(partial, highlight).source


def test_names_that_need_quotes_are_quoted_like_graphviz():
    frame = pd.DataFrame({'a "q" & <b>': ['x"y', "z{}"], "y": ["1", "2"]})
    tree = dtlearn.fit(dtlearn.Dataset(frame, "y"), "id3")
    assert tree.to_dot() == dtlearn.export.to_graphviz(tree).source


def test_a_large_tree_drawn_around_one_node():
    """Iris, CART (the tree in the README's screenshot): node 10 (sepal_length <= 6.95) lies on
    0 -> 2 -> 3 -> 6 -> 10. Drawn: that path, the other child at every step of it (1, 4, 5, 9),
    and node 10's children (11, 12); folded: the subtrees under 4 (13 with 15, 16; 14) and 5 (7; 8),
    one box for each node's hidden branches together."""
    from dtlearn.export import neighbourhood

    tree = dtlearn.fit(dtlearn.load_dataset("iris"), "cart")
    assert tree.node(10).test.describe() == "sepal_length <= 6.95"
    shown = neighbourhood(tree, 10, depth=1)
    assert shown == {0, 1, 2, 3, 4, 5, 6, 9, 10, 11, 12}
    dot = tree.to_dot(highlight=10, visible=shown)
    drawn = {int(i) for i in re.findall(r"^\tn(\d+) \[", dot, re.M)}
    folded = {m[0]: m[1:] for m in re.findall(r"^\th(\d+) \[label=<<I>([^<]*):</I> ([^>]*)>", dot, re.M)}
    assert drawn == set(shown)
    assert folded == {"13": ("2 folded", "4 nodes, 3 leaves"), "7": ("2 folded", "2 nodes, 2 leaves")}
    assert "n4 -> h13 [label=<2 branches>]" in dot and "n5 -> h7 [label=<2 branches>]" in dot
    assert tree.to_dot(visible=None) == tree.to_dot()  # no view: every node


def test_long_and_invisible_text_is_cut_and_shown_in_drawings_only():
    """A 100,000-character value and a name with a right-to-left override: the drawing cuts the
    value (an ellipsis, 40 characters) and writes the override as its code point, so `dot`
    takes the DOT (Graphviz rejects labels past 16,384 characters) and no text is turned
    round; the tree itself keeps every name and value whole."""
    from dtlearn.export import LABEL_CHARS

    long_value = "v" * 100_000
    frame = pd.DataFrame({"col\u202eumn": ["a", long_value, "a", long_value], "y": ["p", "q", "p", "q"]})
    tree = dtlearn.fit(dtlearn.Dataset(frame, "y"), "id3")
    assert long_value in tree.root.test.values  # computed with the whole value
    dot = tree.to_dot()
    assert long_value not in dot and "v" * (LABEL_CHARS - 3) + "…" in dot
    assert "\u202e" not in dot and "col⟨U+202E⟩umn" in dot
    assert max(len(line) for line in dot.splitlines()) < 1000
    if shutil.which("dot"):
        subprocess.run(["dot", "-Tsvg"], input=dot.encode(), check=True, capture_output=True)


def test_noncharacters_in_names_and_values_are_shown_as_code_points_and_dot_takes_the_dot():
    # U+FFFE / U+FFFF (a byte-swapped BOM, a sentinel) and their like: XML, so Graphviz's HTML-like
    # labels, refuses them (`dot`: syntax error); read from a file, they reached the label raw
    content = "a\ufffe,b,y\n1,\ufdd0,p\n2,\U0010ffff,q\n3,\ufdd0,p\n".encode()
    shown = {"cart": "in {⟨U+FDD0⟩}", "id3": "<B>a⟨U+FFFE⟩</B>"}  # CART splits on b's values, ID3 on a's
    for algorithm, written in shown.items():
        tree = dtlearn.fit(dtlearn.read_csv(content), algorithm)
        dot = tree.to_dot()
        assert not re.search("[\ufdd0-\ufdef\ufffe\uffff\U0010ffff]", dot) and written in dot
        if shutil.which("dot"):
            subprocess.run(["dot", "-Tsvg"], input=dot.encode(), check=True, capture_output=True)
    assert tree.root.test.attribute == "a\ufffe"  # the tree keeps the name whole; only its drawing shows it


@pytest.mark.parametrize("name, algorithm", [("iris", "cart"), ("tennis", "id3"), ("glass", "c45")])
def test_the_first_rules_are_the_rules_first_written_and_the_rest_are_not_written(name, algorithm):
    # the Tree page lists a big tree's first rules (a 20,000-leaf chain's are megabytes)
    tree = dtlearn.fit(dtlearn.load_dataset(name), algorithm)
    every = tree.rules()
    assert len(every) == tree.n_leaves
    assert tree.rules(3) == every[:3] and tree.rules(0) == [] and tree.rules(10 ** 6) == every


def label_lines(dot: str, name: str) -> list[str]:
    """The text lines of node `name`'s HTML-like label in DOT source (tags dropped): a line ends
    at a <BR/> or at the end of a row of the label's table."""
    label = re.search(rf"^\t{name} \[label=<(.*)> ", dot, re.M)[1]
    lines = []
    for chunk in re.split(r"<BR/>|</TR>", label):  # a row's cells are read with a space between them
        cells = re.findall(r"<TD[^>]*>((?:(?!<TD|</TD>).)*)</TD>", chunk) or [chunk]
        lines.append(" ".join(t for t in (html.unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in cells) if t))
    return [line for line in lines if line]


def test_many_long_class_names_are_written_with_short_codes_and_a_legend():
    """Glass has six classes whose names, each with its count, made a 90-character line in every
    node (too wide to read on a projector); the nodes write each count beside a short code of
    its class (wrapped to a node's width) and the drawing's legend names each code once. The
    expected counts are the CSV's own, counted by pandas, at each node from the rows that reach
    its leaves (`Tree.apply`)."""
    from dtlearn.shorten import NODE_CHARS

    data = dtlearn.load_dataset("glass")
    tree = dtlearn.fit(data, "cart")
    dot = tree.to_dot()
    legend = re.search(r"^\tgraph \[.*label=<(.*)> labeljust=", dot, re.M)[1]
    entries = re.findall(r"<TD ALIGN=\"LEFT\"><B>([^<]*?)(?:&nbsp;)?</B>([^<]*)</TD>", legend)
    code_of = {name or code: code for code, name in entries}
    assert sorted(code_of) == sorted(tree.classes) and len(set(code_of.values())) == len(tree.classes)
    assert code_of["build wind float"] == "bwf" and code_of["headlamps"] == "h"
    leaf_of_row = tree.apply(data.frame)
    for node in tree.nodes():
        reached = data.frame["Type"][pd.Series(leaf_of_row).isin([leaf.id for leaf in node.leaves()]).to_numpy()]
        counts = reached.value_counts()
        lines = label_lines(dot, f"n{node.id}")
        size = lines.index(f"n = {len(reached)}")
        written = ", ".join(f"{counts[c]} {code_of[c]}" for c in tree.classes if counts.get(c, 0) > 0)
        assert " ".join(lines[size + 1:]) == written
        assert all(len(line) <= NODE_CHARS for line in lines)
    assert label_lines(dot, "n0")[-2:] == ["70 bwf, 76 bwn, 17 vwf,", "13 c, 9 t, 29 h"]
    svg = check_dot(dot)
    if DOT:
        assert "13 c, 9 t, 29 h" in svg_lines(svg) and "vehic wind float" in svg_lines(svg)


def test_short_class_names_are_their_own_codes_and_many_classes_wrap_to_a_node(tennis, iris):
    from dtlearn.shorten import NODE_CHARS

    for data, algorithm, root in ((tennis, "id3", ["entropy 0.940", "outlook", "n = 14", "5 No, 9 Yes"]),
                                  (iris, "cart", ["Gini 0.667", "petal_length <= 2.45", "n = 150",
                                                  "50 se, 50 ve, 50 vi"])):
        dot = dtlearn.fit(data, algorithm).to_dot()
        assert label_lines(dot, "n0") == root
    # 26 classes of 5 rows (a-z) on one number: the root's 26 counts, wrapped
    frame = pd.DataFrame({"x": range(130), "y": [chr(ord("a") + i // 5) for i in range(130)]})
    tree = dtlearn.fit(dtlearn.Dataset(frame, "y"), "cart")
    dot = tree.to_dot()
    lines = label_lines(dot, "n0")[3:]
    assert len(lines) > 1 and all(len(line) <= NODE_CHARS for line in lines)
    assert " ".join(lines) == ", ".join(f"5 {chr(ord('a') + i)}" for i in range(26))
    assert dot == dtlearn.export.to_graphviz(tree).source
    check_dot(dot)
