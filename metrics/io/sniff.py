"""What a file is: Parquet or delimited text, its encoding, delimiter and header — from its content.

The name is a hint, the content decides (:func:`sniff`):

1. gzip (magic ``1f 8b``, or a ``.gz`` name) is unpacked on the fly; Parquet inside gzip is refused
   (Parquet compresses internally).
2. ``PAR1`` at the start is Parquet, whatever the name; other binary signatures (ZIP — an Excel
   ``.xlsx`` —, old Excel ``.xls``, PDF, other compressors) and NUL bytes are refused with a
   message saying what to save instead.
3. Text: UTF-8 (with or without a byte-order mark) or UTF-16 with a byte-order mark (LE or BE)
   is decoded; anything else is refused with "save it as UTF-8" (a Latin-1 / Windows-1252 file
   is not guessed at: a wrong guess would change labels silently).
4. The delimiter is sniffed from the first lines: tab, comma or semicolon — the one that splits
   every sampled line into the same number (≥ 2) of fields, preferring the one the name implies
   (``.csv`` comma, ``.tsv``/``.tab`` tab), then tab, comma, semicolon. A file none of them
   splits has one column.

Where the content contradicts the name, :attr:`FileKind.notes` says so ("x.csv is
tab-separated: read as TSV"); interfaces show the notes.

A file that can be read only once — a pipe, ``/dev/stdin``, ``<(…)``, a FIFO — is copied once
(:func:`read_stream`, :class:`StreamCopies`) before it is sniffed and read; a FIFO no program
writes to is refused after :data:`PIPE_WAIT_S` seconds instead of blocking for ever. Among
:class:`StreamCopies`' inputs, ``-`` is standard input, read once too.
"""

from __future__ import annotations

import codecs
import csv
import gzip
import io
import os
import select
import shutil
import stat
import tempfile
import zlib

from .kinds import FileKind
from .scan import TextScan

__all__ = ["HEAD_BYTES", "PIPE_WAIT_S", "STDIN", "FileKind", "StreamCopies", "is_stream", "read_stream", "sniff"]

#: Bytes of (decompressed) content examined to decide the format, encoding and delimiter.
HEAD_BYTES = 1 << 16
#: More is read while the first line is not whole (a wide header), up to this many bytes.
MAX_HEAD_BYTES = 1 << 24
_SAMPLE_RECORDS = 200

_PARQUET_EXT = {"parquet", "pq"}
_TEXT_EXT = {"csv": ",", "tsv": "\t", "tab": "\t", "txt": None, "text": None, "dat": None, "": None}
_CANDIDATES = ("\t", ",", ";")
_DELIM_NAME = {",": "comma", "\t": "tab", ";": "semicolon"}
_FORMAT_OF = {",": "csv", "\t": "tsv", ";": "csv"}
_NOT_TABULAR_EXT = {"json": "JSON", "jsonl": "JSON lines", "ndjson": "JSON lines", "xml": "XML", "html": "HTML",
                    "htm": "HTML", "xlsx": "an Excel workbook", "xls": "an Excel workbook",
                    "ods": "an OpenDocument spreadsheet", "numbers": "a Numbers spreadsheet"}
_SAVE_AS = "save the labels as CSV (UTF-8), TSV or Parquet"
_SIGNATURES = (
    (b"PK\x03\x04", "is a ZIP archive (an Excel .xlsx or OpenDocument spreadsheet?), not CSV/TSV text or Parquet: "
                    "save it as 'CSV UTF-8' from the spreadsheet program and use that"),
    (b"PK\x05\x06", "is an empty ZIP archive, not CSV/TSV text or Parquet: " + _SAVE_AS),
    (b"PK\x07\x08", "is a ZIP archive, not CSV/TSV text or Parquet: extract the file first"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "is an old Excel (.xls) or other Office file, not CSV/TSV text: "
                                          "save it as 'CSV UTF-8' from the spreadsheet program and use that"),
    (b"BZh", "is compressed with bzip2: only gzip (.gz) is read; decompress it first"),
    (b"\xfd7zXZ\x00", "is compressed with xz: only gzip (.gz) is read; decompress it first"),
    (b"7z\xbc\xaf\x27\x1c", "is a 7-Zip archive: extract the file first"),
    (b"(\xb5/\xfd", "is compressed with zstd: only gzip (.gz) is read; decompress it first"),
    (b"%PDF", "is a PDF document, not a data file: " + _SAVE_AS),
    (b"ARROW1", "is an Arrow/Feather file: save it as Parquet (df.to_parquet) and use that"),
    (b"\x93NUMPY", "is a NumPy .npy file: save the labels as CSV or Parquet"),
    (b"\x89HDF", "is an HDF5 file: save the labels as CSV or Parquet"),
)


