"""Settings of the server process, applied once, when ``dashboard/app.py`` first imports this module.

**One BLAS thread.** NumPy and SciPy each ship OpenBLAS, which by default starts a thread per core
for every matrix product large enough and keeps them spinning while they wait for work. A Streamlit
server already runs one script thread per session; on the small servers the app is meant for, the
spinning threads burned several times the CPU of the work itself (the Fuzzy lab's dissimilarity
products; benchmarks/bench_dashboard.py measures the server's CPU, docs/performance.md has the
figures). Concurrent sessions are the parallelism a server needs.

**No "run it with streamlit run" check.** Before the first element of the process, Streamlit checks
whether it runs in a Python REPL, to print a hint; the check is ``inspect.stack()``, which reads the
source of every frame on the stack: a noticeable share of the first page load's CPU after a start.
This module is only imported by ``dashboard/app.py`` under ``streamlit run``, where the hint never
applies; marking it shown skips the check (a no-op should the private flag go in a later Streamlit).

(The other server-wide setting, no forced garbage collection after every script run, is a Streamlit
option: ``runner.postScriptGC`` in ``.streamlit/config.toml``.)
"""

from __future__ import annotations

# Load both OpenBLAS copies (NumPy's, and SciPy's through scipy.linalg) before limiting them:
# threadpoolctl limits the libraries loaded at the time of the call. Every page imports both anyway.
import numpy  # noqa: F401
import scipy.linalg  # noqa: F401
from streamlit import delta_generator
from threadpoolctl import threadpool_limits

threadpool_limits(limits=1, user_api="blas")

if hasattr(delta_generator, "_use_warning_has_been_displayed"):
    delta_generator._use_warning_has_been_displayed = True
