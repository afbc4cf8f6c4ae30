"""`warm_up` reaches every compiled kernel the library calls from Python, so that a server that
runs it in the background has nothing left to compile when its first visitors come."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "dtlearn"


def kernels_called_from_python() -> set[str]:
    """Names of `kernels` read by the other modules (kernels.NAME, or imported by name)."""
    names: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        if "kernels" in path.relative_to(PACKAGE).with_suffix("").parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "kernels":
                names.add(node.attr)
            elif isinstance(node, ast.ImportFrom) and node.module == "kernels":
                names.update(alias.name for alias in node.names)
    return names


def test_warm_up_loads_every_kernel_the_library_calls():
    # A fresh interpreter: in this one, other tests have called the kernels already. A kernel
    # called compiled (compiled, or loaded from numba's cache) has a signature. As in the app, the
    # process is warming (small inputs interpreted) while warm_up runs: it compiles all the same,
    # and every call after it runs compiled.
    script = ("import json; from dtlearn import jit, kernels; from dtlearn.warmup import warm_up; "
              "assert jit.mode() == 'warming'; warm_up(); "
              "print(json.dumps({'mode': jit.mode(), 'signatures': {n: len(k.compiled().signatures) "
              "for n, k in vars(kernels).items() if isinstance(k, jit.Kernel)}}))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                          cwd=PACKAGE.parent)
    found = json.loads(done.stdout.strip().splitlines()[-1])
    signatures = found["signatures"]
    called = {name for name in kernels_called_from_python() if name in signatures}
    assert len(called) >= 15  # the scans, partitions, routing, surrogates, weakest links...
    assert [name for name in sorted(called) if not signatures[name]] == []
    assert found["mode"] == "compiled"
