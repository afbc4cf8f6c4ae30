"""docs/jupyter.ipynb runs from top to bottom in a fresh kernel, and shows what it promises.

The notebook is executed with nbclient (as `jupyter nbconvert --execute` would), then each
tagged cell's output is checked: the tree is drawn (SVG from Graphviz's dot), the first step
shows ID3's table with Gain(S, Outlook) (Mitchell 1997: derived by hand below), the partial
tree has the root and three undecided children, C4.5's table and the scikit-learn estimator
give the numbers dtlearn gives outside the notebook.
"""

from __future__ import annotations

import math
import os
import re
import shutil
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

import dtlearn

NOTEBOOK = Path(__file__).resolve().parents[1] / "docs" / "jupyter.ipynb"


def H(*counts):
    n = sum(counts)
    return -sum(c / n * math.log2(c / n) for c in counts if c)


@pytest.fixture(scope="module")
def outputs():
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    assert all(not cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code"), \
        "commit the notebook without outputs"
    NotebookClient(notebook, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    found = {}
    for cell in notebook.cells:
        if cell.cell_type == "code":
            assert not [o for o in cell.outputs if o.output_type == "error"]
            found[cell.metadata["tags"][0]] = cell.outputs
    return found


def html_of(outputs) -> str:
    return "".join(o["data"]["text/html"] for o in outputs if "text/html" in o.get("data", {}))


def text_of(outputs) -> str:
    return "".join(o.get("text", "") for o in outputs if o.output_type == "stream" and o.name == "stdout")


@pytest.mark.skipif(shutil.which("dot") is None and not os.environ.get("CI"),
                    reason="the drawing needs Graphviz's dot (CI installs it)")
def test_the_tree_is_drawn(outputs):
    html = html_of(outputs["tree"])
    assert "<svg" in html and html.count('class="node"') == 8  # ID3 on PlayTennis: 3 tests, 5 leaves
    assert html_of(outputs["at_step"]).count('class="node"') == 4
    assert html_of(outputs["estimator_tree"]).count("<svg") == 1


def test_the_first_step_shows_the_table_and_the_formulas(outputs):
    html = html_of(outputs["step"])
    gain = H(9, 5) - 5 / 14 * H(2, 3) - 4 / 14 * H(4, 0) - 5 / 14 * H(3, 2)
    assert "Step 1: Split" in html and f"<td>{gain:.4f}</td>" in html
    # the exact gain 0.2467 is 0.247, the rounded operands give 0.246: a second line says so (gathered)
    assert re.search(r"\$\$(\\begin\{gathered\})?\\mathrm\{Gain\}\(D, \\text\{outlook\}\)", html)


def test_the_c45_table_is_dtlearns(outputs):
    html = html_of(outputs["table"])
    table = dtlearn.split_table(dtlearn.load_dataset("tennis"), algorithm="c45")
    for ratio in table["gain_ratio"]:
        assert f"{ratio:.6f}" in html  # pandas shows six decimals


def test_the_estimator_cross_validates(outputs):
    from sklearn.model_selection import cross_val_score
    from dtlearn.sklearn import TreeClassifier

    data = dtlearn.load_dataset("tennis")
    X, y = data.frame.drop(columns=data.target), data.frame[data.target]
    expected = cross_val_score(TreeClassifier(algorithm="id3"), X, y, cv=5).mean()
    assert text_of(outputs["cross_val"]).strip() == f"accuracy over 5 folds: {expected:.3f}"
