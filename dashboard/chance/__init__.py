"""The Chance page's feature: ``metrics.chance`` expectations, null distributions and sweeps, cached
per parameters (``views``), and their figures (``charts``)."""
