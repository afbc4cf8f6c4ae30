"""Worksheets: the parts, both renderings, their numbers against the tables, escaping, and pdflatex.

Expected values are derived here independently (tests/exact.py: exact fractions, math.log2) from
Mitchell's (1997) PlayTennis table and Fisher's iris counts; the formulas are those of Quinlan
(1986, 1993) and Breiman et al. (1984).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from fractions import Fraction

import pandas as pd
import pytest

import dtlearn
import exact
from dtlearn.derivation import number
from dtlearn.worksheet import MAX_ROWS, plain, to_latex, to_markdown, worksheet

HOSTILE = pd.DataFrame({
    "a}\\text{x}$": ["<script>", "x|y", "#1 _a_", "<script>", "x|y", "[l](u) *b*"],
    "<script>": [1.5, 2.5, 3.5, 4.5, 1.0, 2.0],
    "色泽 & 50%~^": ["色", "泽", "色", "泽", "泽", "色"],
    "$$target``": ["c&1", "c_2", "c&1", "c_2", "c_2", "c&1"],
})


def tree_of(name: str, algorithm: str, **settings):
    return dtlearn.fit(dtlearn.load_dataset(name), algorithm, **settings)


@pytest.fixture(scope="module")
def tennis_id3():
    return tree_of("tennis", "id3")


def answers(sheet) -> dict[int, str]:
    return {q.number: plain(q.answer) for part in sheet.parts for q in part.questions}


def without_math(markdown: str) -> str:
    return re.sub(r"\$\$\n.*?\n\$\$", "", markdown, flags=re.S)


def cells(line: str) -> list[str]:
    """A Markdown table row's cells, split at the pipes that are not escaped."""
    return [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]


def unescape(markdown: str) -> str:
    return re.sub(r"\\(.)", r"\1", markdown)


# the numbers -------------------------------------------------------------------------------

def test_the_root_gains_of_playtennis(tennis_id3):
    # Mitchell (1997), Table 3.2: Gain(S, Outlook) = Ent(9,5) - (5/14 Ent(2,3) + 4/14 Ent(4,0) + 5/14 Ent(3,2))
    # = 0.2467 (he prints 0.246, rounding each term); the others 0.029, 0.152, 0.048
    gains = {"outlook": [[3, 2], [0, 4], [2, 3]], "temperature": [[2, 2], [2, 4], [1, 3]],
             "humidity": [[4, 3], [1, 6]], "wind": [[2, 6], [3, 3]]}
    outlook = exact.entropy([9, 5]) - sum(Fraction(sum(b), 14) * exact.entropy(b) for b in gains["outlook"])
    assert f"{outlook:.3f}" == "0.247"
    sheet = worksheet(tennis_id3, last_step=1)
    root = sheet.parts[0].questions
    assert plain(root[0].answer) == f"Ent(D) = {exact.entropy([9, 5]):.3f}."  # 0.940
    for question, (attribute, branches) in zip(root[1:5], gains.items()):
        assert f"Gain(D, {attribute})" in plain(question.text)
        assert plain(question.answer) == f"Gain = {exact.info_gain(branches):.3f}."
    assert plain(root[-1].answer).startswith("The test outlook = ?. Split on outlook")
    solution = to_markdown(sheet, solution=True)
    assert "**Answer.** Gain = 0.247." in solution and r"\mathrm{Gain}(D, \text{outlook})" in solution
    assert r"\text{(exact, rounded" in solution  # derivation's line, shown as it is


def test_every_answer_is_the_tables_number_rounded(tennis_id3):
    for digits in (3, 4):
        sheet = worksheet(tennis_id3, digits=digits)
        for part, step in zip(sheet.parts, tennis_id3.steps):
            if step.action != "split":
                continue
            rows = [step.table.iloc[int(i)] for i in step.candidates.best_rows() if step.table.iloc[int(i)]["eligible"]]
            given = [plain(q.answer) for q in part.questions[1:-1]]
            assert given == [f"Gain = {number(row['gain'], digits)}." for row in rows]
            chosen = step.table.iloc[step.chosen_row]
            assert plain(part.questions[0].answer) == f"Ent(D) = {number(chosen['entropy_before'], digits)}."


