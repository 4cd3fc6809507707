"""scikit-learn's clustering scores, drop-in: the same names, parameters and values.

>>> from metrics import adjusted_rand_score
>>> adjusted_rand_score([0, 0, 1, 1], [1, 1, 0, 0])
1.0

Each function is one table and one registry measure: ``Contingency.from_labels(labels_true,
labels_pred)`` and ``MEASURES[key]`` (:func:`score` does the same for every registered measure).
Signatures, keyword-only arguments and defaults are those of ``sklearn.metrics`` (checked by
``tests/test_api.py`` against the installed scikit-learn), and so are the values, to rounding,
with two documented conventions of Partition Lab:

* ``fowlkes_mallows_score`` of two all-singleton labelings (no pair joined by either: the
  partitions are identical) is 1.0; scikit-learn returns 0.0.
* ``adjusted_mutual_info_score(..., average_method="min")`` when exactly one labeling is all
  singletons: I = E[I] = min(H(C), H(K)), a 0/0, is 1.0; scikit-learn returns a rounding residue.

Input is checked as scikit-learn checks it, in its words (``ValueError``: "labels_true must be
1D: shape is (2, 2)", "Found input variables with inconsistent numbers of samples: [2, 3]"), and
more strictly where scikit-learn would count nonsense: missing (NaN/None) labels raise
``ValueError``. Two empty labelings are the same (empty) partition: the scores scikit-learn
rates 1.0 for them (ARI, Rand, homogeneity, completeness, V, NMI, AMI) are 1.0 here too, and so
is ``fowlkes_mallows_score`` (the convention above; scikit-learn: 0.0); ``mutual_info_score``
of empty labelings raises ``ValueError``, as scikit-learn's does. Everywhere else in Partition
Lab (``score``, ``evaluate``, ``Contingency.from_labels``) empty input raises ``ValueError``:
there is no table to show.
"""

from __future__ import annotations

import math

import numpy as np

from .core.contingency import Contingency
from .core.labels import as_1d_labels
from .core.registry import MEASURES, check_beta, check_log_base, resolve

__all__ = [
    "adjusted_mutual_info_score",
    "adjusted_rand_score",
    "completeness_score",
    "fowlkes_mallows_score",
    "homogeneity_completeness_v_measure",
    "homogeneity_score",
    "mutual_info_score",
    "normalized_mutual_info_score",
    "rand_score",
    "score",
    "v_measure_score",
]

# scikit-learn's ``average_method`` → the registry's measure (NMI and AMI).
_NMI = {"arithmetic": "nmi_arithmetic", "geometric": "nmi_geometric", "min": "nmi_min", "max": "nmi_max"}
_AMI = {"arithmetic": "ami", "geometric": "ami_geometric", "min": "ami_min", "max": "ami_max"}


def score(key: str, labels_true, labels_pred, *, log_base: float = math.e, beta: float = 1.0) -> float:
    """The registry measure ``key`` of a clustering against gold classes, from two label arrays.

    Parameters
    ----------
    key : str
        A key of :data:`metrics.MEASURES` (``"ari"``, ``"vi"``, ``"v_measure"`` …;
        ``partition-lab measures`` lists them). ``help(metrics.MEASURES[key])`` documents each.
    labels_true, labels_pred : array-like of shape (n_samples,)
        Each item's gold class and cluster: any hashable labels, same length, at least one item.
    log_base : float, default=e
        Unit of the measures that carry one (mutual information, VI …): e for nats, 2 for bits.
        The others ignore it.
    beta : float, default=1.0
        Weight of completeness against homogeneity in V_β (and its variants); others ignore it.

    Returns
    -------
    float

    Raises
    ------
    KeyError
        ``key`` is not a measure (the message lists the known keys).
    ValueError
        Labels that are not 1-D, of different lengths, empty or missing; a ``log_base`` or
        ``beta`` out of range; a measure not computed for this table (its cost guard).

    Examples
    --------
    >>> import metrics
    >>> metrics.score("vi", [0, 0, 1, 1], [0, 0, 2, 2], log_base=2)
    0.0
    >>> metrics.score("vi", [0, 0, 1, 1], [0, 1, 0, 1], log_base=2)
    2.0
    """
    check_log_base(log_base)  # before the labels are counted: a bad option costs nothing
    check_beta(beta)
    return resolve(key)[0](labels_true, labels_pred, log_base=log_base, beta=beta)


