"""The properties the papers argue with, checked numerically for every registered measure.

* :func:`dom_property_rates` — Dom's desirable properties P1–P5 and Rosenberg &
  Hirschberg's P6–P7 ([RH07] §4, Table 1) over their grid of Dom tables, as
  satisfaction rates (their Table 2).
* :func:`check_properties` — Wu et al.'s mathematical properties ([Wu09] §5.2,
  Table 12: symmetry, n-invariance, convex additivity, left- and right-domain
  completeness) and, for distances, the metric axioms, each with evidence.
* :func:`sweep` — one generator parameter against every measure, as a tidy table.
* :func:`gosgens_properties` — Gösgens, Tikhonov & Prokhorenkova's properties ([GTP21]: maximal and
  minimal agreement, symmetry, distance, local and strong monotonicity, constant and asymptotic
  constant baseline) of every measure, with :func:`gosgens_evidence` (a proof reference, a
  counterexample kept, or an exhaustive small-case search that found none — never shown as a proof)
  and :func:`gosgens_disagreements` with the paper's table — as reconstructed, since the paper's
  tables could not be read (:mod:`~metrics.properties.gosgens_paper`).

Everything is evaluated in batches (:func:`metrics.evaluate_batch`): the full
Table 2 grid is about 14 000 distinct tables and takes a second or two.

References
----------
[Dom01] Dom (2001), An information-theoretic external cluster-validity measure. IBM RJ 10219.
[RH07] Rosenberg & Hirschberg (2007), V-Measure. EMNLP-CoNLL, §4 and Tables 1–2.
[Wu09] Wu, Xiong & Chen (2009), Adapting the right measures for K-means clustering. KDD, §5.2.
[Mei07] Meilă (2007), Comparing clusterings — an information based distance. J. Multivariate Anal. 98.
[GTP21] Gösgens, Tikhonov & Prokhorenkova (2021), Systematic analysis of cluster similarity indices:
        how to validate validation measures. ICML.

Where it lives: :mod:`~metrics.properties.dom_grid` (P1–P7 over Dom's grid),
:mod:`~metrics.properties.checks` (Wu's properties and the metric axioms),
:mod:`~metrics.properties.sweep` and :mod:`~metrics.properties.gosgens` (with its searches,
``gosgens_search`` and ``gosgens_baseline``, and the paper's table, ``gosgens_paper``).
"""

from .checks import check_many, check_properties, checks_seconds, properties_frame, properties_table
from .dom_grid import (
                       PROPERTIES,
                       PROPERTY_GRID_N,
                       RH_GRID,
                       dom_property_failures,
                       dom_property_rates,
                       rates_seconds,
                       rates_table,
)
from .gosgens import (
                      GOSGENS_PROPERTIES,
                      PROPERTY_DEFINITIONS,
                      gosgens_disagreements,
                      gosgens_evidence,
                      gosgens_properties,
                      gosgens_seconds,
                      gosgens_verdict,
                      gosgens_verdicts,
)
from .sweep import sweep

__all__ = ["RH_GRID", "PROPERTIES", "dom_property_rates", "dom_property_failures", "rates_table",
           "check_properties", "check_many", "properties_frame", "properties_table", "sweep", "rates_seconds",
           "checks_seconds", "PROPERTY_GRID_N", "GOSGENS_PROPERTIES", "PROPERTY_DEFINITIONS", "gosgens_properties",
           "gosgens_evidence", "gosgens_verdict", "gosgens_verdicts", "gosgens_disagreements", "gosgens_seconds"]