def test_leaves_ask_for_the_class_and_the_reason(tennis_id3):
    sheet = worksheet(tennis_id3, 3, 3)
    (part,) = sheet.parts
    assert (part.action, part.path, part.rows) == ("leaf", "outlook = Sunny and humidity = High", "3 rows: 3 No, 0 Yes")
    (question,) = part.questions
    assert plain(question.text) == "What class does this leaf predict, and why does growth stop here?"
    assert plain(question.answer) == "It predicts No. All 3 rows here are of class No: the node is pure."


def test_an_attribute_tested_already_is_named_not_asked(tennis_id3):
    part = worksheet(tennis_id3, 2, 2).parts[0]
    assert part.path == "outlook = Sunny"
    assert part.note == "Tested already on this path, so not a candidate here: outlook."
    assert [plain(q.text).split(",")[0] for q in part.questions[1:-1]] == [
        "For the candidate test temperature = ?", "For the candidate test humidity = ?",
        "For the candidate test wind = ?"]


def test_c45_asks_for_gain_split_info_and_gain_ratio():
    tree = tree_of("iris", "c45")
    sheet = worksheet(tree, last_step=1)
    root = sheet.parts[0].questions
    petal = next(q for q in root if plain(q.text).startswith("For the candidate test petal_length <= "))
    # setosa alone below the cut: Gain = log2 3 - 100/150 * 1 = 0.918 = SplitInfo = Ent(50, 100) (Quinlan 1993)
    gain = exact.info_gain([[50, 0, 0], [0, 50, 50]])
    assert plain(petal.answer).startswith(f"Gain = {gain:.3f}, Gain′ = ")
    assert f"SplitInfo = {exact.entropy([50, 100]):.3f}, GainRatio = " in plain(petal.answer)
    test = plain(petal.text).removeprefix("For the candidate test ").split(", compute")[0]
    table = tree.steps[0].table
    row = table[table["test"] == test].iloc[0]
    assert plain(petal.answer) == (f"Gain = {number(row['gain'])}, Gain′ = {number(row['corrected_gain'])}, "
                                   f"SplitInfo = {number(row['split_info'])}, GainRatio = {number(row['gain_ratio'])}.")
    assert any("Not eligible: gain is below the average gain" in plain(q.answer) for q in root)
    assert plain(root[-1].answer).startswith("The test petal_width <= 0.6. Split on petal_width <= 0.6")
    assert any(r"\mathrm{GainRatio}" in line for line in petal.lines)
    assert "Quinlan 1993" in plain(sheet.introduction)
    latex = to_latex(sheet, solution=True)  # the symbols typeset, the comparison too
    assert (r"$\mathrm{Gain}(D, \text{petal\_length})$, the split information "
            r"$\mathrm{SplitInfo}(\text{petal\_length})$" in latex) and r"petal\_\allowbreak{}length $\le$ " in latex
    assert "<=" not in latex


def test_cart_asks_for_gini_and_gini_gain():
    sheet = worksheet(tree_of("tennis", "cart"), last_step=1)
    root = sheet.parts[0].questions
    # Breiman et al. (1984): Gini(D) = 1 - (5/14)^2 - (9/14)^2; outlook in {Overcast} leaves 4 Yes | 5 No 5 Yes
    gini = exact.gini([5, 9])
    gain = gini - Fraction(10, 14) * exact.gini([5, 5])
    assert plain(root[0].text) == "What is the Gini index Gini(D) of this node?"
    assert plain(root[0].answer) == f"Gini(D) = {float(gini):.3f}."
    overcast = root[1]
    assert plain(overcast.text).startswith("For the candidate test outlook in {Overcast}, compute the Gini gain")
    assert plain(overcast.answer) == f"ΔGini = {float(gain):.3f}."  # 0.102
    assert plain(overcast.text).split(". Its")[0].endswith(r"Gini gain ΔGini(D, outlook)")
    lines = [line for q in root for line in q.lines]
    assert any(r"\mathrm{Gini}" in line for line in lines) and not any(r"\mathrm{Ent}" in line for line in lines)
    assert "Breiman et al. 1984" in plain(sheet.introduction)


