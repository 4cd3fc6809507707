"""The measures, one module per family; importing this package fills the registry.

The families are imported in display order — information, matching (with the normalised
matching measures of genieclust, :mod:`~metrics.measures.normalised_matching`), pairs, elementwise — which is
the order of :data:`metrics.MEASURES` and of every table and chart that lists measures.
:mod:`~metrics.measures.expected` is AMI's exact expected mutual information and
:mod:`~metrics.measures.costs` what evaluating the measures costs (for the cost guards).
"""

from . import information, matching, normalised_matching, pairs, elementwise  # noqa: F401  isort: skip  (display order)
from . import docs  # noqa: F401  (sets the registry's documentation writer)