def _ext(name: str) -> tuple[str, bool]:
    """The lower-case extension after removing ``.gz``, and whether ``.gz`` was there."""
    base = os.path.basename(name).lower()
    gz = base.endswith(".gz")
    if gz:
        base = base[:-3]
    stem, dot, ext = base.rpartition(".")
    return (ext if dot and stem else ""), gz


def _open(source):
    return io.BytesIO(source) if isinstance(source, (bytes, bytearray, memoryview)) else open(source, "rb")


def _first_line_complete(head: bytes) -> bool:
    """Whether ``head`` holds a whole first line: a line end outside quoted cells."""
    quotes = 0
    for part in head.replace(b"\r", b"\n").split(b"\n")[:-1]:
        quotes += part.count(b'"')
        if quotes % 2 == 0:
            return True
    return False


def _read_head(f) -> tuple[bytes, bool]:
    """(first HEAD_BYTES of ``f``, or more — up to MAX_HEAD_BYTES — until the first line is whole;
    whether that is all of it). A header of 12,000 columns is longer than HEAD_BYTES: cut, its last
    name would be a fragment (``c10`` of ``c10234``), and a false duplicate."""
    head = f.read(HEAD_BYTES + 1)
    size = HEAD_BYTES
    utf16 = head.startswith((b"\xff\xfe", b"\xfe\xff"))
    if head.startswith(b"PAR1") or (b"\x00" in head and not utf16):  # Parquet, or binary: no lines to complete
        return head[:size], len(head) <= size
    while len(head) > size and size < MAX_HEAD_BYTES and not _first_line_complete(head[:size]):
        more = f.read(size)
        head += more
        size *= 2
    return head[:size], len(head) <= size


def _head(source, name: str) -> tuple[bytes, bool, bool]:
    """(the first bytes of the content — at least HEAD_BYTES, and the whole first line —, whether
    that is all of it, whether it was gzip-compressed)."""
    with _open(source) as f:
        raw = f.read(2)
        f.seek(0)
        if raw[:2] != b"\x1f\x8b":
            head, whole = _read_head(f)
            return head, whole, False
        try:
            with gzip.GzipFile(fileobj=f) as z:
                head, whole = _read_head(z)
        except (OSError, EOFError, zlib.error) as exc:
            raise ValueError(f"{name} is not a readable gzip file ({exc}): decompress it, or export it "
                             "again") from None
    return head, whole, True


def _decode(head: bytes, whole: bool, name: str) -> tuple[str, str]:
    """(encoding, decoded sample) or a ValueError saying to save as UTF-8."""
    if head.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        raise ValueError(f"{name} is UTF-32 text: save it as UTF-8 and use that")
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        encoding = "utf-16"
    elif head.startswith(codecs.BOM_UTF8):
        encoding = "utf-8-sig"
    else:
        encoding = "utf-8"
        if b"\x00" in head:
            even, odd = head[0::2], head[1::2]
            if odd.count(0) > 0.4 * len(odd) or even.count(0) > 0.4 * len(even):
                raise ValueError(f"{name} looks like UTF-16 text without a byte-order mark: save it as UTF-8 "
                                 "(or as UTF-16 with a byte-order mark) and use that")
            raise ValueError(f"{name} holds binary data, not CSV/TSV text or Parquet: {_SAVE_AS}")
    decoder = codecs.getincrementaldecoder(encoding)("strict")
    try:
        text = decoder.decode(head, final=whole)
    except UnicodeDecodeError as exc:
        bad = head[exc.start:exc.start + 1].hex()
        if encoding == "utf-16":
            raise ValueError(f"{name} is not valid UTF-16 text (at byte {exc.start:,}): save it as UTF-8 "
                             "and use that") from None
        if _binary_looking(head):
            raise ValueError(f"{name} holds binary data, not CSV/TSV text or Parquet: {_SAVE_AS}") from None
        raise ValueError(f"{name} is not UTF-8 text (byte 0x{bad} at position {exc.start:,} is not UTF-8; "
                         "Latin-1 or Windows-1252?): save it as UTF-8 (in Excel: 'CSV UTF-8') and use that") from None
    if _binary_looking(text):
        raise ValueError(f"{name} holds binary data, not CSV/TSV text or Parquet: {_SAVE_AS}")
    return encoding, text


