"""The ``partition-lab`` command: score clusterings from files, list measures, start the app.

::

    partition-lab score GOLD [PRED] [options]   # labels → contingency table → measures
    partition-lab score FILE --pred-col p1,p2,p3 [options]     # several solutions, one file
    partition-lab score GOLD PRED1 PRED2 … [--id-col ID] [options]  # one file per solution
    partition-lab score --table TABLE [options] # a contingency table file → measures
    partition-lab measures                      # the registry
    partition-lab app [server options]          # the dashboard (handed over to dashboard.server)

Every value printed comes from :func:`metrics.evaluate` (one solution) or
:func:`metrics.compare_solutions` (several: every measure of each, and the solution each
measure rates best); files are read and tables built by
:mod:`metrics.io`, the reader the dashboard uses too (same formats, same missing-value rule:
an empty cell is missing, texts such as ``NA`` are labels unless ``--na-values`` names them).
Messages speak in options (``--dropna``, ``--na-values``), never in Python arguments. The
table output formats numbers with :func:`metrics.core.formatting.format_number`; ``--format
json``/``csv`` keep full precision. Exit codes: 0 success; 2 bad input or usage (one line on
stderr, no traceback; also a table that holds no items); 1 an environment problem (optional
package missing, cluster unreachable, unexpected failure — ``--debug`` shows its traceback);
130 interrupted.

The command lives in :mod:`~metrics.cli.parser` (arguments), :mod:`~metrics.cli.score` (reading and
scoring) and :mod:`~metrics.cli.output` (what is printed). ``partition-lab app`` is the dashboard's:
the command hands its arguments over to ``dashboard.server.launch`` (found by name, so that the
library imports nothing of the app), which owns the server's settings.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from .. import io as mio
from ..core import limits
from .output import _measures
from .parser import PROG, UsageError, build_parser
from .score import _COPIES, _score

__all__ = ["PROG", "UsageError", "build_parser", "main"]

#: The dashboard's module that ``partition-lab app`` hands over to (``launch(arguments)``).
APP_LAUNCHER = "dashboard.server.launch"


def _app(extra: list[str]) -> int:
    """Hand ``partition-lab app``'s arguments to the dashboard, which becomes the server."""
    try:
        launcher = importlib.import_module(APP_LAUNCHER)
    except ModuleNotFoundError as exc:
        if exc.name is None or not APP_LAUNCHER.startswith(exc.name):
            raise
        raise ImportError("the dashboard is not installed: pip install 'partition-lab[dashboard]'") from None
    return launcher.launch(extra)


# ---------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``partition-lab`` console script; returns the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    try:
        if argv and argv[0] == "app" and argv[1:2] not in (["-h"], ["--help"]):
            # Everything after `app` belongs to the dashboard's server (handed over as it is).
            args, extra = argparse.Namespace(command="app", debug=False), argv[1:]
        else:
            args, extra = parser.parse_args(argv), []
    except SystemExit as exc:  # usage error (2, one line already printed) or --help (0)
        return exc.code if isinstance(exc.code, int) else 2
    try:
        if args.command == "score":
            return _score(args)
        if args.command == "measures":
            return _measures(args)
        return _app(extra)
    except KeyboardInterrupt:
        sys.stderr.write(f"{PROG}: interrupted\n")
        return 130
    except BrokenPipeError:  # `partition-lab ... | head`
        sys.stderr.close()
        return 0
    except ImportError as exc:
        return _fail(str(exc), 1)
    except ConnectionError as exc:
        return _fail(str(exc), 1)
    except mio.MissingLabelsError as exc:
        texts = " (or leave texts out of --na-values)" if exc.na_values else ""
        return _fail(f"{exc.describe()}: add --dropna to leave those items out, or fill in the labels{texts}", 2)
    except mio.UnmatchedIdsError as exc:
        return _fail(f"{exc.describe()}: add --dropna to leave them out, or give every row a partner", 2)
    except limits.CostError as exc:
        return _fail(exc.describe("--budget SECONDS (0: no limit)"), 2)
    except (ValueError, KeyError, OSError) as exc:
        # KeyError's str() adds quotes; its message is its first argument.
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
        if isinstance(exc, OSError) and exc.filename and str(exc.filename) not in message:
            message = f"{exc.filename}: {exc.strerror or message}"
        return _fail(message, 2)
    except Exception as exc:
        if getattr(args, "debug", False):
            raise
        return _fail(f"unexpected {type(exc).__name__}: {mio._first_line(exc)} (rerun with --debug for details)", 1)


def _fail(message: str, code: int) -> int:
    line = " ".join(_COPIES.shown(str(message)).split())  # one line, whatever the exception held
    sys.stderr.write(f"{PROG}: error: {line}\n")
    return code


if __name__ == "__main__":  # pragma: no cover - `python -m metrics.cli`
    sys.exit(main())
