"""Reading CSV uploads and fitting on them: time and peak memory, against references in the same process.

Each measurement runs in a fresh child process, which reports its own peak resident memory (Linux's
VmHWM), so one test's leftovers never count in the next. Times are printed beside a reference run in
the same child: pandas' own read_csv (its C parser, its type inference) for the 100 MB file, and the
pure-Python reading dtlearn had before (the csv module and a Python loop per cell, kept below as
`csv_module_read`) for the 5 MB files, whose frames must come out identical. The goals (the hardening
issue, part 8):

  one 100 MB upload (1,000,000 rows x 10 columns) read and fitted (cart, full depth) in under 2 GB
  five different 5 MB uploads read and fitted in one process (as five students at once) in under 2 GB

    uv run python benchmarks/bench_read.py                  # everything (~5 min)
    uv run python benchmarks/bench_read.py --rows 200000    # a smaller "big" file
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

import dtlearn
from dtlearn import csv_cells as reading
from dtlearn.data import decode_bytes

GOAL_MB = 2048
CATEGORIES = np.array([f"type_{i:02d}" for i in range(20)])


def words(rng, values, n: int, missing: float = 0.0) -> np.ndarray:
    cells = np.asarray(values, dtype=object)[rng.integers(0, len(values), n)]
    gaps = rng.random(n) < missing
    cells[gaps] = np.where(rng.random(gaps.sum()) < 0.5, "?", "")  # both of dtlearn's missing markers
    return cells


def numbers(rng, n: int, digits: int, comma: bool = False, missing: float = 0.0) -> np.ndarray:
    text = np.char.mod(f"%.{digits}f", rng.normal(1000, 300, n))
    text = (np.char.replace(text, ".", ",") if comma else text).astype(object)
    text[rng.random(n) < missing] = "?"
    return text


def big_table(n: int, seed: int = 0) -> str:
    """n rows x 10 columns, semicolon-separated as European Excel saves them: points and decimal
    commas, whole numbers, categories of 20 values, a few missing cells (~100 bytes a row)."""
    rng = np.random.default_rng(seed)
    columns = {
        "height": numbers(rng, n, 9), "weight": numbers(rng, n, 9, missing=0.01),
        "price": numbers(rng, n, 6, comma=True), "rate": numbers(rng, n, 8, comma=True, missing=0.01),
        "count": rng.integers(0, 100_000, n).astype(str).astype(object), "score": numbers(rng, n, 9),
        "kind": words(rng, CATEGORIES, n), "brand": words(rng, CATEGORIES, n, missing=0.01),
        "region": words(rng, ["north", "south", "east", "west", "centre"], n),
    }
    signal = (columns["count"].astype(int) > 50_000) ^ (columns["kind"] < "type_10")
    columns["label"] = np.where(signal ^ (rng.random(n) < 0.1), "yes", "no").astype(object)
    return _joined(columns, ";")


def small_tables(seed: int = 1) -> list[tuple[str, str]]:
    """Five different ~5 MB files: (name, text)."""
    rng = np.random.default_rng(seed)
    tables = []
    n = 120_000  # 20 numeric columns, comma-separated
    tables.append(("numeric.csv", _joined({**{f"x{i}": numbers(rng, n // 4, 3) for i in range(20)},
                                          "y": words(rng, ["a", "b", "c"], n // 4)}, ",")))
    n = 190_000  # decimal commas, semicolons
    tables.append(("excel.csv", _joined({"price": numbers(rng, n, 2, comma=True),
                                        "area": numbers(rng, n, 1, comma=True),
                                        "rooms": rng.integers(1, 8, n).astype(str).astype(object),
                                        "town": words(rng, CATEGORIES, n), "sold": words(rng, ["yes", "no"], n)}, ";")))
    n = 195_000  # categories only, tab-separated (a spreadsheet copy)
    tables.append(("survey.tsv", _joined({f"q{i}": words(rng, ["agree", "neutral", "disagree", "?"], n)
                                         for i in range(4)} | {"group": words(rng, ["A", "B", "C", "D"], n)}, "\t")))
    n = 190_000  # quoted text holding commas and newlines
    notes = np.array(['"late, again"', '"fine"', '"two\nlines"', "ok", '"said ""no"""'], dtype=object)
    tables.append(("notes.csv", _joined({"id": np.arange(n).astype(str).astype(object), "note": words(rng, notes, n),
                                        "hours": numbers(rng, n, 2, missing=0.05),
                                        "mood": words(rng, ["good", "bad"], n)}, ",")))
    n = 200_000  # missing cells everywhere but the class, a Windows file with a byte order mark
    windows = _joined({"a": numbers(rng, n, 3, missing=0.2), "b": words(rng, CATEGORIES, n, missing=0.2),
                       "c": numbers(rng, n, 5, missing=0.2), "d": words(rng, ["x", "y"], n, missing=0.2),
                       "class": words(rng, ["p", "q", "r"], n)}, ",")
    tables.append(("windows.csv", "\ufeff" + windows.replace("\n", "\r\n")))
    return tables


