"""The one pass over the items: counting two label arrays into a table, with numpy, with
numba where installed (:mod:`~metrics.core.kernels.compiled`), or on the labels' own device
(:mod:`~metrics.core.kernels.array_api`)."""
