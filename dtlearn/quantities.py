"""Every quantity the interface names, one record each: its one name in a sentence, its table
heading, its symbol in formulas, and the textbooks' other names for it (said once, where the
quantity is introduced). Tables, formulas, worksheets, the quiz and the grader's messages read
these, so a student meets one name for one thing.

>>> QUANTITIES["gini_gain"].name, QUANTITIES["gini_gain"].heading, QUANTITIES["split_info"].plain
('Gini gain', 'Gini gain', 'SplitInfo')
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Quantity:
    key: str  # the candidate table's column that holds it
    name: str  # inside a sentence: "information gain"
    heading: str  # a table column's heading
    latex: str  # its symbol in a formula (a node's or a candidate's: the formula adds "(D, a)")
    plain: str  # the same symbol in plain text
    also: str = ""  # what the textbooks call it instead

    @property
    def title(self) -> str:
        """The name at the start of a sentence or a menu: 'Information gain', 'Gini gain'."""
        return self.name[0].upper() + self.name[1:]

    @property
    def introduced(self) -> str:
        """Its name and symbol with the textbooks' other names: said where it first appears."""
        said = f"{self.title} ({self.plain})" + (f" is {self.also}" if self.also else "")
        return said if said.endswith(".") else said + "."  # "Han et al." ends a sentence once


QUANTITIES: dict[str, Quantity] = {q.key: q for q in (
    Quantity("known", "share of rows with a known value", "known ρ", r"\rho", "ρ",
             "F in Quinlan (1993), the fraction of cases whose value is known"),
    Quantity("entropy_before", "entropy", "Ent(D)", r"\mathrm{Ent}", "Ent",
             "Entropy(S) in Mitchell (1997), info(T) in Quinlan (1993) and Info(D) in Han et al."),
    Quantity("entropy_after", "weighted entropy after the split", "Ent after", r"\mathrm{Ent}_{\text{after}}",
             "Ent after", "info_X(T) in Quinlan (1993) and Info_A(D) in Han et al."),
    Quantity("gain", "information gain", "Gain", r"\mathrm{Gain}", "Gain",
             "Gain(S, A) in Mitchell (1997) and gain(X) in Quinlan (1993)"),
    Quantity("correction", "threshold correction", "log₂(cuts)/N", r"\tfrac{\log_2(\text{cuts})}{N}",
             "log₂(cuts)/N", "Release 8's penalty on a number's cut (Quinlan 1996)"),
    Quantity("corrected_gain", "corrected gain", "Gain′", r"\mathrm{Gain}'", "Gain′",
             "the gain less log₂(cuts)/N, Quinlan (1996)"),
    Quantity("split_info", "split information", "Split info", r"\mathrm{SplitInfo}", "SplitInfo",
             "split info(X) in Quinlan (1993), SplitInfo_A(D) in Han et al. and the intrinsic value IV(a) "
             "in Zhou (2016)"),
    Quantity("gain_ratio", "gain ratio", "Gain ratio", r"\mathrm{GainRatio}", "GainRatio",
             "gain ratio(X) in Quinlan (1993) and Gain_ratio(D, a) in Zhou (2016)"),
    Quantity("gini_before", "Gini index", "Gini(D)", r"\mathrm{Gini}", "Gini",
             "the Gini impurity, i(t) in Breiman et al. (1984)"),
    Quantity("gini_after", "weighted Gini index after the split", "Gini after", r"\mathrm{Gini}_{\text{after}}",
             "Gini after", "Gini_A(D) in Han et al."),
    Quantity("gini_gain", "Gini gain", "Gini gain", r"\Delta\mathrm{Gini}", "ΔGini",
             "the decrease in impurity Δi(s, t) of Breiman et al. (1984), the reduction in impurity ΔGini(A) of "
             "Han et al. and the gain Δ of Tan et al."),
    Quantity("twoing", "twoing value", "Twoing", r"\mathrm{Twoing}", "Twoing",
             "the twoing rule Φ(s, t) = (p_L p_R / 4) (Σ_j |p(j|t_L) − p(j|t_R)|)² of Breiman et al. (1984, ch. 4)"),
    Quantity("sse_before", "sum of squared errors", "SSE(D)", r"\mathrm{SSE}(D)", "SSE(D)"),
    Quantity("sse_after", "sum of squared errors after the split", "SSE after", r"\mathrm{SSE}_{\text{after}}",
             "SSE after"),
    Quantity("sse_reduction", "decrease in the sum of squared errors", "ΔSSE", r"\Delta\mathrm{SSE}", "ΔSSE"),
    Quantity("mse_before", "mean squared error", "MSE(D)", r"\mathrm{MSE}(D)", "MSE(D)"),
    Quantity("mse_after", "mean squared error after the split", "MSE after", r"\mathrm{MSE}_{\text{after}}",
             "MSE after"),
    Quantity("score", "decrease in mean squared error", "ΔMSE", r"\Delta\mathrm{MSE}", "ΔMSE",
             "the decrease in impurity Δi(s, t) of Breiman et al. (1984) for a regression tree"),
)}
