"""Gösgens, Tikhonov & Prokhorenkova (ICML 2021): their index rows mapped to registry keys, their
verdicts, and the references this project cites for verdicts its searches cannot prove.

CAUTION — :data:`PAPER_TABLE` is a reconstruction, not a transcription. The paper's tables could
not be read when this was written: only its abstract and introduction were available, and the
authors' code (github.com/MartijnGosgens/validation_indices) defines the indices but holds no table.
The cells come from what the abstract and introduction state (CC and Sokal & Sneath's first index
have every property except being a distance; the correlation distance has every property except the
exact constant baseline, which it has asymptotically), from well-known results (VI, NMI_max, Rand and
Jaccard are metrics; ARI and AMI have constant baselines) and from the definitions. The cells listed
as unsure are the weakest. A verdict that cites "the paper" cites this reconstruction, and
:func:`paper_disagreements` compares the searches with it — check both against the published table.
"""

from __future__ import annotations

PROPS = ("max_agreement", "min_agreement", "symmetric", "distance", "local_monotonicity",
         "strong_monotonicity", "constant_baseline", "asymptotic_constant_baseline")

Y, N, NA = True, False, None

#: row → (verdicts in PROPS order: True, False, None = not applicable; cells marked unsure)
PAPER_TABLE: dict[str, tuple[tuple, tuple[str, ...]]] = {
    "NMI":      ((Y, N, Y, N, Y, NA, N, N), ("min_agreement", "asymptotic_constant_baseline")),
    "NMI_max":  ((Y, N, Y, Y, N, NA, N, N), ("min_agreement",)),
    "VI":       ((Y, N, Y, Y, Y, NA, N, N), ()),
    "AMI":      ((Y, N, Y, N, N, NA, Y, Y), ("local_monotonicity",)),
    "BCubed":   ((Y, N, Y, N, Y, NA, N, N), ("local_monotonicity",)),
    "R":        ((Y, Y, Y, Y, Y, Y, N, N), ()),
    "ARI":      ((Y, N, Y, N, Y, N, Y, Y), ()),
    "J":        ((Y, Y, Y, Y, Y, N, N, N), ("min_agreement", "local_monotonicity")),
    "W":        ((N, Y, N, N, N, N, N, N), ("min_agreement",)),
    "D":        ((Y, Y, Y, N, Y, N, N, N), ("min_agreement", "local_monotonicity")),
    "CC":       ((Y, Y, Y, N, Y, Y, Y, Y), ()),
    "S&S1":     ((Y, Y, Y, N, Y, Y, Y, Y), ()),
    "CD":       ((Y, Y, Y, Y, Y, Y, N, Y), ()),
}

#: paper row → registry keys computing the same index (or an affine map of it: same verdicts)
ROW_KEYS: dict[str, tuple[str, ...]] = {
    "NMI": ("nmi_arithmetic", "v_measure", "vi_n"),      # V_1 = NMI_arith; VI_n = 1 − NMI_arith
    "NMI_max": ("nmi_max",),
    "VI": ("vi",),
    "AMI": ("ami",),
    "BCubed": ("bcubed_f",),
    "R": ("rand", "hubert_gamma_prime"),                 # Γ' = 2R − 1
    "ARI": ("ari", "r_n", "j_prime_n", "ms_prime_n"),     # J'_n = MS'_n = 1 − ARI
    "J": ("jaccard",),
    "W": ("pair_recall",),                               # N11/(N11 + N10) = m/m1 with A the gold classes
    "D": ("pair_f",),
    "CC": ("pair_correlation", "hubert_gamma", "gamma_n"),
    "S&S1": ("sokal_sneath",),
    "CD": ("correlation_distance",),
}

#: Rows of the paper with no registry key: Fair NMI (Amelio & Pizzuti), the standardised mutual
#: information SMI (Romano et al. 2014), and its "FMeasure" — the harmonic mean of purity and inverse
#: purity (authors' FMeasure.py), which is not our f_measure (Larsen's class-wise best-match F).
UNMAPPED_ROWS = ("FNMI", "SMI", "FMeasure")

GOSGENS = "Gösgens, Tikhonov & Prokhorenkova 2021 (ICML), as reconstructed here (gosgens_paper.PAPER_TABLE)"

#: Proof references for verdicts "holds" that the searches can only fail to refute.
PROOFS: dict[tuple[str, str], str] = {
    ("vi", "distance"): "Meilă 2007, Comparing clusterings — an information based distance, Property 1",
    ("vi_log_n", "distance"): "VI scaled by a constant at fixed n (Meilă 2007)",
    ("mirkin", "distance"): "Hamming distance between the two pair-indicator vectors (Mirkin 1996)",
    ("rand", "distance"): "1 − R is the normalised Hamming distance between pair indicators",
    ("hubert_gamma_prime", "distance"): "(1 − Γ')/2 = 1 − R: as Rand",
    ("jaccard", "distance"): "1 − J on the sets of joined pairs: the Jaccard distance is a metric "
                             "(Levandowsky & Winter 1971)",
    ("nmi_max", "distance"): "1 − NMI_max is a metric (Vinh, Epps & Bailey 2010, Table 2; Kraskov et al. 2005)",
    ("nmi_joint", "distance"): "1 − I/H(C,K) is a metric (Kraskov et al. 2005; Vinh et al. 2010, Table 2)",
    ("van_dongen", "distance"): "van Dongen 2000 (a metric on partitions)",
    ("classification_error", "distance"): "Meilă 2005 (ICML), the misclassification error distance is a metric",
    ("correlation_distance", "distance"): "angle between the centred pair indicators (Gösgens et al. 2021)",
    ("correlation_distance", "asymptotic_constant_baseline"): "Gösgens et al. 2021 (CC → 0 in probability)",
    ("rand", "strong_monotonicity"): "(N11 + N00)/N: by inspection",
    ("rand", "min_agreement"): "R = 0 iff N11 = N00 = 0 iff one cluster against singletons (n ≥ 2)",
    ("hubert_gamma_prime", "min_agreement"): "= 2R − 1: as Rand",
    ("hubert_gamma_prime", "strong_monotonicity"): "= 2R − 1: as Rand",
}


def paper_rows_of(key: str) -> list[str]:
    return [row for row, keys in ROW_KEYS.items() if key in keys]


def paper_disagreements(verdicts: dict) -> list[dict]:
    """Every cell where a mapped registry key's verdict (``{key: {property: Verdict}}``) differs from
    the reconstructed paper table: row, measure, property, paper, ours, whether the paper's cell is
    unsure, and the evidence's detail."""
    out = []
    for row, (cells, unsure) in PAPER_TABLE.items():
        for key in ROW_KEYS[row]:
            if key not in verdicts:
                continue
            for prop, paper in zip(PROPS, cells):
                ours = verdicts[key][prop].holds
                if ours != paper:
                    out.append({"row": row, "measure": key, "property": prop, "paper": paper, "ours": ours,
                                "paper_unsure": prop in unsure, "detail": verdicts[key][prop].detail})
    return out
