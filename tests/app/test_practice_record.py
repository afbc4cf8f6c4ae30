"""Practice in AppTest: the record of graded work (kept as answers are checked, downloaded, cleared)
and the worksheets' file names.

Expected numbers: PlayTennis (Mitchell 1997) from exact fractions (tests/exact.py): the root's
Gain(S, Outlook) = 0.2467 (0.171 in nats, the natural-log mistake), H(9/14, 5/14) = 0.940.
"""

from __future__ import annotations

import math
import shutil


import dtlearn

from tests.exact import entropy, info_gain

GAIN = info_gain([(3, 2), (0, 4), (2, 3)])
TENNIS = dtlearn.load_dataset("tennis").frame.to_csv(index=False)  # uploaded as exam.csv



def check(app, **answers: str):
    for key, text in answers.items():
        app.at.text_input(key=key).set_value(text)
    next(b for b in app.at.button if b.label == "Check my answers").click().run()
    app.assert_clean() if not app.at.error else None
    return app


def text_of(data) -> str:
    return data.decode("utf-8") if isinstance(data, bytes) else data


def test_the_record_keeps_every_answer_checked_and_downloads_as_markdown(open_app, downloads):
    app = open_app(dataset="tennis", algo="id3", page="practice")
    assert not app.at.exception
    assert not any(b.label.startswith("Record") for b in app.at.get("download_button"))  # nothing checked yet
    wrong = f"{GAIN * math.log(2):.3f}"
    check(app, answer_gain=wrong, answer_node_entropy=f"{entropy((9, 5)):.3f}")
    assert any("2 answers checked on this tree, 1 right" in m.value for m in app.at.markdown)
    record = text_of(downloads["tennis-id3-checked-answers.md"])
    assert record.startswith("# Checked answers: PlayTennis with ID3")
    assert "1 of 2 answers right." in record
    assert f"| Information gain | {wrong} | wrong | {GAIN:.6f} |" in record  # 0.246750, the exact gain
    assert f"| Entropy of the node | 0.940 | right | {entropy((9, 5)):.6f} |" in record
    assert "- **Mistake:** natural logarithm" in record
    assert r"\mathrm{Gain}(D, \text{outlook}) = \mathrm{Ent}(D) - \mathrm{Ent}_{\text{after}}" in record
    labels = [b.label for b in app.at.get("download_button")]
    assert labels == (["Record (PDF)", "Record (Markdown)"] if shutil.which("pdflatex")
                      else ["Record (LaTeX)", "Record (Markdown)"])

    downloads.clear()
    check(app, answer_gain=f"{GAIN:.3f}")  # a new check adds; the answers checked before stay
    record = text_of(downloads["tennis-id3-checked-answers.md"])
    assert "2 of 3 answers right." in record and record.count("| Information gain |") == 2
    app.at.selectbox(key="practice_node").set_value(1).run()  # another node: the record of the tree goes on
    check(app, answer_node_entropy=f"{entropy((3, 2)):.3f}", answer_gain="")  # the fields keep their text
    record = text_of(downloads["tennis-id3-checked-answers.md"])
    assert "3 of 4 answers right." in record and "| Step 2: outlook = Sunny |" in record

    app.click("record_clear")
    assert not any(b.label.startswith("Record") for b in app.at.get("download_button"))
    assert any("kept in a record of your work" in c.value for c in app.at.caption)


def test_another_algorithm_has_a_record_of_its_own(open_app, downloads):
    app = open_app(dataset="tennis", algo="id3", page="practice")
    check(app, answer_gain="0.247")
    app.set("button_group", "algo", "cart")
    assert not any(b.label.startswith("Record") for b in app.at.get("download_button"))
    app.set("button_group", "algo", "id3")
    assert any("1 answer checked on this tree, 1 right" in m.value for m in app.at.markdown)


def test_worksheets_are_named_after_the_uploaded_file_algorithm_and_steps(open_app, downloads):
    app = open_app(dataset="tennis", algo="c45", page="practice", mode="worksheet")
    app.set("selectbox", "dataset", "__upload__")
    app.at.file_uploader(key="upload_file").upload("exam.csv", TENNIS.encode(), "text/csv").run()
    assert not app.at.exception
    app.at.slider(key="worksheet_steps").set_value((2, 4)).run()
    names = [name for name in downloads if name and "steps" in name]
    assert set(names) >= {"exam-c45-steps-2-4.tex", "exam-c45-steps-2-4-solution.tex", "exam-c45-steps-2-4.md",
                          "exam-c45-steps-2-4-solution.md"}
    tennis = open_app(dataset="tennis", algo="id3", page="practice", mode="worksheet")
    assert not tennis.at.exception
    assert "tennis-id3-steps-1-3-solution.tex" in downloads