@pytest.mark.parametrize("algorithm, source, ranks", [
    ("id3", "Quinlan 1986", "information gain"), ("c45", "Quinlan 1993", "gain ratio"),
    ("cart", "Breiman et al. 1984", "Gini gain"), ("zaki", "Zaki & Meira 2014", "information gain"),
])
def test_the_introduction_cites_the_formulas(algorithm, source, ranks):
    sheet = worksheet(tree_of("tennis", algorithm), last_step=1)
    assert source in plain(sheet.introduction) and f"the best by {ranks}" in plain(sheet.introduction)
    id3_lines = [line for q in sheet.parts[0].questions for line in q.lines]
    assert any("GainRatio" in line for line in id3_lines) == (algorithm == "c45")


# structure of both formats -------------------------------------------------------------------

def test_markdown_structure(tennis_id3):
    sheet = worksheet(tennis_id3, dataset="PlayTennis")
    for solution in (False, True):
        text = to_markdown(sheet, solution)
        assert text.startswith("# Worksheet: PlayTennis with ID3, steps 1 to 8" + (" (solution)" if solution else ""))
        numbers = [int(n) for n in re.findall(r"^(\d+)\. ", text, flags=re.M)]
        assert numbers == list(range(1, len(answers(sheet)) + 1))
        steps = re.findall(r"^## Step (\d+): a (split|leaf)$", text, flags=re.M)
        assert steps == [(str(s.number), s.action) for s in tennis_id3.steps]
        for i, row in enumerate(tennis_id3.data.frame.itertuples(index=False), start=1):
            assert "| " + " | ".join([str(i), *row]) + " |" in text
        assert ("**Answer.**" in text) == solution and ("$$" in text) == solution
    solution = to_markdown(sheet, True)
    assert solution.count("**Answer.**") == len(answers(sheet))


def test_latex_structure(tennis_id3):
    sheet = worksheet(tennis_id3, dataset="PlayTennis")
    for solution in (False, True):
        text = to_latex(sheet, solution)
        assert text.startswith(r"\documentclass") and text.rstrip().endswith(r"\end{document}")
        assert text.count(r"\item ") == len(answers(sheet))
        starts = [int(n) + 1 for n in re.findall(r"\\setcounter\{enumi\}\{(\d+)\}", text)]
        assert starts == [part.questions[0].number for part in sheet.parts]
        assert re.findall(r"\\subsection\*\{Step (\d+): ", text) == [str(s.number) for s in tennis_id3.steps]
        assert "1 & Sunny & Hot & High & Weak & No \\\\" in text and "14 & Rain & Mild & High & Strong & No" in text
        assert (r"\emph{Answer.}" in text) == solution and (r"\formula{" in text) == solution
        packages = re.findall(r"\\usepackage(?:\[[^]]*\])?\{([^}]*)\}", text)
        assert set(",".join(packages).split(",")) <= {"fontenc", "inputenc", "lmodern", "amsmath", "amssymb",
                                                      "geometry", "longtable", "graphicx"}


def test_a_long_table_is_cut_and_says_so():
    sheet = worksheet(tree_of("iris", "c45"), last_step=1)
    assert len(sheet.rows) == MAX_ROWS == 40 and sheet.total_rows == 150
    assert "The table has 150 rows; the first 40 are shown." in to_markdown(sheet, False)
    latex = to_latex(sheet, False)
    assert "The table has 150 rows; the first 40 are shown." in latex and "\n40 & " in latex and "\n41 & " not in latex


def test_the_range_of_steps(tennis_id3):
    sheet = worksheet(tennis_id3, 2, 4)
    assert [p.step for p in sheet.parts] == [2, 3, 4] and sheet.title.endswith("steps 2 to 4")
    assert sheet.parts[0].questions[0].number == 1  # numbered within the sheet
    assert worksheet(tennis_id3, 6).title.endswith("steps 6 to 8")
    assert worksheet(tennis_id3, 5, 5).title.endswith("step 5")
    text = to_markdown(sheet, True)
    assert "## Step 1:" not in text and "## Step 5:" not in text


