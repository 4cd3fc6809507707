"""The table and what every measure shares: the contingency table, the registry, batches of
tables, the hard limits and cost guards, the number format and the package data.

Nothing here knows a measure's formula (:mod:`metrics.measures`) or a random model
(:mod:`metrics.chance`); everything else in :mod:`metrics` builds on this.
"""
