"""The command line: a step's candidate table, the tree as text, rules or DOT, a worksheet, for a CSV or ARFF file.

    python -m dtlearn table tennis.csv --algorithm id3            # the root's candidates
    python -m dtlearn table tennis.csv --algorithm c45 --step 3   # the table behind step 3
    python -m dtlearn tree tennis.csv --algorithm id3 [--rules]   # the tree (or its rules)
    python -m dtlearn dot iris.csv --set max_depth=2 > tree.dot   # Graphviz source
    python -m dtlearn steps tennis.csv                            # every decision and why
    python -m dtlearn worksheet tennis -a id3 --steps 1-3         # an exercise sheet (LaTeX)
    python -m dtlearn worksheet tennis --solution --format markdown  # its worked solution
    python -m dtlearn worksheet tennis -a cart --steps 1-3 --pdf    # writes tennis-cart-steps-1-3.pdf
    python -m dtlearn variants tennis -a id3 --students 30 --seed 7 --steps 1-2 --out class  # a class's sheets
    python -m dtlearn slides tennis -a id3 --steps 1-5 --tables     # writes tennis-id3-slides-1-5.html
    python -m dtlearn slides tennis --formulas --format pdf --out lecture.pdf  # a beamer deck

A built-in dataset may be named instead of a file (`tennis`, `iris`, ...). Settings are
`--set name=value` (numbers, words, `none`); bad input prints one line and exits with 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

from . import cli_variants
from .api import fit
from .arff import read_arff
from .catalog import dataset_info, dataset_names, load_dataset
from .csv_reader import read_csv
from .data import DataError
from .settings import ALGORITHMS, OPTION, PRESET
from .pdflatex import compile_pdf
from .slides import deck
from .slides import file_name as deck_name
from .slides_html import to_html
from .slides_tex import compile_beamer, to_beamer
from .worksheet import file_name, to_latex, to_markdown, worksheet

COLUMNS = ["test", "gain", "split_info", "gain_ratio", "gini_gain", "score", "eligible", "chosen", "reason"]
REGRESSION_COLUMNS = ["test", "sse_reduction", "mse_before", "mse_after", "score", "eligible", "chosen", "reason"]


def parse_setting(text: str) -> tuple[str, object]:
    """name=value, the value read as the setting's kind says (`none`: no value)."""
    if "=" not in text:
        raise ValueError(f"--set takes name=value, not '{text}'")
    name, value = (part.strip() for part in text.split("=", 1))
    option = OPTION.get(name)
    if option is None:
        raise ValueError(f"Unknown setting '{name}'. Settings are: {', '.join(OPTION)}.")
    if value.lower() == "none":
        return name, None
    if option.kind == "flag":
        if value.lower() not in ("true", "false"):
            raise ValueError(f"{name} takes true or false, not '{value}'")
        return name, value.lower() == "true"
    if option.kind in ("whole", "number"):
        try:
            number = float(value)
        except ValueError:
            raise ValueError(f"{name} takes a number, not '{value}'") from None
        return name, int(number) if option.kind == "whole" and number.is_integer() else number
    return name, value


def parse_steps(text: str | None, last: int) -> tuple[int, int]:
    """--steps: '3' (one step), '1-3' (a range) or nothing (every growth step, 1 to last).

    >>> parse_steps("2-5", 8), parse_steps("4", 8), parse_steps(None, 8)
    ((2, 5), (4, 4), (1, 8))
    """
    if text is None:
        return 1, last
    first, _, end = text.partition("-")
    if not first.strip().isdigit() or not (end or first).strip().isdigit():
        raise ValueError(f"--steps takes a step or a range like 1-3, not '{text}'")
    return int(first), int(end or first)


def title(source: str) -> str:
    """How a worksheet names its table: a built-in dataset's title, else the file's name."""
    if not Path(source).exists() and source in dataset_names():
        return dataset_info(source).title
    return Path(source).name


def read(source: str, target: str | None):
    """A CSV or ARFF file (ARFF: by its extension), or a built-in dataset by name."""
    if not Path(source).exists() and source in dataset_names():
        data = load_dataset(source)
        return data if target is None else type(data)(data.frame, target)
    if source.lower().endswith(".arff"):
        return read_arff(source, target=target)
    return read_csv(source, target=target)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, exit code 2 (argparse adds its usage lines)
        raise ValueError(message)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="dtlearn", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name, help_text in (("table", "a step's candidate table"), ("tree", "the tree as text, or its rules"),
                            ("dot", "the tree as Graphviz DOT"), ("steps", "every decision and why"),
                            ("worksheet", "an exercise sheet on the growth steps, or its solution"),
                            ("variants", "a class's sheets: a table of their own for every student, and the key"),
                            ("slides", "the steps as slides: an HTML deck, a beamer PDF or its LaTeX")):
        command = commands.add_parser(name, help=help_text)
        command.add_argument("file", help="a CSV file (header row; the last column is the target), an ARFF "
                                          "file (.arff) or a built-in dataset's name")
        command.add_argument("--target", help="the column to predict (default: the last)")
        command.add_argument("--algorithm", "-a", default="cart", choices=ALGORITHMS,
                             help="; ".join(f"{key}: {preset.cited}" for key, preset in PRESET.items()))
        command.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="a setting")
        if name == "table":
            command.add_argument("--step", type=int, default=1, help="the step whose table to print (default 1)")
            command.add_argument("--all", action="store_true", help="every column")
            command.add_argument("--digits", type=int, default=4)
        if name == "tree":
            command.add_argument("--rules", action="store_true", help="IF-THEN rules instead of the tree")
        if name == "worksheet":
            command.add_argument("--steps", help="a growth step or a range, e.g. 1-3 (default: every growth step)")
            command.add_argument("--solution", action="store_true", help="the worked solution, not the sheet")
            command.add_argument("--format", default="latex", choices=("latex", "markdown"))
            command.add_argument("--digits", type=int, default=3)
            command.add_argument("--save", action="store_true", help="write it to a file named after the dataset, "
                                 "the algorithm and the steps (e.g. tennis-id3-steps-1-3.tex), not to the screen")
            command.add_argument("--pdf", action="store_true", help="compile it with pdflatex (one run) into a PDF "
                                 "named so")
        if name == "variants":
            cli_variants.add_arguments(command)
        if name == "slides":
            _slides_arguments(command)
    return parser