def _joined(columns: dict, separator: str) -> str:
    frame = pd.DataFrame(columns)
    lines = frame.iloc[:, 0].astype(str)
    for name in frame.columns[1:]:
        lines = lines + separator + frame[name].astype(str)
    return separator.join(columns) + "\n" + "\n".join(lines) + "\n"


def csv_module_read(raw: bytes) -> dtlearn.Dataset:
    """The reading dtlearn had before pandas' C parser: csv.reader into lists, a Python call a cell
    (the checks of a malformed file left out: these files are well formed)."""
    text = decode_bytes(raw).replace("\r\n", "\n").replace("\r", "\n")
    separator = reading._separator(text)
    rows = list(reading._records(text, separator))
    header = [cell.strip() for cell in rows[0]]
    cells = [[None if value.strip() in reading.MISSING_MARKERS else value.strip() for value in row] for row in rows[1:]]
    frame = pd.DataFrame(cells, columns=header, dtype=object)
    decimal_comma = re.compile(reading.DECIMAL_COMMA)
    for name in header:  # the rules of `read_csv`, a cell at a time: decimal commas, then pandas' to_numeric
        column = frame[name]
        present = column.dropna().tolist()
        commas = present and all(map(decimal_comma.fullmatch, present)) and any("," in v for v in present)
        if separator != "," and commas:
            column = column.map(lambda v: None if v is None else v.replace(",", "."))
        numbers = pd.to_numeric(column, errors="coerce")
        if present and numbers[column.notna()].notna().all() and np.isfinite(numbers.dropna().to_numpy(float)).all():
            whole = not numbers.isna().any() and (numbers % 1 == 0).all()
            frame[name] = numbers.astype("int64") if whole else numbers.astype(float)
    return dtlearn.Dataset(frame, header[-1])


# --- the probes, each run in a fresh process ------------------------------------------------------

def _status(field: str) -> float:
    for line in open("/proc/self/status"):
        if line.startswith(field):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no {field} in /proc/self/status")


def _warm() -> None:
    dtlearn.fit(dtlearn.load_dataset("iris"), "cart")  # compiled kernels loaded before timing


def probe_read(path: str) -> dict:
    _warm()
    raw = Path(path).read_bytes()
    start = time.perf_counter()
    data = dtlearn.read_csv(raw)
    seconds = time.perf_counter() - start
    return {"read_s": seconds, "peak_mb": _status("VmHWM"), "file_mb": len(raw) / 2**20,
            "frame_mb": data.frame.memory_usage(index=False, deep=True).sum() / 2**20, "shape": data.frame.shape}


def probe_pandas(path: str) -> dict:
    raw = Path(path).read_bytes()
    start = time.perf_counter()
    frame = pd.read_csv(__import__("io").BytesIO(raw), sep=";", engine="c")
    return {"read_s": time.perf_counter() - start, "peak_mb": _status("VmHWM"), "shape": frame.shape}


def probe_fit(path: str, algorithms: list[str]) -> dict:
    _warm()
    raw = Path(path).read_bytes()
    start = time.perf_counter()
    data = dtlearn.read_csv(raw)
    result = {"read_s": time.perf_counter() - start, "after_read_mb": _status("VmRSS"), "fits": {}}
    for algorithm in algorithms:
        start = time.perf_counter()
        tree = dtlearn.fit(data, algorithm, max_depth=None)
        result["fits"][algorithm] = {"s": time.perf_counter() - start, "leaves": tree.n_leaves,
                                     "peak_mb": _status("VmHWM")}
        del tree
    result["peak_mb"] = _status("VmHWM")
    return result