def _measure(key: str, labels_true, labels_pred, **params) -> float:
    if "beta" in params:
        check_beta(params["beta"])
    if _checked_length(labels_true, labels_pred) == 0:
        return 1.0  # two empty labelings: the same partition (scikit-learn's value)
    return MEASURES[key](labels_true, labels_pred, **params)


def _checked_length(labels_true, labels_pred) -> int | None:
    """scikit-learn's ``check_clusterings``, in its words: each labeling 1-D, both of one length —
    which is returned (None where it cannot be read without converting the labels: the table's
    own checks then name what is wrong). Arrays are read by their ``shape`` (no copy, on any
    device); a list or tuple whose first item is a list or an array is nested (a tuple is a label)."""
    lengths = []
    for name, labels in (("labels_true", labels_true), ("labels_pred", labels_pred)):
        shape = getattr(labels, "shape", None)
        if shape is None and isinstance(labels, (list, tuple)):
            nested = len(labels) > 0 and isinstance(labels[0], (list, np.ndarray))
            shape = _nested_shape(labels) if nested else (len(labels),)
        if shape is None:  # neither an array nor a list: the table's checks say what it is
            return None
        try:
            shape = tuple(int(d) for d in shape)
        except (TypeError, ValueError):  # an unknown length (a lazy array): not read here
            return None
        if len(shape) != 1:
            try:  # the table's own words say what to pass instead
                as_1d_labels(labels, name)
            except ValueError as why:
                raise ValueError(f"{name} must be 1D: shape is {shape!r}. {why}") from None
            raise ValueError(f"{name} must be 1D: shape is {shape!r} (one label per item)")
        lengths.append(shape[0])
    if lengths[0] != lengths[1]:
        raise ValueError(f"Found input variables with inconsistent numbers of samples: {lengths} "
                         "(labels_true and labels_pred give one label per item each)")
    return lengths[0]


def _nested_shape(labels) -> tuple[int, ...] | None:
    try:
        return np.shape(labels)
    except ValueError:  # ragged: no shape to name
        return None


def _method(average_method, keys: dict[str, str]) -> str:
    if average_method not in keys:
        raise ValueError(f"average_method must be one of {sorted(keys)}, got {average_method!r}")
    return keys[average_method]


def adjusted_rand_score(labels_true, labels_pred) -> float:
    """Rand index adjusted for chance (Hubert & Arabie 1985): the registry's ``ari``.

    1.0 for identical partitions, about 0 for independent ones, negative below chance.
    See ``help(metrics.MEASURES["ari"])``.

    Examples
    --------
    >>> from metrics import adjusted_rand_score
    >>> adjusted_rand_score([0, 0, 1, 1], [0, 0, 1, 1])
    1.0
    """
    return _measure("ari", labels_true, labels_pred)


def rand_score(labels_true, labels_pred) -> float:
    """Rand index: the fraction of item pairs both labelings treat alike (``rand``).

    Examples
    --------
    >>> from metrics import rand_score
    >>> rand_score([0, 0, 1, 1], [0, 0, 1, 2])
    0.8333333333333334
    """
    return _measure("rand", labels_true, labels_pred)


def adjusted_mutual_info_score(labels_true, labels_pred, *, average_method: str = "arithmetic") -> float:
    """Mutual information adjusted for chance (Vinh, Epps & Bailey 2010).

    ``average_method`` (``"arithmetic"``, ``"geometric"``, ``"min"``, ``"max"``) picks the mean of
    H(C) and H(K) in the denominator: the registry's ``ami``, ``ami_geometric``, ``ami_min``,
    ``ami_max``. Convention: with ``"min"``, when exactly one labeling is all singletons the
    value is a 0/0 that Partition Lab scores 1.0 (scikit-learn: a rounding residue).

    Examples
    --------
    >>> from metrics import adjusted_mutual_info_score
    >>> adjusted_mutual_info_score([0, 0, 1, 1], [1, 1, 0, 0])
    1.0
    """
    return _measure(_method(average_method, _AMI), labels_true, labels_pred)


