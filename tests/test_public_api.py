"""The public face of ``metrics`` survives its layers (issue 23): every name the flat package
exported, the registry's keys in their display order, the submodules imported as
``from metrics import X``, and the old module names, kept for compatibility as attributes that
name the modules that now hold them."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

import metrics

TOP = ["Contingency", "pair_counts", "evaluate", "evaluate_batch", "TableBatch", "MEASURES", "Measure", "FAMILIES",
       "compare_solutions", "rank_solutions", "rank_agreement", "changes_of_mind", "solution_matrix"]

# The registry's keys, in the order every table and chart lists them (information, matching, pairs,
# elementwise): a contract with links, downloads and saved results.
KEYS = ["homogeneity", "completeness", "v_measure", "fuzzy_v_joint", "mutual_info", "nmi_arithmetic", "nmi_geometric",
        "nmi_min", "nmi_max", "nmi_joint", "ami", "ami_min", "ami_geometric", "ami_max", "vi", "nvi", "nvik",
        "vi_log_n", "vi_n", "conditional_entropy", "entropy", "q0", "q2", "purity", "inverse_purity",
        "micro_avg_precision", "goodman_kruskal", "f_measure", "f_n", "classification_error", "epsilon_n",
        "van_dongen", "vd_n", "nca", "npa", "psi", "psi_simplified", "rand", "ari", "r_n", "mirkin", "jaccard",
        "fowlkes_mallows", "hubert_gamma",
        "gamma_n", "hubert_gamma_prime", "minkowski", "j_prime_n", "ms_prime_n", "fm_n", "pair_precision",
        "pair_recall", "pair_f", "afm", "pair_correlation", "sokal_sneath", "correlation_distance",
        "bcubed_precision", "bcubed_recall", "bcubed_f", "element_centric"]

# Old module name → where it lives now, and the names it exported (its __all__ before the layers).
MOVED = {
    "contingency": ("metrics.core.contingency", ["Contingency", "pair_counts"]),
    "registry": ("metrics.core.registry", ["Measure", "MEASURES", "FAMILIES", "DOMAINS", "register", "evaluate"]),
    "batch": ("metrics.core.batch", ["TableBatch", "evaluate_batch"]),
    "formatting": ("metrics.core.formatting",
                   ["format_number", "frame_csv", "spreadsheet_cell", "SIGNIFICANT_DIGITS", "ZERO_TOLERANCE"]),
    "resources": ("metrics.papers.resources", ["asset", "folder", "names", "read_json"]),
    "limits": ("metrics.core.limits",
               ["MAX_TOTAL", "PERM_SAMPLED_ITEMS", "BOYETT_ITEMS", "MAX_SAMPLED_ITEMS", "PERM_DENSE_CELLS",
                "BELL_ITEMS", "EXACT_STIRLING_WORK", "STIRLING_RECURRENCE_ITEMS", "STIRLING_RECURRENCE_WORK",
                "STIRLING_TABLE_CELLS", "EMI_TERM_BUDGET", "MATCHING_BUDGET", "FLOAT_MATCHING_BUDGET",
                "GENERATED_CELLS", "GENERATED_ITEMS",
                "DEFAULT_BUDGET", "OVERRUN", "CostError", "check_budget", "checked_budget", "Deadline", "Progress",
                "COSTS", "check_generated_cells", "check_generated_items"]),
    "information": ("metrics.measures.information", ["expected_mi"]),
    "expected": ("metrics.measures.expected",
                 ["expected_mutual_information", "expected_mi_from_sizes", "expected_mi_batch", "emi_terms",
                  "EMI_TERM_BUDGET", "emi_out_of_budget"]),
    "pairs": ("metrics.measures.pairs", []),
    "matching": ("metrics.measures.matching", ["f_matches", "matched_mass"]),
    "elementwise": ("metrics.measures.elementwise", []),
    "random_models": ("metrics.chance.models",
                      ["MODELS", "ONE_SIDED", "check_model", "stirling_pair_probability", "bell_pair_probability",
                       "random_partitions", "random_block_sizes", "random_tables_num", "random_tables_perm",
                       "MAX_SAMPLED_ITEMS", "PERM_SAMPLED_ITEMS", "check_perm_items"]),
    "generators": ("metrics.papers.generators",
                   ["dom_each", "dom", "dom_tables", "dom_matching", "dom_realizable", "perfect", "single_cluster",
                    "singletons", "no_knowledge", "solution_r", "uniform_effect", "cv", "dcv", "split", "merge",
                    "scale", "shuffle", "random_table", "random_tables", "ambiguity_rates", "random_gold",
                    "softening_steps", "dissimilarity", "dissimilarity_adjusted", "largest_remainder"]),
    "experiments": ("metrics.papers.experiments",
                    ["SCHEMES", "VARIANTS", "ambiguity_profile", "ambiguous_gold", "soft_clusterings", "with_noise",
                     "fuzzy_tables", "fuzzy_scores", "experiment1_size", "experiment1_runs", "experiment1",
                     "summarize", "experiment2_size", "experiment2", "experiment3", "experiment3_setup",
                     "experiment3_row", "default_sizes", "softness", "closest_step", "ambiguity_sweep",
                     "cluster_count_sweep", "best_k"]),
    "gallery": ("metrics.papers.gallery",
                ["PAPERS", "ASSET_DIR", "STATUSES", "gallery_rows", "gallery_frame", "judge", "decimals"]),
}

# Submodules that never moved: their own names, and what they exported.
STAYED = {
    "chance": ["MODELS", "DEFAULT_SAMPLES", "DEFAULT_BUDGET", "Expectation", "expected", "expectation", "is_exact",
               "exact_keys", "null_distribution", "profile", "summarize", "adjusted", "best_value", "cluster_sweep",
               "RandomTables", "draw_tables", "score_tables", "sweep_tables", "score_sweep", "estimate_seconds",
               "sweep_seconds", "fitting_samples"],
    "properties": ["RH_GRID", "PROPERTIES", "dom_property_rates", "dom_property_failures", "rates_table",
                   "check_properties", "check_many", "properties_frame", "properties_table", "sweep",
                   "rates_seconds", "checks_seconds"],
    "solutions": ["compare_solutions", "rank_solutions", "rank_agreement", "changes_of_mind", "solution_matrix",
                  "compare_seconds", "TIE_RTOL", "TIE_ATOL"],
    "io": ["COMMON_NA_TEXTS", "ContentTooLargeError", "DUCKDB_THRESHOLD_BYTES", "NO_ITEMS", "EmptyTableError",
           "FileKind", "LabelColumns", "MissingLabelsError", "MissingReport", "MissingSolutionLabelsError",
           "SolutionColumns", "StreamCopies", "UnmatchedIdsError", "content_size", "contingency_from_columns",
           "contingency_from_dask", "contingency_from_files", "contingency_from_table_file", "file_columns",
           "file_format", "is_stream", "missing_mask", "missing_report", "read_dask", "read_labels", "read_stream",
           "repeated_labels", "repeated_labels_message", "sniff", "solution_columns", "total_size"],
    "cli": ["main"],
}


def test_the_top_level_names_are_all_there():
    assert set(TOP) <= set(metrics.__all__)
    for name in TOP:
        assert getattr(metrics, name) is not None, name


def test_the_registry_keeps_its_keys_and_their_order():
    assert list(metrics.MEASURES) == KEYS
    assert list(metrics.FAMILIES) == ["information", "matching", "pairs", "elementwise"]
    assert [m.family for m in metrics.MEASURES.values()] == sorted(
        (m.family for m in metrics.MEASURES.values()), key=list(metrics.FAMILIES).index)


@pytest.mark.parametrize("old", list(MOVED))
def test_an_old_module_name_is_the_module_that_now_holds_it(old):
    where, names = MOVED[old]
    module = importlib.import_module(where)
    assert getattr(metrics, old) is module
    exec(f"from metrics import {old} as imported", namespace := {})  # the `from metrics import X` form
    assert namespace["imported"] is module
    missing = [n for n in names if not hasattr(module, n)]
    assert not missing, f"metrics.{old} lost {missing}"
    assert old in dir(metrics)


@pytest.mark.parametrize("name", list(STAYED))
def test_the_submodules_keep_their_paths_and_names(name):
    module = importlib.import_module(f"metrics.{name}")
    assert getattr(metrics, name) is module
    missing = [n for n in STAYED[name] if not hasattr(module, n)]
    assert not missing, f"metrics.{name} lost {missing}"


def test_metrics_properties_is_a_real_module_path():
    """``import metrics.properties`` (not only the attribute): issue 27 adds to it."""
    code = "import metrics.properties as p; assert callable(p.check_properties) and callable(p.dom_property_rates)"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        metrics.nonsense  # noqa: B018
    with pytest.raises(ImportError):
        exec("from metrics import nonsense")


def test_importing_metrics_imports_no_screen():
    """The library knows no screen: importing it (and its command) loads no Streamlit, no Plotly."""
    code = ("import sys, metrics, metrics.cli, metrics.io, metrics.properties, metrics.papers.gallery\n"
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('streamlit', 'plotly', 'dashboard'))\n"
            "assert not bad, bad\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_subpackages_are_attributes_after_a_plain_import():
    """``import metrics`` then ``metrics.io.read_labels`` / ``metrics.properties.gosgens_properties``
    (the issues' spelling), each imported on first use — in a fresh interpreter, so no other test's
    import makes it pass."""
    code = ("import sys, metrics; assert 'metrics.properties' not in sys.modules; "
            "assert callable(metrics.properties.gosgens_properties) and callable(metrics.io.read_labels); "
            "assert metrics.papers.__name__ == 'metrics.papers'; "
            "assert callable(metrics.cli.main)")
    subprocess.run([sys.executable, "-c", code], check=True)
