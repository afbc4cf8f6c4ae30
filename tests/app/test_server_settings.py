"""The server settings a class's capacity rests on (.streamlit/config.toml, read by `streamlit run`
and AppTest from the project folder). benchmarks/bench_load.py measured them (README): AppTest
itself neither collects after a run nor watches files, so what is checked here is the setting as
Streamlit reads it from the project folder."""

from __future__ import annotations

from streamlit import config
from streamlit.testing.v1 import AppTest

from tests.app.conftest import APP


def test_the_server_neither_collects_garbage_after_each_run_nor_watches_the_source_files():
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update({"dataset": "tennis", "algo": "id3", "page": "step"})
    at.run()
    assert not at.exception
    # a full collection after every run: 160 ms a click on a server holding a class's trees
    assert config.get_option("runner.postScriptGC") is False
    # watching lists every imported module's path as a session starts: about 1 s of CPU per student
    assert config.get_option("server.fileWatcherType") == "none"


def test_no_table_is_exported_by_the_browser_with_its_cells_unneutralised():
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update({"dataset": "tennis", "algo": "id3", "page": "step"})
    at.run()
    assert not at.exception
    # a toolbar's CSV keeps =1+1 and @attr cells, which a spreadsheet runs (dtlearn.spreadsheet)
    assert config.get_option("client.disableDataExport") is True
