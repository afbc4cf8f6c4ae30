"""The shape of dtlearn: a one-way chain of modules, no Streamlit, nothing imported lazily.

Every module may import only modules below it in LAYERS (imports inside functions count too,
so a cycle cannot hide in a lazy import; imports under `if TYPE_CHECKING:` are annotations only).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "dtlearn"

# lowest first: data and settings, the encoding, the measures, candidates and tables, the compiled
# kernels and routing, steps, the engine, trees, induction, pruning, and the compositions on top
LAYERS = [
    "collector", "units", "identifiers", "data", "budget", "layout", "shorten", "colours", "arff", "quantities",
    "settings",
    "impurity",
    "jit", "kernels",
    "encoding", "measures", "conditions", "candidates", "splits", "subset_scan", "table",
    "routing", "surrogates", "summary", "steps", "engine", "node_labels",
    "export", "partition", "tree", "induction", "pruning", "evaluation", "explain",
    "api", "comparison", "by_hand", "catalog", "derivation", "answers", "mistakes", "grading", "quiz", "display",
    "typeset", "pdflatex", "worksheet", "record", "warmup",
    "cli", "sklearn", "__init__", "__main__",
]


def imports_of(path: Path) -> list[tuple[str, int]]:
    """(dtlearn module, line) for every import of the module, at any depth, except annotations."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            typing_only.update(id(child) for child in ast.walk(node))
    found = []
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.append((node.module.split(".")[0], node.lineno))
            else:
                found.extend((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("dtlearn"):
            found.append(((node.module.split(".") + [""])[1] or "__init__", node.lineno))
    return found


def test_every_module_is_in_the_layers():
    modules = {path.stem for path in PACKAGE.glob("*.py")}
    assert modules == set(LAYERS), (modules ^ set(LAYERS))


@pytest.mark.parametrize("module", LAYERS)
def test_a_module_imports_only_modules_below_it(module):
    rank = LAYERS.index(module)
    for imported, line in imports_of(PACKAGE / f"{module}.py"):
        assert LAYERS.index(imported) < rank, f"dtlearn/{module}.py:{line} imports {imported}, which is not below it"


def test_the_core_never_imports_streamlit():
    for path in PACKAGE.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
        names += [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
        assert not any(name.split(".")[0] == "streamlit" for name in names), path.name
