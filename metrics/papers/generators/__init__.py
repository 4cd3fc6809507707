"""Constructed clusterings of the papers, as contingency tables.

Every table generator returns a :class:`~metrics.Contingency` (rows gold classes,
columns clusters); the ambiguity generators (Utt et al. 2014) return membership
data — one tuple of labels per item — that :meth:`Contingency.from_memberships`
accepts. Bad parameters raise ``ValueError`` naming the parameter.

Families
--------
* :func:`dom` / :func:`dom_tables` — Dom's parametric family with Rosenberg &
  Hirschberg's noise classes ([Dom01] §5, [RH07] §4, Figure 3).
* :func:`perfect`, :func:`single_cluster`, :func:`singletons`, :func:`no_knowledge`
  — the extreme cases of [RR09] (defined in §2, scored in §3–4).
* :func:`solution_r` — Reichart & Rappoport's cyclic-noise solution R ([RR09] §5, Table 1).
* :func:`uniform_effect`, :func:`cv`, :func:`dcv` — Wu et al.'s K-means uniform
  effect and coefficient of variation ([Wu09] §3.1–3.2, Table 3).
* :func:`blobs`, :func:`skewed_blobs`, :func:`skewed_sizes` — points in the plane, with class
  sizes of a chosen CV₀ ([Wu09] §3.1, §4.2), for a clustering algorithm to run on.
* :func:`split`, :func:`merge`, :func:`scale` — refinement and scale.
* :func:`shuffle`, :func:`random_table`, :func:`random_tables` — controlled noise
  and chance tables with fixed margins (hypergeometric model).
* :func:`ambiguity_rates`, :func:`random_gold`, :func:`softening_steps`,
  :func:`dissimilarity`, :func:`dissimilarity_adjusted` — ambiguous data ([Utt14] §4–5).

References
----------
[Dom01] Dom (2001), An information-theoretic external cluster-validity measure. IBM RJ 10219.
[RH07] Rosenberg & Hirschberg (2007), V-Measure. EMNLP-CoNLL.
[RR09] Reichart & Rappoport (2009), The NVI clustering evaluation measure. CoNLL.
[Wu09] Wu, Xiong & Chen (2009), Adapting the right measures for K-means clustering. KDD.
[Utt14] Utt, Springorum, Köper & Schulte im Walde (2014), Fuzzy V-Measure. LREC.

One module per kind: :mod:`~.dom_family`, :mod:`~.extremes`, :mod:`~.uniform_effect`, :mod:`~.refine`,
:mod:`~.ambiguous`, :mod:`~.dissimilarity_enhancement`, :mod:`~.scatter` (argument checks in :mod:`~.checks`).
"""

from .ambiguous import ambiguity_rates, random_gold, softening_steps
from .checks import largest_remainder
from .dissimilarity_enhancement import dissimilarity, dissimilarity_adjusted
from .dom_family import DOM_DEFAULT_N, dom, dom_each, dom_matching, dom_realizable, dom_tables
from .extremes import no_knowledge, perfect, single_cluster, singletons, solution_r
from .refine import merge, random_table, random_tables, scale, shuffle, split
from .scatter import blobs, class_centres, max_cv, skewed_blobs, skewed_sizes
from .uniform_effect import cv, dcv, uniform_effect

__all__ = [
    "dom_each",
    "dom", "dom_tables", "dom_matching", "dom_realizable",
    "perfect", "single_cluster", "singletons", "no_knowledge", "solution_r",
    "uniform_effect", "cv", "dcv",
    "blobs", "skewed_blobs", "skewed_sizes", "max_cv", "class_centres",
    "split", "merge", "scale",
    "shuffle", "random_table", "random_tables",
    "ambiguity_rates", "random_gold", "softening_steps", "dissimilarity", "dissimilarity_adjusted",
    "largest_remainder", "DOM_DEFAULT_N",
]
