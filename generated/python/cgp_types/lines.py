"""The bounded reader of lines from a stream (a provider's standard output, a
socket's `makefile("rb")`).

Copied by `cargo xtask codegen` from crates/cgp-codegen/templates/python/runtime/;
do not edit.
"""

from __future__ import annotations

import typing

#: The longest line `read_lines` yields: 16 MiB before the line feed, about
#: where the reference host stops reading a line.
MAX_LINE_BYTES = 16 * 1024 * 1024


class LineTooLong(ValueError):
    """A line longer than the limit, refused before it is read whole; the
    stream is then in the middle of that line, so a host stops reading it."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"a line longer than {limit} bytes (before its line feed)")
        self.limit = limit


class _Lines(typing.Protocol):
    def readline(self, size: int = -1, /) -> bytes: ...


def read_lines(stream: _Lines, limit: int = MAX_LINE_BYTES) -> typing.Iterator[bytes]:
    """Yields each line of `stream` (a binary stream) without its line feed,
    a last line without one too; raises `LineTooLong` as soon as a line has
    more than `limit` bytes before its line feed. Pass each to `decode_line`."""
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        if line.endswith(b"\n"):
            yield line[:-1]
        elif len(line) > limit:
            raise LineTooLong(limit)
        else:
            yield line
