"""Files that can be read only once — pipes, FIFOs, ``/dev/stdin``, ``<(…)`` — read once, safely.

The reader looks at a file twice (the sniff reads its start, then an engine parses it whole), and
so does the command line (its columns, then the table). A regular file reads the same each time;
a pipe gives its bytes to the first reading and nothing to the second, so ``partition-lab score
/dev/stdin`` said the input was empty. Such a file is copied once (:func:`read_stream`) and the
copy is read; a FIFO nobody writes to, which would block an ``open`` for ever, is refused after
:data:`PIPE_WAIT_S` seconds of silence.
"""

from __future__ import annotations

import os
import select
import stat

__all__ = ["PIPE_WAIT_S", "is_stream", "read_stream"]

#: Seconds a pipe (``/dev/stdin``, ``<(…)``, a FIFO) may stay silent before its first byte.
PIPE_WAIT_S = 30.0


def is_stream(path) -> bool:
    """Whether ``path`` names something that can be read only once: a pipe, a FIFO, a terminal or
    another device (``/dev/stdin``, ``<(…)``), not a regular file. Such a file read twice (the
    sniff, then the parse) gave its content to the first reading and nothing to the second."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def read_stream(path, sink, *, limit: int | None = None, wait: float | None = None) -> int:
    """Copy a pipe, FIFO or device (:func:`is_stream`) into ``sink`` (a binary file), once; the bytes
    copied. A FIFO that no program writes to would block an ``open`` for ever: it is opened without
    waiting, and refused after ``wait`` seconds (default :data:`PIPE_WAIT_S`) without a byte.
    ``limit``: refuse more bytes."""
    path = os.fspath(path)
    wait = PIPE_WAIT_S if wait is None else wait
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    device = stat.S_ISCHR(os.fstat(fd).st_mode)
    total, started = 0, False
    try:
        poller = select.poll()
        poller.register(fd, select.POLLIN | select.POLLHUP)
        while True:
            events = poller.poll(None if started else int(wait * 1000))
            if not events:
                raise ValueError(f"{path}: nothing was written to it in {wait:g} s (a pipe or FIFO that no program "
                                 "writes to?): start the program that writes it, or save the data to a file and give "
                                 "that")
            started = True
            try:
                data = os.read(fd, 1 << 20)
            except BlockingIOError:
                continue
            if not data:
                if device or any(ev & select.POLLHUP for _, ev in events):
                    return total  # the writer is done
                continue
            total += len(data)
            if limit is not None and total > limit:
                raise ValueError(f"{path} holds more than {limit / 2**20:,.0f} MB: save it to a file and give that")
            sink.write(data)
    finally:
        os.close(fd)
