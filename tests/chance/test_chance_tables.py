"""Random tables drawn once and scored again (metrics.chance.draw_tables / score_tables,
sweep_tables / score_sweep): the same values as null_distribution and cluster_sweep, to the
last bit, for every model, measure set, unit and β — and the tables are not changed by scoring."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import metrics
from metrics import chance
from metrics.core.batch import TableBatch

TABLE = metrics.Contingency.from_table(np.array([[5, 1, 0, 2], [2, 7, 3, 0], [0, 1, 4, 6]]))


@pytest.mark.parametrize("model", chance.MODELS)
@pytest.mark.parametrize("log_base, beta", [(math.e, 1.0), (2.0, 0.4), (10.0, 3.0)])
def test_score_of_drawn_tables_is_the_null_distribution(model, log_base, beta):
    want = chance.null_distribution(TABLE, None, model, 120, 7, log_base, beta)
    tables = chance.draw_tables(TABLE, model, 120, 7)
    got = chance.score_tables(tables, None, log_base, beta)
    pd.testing.assert_frame_equal(got, want, check_exact=True)
    # Scored again (another unit and β first): still the same values.
    chance.score_tables(tables, None, 2.0, 5.0)
    pd.testing.assert_frame_equal(chance.score_tables(tables, None, log_base, beta), want, check_exact=True)


def test_a_subset_of_measures_scores_as_in_the_full_set():
    tables = chance.draw_tables(TABLE, "num", 80, 3)
    every = chance.score_tables(tables, None, 2.0, 2.0)
    part = chance.score_tables(tables, ["v_measure", "ami", "rand"], 2.0, 2.0)
    pd.testing.assert_frame_equal(part, every[["v_measure", "ami", "rand"]], check_exact=True)


def test_several_chunks_and_a_generator_seed():
    # A tiny chunk size forces several chunks; a Generator seed is consumed as null_distribution consumes it.
    big = metrics.Contingency.from_table(np.full((3, 4), 50))
    want = chance.null_distribution(big, ["vi", "ari"], "num1", 40, np.random.default_rng(5))
    got = chance.score_tables(chance.draw_tables(big, "num1", 40, np.random.default_rng(5)), ["vi", "ari"])
    pd.testing.assert_frame_equal(got, want, check_exact=True)


@pytest.mark.parametrize("model", ["num1", "num", "perm"])
def test_score_sweep_is_cluster_sweep(model):
    ks = [2, 5, 17, 60]
    want = chance.cluster_sweep(60, ks, None, model=model, n_classes=4, samples=30, seed=11, log_base=2.0, beta=0.5)
    tables = chance.sweep_tables(60, ks, model, n_classes=4, samples=30, seed=11)
    assert [k for k, _ in tables] == ks
    got = chance.score_sweep(tables, None, log_base=2.0, beta=0.5)
    pd.testing.assert_frame_equal(got, want, check_exact=True)


@settings(max_examples=25, deadline=None)
@given(beta=st.floats(0.1, 5.0), seed=st.integers(0, 2**31 - 1), model=st.sampled_from(["num1", "num", "perm"]))
def test_any_beta_scores_the_kept_tables_as_a_fresh_sweep(beta, seed, model):
    tables = chance.sweep_tables(30, [2, 9], model, n_classes=3, samples=12, seed=seed)
    want = chance.cluster_sweep(30, [2, 9], ["v_measure", "fuzzy_v_joint", "nmi_arithmetic"], model=model,
                                n_classes=3, samples=12, seed=seed, beta=beta)
    got = chance.score_sweep(tables, ["v_measure", "fuzzy_v_joint", "nmi_arithmetic"], beta=beta)
    pd.testing.assert_frame_equal(got, want, check_exact=True)


def test_kept_tables_are_compact_and_read_only():
    tables = chance.draw_tables(TABLE, "perm", 50, 0)
    dense = [c for c in tables.chunks if isinstance(c, tuple)]
    assert dense and all(small.dtype == np.uint8 and not small.flags.writeable for small, _ in dense)
    assert tables.nbytes == sum(small.nbytes for small, _ in dense)


def test_progress_counts_the_scored_draws():
    seen = []
    tables = chance.sweep_tables(40, [2, 4], "num1", n_classes=2, samples=10, seed=0)
    chance.score_sweep(tables, ["ari"], progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (20, 20) and all(total == 20 for _, total in seen)


@pytest.mark.parametrize("call, words", [
    (lambda: chance.score_tables("tables"), "draw_tables"),
    (lambda: chance.score_sweep([(2, "x")]), "sweep_tables"),
    (lambda: chance.score_sweep([]), "sweep_tables"),
    (lambda: chance.sweep_tables(100, [2], "all"), "num1, num or perm"),
    (lambda: chance.draw_tables(TABLE, "nope"), "nope"),
    (lambda: chance.score_tables(chance.draw_tables(TABLE, "perm", 5, 0), None, beta=0), "beta"),
])
def test_bad_input_is_named(call, words):
    with pytest.raises(ValueError, match=words):
        call()


def test_another_beta_rescores_the_kept_parts_without_reading_a_table(monkeypatch):
    """V_β's h and c are kept per chunk when first scored (the registry's ``beta_parts``); another β
    only combines them — no table is read again — and gives what a fresh draw gives at that β."""
    singletons = metrics.Contingency.from_labels(np.arange(600), np.arange(600))  # list chunks (600² cells)
    for table, model in ((TABLE, "num"), (TABLE, "perm"), (singletons, "perm")):
        tables = chance.draw_tables(table, model, 40, 9)
        chance.score_tables(tables, ["v_measure", "fuzzy_v_joint"], beta=1.0)
        with monkeypatch.context() as m:
            m.setattr(chance.null, "_unstored", lambda chunk: pytest.fail("a table was read again"))
            got = chance.score_tables(tables, ["v_measure", "fuzzy_v_joint"], beta=2.5)
        want = chance.null_distribution(table, ["v_measure", "fuzzy_v_joint"], model, 40, 9, beta=2.5)
        pd.testing.assert_frame_equal(got, want, check_exact=True)


def test_every_measure_that_uses_beta_declares_parts_that_give_its_value_to_the_last_bit():
    rng = np.random.default_rng(4)
    batch = [rng.integers(0, 6, size=(3, 4)) for _ in range(30)] + [np.array([[5, 0], [0, 0]]), np.array([[3]])]
    for m in metrics.MEASURES.values():
        if not m.uses_beta:
            assert m.beta_parts is None
            continue
        parts, combine = m.beta_parts
        for beta in (0.3, 1.0, 4.0):
            for cells in batch:
                t = metrics.Contingency.from_table(cells)
                assert min(max(float(combine(*parts(t), beta)), 0.0), 1.0) == m(t, beta=beta), (m.key, cells)
            whole = metrics.evaluate_batch(batch, [m.key], beta=beta)[m.key].to_numpy()
            values = np.clip(np.asarray(combine(*parts(TableBatch(batch)), beta), dtype=np.float64), *m.bounds)
            np.testing.assert_array_equal(values, whole)
