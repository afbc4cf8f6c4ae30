"""A class of 300 students, end to end: drawing the variants, the sheets and key, the three LMS exports.

Each part runs in a fresh process of its own (`--part`, called by this script), which first
draws the class (seed 7) and does the part once on a class of 2 (another seed), so that loading
modules and numba's kernels is not counted; then the process's peak resident memory is reset
(`/proc/self/clear_refs`) and the part is timed on the class. Printed per part: the seconds,
per student, the resident memory when it starts (the class drawn) and its peak (VmHWM) while the
part runs (pdflatex's own processes not counted). The parts:

* draw: `variants.class_set` (each variant drawn, grown and checked, as many attempts as it needs);
* sheets, LaTeX: `class_sheets.class_files` (each sheet, table and the key as LaTeX);
* sheets, PDF: the same compiled by pdflatex, one run per sheet and one for the key;
* Moodle XML (`lms_moodle.moodle_xml`), QTI 2.1 package (`lms_qti.qti_package`), nbgrader
  assignment (`lms_nbgrader.assignment_zip`, when the module exists), each alone;
* the three exports in one process, in that order (what `dtlearn variants --moodle --qti` and the
  Teacher page do): each variant's exercise is made once and read by every export.

    uv run python benchmarks/bench_class.py [--students 300] [--case tennis|watermelon] [--no-pdf] [--only PART]

With PYTHONPATH=<another checkout> the same parts are timed on that code (a before figure).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import dtlearn
from dtlearn.class_sheets import class_files
from dtlearn.lms_moodle import moodle_xml
from dtlearn.lms_qti import qti_package
from dtlearn.pdflatex import available
from dtlearn.variants import Constraints, class_set

try:
    from dtlearn.lms_nbgrader import assignment_zip
except ImportError:  # an older dtlearn: no nbgrader export
    assignment_zip = None

CASES = {
    "tennis": ("tennis", "PlayTennis", Constraints("id3", steps=(1, 2), max_node_rows=14),
               "tennis, ID3, steps 1-2, nodes <= 14 rows"),
    "watermelon": ("watermelon_3", "Watermelon 3.0", Constraints("c45", steps=(1, 2), missing=0.1),
                   "watermelon 3.0, C4.5, steps 1-2, 10% of cells empty"),
}
SEED = 7


def _exports(variants, title) -> int:
    size = len(moodle_xml(variants, title)) + len(qti_package(variants, title))
    return size + (len(assignment_zip(variants, title)) if assignment_zip else 0)


# each part: what it runs on (the class, the template's name and title), returning the bytes it made
PARTS = {
    "draw": lambda variants, name, title, rules, students: len(class_set(dtlearn.load_dataset(name), students,
                                                                         SEED, rules)),
    "sheets, LaTeX": lambda variants, name, title, *_: sum(len(b) for _, b in class_files(variants, title)),
    "sheets, PDF": lambda variants, name, title, *_: sum(len(b) for _, b in class_files(variants, title, pdf=True)),
    "Moodle XML": lambda variants, name, title, *_: len(moodle_xml(variants, title)),
    "QTI 2.1 package": lambda variants, name, title, *_: len(qti_package(variants, title)),
    "nbgrader assignment": lambda variants, name, title, *_: len(assignment_zip(variants, title)),
    "the three exports, one process": lambda variants, name, title, *_: _exports(variants, title),
}


def memory_mib() -> dict[str, float]:
    """The process's resident memory now (VmRSS) and at its peak (VmHWM), MiB."""
    status = Path("/proc/self/status").read_text()
    return {key: int(value) / 1024 for key, value in re.findall(r"(VmHWM|VmRSS):\s+(\d+) kB", status)}


def one_part(part: str, case: str, students: int) -> dict:
    """Runs in its own process: the class drawn, the part warmed on 2 students, then timed."""
    name, title, rules, _ = CASES[case]
    template = dtlearn.load_dataset(name)
    small = class_set(template, 2, SEED + 1, rules)
    PARTS[part](small, name, title, rules, 2)
    variants = [] if part == "draw" else class_set(template, students, SEED, rules)
    Path("/proc/self/clear_refs").write_text("5")  # the peak from here on is the part's
    before = memory_mib()["VmRSS"]
    start = time.perf_counter()
    made = PARTS[part](variants, name, title, rules, students)
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "before": before, "peak": memory_mib()["VmHWM"], "made": made}


def run(part: str, case: str, students: int) -> dict:
    out = subprocess.run([sys.executable, __file__, "--part", part, "--case", case, "--students", str(students)],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=300)
    parser.add_argument("--case", choices=list(CASES), action="append", help="a case (default: all)")
    parser.add_argument("--no-pdf", action="store_true", help="leave out the sheets through pdflatex")
    parser.add_argument("--only", choices=list(PARTS), action="append", help="a part (default: all)")
    parser.add_argument("--part", choices=list(PARTS), help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.part:
        print(json.dumps(one_part(options.part, options.case[0], options.students)))
        return
    parts = [p for p in PARTS if not (p == "sheets, PDF" and (options.no_pdf or not available()))
             and not (p == "nbgrader assignment" and assignment_zip is None) and p in (options.only or PARTS)]
    if not available():
        print("pdflatex is not installed: no PDF figures")
    for case in options.case or CASES:
        print(f"\n{CASES[case][3]}: {options.students} students, seed {SEED}; load average at the start "
              f"{os.getloadavg()[0]:.1f}\n")
        print("| part | seconds | per student | resident memory at the start | peak while it runs | made |")
        print("|---|---|---|---|---|---|")
        for part in parts:
            r = run(part, case, options.students)
            made = f"{r['made']} variants" if part == "draw" else f"{r['made'] / 2**20:.1f} MiB" \
                if r["made"] >= 2**20 else f"{r['made'] / 2**10:.0f} KiB"
            print(f"| {part} | {r['seconds']:.1f} s | {r['seconds'] / options.students * 1000:.0f} ms | "
                  f"{r['before']:.0f} MiB | {r['peak']:.0f} MiB (+{r['peak'] - r['before']:.0f}) | {made} |",
                  flush=True)
        print(f"\nload average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