@pytest.mark.parametrize("arguments, message", [
    ((0, 3), r"1 <= first <= last <= 8 \(the growth steps\), not 0 to 3"),
    ((4, 2), "not 4 to 2"), ((1, 9), "not 1 to 9"),
    ((1, None, -1), "digits must be a whole number from 0 to 12"),
])
def test_bad_arguments(tennis_id3, arguments, message):
    with pytest.raises(ValueError, match=message):
        worksheet(tennis_id3, *arguments)


def test_regression_trees_have_no_worksheet():
    with pytest.raises(ValueError, match="classification trees"):
        worksheet(tree_of("tips", "cart", max_depth=1))


def test_the_package_exports_the_module():
    assert "worksheet" in dtlearn.__all__ and dtlearn.worksheet.to_latex is to_latex


# escaping ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def hostile_tree():
    return dtlearn.fit(dtlearn.Dataset(HOSTILE, "$$target``"), "c45")


def test_hostile_names_in_markdown(hostile_tree):
    text = to_markdown(worksheet(hostile_tree), solution=True)
    prose = without_math(text)
    header = next(line for line in prose.splitlines() if line.startswith("| \\#"))
    assert [unescape(c) for c in cells(header)] == ["#", *HOSTILE.columns]
    table = [line for line in prose.splitlines() if re.match(r"\| \d+ \|", line)]
    assert [unescape(cells(line)[1]) for line in table] == list(HOSTILE["a}\\text{x}$"])
    assert all(len(cells(line)) == 5 for line in table)
    for raw in ("<script>", "$$", "[l](u)", "*b*", "_a_", "c_2"):
        assert raw not in prose  # only escaped: \<script\>, \$\$, \[l\](u), \*b\*, ...
    assert r"\<script\>" in prose and r"a}\\text{x}\$" in prose and "色泽" in prose


def test_hostile_names_in_latex(hostile_tree):
    text = to_latex(worksheet(hostile_tree), solution=True)
    assert r"\textbf{a\}\textbackslash{}text\{x\}\$}" in text
    assert r"\textless{}script\textgreater{}" in text and r"\text{a\}\textbackslash{}text\{x\}\$}" in text
    assert r"\$\$target\textasciigrave{}\textasciigrave{}" in text and r"c\&1" in text and r"c\_2" in text
    assert r"\uni{8272}\uni{6CFD} \& 50\%\textasciitilde{}\textasciicircum{}" in text  # 色泽: no glyph in pdflatex
    assert "<script>" not in text.replace(r"\text{<script>}", "")  # inside \text{} of math, < is itself (T1)


# pdflatex ------------------------------------------------------------------------------------

def pdflatex_or_skip() -> str:
    program = shutil.which("pdflatex")
    if program is None:
        if os.environ.get("CI"):
            pytest.fail("pdflatex is missing: CI installs texlive-latex-base (.ci/run)")
        pytest.skip("pdflatex is not installed (apt-get install texlive-latex-base)")
    return program


# Every sheet kind, and the tables that stuck out of the page: credit_risk's long names (a 30-48 pt
# overfull question), watermelon_3's ten columns of Chinese names (a table 184 pt too wide)
SHEETS = ["tennis id3", "iris c45", "tennis cart", "tennis zaki", "credit_risk id3", "internship cart",
          "watermelon_3 c45", "hostile c45", "hostile cart", "attack id3", "attack cart"]