def _slides_arguments(command) -> None:
    command.add_argument("--steps", help="a step or a range, e.g. 1-5 (default: every step)")
    command.add_argument("--tables", action="store_true", help="each step's candidate table on a slide of its own")
    command.add_argument("--formulas", action="store_true", help="the chosen split's formulas on slides of their own")
    command.add_argument("--format", default="html", choices=("html", "pdf", "tex"),
                         help="html: one file that works offline (Page Down / Page Up); pdf: beamer, compiled "
                              "with pdflatex; tex: the beamer source and each tree's PDF beside it")
    command.add_argument("--out", help="the file to write (default: named after the dataset, the algorithm and "
                                       "the steps, e.g. tennis-id3-slides-1-5.html)")
    command.add_argument("--digits", type=int, default=3)


def slides(options, tree) -> str:
    """Writes the deck the options ask for; says where."""
    first, last = parse_steps(options.steps, tree.total_steps)
    if not 0 <= options.digits <= 12:
        raise ValueError(f"--digits takes a whole number from 0 to 12, not {options.digits}")
    source = dataset_info(options.file).source if title(options.file) != Path(options.file).name else ""
    made = deck(tree, first, last, tables=options.tables, formulas=options.formulas, dataset=title(options.file),
                source=source, digits=options.digits)
    out = Path(options.out or deck_name(Path(options.file).name, options.algorithm, first, last, options.format))
    if options.format == "html":
        out.write_text(to_html(made), encoding="utf-8")
    elif options.format == "pdf":
        out.write_bytes(compile_beamer(made))
    else:
        beamer = to_beamer(made, figures=out.stem)
        out.write_text(beamer.tex, encoding="utf-8")
        for name, content in beamer.files.items():
            (out.parent / name).write_bytes(content)
        return f"Wrote {out} and its {len(beamer.files)} trees' PDFs beside it"
    return f"Wrote {out}"


def run(arguments: list[str]) -> str:
    """The output of one command line (raises DataError / ValueError / OSError on bad input)."""
    options = _parser().parse_args(arguments)
    data = read(options.file, options.target)
    if options.command == "variants":
        return cli_variants.run(options, data, dict(parse_setting(s) for s in options.set), title(options.file))
    tree = fit(data, options.algorithm, **dict(parse_setting(s) for s in options.set))
    if options.command == "tree":
        return "\n".join(tree.rules()) if options.rules else tree.to_text()
    if options.command == "dot":
        return tree.to_dot().rstrip("\n")
    if options.command == "steps":
        return "\n".join(f"{s.number}. {' and '.join(s.path) or 'root'}: {s.action} - {s.reason}" for s in tree.steps)
    if options.command == "slides":
        return slides(options, tree)
    if options.command == "worksheet":
        first, last = parse_steps(options.steps, tree.growth_steps)
        sheet = worksheet(tree, first, last, options.digits, dataset=title(options.file))
        render = to_latex if options.format == "latex" else to_markdown
        if not (options.save or options.pdf):
            return render(sheet, options.solution).rstrip("\n")
        extension = "pdf" if options.pdf else "tex" if options.format == "latex" else "md"
        name = file_name(Path(options.file).name, options.algorithm, first, last, solution=options.solution,
                         extension=extension)
        if options.pdf:
            Path(name).write_bytes(compile_pdf(to_latex(sheet, options.solution)).pdf)
        else:
            Path(name).write_text(render(sheet, options.solution), encoding="utf-8")
        return f"Wrote {name}"
    if not 1 <= options.step <= len(tree.steps):
        raise ValueError(f"--step must be between 1 and {len(tree.steps)}")
    table = tree.steps[options.step - 1].table
    if not options.all:
        table = table[[c for c in (REGRESSION_COLUMNS if tree.is_regression else COLUMNS) if c in table]]
    with pd.option_context("display.max_rows", None, "display.max_columns", None, "display.width", 200,
                           "display.precision", options.digits):
        return table.to_string(index=False)


def main(arguments: list[str] | None = None) -> int:
    try:
        print(run(sys.argv[1:] if arguments is None else arguments))
    except (DataError, ValueError, OSError) as error:
        print(f"dtlearn: {error}", file=sys.stderr)
        return 2
    return 0
