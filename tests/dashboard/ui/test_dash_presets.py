"""The preset tables in assets/presets: readable, with provenance, and the papers' tables.

Expected numbers here are the papers' printed values (class sizes stated in the text, the
V-measures of Rosenberg & Hirschberg §2), never values computed by the code under test.
"""

import json

import numpy as np
import pytest

import metrics
from dashboard.ui.presets import PRESET_DIR, load_presets

PRESETS = load_presets()


def test_every_preset_file_is_loaded_in_order():
    files = sorted(p.name.removesuffix(".json") for p in PRESET_DIR.iterdir() if p.name.endswith(".json"))
    assert sorted(PRESETS) == files
    orders = [p.order for p in PRESETS.values()]
    assert orders == sorted(orders)


@pytest.mark.parametrize("key", list(PRESETS))
def test_preset_has_provenance_and_a_valid_table(key):
    p = PRESETS[key]
    assert p.source["paper"] and p.source["where"] and p.source["file"].endswith(".txt")
    assert p.note and p.title and p.group
    t = p.contingency()
    assert t.shape == (len(p.classes), len(p.clusters))  # no empty class or cluster in a preset
    assert t.is_integer and t.n == int(np.sum(p.table))


def test_wu_tables_are_transposed_to_classes_by_clusters():
    # Wu et al. §3.2: 50 documents, class sizes 30, 2, 6, 10, 2; clustering I has five clusters of 10.
    for key in ("wu_table3_I", "wu_table3_II"):
        t = PRESETS[key].contingency()
        assert t.row_sums.tolist() == [30, 2, 6, 10, 2]
    assert PRESETS["wu_table3_I"].contingency().col_sums.tolist() == [10, 10, 10, 10, 10]
    # Table 10 prints the margins: classes 23, 19, 24 and clusters 19, 23, 24, for both solutions.
    for key in ("wu_table10_I", "wu_table10_II"):
        t = PRESETS[key].contingency()
        assert t.row_sums.tolist() == [23, 19, 24]
        assert t.col_sums.tolist() == [19, 23, 24]


def test_reichart_rappoport_solution_r_and_singletons():
    r = np.array(PRESETS["rr_solution_r"].table)
    for i in range(10):
        expected = np.zeros(10, dtype=int)
        expected[i] = 7
        expected[[(i + 1) % 10, (i + 2) % 10, (i + 3) % 10]] = 1
        assert r[i].tolist() == expected.tolist()
    s = PRESETS["rr_singletons"].contingency()
    assert s.shape == (10, 100) and s.col_sums.tolist() == [1] * 100 and s.row_sums.tolist() == [10] * 10


def test_rosenberg_hirschberg_figure3():
    p = PRESETS["rh_figure3"]
    assert list(p.classes) == ["C1", "C2", "C3", "Cnoise1"] and list(p.clusters) == ["K1", "K2", "Knoise1"]
    assert [list(r) for r in p.table] == [[12, 2, 4], [12, 2, 4], [2, 12, 4], [3, 3, 0]]
    assert p.contingency().n == 60  # the caption's n


@pytest.mark.parametrize("key", ["rh_figure2_A", "rh_figure2_B"])
def test_problem_of_matching_reading_reproduces_the_printed_values(key):
    p = PRESETS[key]
    assert p.printed, "the reading of the lost figure must carry the values it reproduces"
    values = metrics.evaluate(p.contingency(), list(p.printed))
    for measure, printed in p.printed.items():
        decimals = len(str(printed["value"]).split(".")[1])
        assert round(values[measure], decimals) == printed["value"], (measure, values[measure])
    # 3 classes × 3 clusters of 5, as the text describes.
    assert p.contingency().row_sums.tolist() == [5, 5, 5] and p.contingency().col_sums.tolist() == [5, 5, 5]


def test_extreme_cases_have_the_same_classes():
    sizes = None
    for key in ("extreme_perfect", "extreme_single_cluster", "extreme_singletons", "extreme_no_knowledge"):
        t = PRESETS[key].contingency()
        sizes = sizes or t.row_sums.tolist()
        assert t.row_sums.tolist() == sizes
    assert PRESETS["extreme_single_cluster"].contingency().shape[1] == 1
    assert PRESETS["extreme_singletons"].contingency().col_sums.tolist() == [1] * sum(sizes)
    nk = np.array(PRESETS["extreme_no_knowledge"].table, dtype=float)
    # No knowledge: every cluster has the class distribution of the whole data set.
    assert np.allclose(nk / nk.sum(axis=0), (nk.sum(axis=1) / nk.sum())[:, None])


def test_presets_agree_with_metrics_generators():
    # The presets are data; metrics.papers.generators builds the same families from parameters.
    from metrics.papers import generators

    def same(t, key):
        p = PRESETS[key]
        return t.to_dense().tolist() == [list(r) for r in p.table]

    assert same(generators.solution_r(10, 10, 3), "rr_solution_r")
    assert same(generators.singletons([10] * 10), "rr_singletons")
    sizes = [6, 3, 3]
    assert same(generators.perfect(sizes), "extreme_perfect")
    assert same(generators.single_cluster(sizes), "extreme_single_cluster")
    assert same(generators.singletons(sizes), "extreme_singletons")
    assert same(generators.no_knowledge(sizes, [4, 4, 4]), "extreme_no_knowledge")


def test_malformed_preset_files_are_named(tmp_path):
    good = json.loads((PRESET_DIR / "rh_figure3.json").read_text())
    bad = dict(good, key="broken", table=[[1, 2], [3]])
    (tmp_path / "broken.json").write_text(json.dumps(bad))
    with pytest.raises(ValueError, match=r"broken.json"):
        load_presets.__wrapped__(tmp_path)
    (tmp_path / "broken.json").write_text("{not json")
    with pytest.raises(ValueError, match=r"broken.json"):
        load_presets.__wrapped__(tmp_path)
    with pytest.raises(ValueError, match="no presets"):
        load_presets.__wrapped__(tmp_path / "empty")