def pdflatex_once(tmp_path, document: str) -> tuple[subprocess.CompletedProcess, str]:
    """One pdflatex run, as the README says: its result and its log."""
    program = pdflatex_or_skip()
    (tmp_path / "sheet.tex").write_text(document, encoding="utf-8")
    result = subprocess.run([program, "-interaction=nonstopmode", "-halt-on-error", "sheet.tex"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL)
    return result, (tmp_path / "sheet.log").read_text(encoding="latin-1")


def assert_typeset_in_one_run(result, log: str, tmp_path) -> None:
    """A clean exit, nothing for a second run to fix, no line more than 1 pt into the margin."""
    assert result.returncode == 0, result.stdout[-3000:]
    assert (tmp_path / "sheet.pdf").stat().st_size > 1000
    assert "Rerun" not in log and "may have changed" not in log, "the document needs a second pdflatex run"
    wide = [float(w) for w in re.findall(r"Overfull \\hbox \(([\d.]+)pt too wide\)", log)]
    assert max(wide, default=0) <= 1, f"lines stick out into the margin by {wide} pt"


@pytest.mark.parametrize("case", SHEETS)
@pytest.mark.parametrize("solution", [False, True], ids=["sheet", "solution"])
def test_every_sheet_compiles_in_one_pdflatex_run(tmp_path, case, solution):
    name, algorithm = case.split()
    data = {"hostile": lambda: dtlearn.Dataset(HOSTILE, "$$target``"),
            "attack": lambda: dtlearn.Dataset(ATTACK, ATTACK_TARGET)}.get(name, lambda: dtlearn.load_dataset(name))()
    sheet = worksheet(dtlearn.fit(data, algorithm), dataset=name)
    result, log = pdflatex_once(tmp_path, to_latex(sheet, solution))
    assert_typeset_in_one_run(result, log, tmp_path)


@pytest.mark.parametrize("data, algorithm", [("tennis", "cart"), ("iris", "cart"), ("credit_risk", "cart")])
def test_a_gini_sheet_says_nothing_of_logarithms(data, algorithm):
    """CART ranks by Gini gain (Breiman et al. 1984): no logarithm is computed, none is mentioned."""
    sheet = worksheet(tree_of(data, algorithm))
    for text in (to_latex(sheet, True), to_markdown(sheet, True), to_latex(sheet, False)):
        assert "logarithm" not in text.lower() and "log_2" not in text and "log2" not in text
    assert "the best by Gini gain" in plain(sheet.introduction)  # named as the app and README name it
    assert "1 - \\sum_k p_k^2" in to_latex(sheet, False)
    id3 = worksheet(tree_of(data, "id3"), last_step=1)
    assert "logarithms to base 2" in plain(id3.introduction)


def test_formulas_and_comparisons_are_typeset():
    sheet = worksheet(tree_of("iris", "cart"), last_step=1)
    latex = to_latex(sheet, solution=True)
    body = latex[latex.index(r"\begin{document}"):]
    assert r"$\Delta\mathrm{Gini}(D, \text{petal\_length})$" in body
    assert r"$\Delta\mathrm{Gini} = " in body and r"$\mathrm{Gini}(D)$" in body
    assert r"petal\_\allowbreak{}length $\le$ 2.45" in body
    assert "Delta" not in body.replace(r"\Delta", "") and "<=" not in body and r"\textless{}=" not in body
    markdown = to_markdown(sheet, solution=True)
    assert "ΔGini(D, petal\\_length)" in markdown and "Delta Gini" not in markdown


# hostile names from a file -----------------------------------------------------------------

ATTACK_TARGET = "class $\\{}_%&#^~<img src=x onerror=alert(1)>"
ATTACK = pd.DataFrame({
    "a$\\{x}_%&#^~<img src=x onerror=alert(2)>": ["<img src=x onerror=alert(3)>", "b$_%"] * 2 + ["{}~^"] * 2,
    "n#%<b>": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
    ATTACK_TARGET: ["<img src=x onerror=alert(4)>", "c&#1", "<img src=x onerror=alert(4)>", "c&#1", "c&#1",
                    "<img src=x onerror=alert(4)>"],
})


def html_in_markdown(markdown: str) -> list[str]:
    """What a CommonMark renderer would read as raw HTML: an unescaped < before a tag's first
    character (CommonMark 0.31, section 6.6); a backslash-escaped character is text."""
    unescaped = re.sub(r"\\.", "", markdown)
    return re.findall(r"<[A-Za-z/!?][^\n]{0,20}", unescaped)


@pytest.mark.parametrize("algorithm", ["id3", "cart"])
def test_hostile_names_render_no_html_in_markdown(algorithm):
    tree = dtlearn.fit(dtlearn.Dataset(ATTACK, ATTACK_TARGET), algorithm)
    for solution in (False, True):
        text = to_markdown(worksheet(tree), solution)
        assert html_in_markdown(text) == [], "a name would render as HTML"
        assert "onerror" in text  # the names are there, as text
        if solution:  # in formulas the names are in \text{...}, < and > spelled as commands
            assert r"\text{\textless{}img src=x onerror=alert(4)\textgreater{}}" in text
    assert html_in_markdown("$$\n\\text{<img src=x onerror=alert(1)>}\n$$") != []  # the check can fail


def test_the_node_question_is_about_all_its_rows_when_values_are_missing():
    """Watermelon 2.0-alpha (Zhou 2016, table 4.4): the root holds 8 好瓜 = 是 and 9 否; a
    candidate's row holds only the rows whose value is known (D~), but the question "the entropy
    of this node" is about all 17: H(8/17, 9/17) = 0.9975 (Ent(D~) of the chosen 纹理 is 0.9968)."""
    tree = dtlearn.fit(dtlearn.load_dataset("watermelon_2alpha"), "c45")
    first = worksheet(tree, 1, 1, digits=4).parts[0].questions[0]
    assert f"{exact.entropy([8, 9]):.4f}" == "0.9975"
    assert plain(first.answer) == "Ent(D) = 0.9975."
    assert any(r"\tfrac{9}{17}" in line for line in first.lines)


def test_icon_and_emoji_codes_in_names_stay_text_in_markdown():
    """Streamlit draws :material/home: and :smile: as an icon and an emoji; escaped, they are text."""
    frame = pd.DataFrame({":material/home:": ["a", "b", "a", "b"], "y": [":smile:", "no", ":smile:", "no"]})
    sheet = worksheet(dtlearn.fit(dtlearn.Dataset(frame, "y"), "id3"))
    text = to_markdown(sheet, solution=True)
    prose = re.sub(r"\$\$.*?\$\$", "", text, flags=re.S)  # formulas are LaTeX (math, not markdown text)
    assert not re.search(r"(?<!\\):(material/home|smile):", prose)  # every code's first colon escaped
    assert "\\:material/home:" in text and "\\:smile:" in text


# file names --------------------------------------------------------------------------------------

@pytest.mark.parametrize("dataset, algorithm, steps, solution, extension, expected", [
    ("tennis", "id3", (1, 3), True, "tex", "tennis-id3-steps-1-3-solution.tex"),
    ("exam.csv", "c45", (2, 4), False, "md", "exam-c45-steps-2-4.md"),
    ("Exam 2 (final).CSV", "cart", (5, 5), False, "tex", "Exam-2-final-cart-step-5.tex"),
    ("../../etc/passwd", "zaki", (1, 2), True, "md", "etc-passwd-zaki-steps-1-2-solution.md"),
    ("<img src=x>.arff", "id3", (1, 1), False, "tex", "img-src-x-id3-step-1.tex"),
    ("$$", "id3", (1, 2), False, "md", "data-id3-steps-1-2.md"),
])
def test_a_sheet_is_named_after_its_dataset_algorithm_and_steps(dataset, algorithm, steps, solution, extension,
                                                                 expected):
    from dtlearn.worksheet import file_name

    assert file_name(dataset, algorithm, *steps, solution=solution, extension=extension) == expected


def test_the_command_line_writes_the_sheet_under_its_name(tmp_path, monkeypatch):
    from dtlearn.cli import run

    monkeypatch.chdir(tmp_path)
    (tmp_path / "exam.csv").write_text(dtlearn.load_dataset("tennis").frame.to_csv(index=False), encoding="utf-8")
    assert run(["worksheet", "exam.csv", "-a", "c45", "--steps", "2-4", "--format", "markdown", "--save"]) == (
        "Wrote exam-c45-steps-2-4.md")
    written = (tmp_path / "exam-c45-steps-2-4.md").read_text(encoding="utf-8")
    assert written.startswith("# Worksheet: exam.csv with C4.5")
    assert run(["worksheet", "tennis", "-a", "id3", "--steps", "1-3", "--solution", "--save"]) == (
        "Wrote tennis-id3-steps-1-3-solution.tex")
    assert (tmp_path / "tennis-id3-steps-1-3-solution.tex").read_text(encoding="utf-8").startswith(r"\documentclass")
    pdflatex_or_skip()
    assert run(["worksheet", "tennis", "-a", "cart", "--steps", "1-3", "--pdf"]) == "Wrote tennis-cart-steps-1-3.pdf"
    assert (tmp_path / "tennis-cart-steps-1-3.pdf").read_bytes().startswith(b"%PDF")