def normalized_mutual_info_score(labels_true, labels_pred, *, average_method: str = "arithmetic") -> float:
    """Mutual information divided by a mean of H(C) and H(K) (``average_method``, as in
    scikit-learn): the registry's ``nmi_arithmetic``, ``nmi_geometric``, ``nmi_min``, ``nmi_max``.

    Examples
    --------
    >>> from metrics import normalized_mutual_info_score
    >>> normalized_mutual_info_score([0, 0, 1, 1], [0, 0, 1, 1])
    1.0
    """
    return _measure(_method(average_method, _NMI), labels_true, labels_pred)


def mutual_info_score(labels_true, labels_pred, *, contingency=None) -> float:
    """Mutual information I(C;K) in nats (``mutual_info``).

    ``contingency``, as in scikit-learn, is a table of counts (rows classes, columns clusters:
    an array or a ``scipy.sparse`` matrix); when given, the labels are ignored.

    Examples
    --------
    >>> from metrics import mutual_info_score
    >>> round(mutual_info_score([0, 0, 1, 1], [0, 0, 1, 1]), 6)
    0.693147
    """
    if contingency is not None:
        return MEASURES["mutual_info"](Contingency.from_table(contingency))
    _checked_length(labels_true, labels_pred)  # empty labelings go on to the table's ValueError
    return MEASURES["mutual_info"](labels_true, labels_pred)


def homogeneity_score(labels_true, labels_pred) -> float:
    """Homogeneity h (Rosenberg & Hirschberg 2007): each cluster holds one class (``homogeneity``).

    Examples
    --------
    >>> from metrics import homogeneity_score
    >>> homogeneity_score([0, 0, 1, 1], [0, 1, 2, 3])
    1.0
    """
    return _measure("homogeneity", labels_true, labels_pred)


def completeness_score(labels_true, labels_pred) -> float:
    """Completeness c (Rosenberg & Hirschberg 2007): each class sits in one cluster (``completeness``).

    Examples
    --------
    >>> from metrics import completeness_score
    >>> completeness_score([0, 0, 1, 1], [0, 0, 0, 0])
    1.0
    """
    return _measure("completeness", labels_true, labels_pred)


def v_measure_score(labels_true, labels_pred, *, beta: float = 1.0) -> float:
    """V_β, the weighted harmonic mean of homogeneity and completeness (``v_measure``);
    ``beta`` > 1 weighs completeness more.

    Examples
    --------
    >>> from metrics import v_measure_score
    >>> round(v_measure_score([0, 0, 1, 1], [0, 0, 1, 2]), 4)
    0.8
    """
    return _measure("v_measure", labels_true, labels_pred, beta=beta)


def homogeneity_completeness_v_measure(labels_true, labels_pred, *, beta: float = 1.0) -> tuple[float, float, float]:
    """``(homogeneity, completeness, v_measure)`` from one table, as scikit-learn returns them.

    Examples
    --------
    >>> from metrics import homogeneity_completeness_v_measure
    >>> [round(x, 4) for x in homogeneity_completeness_v_measure([0, 0, 1, 1], [0, 0, 1, 2])]
    [1.0, 0.6667, 0.8]
    """
    check_beta(beta)
    if _checked_length(labels_true, labels_pred) == 0:
        return (1.0, 1.0, 1.0)  # two empty labelings: the same partition (scikit-learn's values)
    t = Contingency.from_labels(labels_true, labels_pred)
    return (MEASURES["homogeneity"](t), MEASURES["completeness"](t), MEASURES["v_measure"](t, beta=beta))


def fowlkes_mallows_score(labels_true, labels_pred) -> float:
    """Fowlkes–Mallows index, the geometric mean of pair precision and recall (``fowlkes_mallows``).

    Convention: two all-singleton labelings (no pair joined by either, identical partitions)
    score 1.0, where scikit-learn returns 0.0; so do two empty labelings.

    Examples
    --------
    >>> from metrics import fowlkes_mallows_score
    >>> fowlkes_mallows_score([0, 0, 1, 1], [0, 0, 1, 1])
    1.0
    """
    return _measure("fowlkes_mallows", labels_true, labels_pred)
