"""The engines for inputs beyond memory, each optional (the ``io`` extra): an embedded DuckDB
``GROUP BY`` over files (:mod:`~metrics.io.engines.duckdb_engine`) and a Dask cluster
(:mod:`~metrics.io.engines.dask_engine`). Both read through the same scan, sources and cells as
the pandas engine (:mod:`metrics.io.files`), so they give the same table or the same refusal.
"""
