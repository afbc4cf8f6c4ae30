"""A column of 50,000 categories with CART: left out at first (free text), and when the student
uses it after all, refused by the app's memory budget with a message, never a traceback (the
server was killed at 18 GB by CART's subsets of it)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from pages import computing


def fifty_thousand_values() -> bytes:
    """60,000 rows: a code of 50,000 values (each at least once), a number, two classes (~0.9 MB)."""
    rng = np.random.default_rng(0)
    codes = np.concatenate([np.arange(50_000), rng.integers(0, 50_000, 10_000)])
    frame = pd.DataFrame({"code": [f"k{i}" for i in rng.permutation(codes)], "x": rng.integers(0, 100, 60_000),
                          "y": rng.choice(["A", "B"], 60_000)})
    return frame.to_csv(index=False).encode()


def test_cart_on_50000_values_says_what_to_do_instead_of_taking_the_memory(open_app):
    assert computing.BUDGET.bytes == 512 * 2**20
    app = open_app(dataset="tennis", algo="cart", page="tree")
    app.set("selectbox", "dataset", "__upload__")
    app.at.file_uploader(key="upload_file").upload("codes.csv", fifty_thousand_values(), "text/csv").run()
    assert not app.at.exception and not app.errors  # grown on x: the code column is left out
    note = [c.value for c in app.at.sidebar.caption if c.value.startswith("**code**")]
    assert note and "50,000 different values in 60,000 rows" in note[0]

    use = [b for b in app.at.sidebar.button if b.label == "Use code as an attribute"]
    use[0].click().run()
    assert not app.at.exception
    refusal = [e for e in app.errors if e.startswith("The subsets of 'code' (50,000 values) would take ")]
    assert refusal, app.errors
    assert "past the 512 MB allowed here. Mark 'code' as 'ignore' (Attribute kinds)" in refusal[0]
    assert "The page keeps showing the last tree dtlearn accepted" in refusal[0]