def _binary_looking(sample) -> bool:
    """Control characters other than tab/CR/LF/FF in more than 1 % of the sample."""
    if isinstance(sample, bytes):
        controls = sum(sample.count(bytes([c])) for c in range(32) if c not in (9, 10, 12, 13))
        return controls > 0.01 * max(len(sample), 1)
    controls = sum(1 for ch in sample[:HEAD_BYTES] if ord(ch) < 32 and ch not in "\t\n\r\f")
    return controls > 0.01 * max(len(sample), 1)


def _records(text: str, delimiter: str, whole: bool) -> list[list[str]]:
    """The first records of the sample (blank lines skipped, a cut last line dropped)."""
    if not whole:
        cut = text.rfind("\n")
        text = text[:cut + 1] if cut >= 0 else text
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, quotechar='"', doublequote=True,
                        strict=False)
    out = []
    try:
        for record in reader:
            # Blank lines are no records, nor are lines of only spaces and tabs (pandas and the
            # reader's scan skip them before the header as anywhere else).
            if record and not (len(record) == 1 and not record[0].strip(" \t")):
                out.append(record)
            if len(out) >= _SAMPLE_RECORDS:
                break
    except csv.Error:
        pass  # an odd quote in the sample: judge by what was read
    return out


def _delimiter(text: str, whole: bool, hint: str | None) -> tuple[str, bool]:
    """(delimiter, whether it was clear from the content)."""
    fits = {}
    for d in _CANDIDATES:
        recs = _records(text, d, whole)
        if recs and len(recs[0]) >= 2:
            width = len(recs[0])
            agree = sum(len(r) == width for r in recs) / len(recs)
            if agree >= 0.9:
                fits[d] = agree
    if fits:
        ordered = sorted(fits, key=lambda d: (d != hint, -fits[d], _CANDIDATES.index(d)))
        return ordered[0], True
    if hint is not None:
        return hint, False
    first = text.split("\n", 1)[0]
    counts = {d: first.count(d) for d in _CANDIDATES}
    best = max(_CANDIDATES, key=lambda d: (counts[d], d == ","))
    return (best if counts[best] else ","), False


def sniff(source, name: str | None = None) -> FileKind:
    """Decide how to read ``source`` (a path, or the file's bytes with its ``name``).

    Raises ``ValueError`` with the reason and what to do for empty, binary, spreadsheet and
    non-UTF files; ``FileNotFoundError`` for a path that does not exist.
    """
    if name is None:
        name = "the file" if isinstance(source, (bytes, bytearray, memoryview)) else os.fspath(source)
    ext, gz_name = _ext(name)
    head, whole, gz = _head(source, name)
    if not head:
        raise ValueError(f"{name} is empty: use a file with one row per item")
    if head.startswith(b"PAR1"):
        if gz:
            raise ValueError(f"{name} is a gzip-compressed Parquet file: Parquet compresses internally; "
                             "decompress it (gunzip) and use the .parquet file")
        said = () if ext in _PARQUET_EXT else (f"{name} holds Parquet data, not text: read as Parquet",)
        return FileKind(name, "parquet", whole=whole, notes=said)
    for magic, message in _SIGNATURES:
        if head.startswith(magic):
            raise ValueError(f"{name} {message}")
    if ext in _NOT_TABULAR_EXT and ext not in ("xlsx", "xls", "ods"):
        stripped = head.lstrip()[:1]
        if stripped in (b"{", b"[", b"<"):
            raise ValueError(f"{name} is {_NOT_TABULAR_EXT[ext]}, not a table: {_SAVE_AS}")
    encoding, text = _decode(head, whole, name)
    if not whole and not _first_line_complete(head):
        quote = " — or a quote that opens a cell in it is never closed" if b'"' in head else ""
        raise ValueError(f"{name}: its first line does not end within {MAX_HEAD_BYTES // 2**20} MiB{quote}: is it a "
                         f"table? {_SAVE_AS}")
    lead = text.lstrip()[:64].lower()
    if lead.startswith(("<!doctype html", "<html", "<?xml")):
        raise ValueError(f"{name} is an HTML/XML document (a web page saved instead of the data file?): {_SAVE_AS}")
    if not text.strip():
        raise ValueError(f"{name} holds only blank space: use a file with one row per item")
    notes: list[str] = []
    if ext in _PARQUET_EXT:
        notes.append(f"{name} holds text, not Parquet: read as delimited text")
    hint = _TEXT_EXT.get(ext)
    delimiter, clear = _delimiter(text, whole, hint)
    if clear and hint is not None and delimiter != hint:
        what = {"\t": "TSV", ",": "CSV", ";": "CSV with ';'"}[delimiter]
        notes.append(f"{name} is {_DELIM_NAME[delimiter]}-separated, not {_DELIM_NAME[hint]}-separated as its name "
                     f"says: read as {what}")
    elif delimiter == ";" and clear:
        notes.append(f"{name} is semicolon-separated: read with ';' as the delimiter")
    if ext not in _TEXT_EXT and ext not in _PARQUET_EXT:
        notes.append(f"{name} holds {_DELIM_NAME[delimiter]}-separated text: read as "
                     f"{_FORMAT_OF[delimiter].upper()} despite its .{ext} name")
    if gz and not gz_name:
        notes.append(f"{name} is gzip-compressed: decompressed while reading")
    recs = _records(text, delimiter, whole)
    first = tuple(recs[0]) if recs else ("",)
    if whole:
        # The whole file is in hand: the scan every engine runs (metrics.io.scan) refuses broken
        # quoting, ragged lines and non-UTF-8 bytes now, before a column name taken from a broken
        # first line ("gold,pred\na,x" under an unclosed quote) makes another message.
        scan = TextScan(name, delimiter, len(first), False)
        scan.feed(text.encode("utf-8"))
        scan.finish()
    return FileKind(name, _FORMAT_OF[delimiter], delimiter, encoding, "gzip" if gz else None, first,
                    len(recs), whole, tuple(notes))


