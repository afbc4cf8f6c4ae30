"""The core installs alone: `pip install .` brings numpy, pandas and numba, not the app's
Streamlit, Plotly or Graphviz, and dtlearn fits, predicts and writes DOT without them."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import importlib.util
import dtlearn
for package in ("streamlit", "plotly", "graphviz", "sklearn", "IPython"):
    assert importlib.util.find_spec(package) is None, package + " came with the core"
tree = dtlearn.fit(dtlearn.load_dataset("tennis"), "id3")
assert tree.root.test.attribute == "outlook" and "digraph tree {" in tree.to_dot()
assert "Step 1: Split" in tree.steps[0]._repr_html_()  # Jupyter's display needs nothing more
try:
    import dtlearn.sklearn
except ImportError as error:
    assert 'pip install "dtlearn[sklearn]"' in str(error), error
else:
    raise AssertionError("scikit-learn came with the core")
print("core alone:", tree.n_leaves, "leaves")
"""


def test_the_core_installs_and_runs_without_the_app_packages(tmp_path):
    uv = shutil.which("uv")
    assert uv, "uv is needed (the README's commands use it)"
    venv = tmp_path / "core"
    subprocess.run([uv, "venv", "--quiet", "--python", sys.executable, str(venv)], check=True)
    python = venv / "bin" / "python"
    # from a copy of the sources: setuptools writes build/ beside what it builds
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".venv", ".git", "build", "*.egg-info",
                                                                "__pycache__", "tests", "docs", "benchmarks"))
    subprocess.run([uv, "pip", "install", "--quiet", "--python", str(python), str(source)], check=True,
                   timeout=600)
    # the built-in datasets live beside the package in the repository: run from there
    result = subprocess.run([str(python), "-c", PROBE], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "core alone: 5 leaves" in result.stdout
