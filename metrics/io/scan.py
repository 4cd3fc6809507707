"""An independent pass over a delimited text file: its records, its quoting, its size.

pandas and DuckDB parse CSV with their own parsers, and where a file breaks the rules they break
differently: pandas reads a quote closed by a letter (``"a"b``) as ``ab`` where DuckDB refuses the
line, and DuckDB's single-threaded reader drops an unterminated quoted cell and everything after it
without a word (a stray ``"`` on line 3,000,002 of 6,000,000 lost half the rows). So the reader
checks the file itself, with one set of rules for every engine (:class:`TextScan`), and refuses
what breaks them in one set of words:

* **Quoting** (RFC 4180): a cell that starts with ``"`` is quoted; inside it ``""`` is a quote and a
  line break is part of the cell; it ends at a ``"`` followed by the delimiter, a line break or the
  end of the file. Refused, naming the line: a quote that is never closed; text right after a
  closing quote (``"a"b``); a quote inside a cell that does not start with one (``5" disk``:
  quote the cell, ``"5"" disk"``). No engine guesses what such a cell means.
* **Records**: lines end with LF, CRLF or CR (outside quoted cells). With two or more columns, a
  line that is empty or holds only spaces and tabs is skipped; with one column every line is an
  item (an empty one has an empty, missing, label). :attr:`TextLayout.records` is the number of
  data rows every engine must read — the DuckDB engine checks its count against it, so no row is
  lost silently.
* **Bytes**: UTF-8 throughout and no NUL byte (binary data, as the sniff finds it in the first
  bytes; pandas before 3.1 cut a cell at one where DuckDB kept it), refused naming the line.
* **Size**: :attr:`TextLayout.content_bytes` counts the text after decompression; ``limit`` stops
  a file that expands beyond it (a gzip bomb) with :class:`ContentTooLargeError` as soon as it
  does, before the rest is decompressed.

The pass is vectorised with NumPy over blocks of the stream, so it can run beside any engine: fed
by the stream pandas parses (:func:`metrics.io.read.read_text_raw`), or on its own before DuckDB
scans the file (:func:`scan_text`).
"""

from __future__ import annotations

import codecs
import gzip
import io
import os
import zlib
from dataclasses import dataclass

import numpy as np

from .kinds import FileKind

__all__ = ["ContentTooLargeError", "TextLayout", "TextScan", "content_size", "open_content", "scan_text"]

#: Bytes read per block when a file is scanned on its own.
BLOCK_BYTES = 1 << 23
_QUOTE, _LF, _CR = ord('"'), ord("\n"), ord("\r")
_EDGE = 256  # the "byte" before the start and after the end of the file
_SNIPPET = 24
_FEW = 64  # blank-looking records checked one by one; more: through one running count
_NO_INT = np.empty(0, dtype=np.int64)


class ContentTooLargeError(ValueError):
    """A file whose text (after decompression; a Parquet file's cells as text) exceeds the limit it
    is read under. ``how``: ``"gzip"``, ``"text"`` or ``"parquet"``."""

    def __init__(self, name: str, limit: int, how: str = "text"):
        self.name, self.limit, self.how = name, int(limit), how
        what = {"gzip": "expands to more than {} MB of text when decompressed",
                "parquet": "holds more than {} MB of cells (as text)"}.get(how, "holds more than {} MB of text")
        super().__init__(f"{name} {what.format(_mb(limit))}, the most that is read here: use a sample, or count the "
                         f"whole file with the command line (partition-lab score {os.path.basename(name)}), which "
                         "reads big files with DuckDB without loading them")


def _mb(n: int) -> str:
    value = n / 2**20
    return f"{value:,.0f}" if value >= 10 or value == int(value) else f"{value:,.3g}"