# ---------------------------------------------------------------------- files that can be read only once
# The reader looks at a file twice (the sniff reads its start, then an engine parses it whole), and
# so does the command line (its columns, then the table). A regular file reads the same each time;
# a pipe gives its bytes to the first reading and nothing to the second, so `partition-lab score
# /dev/stdin` said the input was empty. Such a file is copied once (read_stream) and the copy read.

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
                                 "writes to?): start the program that writes it, or save the data to a file and "
                                 "give that")
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


#: The name of standard input among the inputs (``partition-lab score - …``); a file named ``-``
#: is given as ``./-``.
STDIN = "-"
#: How messages name standard input.
STDIN_SHOWN = "standard input (-)"


class StreamCopies:
    """A temporary folder of copies of the pipes among some inputs (``with StreamCopies() as c``):
    :meth:`of` gives a path that can be read as often as needed, :meth:`shown` names each copy
    in a text as the user named the pipe. The folder goes when the ``with`` block ends."""

    def __init__(self) -> None:
        self.shown_as: dict[str, str] = {}
        self._folder: str | None = None

    def __enter__(self) -> StreamCopies:
        self._folder = tempfile.mkdtemp(prefix="partition-lab-input-")
        return self

    def __exit__(self, *exc) -> None:
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)

    def of(self, path: str | None) -> str | None:
        """``path`` itself, or a copy of it when it is a pipe or a device (:func:`is_stream`), or
        when it is ``-``: standard input (:data:`STDIN`), which only one input may name."""
        if path == STDIN:
            return self._of_stdin()
        if path is None or not is_stream(path):
            return path
        copy = self._new_copy(os.path.basename(path) or "input")  # the name stays a solution's name
        with open(copy, "wb") as sink:
            read_stream(path, sink)
        self.shown_as[copy] = path
        return copy

    def _new_copy(self, name: str) -> str:
        assert self._folder is not None, "StreamCopies is used in a with block"
        folder = os.path.join(self._folder, str(len(self.shown_as)))
        os.mkdir(folder)
        return os.path.join(folder, name)

    def _of_stdin(self) -> str:
        # Whatever standard input is (a pipe, a redirected file, a socket), it is read once, from
        # its current position: reopening /dev/stdin would restart a redirected file and fail on a
        # socket. A terminal is refused: the command would wait for typed CSV.
        if STDIN_SHOWN in self.shown_as.values():
            raise ValueError("standard input (-) can be read only once: give '-' for one input only")
        try:
            terminal = os.isatty(0)
        except OSError:
            terminal = False
        if terminal:
            raise ValueError("'-' reads standard input, which is a terminal here: pipe the data in "
                             "(… | partition-lab score -) or give a file")
        copy = self._new_copy("stdin")  # a solution read from standard input is named "stdin"
        try:
            with open(0, "rb", closefd=False) as source, open(copy, "wb") as sink:
                shutil.copyfileobj(source, sink, 1 << 20)
        except OSError as exc:
            raise ValueError(f"standard input (-) cannot be read: {exc.strerror or exc}") from None
        self.shown_as[copy] = STDIN_SHOWN
        return copy

    def shown(self, text: str) -> str:
        for copy, given in self.shown_as.items():
            text = text.replace(copy, given)
        return text
