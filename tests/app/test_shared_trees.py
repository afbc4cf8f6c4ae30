"""One tree per question in the app's store: a page that needs the tree every page shows reads
that tree, instead of growing it again (a 1,000,000-row upload or the 20,000-level chain takes
tens of seconds to grow)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from pages import computing


def two_numbers() -> bytes:
    rng = np.random.default_rng(3)
    frame = pd.DataFrame({"x": rng.normal(size=120).round(2), "y": rng.normal(size=120).round(2)})
    frame["label"] = np.where(frame["x"] + frame["y"] > 0.3, "up", "down")
    return frame.to_csv(index=False).encode()


def entries(source: str) -> dict:
    return {key: entry.value for key, entry in computing.STORE._entries.items() if key[1] == source}


def test_partitions_and_pruning_of_a_two_attribute_file_read_the_tree_every_page_shows(open_app):
    app = open_app(dataset="tennis", algo="c45", page="step")
    app.set("selectbox", "dataset", "__upload__")
    app.at.file_uploader(key="upload_file").upload("pair.csv", two_numbers(), "text/csv").run()
    source = "upload:" + computing.digest(two_numbers())  # the upload's key in the store
    app.page("partitions")
    assert not app.at.exception and not app.errors and app.figures()
    stored = entries(source)
    assert [key for key in stored if key[0] == "grown"]  # the upload's tree is there...
    assert not [key for key in stored if key[0] == "pair"]  # ...and no second one: x and y are the data's own
    app.page("pruning").set("selectbox", "prune_method", "pessimistic")  # on every row (not a validation split)
    assert not app.at.exception and not app.errors
    stored = entries(source)
    # ("grown", source, target, kinds, algorithm, settings)
    grown = [value for key, value in stored.items() if key[0] == "grown" and key[4] == "c45"]
    # ("pruned", source, target, kinds, algorithm, settings, method, options, pair)
    pruned = [value for key, value in stored.items() if key[0] == "pruned" and key[6] == "pessimistic"]
    assert len(grown) == 1 and pruned and all(p.base is grown[0] for p in pruned)  # pruned from that tree