@dataclass(frozen=True)
class TextLayout:
    """What :class:`TextScan` found: the facts every engine's reading must agree with.

    ``records``: data rows (the header excluded when the file has one); ``content_bytes``: bytes of
    text (decompressed, as UTF-8); ``longest_record``: bytes of the longest record (line breaks in
    quoted cells included); ``line_endings``: the kinds of line end outside quoted cells
    (``"\\n"``, ``"\\r\\n"``, ``"\\r"``); ``quoted_line_breaks``: whether a quoted cell holds a line
    break; ``white_lines``: lines of only spaces and tabs that were skipped (two or more columns);
    ``leading_blank_lines``: blank lines before the first record (two or more columns: skipped).
    """

    records: int
    content_bytes: int
    longest_record: int
    line_endings: frozenset
    quoted_line_breaks: bool
    white_lines: int = 0
    leading_blank_lines: int = 0

    @property
    def mixed_line_endings(self) -> bool:
        return len(self.line_endings) > 1


class TextScan:
    """The rules of the module docstring, checked on a stream fed block by block.

    ``delimiter`` and ``width`` (columns of the first record) come from the sniff; ``header``
    whether the first record names the columns. :meth:`feed` takes the content as UTF-8 bytes
    (a leading byte-order mark is skipped); :meth:`finish` returns the :class:`TextLayout` or raises
    ``ValueError`` naming the line of the first broken rule (those found in a block are raised by
    :meth:`feed` at once).
    """

    def __init__(self, name: str, delimiter: str, width: int, header: bool, limit: int | None = None,
                 compressed: bool = False, sink=None):
        self.name, self.header, self.limit, self.compressed = name, header, limit, compressed
        self.sink = sink  # a binary file that receives the content with LF line ends (or None)
        delim = self._delim = ord(delimiter)
        self.width = width
        self.multi = width > 1
        blank = np.zeros(256, dtype=bool)
        blank[[ord(" "), ord("\t"), _CR, _LF]] = True
        blank[delim] = False  # a tab that separates cells is not blank space
        self._blank = blank
        self._spacey = blank.copy()
        self._spacey[[_CR, _LF]] = False
        ends_field = np.zeros(_EDGE + 1, dtype=bool)
        ends_field[[delim, _LF, _CR, _EDGE]] = True
        self._field_edge = ends_field  # the bytes that may stand before an opening / after a closing quote
        self._quote_side = ends_field[:256] | (np.arange(256) == _QUOTE)  # … or a quote that doubles it
        self.total = 0           # content bytes examined
        self.quotes = 0          # quotes examined (their parity: inside a quoted cell or not)
        self.lines = 0           # physical line ends examined (for messages)
        self.records = 0         # records ended (with content, or any with one column)
        self.longest = 0
        self.endings: set[str] = set()
        self.quoted_breaks = False
        self.open_line = 0       # the line of the last quote that opened a cell
        self._held = b""         # the last byte fed (its right-hand neighbour is not known yet)
        self._tail = b""         # the bytes before the next block (context for messages)
        self._last = _EDGE       # the byte before the next block
        self._record_start = 0   # where the open record began (global position)
        self._record_content = False
        self._record_white = False
        self.white_lines = 0     # lines (two or more columns) of only spaces and tabs: skipped
        self.leading_blank_lines = 0  # (two or more columns) blank lines before the first record
        self._record_delims = 0  # delimiters (outside quoted cells) of the open record so far
        self._record_line = 1    # the line the open record starts on
        self._utf8 = codecs.getincrementaldecoder("utf-8")("strict")
        self._bom_checked = False

    # ------------------------------------------------------------------ feeding
    def feed(self, data: bytes) -> None:
        data = bytes(data)
        self._check_utf8(data)
        self._check_nul(data)
        data = self._held + data
        self._held = b""
        if not self._bom_checked:
            if len(data) < 3 and b"\xef\xbb\xbf".startswith(data):
                self._held = data  # too short to tell yet
                return
            self._bom_checked = True
            if data.startswith(b"\xef\xbb\xbf"):
                data = data[3:]
        if data:
            self._held = data[-1:]
            self._block(data[:-1], data[-1])

    def finish(self) -> TextLayout:
        self._check_utf8(b"", final=True)
        data = self._held
        self._held = b""
        if not self._bom_checked and data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
        self._bom_checked = True
        self._block(data, _EDGE)
        length = self.total - self._record_start
        self.longest = max(self.longest, length)
        # The last line has no line end; it is a record when it holds something (one column: any
        # text at all; an empty "line" after the final line break is none).
        if length > 0 and (self._record_content or not self.multi):
            self.records += 1
            self._check_width(np.array([self._record_delims]), np.array([self._record_line]))
        elif length > 0 and self._record_white:
            self.white_lines += 1
        if self.quotes % 2:
            raise ValueError(f"{self.name}: the quote that opens a cell on line {self.open_line:,} is never closed "
                             "(everything after it would be one cell, up to the end of the file): close it, or "
                             "remove it")
        records = self.records - (1 if self.header and self.records else 0)
        return TextLayout(records, self.total, self.longest, frozenset(self.endings), self.quoted_breaks,
                          self.white_lines, self.leading_blank_lines)

    def _line_at(self, data: bytes, at: int) -> int:
        """The line (from 1) of byte ``at`` of the block ``data`` about to be fed."""
        before = self._held + data[:at]
        return self.lines + before.count(b"\n") + before.count(b"\r") - before.count(b"\r\n") + 1

    def _check_nul(self, data: bytes) -> None:
        """Refuse a NUL byte anywhere, as the sniff does in the first bytes: the engines disagree on it
        (pandas before 3.1 cuts a cell at it, so ``b<NUL>`` and ``b`` became one label; DuckDB keeps it)."""
        at = data.find(b"\x00")
        if at >= 0:
            raise ValueError(f"{self.name} holds binary data, not CSV/TSV text (a NUL byte on line "
                             f"{self._line_at(data, at):,}): save the labels as CSV (UTF-8), TSV or Parquet")

    def _check_utf8(self, data: bytes, final: bool = False) -> None:
        try:
            self._utf8.decode(data, final=final)
        except UnicodeDecodeError as exc:
            line = self._line_at(data, exc.start)
            bad = data[exc.start:exc.start + 1] or b"?"
            raise ValueError(f"{self.name} is not UTF-8 text throughout (byte 0x{bad.hex()} on line {line:,} is not "
                             "UTF-8; Latin-1 or Windows-1252?): save it as UTF-8 (in Excel: 'CSV UTF-8') and use "
                             "that") from None

    def _check_width(self, delims: np.ndarray, lines: np.ndarray) -> None:
        """Refuse the first record with more cells than the first line (``delims`` per record)."""
        long = np.flatnonzero(delims + 1 > self.width)
        if long.size:
            i = int(long[0])
            what = {"\t": "tabs", ",": "commas", ";": "semicolons"}.get(chr(self._delim), "delimiters")
            raise ValueError(f"{self.name}: line {int(lines[i]):,} has {int(delims[i]) + 1:,} fields where the "
                             f"first line has {self.width:,} (a ragged file): every line needs the same number of "
                             f"{what}")

    # ------------------------------------------------------------------ one block
    def _block(self, block: bytes, after: int) -> None:
        """Examine ``block``; ``after`` is the byte that follows it (``_EDGE``: the end of the file)."""
        start = self.total
        self.total += len(block)
        if self.limit is not None and self.total > self.limit:
            raise ContentTooLargeError(self.name, self.limit, "gzip" if self.compressed else "text")
        if not block:
            return
        arr = np.frombuffer(block, dtype=np.uint8)
        n = arr.size
        lf = np.flatnonzero(arr == _LF)
        has_cr = b"\r" in block
        if has_cr:
            cr = np.flatnonzero(arr == _CR)
            nxt = _neighbour(arr, cr + 1, after)  # a CR right before an LF belongs to that line end
            lone_cr = cr[nxt != _LF]
            ends = np.sort(np.concatenate([lf, lone_cr])) if lone_cr.size else lf
        else:
            lone_cr, ends = _NO_INT, lf
        quoted = None  # for each byte, whether it lies inside a quoted cell (None: none does)
        if b'"' in block:
            quotes = np.flatnonzero(arr == _QUOTE)
            self._check_quotes(arr, quotes, after, ends)
            # Inside a quoted cell: an odd number of quotes before (a running count modulo 256
            # keeps the parity).
            quoted = ((np.cumsum(arr == _QUOTE, dtype=np.uint8) & 1) ^ (self.quotes & 1)).astype(bool)
            inside = quoted[ends]
            outside = ends[~inside]
            self.quoted_breaks |= bool(inside.any())
            self.quotes += int(quotes.size)
        elif self.quotes % 2:  # the whole block is inside a quoted cell
            quoted = np.ones(n, dtype=bool)
            outside = _NO_INT
            self.quoted_breaks |= bool(ends.size)
        else:
            outside = ends
        if self.sink is not None:
            self._write_plain(arr, cr[nxt == _LF] if has_cr else _NO_INT, lone_cr, quoted)
        self._count_cells(arr, block, outside, ends, quoted)
        self.lines += int(ends.size)
        if outside.size:
            self._note_endings(arr, outside, has_cr)
            self._count_records(arr, outside, start)
        else:
            self._record_content = self._record_content or not self._blank[arr].all()
            self._record_white = self._record_white or bool(self._spacey[arr].any())
        self._last = int(arr[-1])
        self._tail = (self._tail + block)[-_SNIPPET:]

    def _count_cells(self, arr, block: bytes, outside, ends, quoted) -> None:
        """Delimiters outside quoted cells per record ending here: a record with more cells than the
        first line is refused (pandas and DuckDB refuse it too, in their words and line counts)."""
        if bytes([self._delim]) in block:
            delims = np.flatnonzero(arr == self._delim)
            if quoted is not None:
                delims = delims[~quoted[delims]]
        else:
            delims = _NO_INT
        if not outside.size:
            self._record_delims += int(delims.size)
            return
        upto = np.searchsorted(delims, outside)
        per = np.diff(upto, prepend=0)
        per[0] += self._record_delims
        # The line each record starts on: the open record's, then the line after each record's end.
        starts = self.lines + np.searchsorted(ends, outside, side="right") + 1
        lines = np.concatenate([[self._record_line], starts[:-1]])
        self._check_width(per, lines)
        self._record_delims = int(delims.size - upto[-1])
        self._record_line = int(starts[-1])

    def _write_plain(self, arr, crlf_cr, lone_cr, quoted) -> None:
        """Write the block to :attr:`sink` with every line end outside quoted cells as LF."""
        if quoted is not None:
            crlf_cr, lone_cr = crlf_cr[~quoted[crlf_cr]], lone_cr[~quoted[lone_cr]]
        if not (crlf_cr.size or lone_cr.size):
            self.sink.write(arr.tobytes())
            return
        out = arr.copy()
        out[lone_cr] = _LF
        self.sink.write(np.delete(out, crlf_cr).tobytes())

    def _note_endings(self, arr, outside, has_cr: bool) -> None:
        if not has_cr:  # LF only, unless the block before ended with the CR of this LF
            crlf_first = outside[0] == 0 and self._last == _CR
            self.endings.add("\r\n" if crlf_first else "\n")
            if crlf_first and outside.size > 1:
                self.endings.add("\n")
            return
        is_lf = arr[outside] == _LF
        if not is_lf.all():
            self.endings.add("\r")
        lf_ends = outside[is_lf]
        if lf_ends.size:
            crlf = _neighbour(arr, lf_ends - 1, self._last) == _CR  # the byte before each LF
            if crlf.any():
                self.endings.add("\r\n")
            if not crlf.all():
                self.endings.add("\n")

    def _count_records(self, arr, outside, start: int) -> None:
        """Count the records that end in this block (at the line ends ``outside`` quoted cells)."""
        k = outside.size
        first = int(outside[0])
        # Record lengths, line end included: the first continues the record open before the block.
        longest = start + first + 1 - self._record_start
        if k > 1:
            longest = max(longest, int(np.diff(outside).max()))
        self.longest = max(self.longest, longest)
        blank = 0
        if self.multi:
            # A record is blank when every byte of it is (spaces, tabs, the line end). Only a
            # record whose first byte is blank can be: those few are checked one by one. A blank
            # record with a space or a tab in it is a "white line" (DuckDB reads it as a row).
            head = arr[:first + 1]
            blanks = []  # the blank records' indices in this block
            if not self._record_content and self._blank[head].all():
                blanks.append(0)
                self.white_lines += int(self._record_white or bool(self._spacey[head].any()))
            if k > 1:
                starts = outside[:-1] + 1
                maybe = np.flatnonzero(self._blank[arr[starts]])
                if maybe.size > _FEW:
                    counts = np.concatenate([[0], np.cumsum(~self._blank[arr], dtype=np.int32)])
                    empty = maybe[counts[outside[maybe + 1] + 1] - counts[starts[maybe]] == 0]
                else:
                    empty = np.array([j for j in maybe if self._blank[arr[starts[j]:outside[j + 1] + 1]].all()],
                                     dtype=np.int64)
                blanks.extend((empty + 1).tolist())
                self.white_lines += int(self._spacey[arr[starts[empty]]].sum())
            blank = len(blanks)
            if self.records == 0:  # blank lines before the first line with text (the header)
                run = 0
                while run < blank and blanks[run] == run:
                    run += 1
                self.leading_blank_lines += run
        self.records += k - blank
        self._record_start = start + int(outside[-1]) + 1
        tail = arr[int(outside[-1]) + 1:]
        self._record_content = bool(tail.size) and not self._blank[tail].all()
        self._record_white = bool(tail.size) and bool(self._spacey[tail].any())

    def _check_quotes(self, arr, quotes, after: int, ends) -> None:
        # Quotes alternate: the first one here opens a cell when an even number came before.
        first = self.quotes % 2
        opens, closes = quotes[first::2], quotes[1 - first::2]
        # An opening quote must start a cell, or follow the quote it doubles; a closing one must
        # end a cell, or stand before the quote that doubles it.
        ok_open = self._quote_side[arr[np.maximum(opens - 1, 0)]]
        if opens.size and opens[0] == 0:
            ok_open[0] = self._field_edge[self._last] or self._last == _QUOTE
        ok_close = self._quote_side[arr[np.minimum(closes + 1, arr.size - 1)]]
        if closes.size and closes[-1] == arr.size - 1:
            ok_close[-1] = self._field_edge[after] or after == _QUOTE
        bad_open = opens[~ok_open][:1]
        bad_close = closes[~ok_close][:1]
        if bad_open.size or bad_close.size:
            is_open = not bad_close.size or (bad_open.size and bad_open[0] < bad_close[0])
            pos = int(bad_open[0] if is_open else bad_close[0])
            line = self.lines + int(np.searchsorted(ends, pos)) + 1
            following = int(arr[pos + 1]) if pos + 1 < arr.size else after
            near = self._snippet(arr[max(0, pos - _SNIPPET):pos].tobytes(), following)
            if is_open:
                raise ValueError(f"{self.name}: line {line:,} has a quote inside a cell that does not start with one "
                                 f"(near {near}): put the whole cell in quotes and double the quote in it "
                                 '("5"" disk"), or remove it')
            raise ValueError(f"{self.name}: line {line:,} has text right after the quote that closes a cell "
                             f"(near {near}): put the whole cell in quotes and double the quotes in it "
                             '("say ""hi"""), or remove them')
        if opens.size:
            self.open_line = self.lines + int(np.searchsorted(ends, int(opens[-1]))) + 1

    def _snippet(self, preceding: bytes, following: int) -> str:
        """The quote at ``pos`` with what precedes it on its line (a few characters) and the
        character after it: the same text however the stream was cut into blocks."""
        before = (self._tail + preceding)[-_SNIPPET // 2:]
        before = before[max(before.rfind(b"\n"), before.rfind(b"\r")) + 1:]
        text = before + b'"' + (bytes([following]) if following < _EDGE and following not in (_LF, _CR) else b"")
        return repr(text.decode("utf-8", errors="replace").lstrip("\ufffd"))


def _neighbour(arr, positions, outside: int) -> np.ndarray:
    """``arr[positions]`` as int, with ``outside`` where a position falls off either end."""
    inner = (positions >= 0) & (positions < arr.size)
    return np.where(inner, arr[np.clip(positions, 0, arr.size - 1)].astype(np.int32), np.int32(outside))


# ---------------------------------------------------------------------- a file, on its own
class _Utf8FromUtf16(io.RawIOBase):
    """UTF-16 bytes in, the same text as UTF-8 bytes out (the byte-order mark dropped)."""

    def __init__(self, inner):
        self.inner = inner
        self.decoder = codecs.getincrementaldecoder("utf-16")("strict")
        self.buffer = b""
        self.done = False

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:
        while not self.buffer and not self.done:
            chunk = self.inner.read(BLOCK_BYTES)
            self.done = not chunk
            self.buffer = self.decoder.decode(chunk, final=self.done).encode("utf-8")
        k = min(len(b), len(self.buffer))
        b[:k] = self.buffer[:k]
        self.buffer = self.buffer[k:]
        return k

    def close(self) -> None:
        self.inner.close()
        super().close()


def open_content(source, kind: FileKind):
    """``(stream, raw)``: a binary stream of the file's text, decompressed (gzip) and, for UTF-16,
    re-encoded as UTF-8, so that delimiters, quotes and line ends are single bytes; close both."""
    # The caller closes both (a context manager here would close the file before it is read).
    raw = io.BytesIO(source) if isinstance(source, (bytes, bytearray, memoryview)) else open(source, "rb")  # noqa: SIM115
    stream: io.BufferedIOBase | io.RawIOBase = gzip.GzipFile(fileobj=raw) if kind.compression == "gzip" else raw
    if kind.encoding == "utf-16":
        stream = _Utf8FromUtf16(stream)
    return stream, raw


def damaged_gzip(name: str) -> str:
    return (f"{name} could not be read to the end (the gzip data stops early or is damaged): export or download it "
            "again")


def scan_text(source, kind: FileKind, header: bool, *, limit: int | None = None, sink=None) -> TextLayout:
    """Scan a text file (path or bytes) under the module's rules, on its own (one pass); with
    ``sink``, also write its content there as UTF-8 with LF line ends (outside quoted cells)."""
    scan = TextScan(kind.name, kind.text_delimiter, kind.width, header, limit, kind.compression == "gzip", sink)
    stream, raw = open_content(source, kind)
    try:
        while chunk := stream.read(BLOCK_BYTES):
            scan.feed(chunk)
    except (OSError, EOFError, zlib.error):
        raise ValueError(damaged_gzip(kind.name)) from None
    except UnicodeDecodeError:
        raise ValueError(f"{kind.name} is not valid UTF-16 text throughout: save it as UTF-8 and use that") from None
    finally:
        stream.close()
        raw.close()
    return scan.finish()


def content_size(source, kind: FileKind, stop_after: int | None = None) -> int:
    """Bytes of the file's text after decompression, counted by streaming it — no further than
    ``stop_after`` (plus one block): enough to know the size is above it. A file that is not
    compressed: its size."""
    size = len(source) if isinstance(source, (bytes, bytearray, memoryview)) else os.path.getsize(source)
    if kind.compression != "gzip":
        return size
    raw = io.BytesIO(source) if isinstance(source, (bytes, bytearray, memoryview)) else open(source, "rb")  # noqa: SIM115
    total = 0
    try:
        with gzip.GzipFile(fileobj=raw) as z:
            while chunk := z.read(BLOCK_BYTES):
                total += len(chunk)
                if stop_after is not None and total > stop_after:
                    break
    except (OSError, EOFError, zlib.error):
        raise ValueError(damaged_gzip(kind.name)) from None
    finally:
        raw.close()
    return total
