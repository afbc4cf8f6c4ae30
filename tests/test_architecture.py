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
    "budget", "layout", "shorten", "colours", "arff", "quantities", "criteria",
    "settings",
    "impurity",
    "rules", "stops", "jit",
    "kernels.layout", "kernels.criteria", "kernels.cuts", "kernels.thresholds", "kernels.multiway", "kernels.routing",
    "kernels.level", "kernels.preorder", "kernels.pruning", "kernels.surrogates", "kernels",
    "encoding", "measures", "conditions", "candidates", "splits", "subset_scan", "table",
    "routing.branch_rule", "routing.growth_rows", "routing.flat_tree", "routing.encoded_rows", "routing.probabilities",
    "routing.prediction", "routing",
    "surrogates", "summary", "table_cache", "steps", "node_rows",
    "engine_grown", "engine_plan", "engine_score", "engine", "node_labels",
    "export", "partition", "tree", "step_record", "induction",
    "pruning.walk", "pruning.validation_losses", "pruning.prepruning", "pruning.reduced_error_pruning",
    "pruning.j48_estimate", "pruning.pessimistic_pruning", "pruning.cost_complexity_pruning", "pruning",
    "evaluation", "explain",
    "api", "comparison", "by_hand", "catalog",
    "derivation_latex", "derivation_row", "derivation_entropy", "derivation_cart", "derivation",
    "answers", "mistakes", "grading", "quiz", "display",
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


# The app layer: app.py and pages/ ----------------------------------------------------------------
# app.py is the entry point; the pages are the scripts st.navigation runs (pages/address.py
# PAGE_SCRIPTS), and every other module of pages/ is a helper they share. Pages import helpers;
# helpers never import a page or app.py, and no module imports itself through others (a circle):
# each helper can be read, and changed, from the ones it imports.

ROOT = PACKAGE.parent


def page_scripts() -> dict[str, str]:
    """PAGE_SCRIPTS as pages/address.py writes it (read, not imported: no Streamlit needed)."""
    tree = ast.parse((ROOT / "pages" / "address.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "PAGE_SCRIPTS" for t in node.targets):
            return {name: script for name, (script, _) in ast.literal_eval(node.value).items()}
    raise AssertionError("pages/address.py has no PAGE_SCRIPTS")


def app_modules() -> dict[str, Path]:
    """`app` and `pages.x` (pages/x.py) -> file."""
    found = {"app": ROOT / "app.py"}
    found.update((f"pages.{path.stem}", path) for path in (ROOT / "pages").glob("*.py") if path.stem != "__init__")
    return found


def page_modules() -> set[str]:
    return {f"pages.{Path(script).stem}" for script in page_scripts().values()}


def app_imports(path: Path) -> list[tuple[str, int]]:
    """(app-layer module, line) for every import of app.py or a module of pages/, at any depth
    (a lazy import inside a function is an import too), except annotations."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            typing_only.update(id(child) for child in ast.walk(node))
    known, found = app_modules(), []
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = "pages" if node.level and not node.module else ("pages." + node.module if node.level
                                                                    else node.module or "")
            # `from pages import stage` names a module; `from pages.stage import show` a name of one
            names = [f"{module}.{alias.name}" for alias in node.names] if module == "pages" else [module]
        else:
            continue
        found.extend((name, node.lineno) for name in names if name in known)
    return found


def app_graph() -> dict[str, set[str]]:
    return {name: {imported for imported, _ in app_imports(path)} for name, path in app_modules().items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A circle of imports in `graph` (module -> the modules it imports), as [a, b, ..., a], or None."""
    state: dict[str, str] = {}  # "open" while on the path being walked, "done" after
    path: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = "open"
        path.append(node)
        for after in sorted(graph.get(node, ())):
            if state.get(after) == "open":
                return path[path.index(after):] + [after]
            if after not in state and (cycle := walk(after)):
                return cycle
        path.pop()
        state[node] = "done"
        return None

    for start in sorted(graph):
        if start not in state and (cycle := walk(start)):
            return cycle
    return None


def test_the_cycle_finder_finds_a_circle_and_only_one():
    # a made-up graph: a -> b -> c -> a is a circle; d -> a and c -> e hang off it
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a", "e"}, "d": {"a"}, "e": set()}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"a"}}) == ["a", "a"]  # a module importing itself
    assert find_cycle({"x": {"y", "z"}, "y": {"z"}, "z": set()}) is None  # a diamond is no circle
    # the shape this test was written against: app.py and a helper importing each other
    old = {"app": {"pages.common", "pages.pruning_view"}, "pages.common": {"app", "pages.pruning_view"},
           "pages.pruning_view": {"pages.common", "pages.charts"}, "pages.charts": {"pages.common"}}
    assert find_cycle(old) == ["app", "pages.common", "app"]


def test_the_pages_st_navigation_runs_are_files_of_pages():
    scripts = page_scripts()
    assert scripts and all((ROOT / script).is_file() and Path(script).parent == Path("pages")
                           for script in scripts.values()), scripts


def test_app_py_imports_no_page():
    pages = page_modules()
    for imported, line in app_imports(ROOT / "app.py"):
        assert imported not in pages, f"app.py:{line} imports the page {imported} (st.navigation runs it)"


@pytest.mark.parametrize("module", sorted(set(app_modules()) - {"app"}))
def test_pages_import_helpers_and_helpers_never_import_a_page_or_the_app(module):
    pages, path = page_modules(), app_modules()[module]
    where = path.relative_to(ROOT)
    for imported, line in app_imports(path):
        assert imported != "app", f"{where}:{line} imports app.py: the entry point imports helpers, not the reverse"
        assert imported not in pages, f"{where}:{line} imports the page {imported}: pages import helpers only"


def test_the_app_layer_has_no_circle():
    cycle = find_cycle(app_graph())
    assert cycle is None, "these modules import each other in a circle: " + " -> ".join(cycle or [])
