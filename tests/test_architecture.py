"""The shape of dtlearn: a one-way chain of modules, no Streamlit, nothing imported lazily.

Every module may import only modules below it in LAYERS (imports inside functions count too,
so a cycle cannot hide in a lazy import; imports under `if TYPE_CHECKING:` are annotations only).
A package is a layer of its own modules: `p.m` is dtlearn/p/m.py and `p` its `__init__.py`, which
hands the package's names on and so stands above every module of it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "dtlearn"

# lowest first: data and settings, the encoding, the measures, candidates and tables, the compiled
# kernels and routing, steps, the engine, trees, induction, pruning, and the compositions on top
LAYERS = [
    "collector", "units", "identifiers", "formatting", "data", "csv_cells", "csv_reader", "data_summary",
    "budget", "layout", "shorten", "colours", "arff", "quantities",
    "settings",
    "impurity",
    "rules", "jit",
    "kernels.layout", "kernels.criteria", "kernels.cuts", "kernels.thresholds", "kernels.multiway", "kernels.routing",
    "kernels.level", "kernels.pruning", "kernels.surrogates", "kernels",
    "encoding", "measures", "conditions", "candidates", "splits", "subset_scan", "table",
    "routing.branch_rule", "routing.growth_rows", "routing.flat_tree", "routing.encoded_rows", "routing.probabilities",
    "routing.prediction", "routing",
    "surrogates", "summary", "table_cache", "steps", "node_rows", "engine", "node_labels",
    "export", "partition", "tree", "induction",
    "pruning.walk", "pruning.validation_losses", "pruning.prepruning", "pruning.reduced_error_pruning",
    "pruning.j48_estimate", "pruning.pessimistic_pruning", "pruning.cost_complexity_pruning", "pruning",
    "evaluation", "explain",
    "api", "comparison", "by_hand", "catalog", "derivation", "answers", "mistakes", "grading", "quiz", "display",
    "typeset", "spreadsheet", "pdflatex", "worksheet", "variant_draw", "variant_checks", "variants", "class_sheets",
    "roster", "lms_items", "lms_moodle", "lms_qti", "lms_nbgrader",
    "record", "warmup",
    "framing", "mathml", "slides", "slides_html", "slides_tex",
    "cli_variants", "cli", "sklearn", "__init__", "__main__",
]


def modules() -> dict[str, Path]:
    """Each module's name in LAYERS and its file: `x` (dtlearn/x.py, or dtlearn/x/__init__.py), `x.y`."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        found[".".join(parts[:-1] if len(parts) > 1 and parts[-1] == "__init__" else parts)] = path
    return found


def layer_of(parts: list[str]) -> str:
    """The module in LAYERS that dtlearn.<parts> names: the longest listed prefix (`from . import
    fit` names a function of dtlearn/__init__.py, `from .x import y` a name of x)."""
    for end in range(len(parts), 0, -1):
        if ".".join(parts[:end]) in LAYERS:
            return ".".join(parts[:end])
    return parts[0] if parts and parts[0] in modules() else "__init__"  # a module not listed: named as itself


def imports_of(module: str, path: Path) -> list[tuple[str, int]]:
    """(dtlearn module, line) for every import of the module, at any depth, except annotations."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            typing_only.update(id(child) for child in ast.walk(node))
    package = module.split(".") if path.name == "__init__.py" and module != "__init__" else module.split(".")[:-1]
    found = []
    for node in ast.walk(tree):
        if id(node) in typing_only or not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            base = package[:len(package) - (node.level - 1)]
        elif (node.module or "").split(".")[0] == "dtlearn":
            base = []
        else:
            continue
        named = (node.module or "").split(".")[int(not node.level):] if node.module else []
        targets = [base + named] if node.module and named else [base + [alias.name] for alias in node.names]
        found.extend((layer_of([part for part in target if part]), node.lineno) for target in targets)
    return found


def test_every_module_is_in_the_layers():
    assert set(modules()) == set(LAYERS), (set(modules()) ^ set(LAYERS))


@pytest.mark.parametrize("module", LAYERS)
def test_a_module_imports_only_modules_below_it(module):
    rank = LAYERS.index(module)
    path = modules()[module]
    where = path.relative_to(PACKAGE.parent)
    for imported, line in imports_of(module, path):
        assert imported in LAYERS, f"{where}:{line} imports {imported}, which is not in LAYERS"
        assert LAYERS.index(imported) < rank, f"{where}:{line} imports {imported}, which is not below it"


def test_the_core_never_imports_streamlit():
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
        names += [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
        assert not any(name.split(".")[0] == "streamlit" for name in names), path.name
