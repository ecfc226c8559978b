

class _Miss(Exception):
    """This value is for the exact path to read."""


# Beyond this an integer's f32 may round differently through a double.
_BIG = 9007199254740992.0
_pack = struct.Struct("<f").pack
_unpack = struct.Struct("<f").unpack
_new: typing.Any = object.__new__


def _f32(value: float) -> float:
    if -_BIG < value < _BIG:
        single: float = _unpack(_pack(value))[0]
        return single
    raise _Miss


def _f32s(values: list[float]) -> list[float]:
    if values and (max(values) >= _BIG or min(values) <= -_BIG):
        raise _Miss
    return array.array("f", values).tolist()


def _within(value: int, minimum: int | None, maximum: int | None) -> int:
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        raise _Miss
    return value


_encode = msgspec.json.encode
_UNSET: typing.Final = msgspec.UNSET
# CANONICAL START
# A colon after a quote or whitespace, as every member's colon is in JSON
# (after its name, or the whitespace after it). (Searched from the colon, as
# a literal.)
_NAME_COLON = re.compile(rb":(?<=[\s\"]:)")
_VALUE = msgspec.json.Decoder()
# `-0`, which msgspec reads as the integer 0 (or the float 0.0) and the
# reference as a float -0.0. (A regular expression finds a literal faster than
# `in` here.) A number starts after `:`, `,`, `[` or whitespace (`q1-0` in a
# string is no number); the lookbehind comes last so the search still starts
# from `-0`.
_NEGATIVE_ZERO = re.compile(rb"-0(?![.\deE])(?<![^:,\[ \t\r\n]-0)")
# A colon spelled `\u003a` in a string, which the re-encoding writes as `:`,
# when the run of backslashes before the `u` is odd (`\\u003a` is a backslash
# and the text `u003a`). Other escapes keep the colon count: a lone surrogate
# is refused by msgspec, and so read by the exact path.
_ESCAPED_COLON = re.compile(rb"(\\+)u003[aA]")
_MAX_DEPTH = 127
# What `_whole` counts in one pass: the colons, and the brackets that bound the
# nesting depth (all other bytes are dropped).
_DROP = bytes(byte for byte in range(256) if byte not in b":[{")


def _colons(line: bytes) -> int:
    """The colons msgspec's re-encoding of everything in `line` would write:
    the line's own, and those it spells as escapes."""
    colons = line.count(b":")
    if b"u003" in line and (b"u003a" in line or b"u003A" in line):
        colons += sum(1 for escape in _ESCAPED_COLON.finditer(line) if len(escape[1]) % 2)
    return colons


def _whole(line: bytes, colons: int) -> bool:
    """Whether msgspec's untyped reading of `line` kept every member (it keeps
    unknown members and the last of duplicates: a lost member loses a colon
    from its re-encoding), within the reference's depth."""
    marks = line.translate(None, _DROP)
    return (
        len(marks) - marks.count(b":") <= _MAX_DEPTH
        and _encode(_VALUE.decode(line)).count(b":") == colons
    )


def decode(line: object) -> typing.Any:
    """The envelope of `line` when this path can vouch for it, else None."""
    if type(line) is str:
        try:
            line = line.encode()
        except UnicodeEncodeError:
            return None
    elif type(line) is not bytes:
        return None
    # DEPTH GUARD
    try:
        value = _ENVELOPE.decode(line)
        # The converters append how many members each mirror holds: each
        # member msgspec read, once (an optional member the line left out is
        # `UNSET`).
        held: list[int] = []
        envelope = _CONVERT[type(value)](value, held)
        # A line as the canonical encoder writes it is the mirrors' encoding
        # (which starts with the tag: no other line can be it).
        text = _encode(value) if line.startswith(_CANONICAL_START) else None
        if text == line:
            return envelope
        if _NEGATIVE_ZERO.search(line):
            return None
        # Otherwise the line must have as many members as the mirrors hold
        # (a duplicate or an unknown member has one more): counting every
        # colon after a quote or whitespace counts each member's, and maybe
        # some in strings, so the line has no more members than the mirrors
        # hold when the count is theirs.
        if len(_NAME_COLON.findall(line)) == sum(held):
            return envelope
        # Else the mirrors' encoding, or msgspec's untyped reading of the
        # line encoded (for unknown members, which the reference skips as
        # msgspec does), must have as many colons as the line (each member
        # has one outside strings, and strings keep theirs, counting
        # `\u003a`).
        if text is None:
            text = _encode(value)
        colons = _colons(line)
        if text.count(b":") != colons and not _whole(line, colons):
            return None
        return envelope
    except Exception:
        return None
