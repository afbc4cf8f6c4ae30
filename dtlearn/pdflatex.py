"""Compiling a document `typeset` wrote into a PDF with pdflatex (Debian's texlive-latex-base).

One run suffices: the documents use no cross-references and no longtable. pdflatex runs in a
directory of its own, without shell escape, reading and writing only files there (kpathsea's
paranoid `openin_any`/`openout_any`: every name in the document is escaped anyway), with a time
limit. `overfull` reads the widths of the lines that stick out into the margin from its log.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

_PLAIN_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]*")
TIMEOUT = 120  # seconds: a sheet of a big tree is a few pages; pdflatex takes about a second per run
INSTALL = "apt-get install texlive-latex-base"


@dataclass(frozen=True)
class Compiled:
    pdf: bytes
    log: str


def available() -> bool:
    """Whether pdflatex is installed (on the PATH)."""
    return shutil.which("pdflatex") is not None


def compile_pdf(document: str, timeout: float = TIMEOUT, files: Mapping[str, bytes] | None = None) -> Compiled:
    """The PDF of a LaTeX document and pdflatex's log; ValueError with the log's first error
    when it does not compile, OSError when pdflatex is not installed. `files`: what the document
    includes (a slide's drawing), by plain file name, written beside it."""
    program = shutil.which("pdflatex")
    if program is None:
        raise OSError(f"pdflatex is not installed ({INSTALL}).")
    for name in files or {}:
        if not _PLAIN_NAME.fullmatch(name) or name.startswith("document."):
            raise ValueError(f"An included file needs a plain name (letters, digits, . _ -), not {name!r}.")
    with tempfile.TemporaryDirectory(prefix="dtlearn-tex-") as folder:
        source = Path(folder) / "document.tex"
        source.write_text(document, encoding="utf-8")
        for name, content in (files or {}).items():
            (Path(folder) / name).write_bytes(content)
        environment = {**os.environ, "openin_any": "p", "openout_any": "p", "shell_escape": "f"}
        try:
            result = subprocess.run([program, "-no-shell-escape", "-interaction=nonstopmode", "-halt-on-error",
                                     source.name], cwd=folder, capture_output=True, timeout=timeout,
                                    stdin=subprocess.DEVNULL, env=environment)
        except subprocess.TimeoutExpired:
            raise ValueError(f"pdflatex took longer than {timeout:g} s.") from None
        log_file = Path(folder) / "document.log"
        log = log_file.read_text(encoding="latin-1") if log_file.exists() else result.stdout.decode("latin-1")
        pdf = Path(folder) / "document.pdf"
        if result.returncode != 0 or not pdf.exists():
            raise ValueError("pdflatex could not compile the document: " + first_error(log))
        return Compiled(pdf.read_bytes(), log)


def first_error(log: str) -> str:
    """The first error a pdflatex log reports, with its line ('' when none)."""
    found = re.search(r"^! ([^\n]*)(?:\n(?:[^\n]*\n){0,8}?(l\.\d+[^\n]*))?", log, flags=re.M)
    return " ".join(part for part in found.groups() if part) if found else ""


def overfull(log: str) -> list[float]:
    """How far (pt) each overfull line of a pdflatex log sticks out into the margin.

    >>> overfull("Overfull \\\\hbox (30.5pt too wide) in paragraph at lines 3--4")
    [30.5]
    """
    return [float(width) for width in re.findall(r"Overfull \\hbox \(([\d.]+)pt too wide\)", log)]
