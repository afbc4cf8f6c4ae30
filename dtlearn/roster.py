"""A class's list of student identifiers, as a teacher pastes it: read and checked before any work.

One identifier a line (blank lines and lines starting with # skipped, as `dtlearn variants
--ids` reads its file). Every problem `variants` and `class_sheets` would meet later, after
minutes of drawing and compiling, is said at once and by its line: an empty list, too many
students, an identifier too long or holding a control character, one given twice, two that
would name the same file.

>>> read_roster("ada\\n\\n# group B\\nbo\\n")
('ada', 'bo')
>>> read_roster("ada\\nbo\\nada")
Traceback (most recent call last):
...
dtlearn.data.DataError: Each student needs an identifier of their own: 'ada' is on lines 1 and 3.
"""

from __future__ import annotations

from .data import DataError
from .typeset import file_stem
from .variants import MAX_ID_CHARS

__all__ = ["MAX_STUDENTS", "read_roster"]

MAX_STUDENTS = 1000  # a class set made in one go: a lecture course's size, a minute of drawing


def _lines(text: str) -> list[tuple[int, str]]:
    """(line number, identifier) of each line that names a student."""
    lines = [(n, line.strip()) for n, line in enumerate(str(text).splitlines(), 1)]
    return [(n, line) for n, line in lines if line and not line.startswith("#")]


def _check(n: int, student: str) -> None:
    if len(student) > MAX_ID_CHARS:
        raise DataError(f"Line {n}: an identifier has at most {MAX_ID_CHARS} characters, "
                        f"not {len(student):,} ({student[:20]!r}…).")
    if any(ch < " " or ch == "\x7f" for ch in student):
        raise DataError(f"Line {n}: an identifier holds a control character ({student!r}).")


def read_roster(text: str, most: int = MAX_STUDENTS) -> tuple[str, ...]:
    """The identifiers of `text`, one a line, in order; DataError naming the first problem."""
    lines = _lines(text)
    if not lines:
        raise DataError("The list holds no student identifiers: paste one a line.")
    if len(lines) > most:
        raise DataError(f"The list holds {len(lines):,} identifiers; a class set here holds at most {most:,} "
                        "students: make it in groups, one list each.")
    first_line: dict[str, int] = {}
    by_file: dict[str, tuple[int, str]] = {}
    for n, student in lines:
        _check(n, student)
        if student in first_line:
            raise DataError(f"Each student needs an identifier of their own: {student!r} is on lines "
                            f"{first_line[student]} and {n}.")
        first_line[student] = n
        stem = file_stem(student, fallback="student").lower()  # as `class_sheets.file_names` names the files
        if stem in by_file:
            other_line, other = by_file[stem]
            raise DataError(f"{other!r} (line {other_line}) and {student!r} (line {n}) would get files of the same "
                            "name: make them differ in letters or digits.")
        by_file[stem] = (n, student)
    return tuple(student for _, student in lines)
