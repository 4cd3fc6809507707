"""The engines add partial tables (Contingency's ``+``): Dask counts a table per partition, DuckDB
makes a table of each batch of cells it hands over; the sum is the table of all the items,
whatever labels each part saw."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from metrics import Contingency
from metrics.core import cells as cells_module
from metrics.io import MissingLabelsError
from tests.scale.test_merge import assert_identical

dd = pytest.importorskip("dask.dataframe")
dask = pytest.importorskip("dask")


def frame(n=5000, seed=0):
    rng = np.random.default_rng(seed)
    # Sorted gold: most partitions see only a few of the classes.
    gold = np.sort(rng.integers(0, 40, n)).astype(str)
    pred = np.char.add("c", rng.integers(0, 25, n).astype(str))
    return pd.DataFrame({"id": np.arange(n), "gold": gold, "pred": pred})


@pytest.mark.parametrize("partitions", [1, 2, 7, 32])
def test_partial_tables_add_up_to_the_table_of_all_items(partitions, monkeypatch):
    from metrics.io.engines.dask_engine import contingency_from_dask

    df = frame()
    adds = []
    real = cells_module.merge_tables
    monkeypatch.setattr(cells_module, "merge_tables", lambda tables: adds.append(len(tables)) or real(tables))
    with dask.config.set(scheduler="sync"):
        t = contingency_from_dask(dd.from_pandas(df, npartitions=partitions), "gold", "pred")
    assert len(adds) == partitions - 1  # a tree of additions: one fewer than the partitions
    assert_identical(t, Contingency.from_labels(df["gold"].to_numpy(object), df["pred"].to_numpy(object)))


def test_joined_frames_add_up_and_count_alignment_across_partitions():
    from metrics.io.engines.dask_engine import contingency_from_dask

    df = frame(3000, seed=1)
    gold = dd.from_pandas(df[["id", "gold"]], npartitions=5)
    pred = dd.from_pandas(df[["id", "pred"]].sample(frac=1.0, random_state=2), npartitions=4)
    with dask.config.set(scheduler="sync"):
        t = contingency_from_dask(gold, "gold", "pred", pred_ddf=pred, id_col="id")
    assert_identical(t, Contingency.from_labels(df["gold"].to_numpy(object), df["pred"].to_numpy(object)))
    with dask.config.set(scheduler="sync"), pytest.raises(ValueError, match="id"):
        contingency_from_dask(gold, "gold", "pred", pred_ddf=dd.from_pandas(df[["id", "pred"]][:-3], npartitions=3),
                              id_col="id")


def test_missing_labels_are_counted_over_every_partition():
    from metrics.io.engines.dask_engine import contingency_from_dask

    df = frame(400, seed=3)
    df.loc[[5, 150, 390], "gold"] = ""
    df.loc[[150, 391], "pred"] = "NA"
    ddf = dd.from_pandas(df, npartitions=6)
    with dask.config.set(scheduler="sync"):
        with pytest.raises(MissingLabelsError) as info:
            contingency_from_dask(ddf, "gold", "pred", na_values=["NA"])
        assert (info.value.items, info.value.gold, info.value.pred) == (4, 3, 2)
        t = contingency_from_dask(ddf, "gold", "pred", na_values=["NA"], dropna=True)
    keep = ~df.index.isin([5, 150, 390, 391])
    assert_identical(t, Contingency.from_labels(df["gold"][keep].to_numpy(object), df["pred"][keep].to_numpy(object)))


@pytest.mark.parametrize("batch", [3, 100, 1 << 20])
def test_duckdb_adds_the_tables_of_its_batches_of_cells(tmp_path, monkeypatch, batch):
    pytest.importorskip("duckdb")
    from metrics.io import contingency_from_files
    from metrics.io.engines import duckdb_engine

    df = frame(4000, seed=4)
    df.loc[df.index % 97 == 0, "pred"] = "7"   # numbers and text in one column: read as text
    path = tmp_path / "labels.csv"
    df.to_csv(path, index=False)
    monkeypatch.setattr(duckdb_engine, "_CELLS_PER_BATCH", batch)
    adds = []
    real = cells_module.merge_tables
    monkeypatch.setattr(duckdb_engine, "merge_tables", lambda tables: adds.append(len(tables)) or real(tables))
    t = contingency_from_files(path, "gold", "pred", engine="duckdb")
    cells = len(df.groupby(["gold", "pred"]))
    assert adds == ([-(-cells // batch)] if cells > batch else [])
    monkeypatch.undo()
    assert_identical(t, contingency_from_files(path, "gold", "pred", engine="pandas"))
    assert_identical(t, Contingency.from_labels(df["gold"].to_numpy(object), df["pred"].to_numpy(object)))
