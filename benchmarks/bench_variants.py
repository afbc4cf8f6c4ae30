"""A class of 300 students: their variants, sheets and key, against the template's own sheet.

For each case, in one process: the reference is the template's own exercise sheet and its
solution (fit, `worksheet`, `to_latex`), best of 20 before and 20 after the class; `class_set`
makes 300 variants (each its attempts: drawn, grown, checked), `class_files` writes every
sheet, CSV and the key as LaTeX; then pdflatex compiles a few sheets (time per sheet) and the
whole key. Printed: the seconds of each part, per student, the ratio of one student's variant
and files to the template's own sheet, the attempts per variant, the process's peak resident
memory before and after (ru_maxrss: the class's variants, trees and documents all held at
once; every case made once for 20 students first, so that loading the kernels - numba's
compiler: about 120 MiB, once per process, the first time a draw needs a kernel the first fit
did not - is not counted), and the Python objects a class holds per student and at its peak
(tracemalloc, a class of 50 of its own).

    uv run python benchmarks/bench_variants.py [--students 300] [--pdf-sheets 5] [--no-key-pdf]
"""

from __future__ import annotations

import argparse
import gc
import resource
import statistics
import time
import tracemalloc

import dtlearn
from dtlearn.class_sheets import class_files, key, student_sheet
from dtlearn.pdflatex import available, compile_pdf
from dtlearn.variants import Constraints, class_set
from dtlearn.worksheet import to_latex, worksheet

CASES = {
    "tennis, ID3, steps 1-2, nodes <= 14": ("tennis", "PlayTennis", Constraints("id3", steps=(1, 2), max_node_rows=14)),
    "tennis, ID3, steps 1-2, same shape": ("tennis", "PlayTennis", Constraints("id3", steps=(1, 2), same_shape=True)),
    "watermelon 3.0, C4.5, steps 1-2, 10% missing": ("watermelon_3", "Watermelon 3.0",
                                                     Constraints("c45", steps=(1, 2), missing=0.1)),
}


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def own_sheet(name: str, title: str, rules: Constraints) -> float:
    """Seconds to fit the template and write its sheet and solution (best of 20)."""
    times = []
    for _ in range(20):
        start = time.perf_counter()
        tree = dtlearn.fit(dtlearn.load_dataset(name), rules.algorithm)
        sheet = worksheet(tree, *rules.steps, rules.digits, dataset=title)
        to_latex(sheet, False), to_latex(sheet, True)
        times.append(time.perf_counter() - start)
    return min(times)


def traced(name: str, title: str, rules: Constraints, students: int = 50) -> tuple[float, float]:
    """KiB per student of the Python objects a class holds once its variants and files are made,
    and of the peak while making them (tracemalloc, a class of its own after the timed one)."""
    gc.collect()
    tracemalloc.start()
    start = tracemalloc.take_snapshot()
    variants = class_set(dtlearn.load_dataset(name), students, 8, rules)
    files = dict(class_files(variants, title))
    gc.collect()
    held = sum(s.size_diff for s in tracemalloc.take_snapshot().compare_to(start, "filename"))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    del files
    return held / students / 1024, peak / students / 1024


def run(label: str, name: str, title: str, rules: Constraints, students: int, pdf_sheets: int, key_pdf: bool):
    reference = own_sheet(name, title, rules)
    before = peak_mib()
    start = time.perf_counter()
    variants = class_set(dtlearn.load_dataset(name), students, 7, rules)
    made = time.perf_counter() - start
    start = time.perf_counter()
    files = dict(class_files(variants, title))
    written = time.perf_counter() - start
    after = peak_mib()
    reference = min(reference, own_sheet(name, title, rules))  # best before or after: the load drifts
    attempts = [v.attempt + 1 for v in variants]
    per_student = (made + written) / students
    print(f"\n{label}: {students} students")
    print(f"  the template's own sheet and solution: {reference * 1000:.0f} ms")
    print(f"  variants: {made:.1f} s ({made / students * 1000:.0f} ms each; attempts mean "
          f"{statistics.mean(attempts):.1f}, median {statistics.median(attempts):.0f}, max {max(attempts)})")
    print(f"  sheets, tables and key as LaTeX: {written:.1f} s ({len(files)} files, "
          f"{sum(map(len, files.values())) / 2**20:.1f} MiB)")
    print(f"  per student: {per_student * 1000:.0f} ms = {per_student / reference:.1f}x the template's own sheet")
    held, peak = traced(name, title, rules)
    print(f"  peak resident memory: {before:.0f} MiB before, {after:.0f} MiB after; Python objects per student "
          f"(variant, tree, tables, files): {held:.0f} KiB held, {peak:.0f} KiB at the peak")
    if not available():
        print("  pdflatex is not installed: no PDF timings")
        return
    compile_times = []
    for variant in variants[:pdf_sheets]:
        document = student_sheet(variant, title)
        start = time.perf_counter()
        compile_pdf(document)
        compile_times.append(time.perf_counter() - start)
    if compile_times:
        print(f"  pdflatex, one sheet: median {statistics.median(compile_times):.2f} s of {len(compile_times)} "
              f"(the class's {students} sheets: about {statistics.median(compile_times) * students / 60:.1f} min)")
    if key_pdf:
        document = key(variants, title)
        start = time.perf_counter()
        pdf = compile_pdf(document, timeout=1800).pdf
        print(f"  pdflatex, the key: {time.perf_counter() - start:.1f} s ({len(pdf) / 2**20:.1f} MiB)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=300)
    parser.add_argument("--pdf-sheets", type=int, default=5, help="sheets compiled to time pdflatex")
    parser.add_argument("--no-key-pdf", action="store_true", help="do not compile the whole key")
    parser.add_argument("--case", choices=list(CASES), action="append", help="a case (default: all)")
    options = parser.parse_args()
    for name, title, rules in CASES.values():  # every kernel and module loaded before any figure
        list(class_files(class_set(dtlearn.load_dataset(name), 20, 1, rules), title))
    for label in options.case or CASES:
        run(label, *CASES[label], options.students, options.pdf_sheets, not options.no_key_pdf)


if __name__ == "__main__":
    main()
