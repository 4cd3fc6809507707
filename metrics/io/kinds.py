"""How to read one file: what the sniff (:func:`metrics.io.sniff`) found, which every engine and
the text scan (:mod:`metrics.io.scan`) read."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["FileKind"]


@dataclass(frozen=True)
class FileKind:
    """How to read one file (the result of :func:`sniff`).

    ``fmt`` is ``"csv"``, ``"tsv"`` or ``"parquet"``; for text, ``delimiter`` (``","``, ``"\\t"``
    or ``";"``), ``encoding`` (a Python codec: ``"utf-8"``, ``"utf-8-sig"``, ``"utf-16"``) and
    ``first_record`` (the fields of the first line: the header, or the first row's labels);
    ``compression`` is ``"gzip"`` or None; ``notes`` say where the content overrode the name.
    ``whole`` tells whether the sample was the whole file, ``records`` how many records it held.
    """

    name: str
    fmt: str
    delimiter: str | None = None
    encoding: str | None = None
    compression: str | None = None
    first_record: tuple[str, ...] = ()
    records: int = 0
    whole: bool = False
    notes: tuple[str, ...] = field(default=())

    @property
    def width(self) -> int:
        """Number of columns of a text file (fields of its first line)."""
        return len(self.first_record)

    @property
    def text_delimiter(self) -> str:
        """The delimiter of a text file (the sniff gives every text file one)."""
        if self.delimiter is None:
            raise ValueError(f"{self.name} is not a delimited text file")
        return self.delimiter
