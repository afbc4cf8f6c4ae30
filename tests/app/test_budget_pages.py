"""The app's budget (pages/computing.py BUDGET): a file whose tree would be too costly gets a message
that names the cheaper setting, the session keeps its previous tree and goes on, and the
refusal is kept (a rerun does not try again)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from pages import computing


def wide_upload() -> bytes:
    """ID3 on two columns of 600 values (3 rows per value of c, random classes): the root's
    600 children split 600 ways again, about 250,000 nodes, past the app's 200,000."""
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"c": [f"c{i}" for i in rng.permutation(np.arange(1800) % 600)],
                          "d": [f"d{i}" for i in rng.integers(0, 600, 1800)],
                          "y": rng.choice(["a", "b"], 1800)})
    return frame.to_csv(index=False).encode()


def test_a_tree_past_the_budget_is_refused_with_the_setting_that_helps(open_app):
    assert computing.BUDGET.nodes == 200_000
    app = open_app(dataset="tennis", algo="id3", page="step")
    app.set("selectbox", "dataset", "__upload__")
    app.at.file_uploader(key="upload_file").upload("wide.csv", wide_upload(), "text/csv").run()
    assert not app.at.exception
    refusal = [e for e in app.errors if "past the 200,000 allowed here" in e]
    assert refusal and "Max depth" in refusal[0] and "The page keeps showing the last tree" in refusal[0]
    assert app.title.startswith("Step") and "Tennis" in app.at.markdown[0].value  # the previous tree, shown
    app.click("next")  # the session goes on, with the kept tree
    assert not app.at.exception and app.headers[0].startswith("Step 1 of")
    app.set("number_input", "max_depth", 1)  # the setting the message names: now it grows
    assert not app.at.exception and not any("allowed here" in e for e in app.errors)
    assert "wide\\.csv" in app.at.markdown[0].value  # the upload's tree now (its name escaped for markdown)
