"""The dashboard's server: ``partition-lab app`` hands over to :mod:`~dashboard.server.launch`, which
runs :mod:`~dashboard.server.serve` (libraries preloaded, frontend files from memory, idle
sessions shut down) with the options of :mod:`~dashboard.server.settings`; :mod:`~dashboard.server.warm`
fills the heavy pages' shared caches before the first request, and :mod:`~dashboard.server.process`
sets what holds once per server process (one BLAS thread).
"""