def probe_five(paths: list[str]) -> dict:
    """Five uploads held at once, as the app's cache holds them: every dataset and tree kept."""
    _warm()
    kept, reads, fits, old = [], [], [], []
    for path in paths:
        raw = Path(path).read_bytes()
        start = time.perf_counter()
        data = dtlearn.read_csv(raw)
        reads.append(time.perf_counter() - start)
        start = time.perf_counter()
        kept.append((raw, data, dtlearn.fit(data, "cart", max_depth=None)))
        fits.append(time.perf_counter() - start)
    peak = _status("VmHWM")
    for path, (raw, data, _) in zip(paths, kept):  # the reference afterwards: it must not count in the peak
        start = time.perf_counter()
        reference = csv_module_read(raw)
        old.append(time.perf_counter() - start)
        pd.testing.assert_frame_equal(data.frame, reference.frame)
        assert data.kinds == reference.kinds, path
    return {"read_s": reads, "fit_s": fits, "old_read_s": old, "peak_mb": peak,
            "leaves": [tree.n_leaves for _, _, tree in kept]}


def run_probe(name: str, *arguments) -> dict:
    command = [sys.executable, __file__, "--probe", json.dumps([name, *arguments])]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"probe {name} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


PROBES = {"read": probe_read, "pandas": probe_pandas, "fit": probe_fit, "five": probe_five}


# --- the report -----------------------------------------------------------------------------------

def verdict(peak: float) -> str:
    return f"{peak:,.0f} MB peak ({'under' if peak < GOAL_MB else 'OVER'} the 2 GB goal)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000, help="rows of the big file (1,000,000: ~100 MB)")
    parser.add_argument("--algorithms", nargs="+", default=["cart", "c45"])
    parser.add_argument("--probe", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.probe:
        name, *arguments = json.loads(args.probe)
        print(json.dumps(PROBES[name](*arguments)))
        return
    with tempfile.TemporaryDirectory() as folder:
        big = Path(folder) / "big.csv"
        big.write_text(big_table(args.rows), encoding="utf-8")
        smalls = []
        for name, text in small_tables():
            smalls.append(Path(folder) / name)
            smalls[-1].write_bytes(text.encode("utf-8"))
        print(f"big file: {args.rows:,} rows x 10 columns, {big.stat().st_size / 2**20:.0f} MB; five files of "
              + ", ".join(f"{p.stat().st_size / 2**20:.1f}" for p in smalls) + " MB", flush=True)

        ours, peer = run_probe("read", str(big)), run_probe("pandas", str(big))
        print(f"\nread the big file: {ours['read_s']:.2f} s, {verdict(ours['peak_mb'])}; "
              f"frame {ours['frame_mb']:.0f} MB\n"
              f"  pandas.read_csv (C parser, its own types): {peer['read_s']:.2f} s, {peer['peak_mb']:,.0f} MB peak"
              f" -> time ratio {ours['read_s'] / peer['read_s']:.2f}, memory ratio "
              f"{ours['peak_mb'] / peer['peak_mb']:.2f}", flush=True)

        for algorithm in args.algorithms:
            fit = run_probe("fit", str(big), [algorithm])
            one = fit["fits"][algorithm]
            print(f"\nread + fit {algorithm} (full depth) on the big file: read {fit['read_s']:.1f} s "
                  f"(RSS {fit['after_read_mb']:,.0f} MB after), fit {one['s']:.1f} s, {one['leaves']:,} leaves; "
                  f"{verdict(fit['peak_mb'])}", flush=True)

        five = run_probe("five", [str(p) for p in smalls])
        print(f"\nfive 5 MB files read and fitted (cart) in one process, all kept: {verdict(five['peak_mb'])}")
        for path, read, fit, old, leaves in zip(smalls, five["read_s"], five["fit_s"], five["old_read_s"],
                                                five["leaves"]):
            print(f"  {path.name:>12}: read {read:.2f} s (csv-module reading {old:.2f} s, "
                  f"ratio {read / old:.2f}), fit {fit:.2f} s, {leaves:,} leaves; same frame as the csv module's")


if __name__ == "__main__":
    main()
