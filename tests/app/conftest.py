"""AppTest helpers: the app run without a browser (no JavaScript: charts are specs only)."""

from __future__ import annotations

import base64
import json
import re
import sys
from pathlib import Path

import numpy as np
import pytest
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")  # absolute: AppTest resolves against the test file
sys.path.insert(0, str(ROOT))  # `pages` importable as in `streamlit run app.py` (tests/drawn_trees.py)
from drawn_trees import image_svg, svg_rest  # noqa: E402 (needs `pages` on the path)

PAGES = {"data": "pages/data.py", "step": "pages/step.py", "tree": "pages/tree.py",
         "partitions": "pages/partitions.py", "pruning": "pages/pruning.py", "practice": "pages/practice.py",
         "compare": "pages/compare.py", "predict": "pages/predict.py"}


def stage_svg(element) -> str | None:
    """The SVG document a stage (pages/stage.py) draws, from its data: a base64 data URL."""
    if element.proto.component_name != "dtlearn_stage":
        return None
    source = json.loads(element.proto.json)["src"]
    head = "data:image/svg+xml;base64,"
    assert source.startswith(head), source[:40]
    return base64.b64decode(source[len(head):], validate=True).decode("utf-8")


def on_stage(tree, node_id: int, **options) -> str:
    """What a page's stage draws of `tree` around `node_id` in a browser that has not said its box
    (AppTest): pages/stage.py's choice, as `App.trees` reads it."""
    from drawn_trees import drawn
    from pages import stage

    return drawn(stage.fitted(tree, node_id, stage.DEFAULT_BOX, **options).dot)


def unescape(markdown: str) -> str:
    """Text as it reads on the page: the app escapes names for markdown with backslashes."""
    return re.sub(r"\\(.)", r"\1", markdown)


def points(values) -> np.ndarray:
    """A Plotly trace's coordinates: Plotly writes a long array as base64 with its dtype."""
    if isinstance(values, dict):
        return np.frombuffer(base64.b64decode(values["bdata"]), dtype=values["dtype"])
    return np.asarray(values)


class App:
    """An AppTest with the few looks a test needs."""

    def __init__(self, **params: str) -> None:
        self.at = AppTest.from_file(APP, default_timeout=60)
        self.at.query_params.update(params)
        self.at.run()

    def page(self, name: str) -> "App":
        self.at.switch_page(PAGES[name]).run()
        return self

    def click(self, key: str) -> "App":
        self.at.button(key=key).click().run()
        return self

    def open(self, key: str) -> "App":
        """Open an expander whose content is sent only while it is open (as a click on it does)."""
        self.at.session_state[key] = True
        self.at.run()
        return self

    def set(self, kind: str, key: str, value) -> "App":
        getattr(self.at, kind)(key=key).set_value(value).run()
        return self

    @property
    def errors(self) -> list[str]:
        return [unescape(e.value) for e in self.at.error]

    @property
    def warnings(self) -> list[str]:
        return [unescape(e.value) for e in self.at.warning]

    @property
    def title(self) -> str:
        return unescape(self.at.title[0].value)

    @property
    def headers(self) -> list[str]:
        return [unescape(h.value) for h in self.at.header]

    def trees(self) -> list[str]:
        """The trees drawn on the page, top to bottom, as `drawn` gives them: each stage's SVG
        (pages/stage.py, laid out by `dot`), or the DOT source the browser lays out without it."""
        svgs = [stage_svg(element) for element in self.at.get("bidi_component")]
        svgs += [image_svg(m.value) for m in self.at.markdown]
        return [svg_rest(s) for s in svgs if s] + [c.proto.spec for c in self.at.get("graphviz_chart")]

    def stages(self) -> list[dict]:
        """The data each stage of the page was drawn with (pages/stage.py `show`)."""
        return [json.loads(e.proto.json) for e in self.at.get("bidi_component")
                if e.proto.component_name == "dtlearn_stage"]

    def figures(self) -> list[dict]:
        return [json.loads(chart.proto.spec) for chart in self.at.get("plotly_chart")]

    def latex(self) -> list[str]:
        return [element.value for element in self.at.latex]

    def frames(self):
        return [element.value for element in self.at.dataframe]

    def assert_clean(self) -> None:
        """No exception (traceback) on the page, no error box."""
        assert not self.at.exception, [e.value for e in self.at.exception]
        assert not self.at.error, self.errors


@pytest.fixture
def open_app():
    """open_app(dataset="iris", step="3", ...): the app opened at a link with these query parameters."""
    return App


@pytest.fixture
def downloads(monkeypatch) -> dict:
    """What each download button of the last runs offers: {file name: data} (AppTest keeps the
    files in a media manager of its own run, gone once the run is over)."""
    offered = {}
    add = MediaFileManager.add

    def keep(self, path_or_data, mimetype, coordinates, file_name=None, is_for_static_download=False):
        offered[file_name] = path_or_data
        return add(self, path_or_data, mimetype, coordinates, file_name, is_for_static_download)

    monkeypatch.setattr(MediaFileManager, "add", keep)
    return offered
