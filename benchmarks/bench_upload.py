"""A 100 MB upload through every page of the app: time per page and peak memory.

One child process (Streamlit's AppTest, no browser) uploads the file of bench_read.big_table
(1,000,000 rows x 10 columns, semicolons and decimal commas, ~95 MiB) and visits the pages in
the order a student would: the Data page, the Step page and its first decision (with every
threshold asked for), the last step, then Tree, Partitions, Pruning, Compare, Predict and
Practice. Each line gives the page's wall time, the process's peak resident memory so far
(Linux's VmHWM), what the app's shared store holds then, and the page's first error box, if
any (a computation the app's budget refuses says so there). The goals (the hardening issue,
part 8): each page under ~15 s on an unloaded machine, the peak under 2 GB.

    uv run python benchmarks/bench_upload.py                   # 1,000,000 rows (~10 min on 2 cores)
    uv run python benchmarks/bench_upload.py --rows 200000     # a smaller file
    uv run python benchmarks/bench_upload.py --file big.csv --algorithm cart
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOAL_S, GOAL_MB = 15, 2048
# (what, page file or None to stay, widget to act on: ("button" | "toggle", key) or None)
VISITS = [
    ("Data (upload)", None, None),
    ("Step", "pages/step.py", None),
    ("Step: next", None, ("button", "next")),
    ("Step: every threshold", None, ("toggle", "every_threshold")),
    ("Step: last", None, ("button", "last")),
    ("Tree", "pages/tree.py", None),
    ("Partitions", "pages/partitions.py", None),
    ("Pruning", "pages/pruning.py", None),
    ("Compare", "pages/compare.py", None),
    ("Predict", "pages/predict.py", None),
    ("Practice", "pages/practice.py", None),
]


def _peak_mb() -> float:
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM in /proc/self/status")


def child(path: str, algorithm: str) -> None:
    """Runs in the child: one session, page after page; one JSON line per visit."""
    sys.path.insert(0, str(ROOT))
    from streamlit.testing.v1 import AppTest

    content = Path(path).read_bytes()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=900)
    at.query_params.update({"dataset": "tennis", "algo": algorithm, "page": "data"})
    at.run()
    at.selectbox(key="dataset").set_value("__upload__").run()
    for what, page, action in VISITS:
        start = time.perf_counter()
        if what.startswith("Data"):
            at.file_uploader(key="upload_file").upload(Path(path).name, content, "text/csv").run()
        elif page:
            at.switch_page(page).run()
        else:
            kind, key = action
            widget = getattr(at, kind)(key=key)
            (widget.click() if kind == "button" else widget.set_value(True)).run()
        seconds = time.perf_counter() - start
        problems = [e.value for e in at.exception] + [e.value for e in at.error]
        from pages import computing  # imported by the app's first run

        print(json.dumps({"what": what, "s": seconds, "peak_mb": _peak_mb(), "store_mb": computing.STORE.size / 2**20,
                          "problem": " ".join(problems[0].split())[:160] if problems else ""}), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--file", help="a CSV file to upload instead of a generated one")
    parser.add_argument("--algorithm", default="c45", choices=["id3", "c45", "cart", "zaki"])
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.algorithm)
        return
    with tempfile.TemporaryDirectory() as folder:
        path = Path(args.file) if args.file else Path(folder) / "big.csv"
        if not args.file:
            sys.path.insert(0, str(Path(__file__).parent))
            from bench_read import big_table

            path.write_text(big_table(args.rows), encoding="utf-8")
        print(f"{path.name}: {path.stat().st_size / 2**20:.0f} MB, algorithm {args.algorithm}; "
              f"goals: each page under {GOAL_S} s, peak under {GOAL_MB:,} MB", flush=True)
        command = [sys.executable, __file__, "--child", str(path), "--algorithm", args.algorithm]
        with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as process:
            for line in process.stdout:
                visit = json.loads(line)
                flag = "" if visit["s"] <= GOAL_S else "  (over the time goal)"
                print(f"  {visit['what']:<22} {visit['s']:7.1f} s   peak {visit['peak_mb']:7,.0f} MB   "
                      f"store {visit['store_mb']:5,.0f} MB{flag}"
                      + (f"\n      says: {visit['problem']}" if visit["problem"] else ""), flush=True)
            error = process.stderr.read()
        if process.returncode:
            raise SystemExit(f"the child failed:\n{error[-3000:]}")
        print(f"peak memory of the session: {visit['peak_mb']:,.0f} MB "
              f"({'under' if visit['peak_mb'] < GOAL_MB else 'over'} the {GOAL_MB:,} MB goal)")


if __name__ == "__main__":
    main()
