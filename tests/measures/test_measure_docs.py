"""``help()`` of every measure shows its own documentation, made from the registry's metadata
(metrics/measures/docs.py): formula, range and direction, properties, degenerate cases computed by
the measure, reference, scikit-learn's name, and an example that runs."""

from __future__ import annotations

import doctest
import pydoc

import pytest

import metrics
from metrics.measures.docs import DEGENERATE_CASES, EXAMPLE_LABELS, degenerate_values

KEYS = list(metrics.MEASURES)


def _help(key: str) -> str:
    return pydoc.render_doc(metrics.MEASURES[key], renderer=pydoc.plaintext)


@pytest.mark.parametrize("key", KEYS)
def test_help_shows_the_measures_own_documentation(key):
    m = metrics.MEASURES[key]
    text = _help(key)
    assert "A registered measure." not in text  # not the class's generic docstring
    for needed in (m.name, m.symbol, repr(key), m.description, m.formula, m.range_text, m.reference,
                   "higher is better" if m.higher_is_better else "lower is better",
                   "Degenerate cases", "References", "Examples", f"metrics.score({key!r}"):
        assert needed in text, f"help(MEASURES[{key!r}]) lacks {needed!r}"
    if m.sklearn:
        assert f"sklearn.metrics.{m.sklearn.partition(':')[0]}" in text
    if m.func.__doc__:  # the function's conventions and findings are part of it
        assert m.func.__doc__.split()[0] in text


@pytest.mark.parametrize("key", KEYS)
def test_example_runs(key):
    """The example is a doctest computed by the measure; run it."""
    m = metrics.MEASURES[key]
    test = doctest.DocTestParser().get_doctest(m.__doc__, {}, f"MEASURES[{key!r}]", None, 0)
    assert test.examples, key
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    result = runner.run(test, out=lambda s: None)
    assert result.failed == 0 and result.attempted == len(test.examples), key


@pytest.mark.parametrize("key", KEYS)
def test_numbers_in_the_documentation_are_the_measures(key):
    """Degenerate cases and the example come from the measure itself, not from text."""
    m = metrics.MEASURES[key]
    doc = m.__doc__
    expected = round(metrics.score(key, *EXAMPLE_LABELS), 4)
    assert doc.rstrip().endswith(repr(expected))
    values = degenerate_values(m)
    assert set(values) == set(DEGENERATE_CASES)
    for case, (true, pred) in DEGENERATE_CASES.items():
        assert f"- {case}: {values[case]}" in doc
        if not values[case].startswith("not defined"):
            assert float(values[case].replace("∞", "inf").replace("−", "-")) == pytest.approx(
                metrics.score(key, true, pred), rel=1e-5, abs=1e-12)


def test_class_keeps_its_docstring_and_instances_differ():
    assert metrics.Measure.__doc__.startswith("A registered measure.")
    docs = {m.__doc__ for m in metrics.MEASURES.values()}
    assert len(docs) == len(metrics.MEASURES)
    assert metrics.MEASURES["vi"].doc == metrics.MEASURES["vi"].__doc__


def test_help_of_the_dropin_functions_states_the_conventions():
    assert "scikit-learn returns 0.0" in pydoc.render_doc(metrics.fowlkes_mallows_score, renderer=pydoc.plaintext)
    ami = pydoc.render_doc(metrics.adjusted_mutual_info_score, renderer=pydoc.plaintext)
    assert "average_method" in ami and "rounding residue" in ami
