"""The wire rules behind `cgp_types`: reading one NDJSON line the way the
reference decoder reads it, and writing the canonical line the reference
encoder writes.

Part of the package's runtime, copied as it is by `cargo xtask codegen` from
crates/cgp-codegen/templates/python/runtime/: edit it there. The types
themselves, and the table saying how each one travels, are in
`cgp_types/__init__.py`.

Reading follows serde_json and serde's derives as the reference decoder uses
them: duplicate members, float spellings of integers, numbers outside a
double, lone surrogates and nesting deeper than 127 levels are refused; an
object may also be written as an array of its members in order, a closed
enumeration as a one-member object `{"value": null}`, and the tag of a nested
tagged union as its branch index. Writing is compact, members in schema order,
optional members left out by their emit rule, numbers and strings spelled as
serde_json spells them.
"""

from __future__ import annotations

import enum
import json
import math
import re
import struct
import typing

__all__ = ["WireError"]

# Where a value is: `""` for the root, else (where its parent is, its key or
# index), nested; `None` for the text as a whole.
Where = typing.Any
# A JSON value as the reader returns it, or a value the encoder is given.
Value = typing.Any


class Shape(typing.Protocol):
    """What every entry of the table does: read a JSON value, write a value."""

    def read(self, value: Value, pointer: Where) -> Value: ...

    def write(self, value: Value, pointer: Where) -> str: ...


class WireError(ValueError):
    """A line the reference decoder rejects, or a value the encoder cannot write.

    `pointer` is the JSON pointer of the offending value, `None` when the text
    is not JSON at all.
    """

    def __init__(self, message: str, where: Where = None) -> None:
        self.pointer = None if where is None else _pointer(where)
        super().__init__(message if self.pointer is None else f"{message} at {self.pointer or '/'}")


def _pointer(where: Where) -> str:
    # Where a value is: "" for the root, else (where its parent is, its key or
    # index). Only an error spells it out.
    tokens = []
    while where:
        where, token = where
        tokens.append("/" + str(token).replace("~", "~0").replace("/", "~1"))
    return "".join(reversed(tokens))


# What Rust's `str::trim_end` removes: Unicode White_Space.
_RUST_WHITESPACE = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
# A surrogate in the text itself (which no UTF-8 line, and so no Rust string,
# can hold), and an escape that may spell half a surrogate pair.
_RAW_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_MAX_DEPTH = 127
_U64_MAX = (1 << 64) - 1
_I64_MIN = -(1 << 63)


class _Object(dict[str, Value]):
    """A JSON object; `duplicates` names the members written more than once."""

    __slots__ = ("duplicates",)
    duplicates: set[str] | None


def _object(pairs: list[tuple[str, Value]]) -> _Object:
    obj = _Object(pairs)
    obj.duplicates = None if len(obj) == len(pairs) else _repeated(pairs)
    return obj


def _repeated(pairs: list[tuple[str, Value]]) -> set[str]:
    seen: set[str] = set()
    repeated: set[str] = set()
    for key, _ in pairs:
        (repeated if key in seen else seen).add(key)
    return repeated


def _integer(text: str) -> int | float:
    # serde_json reads `-0` and integers outside u64/i64 as doubles.
    value = int(text)
    if text == "-0" or value > _U64_MAX or value < _I64_MIN:
        return _double(text)
    return value


def _double(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise WireError(f"number out of range: {text[:40]}", None)
    return value


def _constant(text: str) -> typing.NoReturn:
    raise WireError(f"{text} is not JSON", None)


_DECODER = json.JSONDecoder(
    object_pairs_hook=_object,
    parse_int=_integer,
    parse_float=_double,
    parse_constant=_constant,
)


def parse(line: str | bytes | bytearray | memoryview) -> Value:
    """The JSON value of one line, or WireError where serde_json refuses it."""
    if isinstance(line, (bytes, bytearray, memoryview)):
        line = bytes(line).decode("utf-8", "replace")
    elif not isinstance(line, str):
        raise TypeError(f"a line is str or bytes, not {type(line).__name__}")
    text = line.rstrip(_RUST_WHITESPACE)
    try:
        value = _DECODER.decode(text)
    except WireError:
        raise
    except RecursionError:
        raise WireError("recursion limit exceeded", None) from None
    except ValueError as error:
        raise WireError(f"invalid JSON: {error}", None) from None
    # Deeper than _MAX_DEPTH takes that many brackets, each closed.
    if (
        len(text) > 2 * _MAX_DEPTH
        and text.count("[") + text.count("{") > _MAX_DEPTH
        and _depth(value) > _MAX_DEPTH
    ):
        raise WireError("recursion limit exceeded", None)
    if not text.isascii() and _RAW_SURROGATE.search(text):
        raise WireError("a surrogate is no character of a UTF-8 line", None)
    if "\\u" in text and _SURROGATE_ESCAPE.search(text) and _has_lone_surrogate(value):
        raise WireError("lone surrogate in a hex escape", None)
    return value


def _depth(value: Value) -> int:
    deepest = 0
    pending = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict):
            deepest = max(deepest, depth)
            pending.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, list):
            deepest = max(deepest, depth)
            pending.extend((child, depth + 1) for child in item)
    return deepest


def _lone(text: str) -> bool:
    return any("\ud800" <= char <= "\udfff" for char in text)


def _has_lone_surrogate(value: Value) -> bool:
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if _lone(item):
                return True
        elif isinstance(item, dict):
            # Repeated keys are gone from the dict but serde_json read them too.
            if any(_lone(key) for key in item):
                return True
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return False


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if type(value) is bool:
        return "a boolean"
    if type(value) is int:
        return "an integer"
    if type(value) is float:
        return "a number"
    if type(value) is str:
        return "a string"
    if type(value) is list:
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _expected(what: str, value: object, pointer: Where) -> WireError:
    return WireError(f"expected {what}, found {_kind(value)}", pointer)


# ---------------------------------------------------------------------------
# Shapes: each reads a JSON value into its Python value (`read`) and writes a
# Python value as canonical JSON text (`write`).


class _String:
    def read(self, value: Value, pointer: Where) -> Value:
        if type(value) is not str:
            raise _expected("a string", value, pointer)
        return value

    def write(self, value: Value, pointer: Where) -> str:
        if type(value) is not str:
            raise _expected("a string", value, pointer)
        return _string(value)


class _Boolean:
    def read(self, value: Value, pointer: Where) -> Value:
        if type(value) is not bool:
            raise _expected("a boolean", value, pointer)
        return value

    def write(self, value: Value, pointer: Where) -> str:
        if type(value) is not bool:
            raise _expected("a boolean", value, pointer)
        return "true" if value else "false"


class Integer:
    """An integer in `minimum..=maximum`; JSON numbers with a fraction or an
    exponent are not integers, whatever their value."""

    __slots__ = ("minimum", "maximum")

    def __init__(self, minimum: int | None, maximum: int | None) -> None:
        self.minimum = minimum
        self.maximum = maximum

    def _check(self, value: Value, pointer: Where) -> int:
        if type(value) is not int:
            raise _expected("an integer", value, pointer)
        if (self.minimum is not None and value < self.minimum) or (
            self.maximum is not None and value > self.maximum
        ):
            raise WireError(
                f"integer {value} is outside {self.minimum}..={self.maximum}", pointer
            )
        return value

    def read(self, value: Value, pointer: Where) -> Value:
        return self._check(value, pointer)

    def write(self, value: Value, pointer: Where) -> str:
        return str(self._check(value, pointer))


_F32 = struct.Struct("<f")


def to_f32(value: int | float) -> float:
    """The binary32 value nearest `value` (a float or an int), as Rust's `as f32`
    rounds; beyond the range it is an infinity."""
    if type(value) is int and abs(value) > (1 << 53):
        return _int_to_f32(value)
    try:
        single: float = _F32.unpack(_F32.pack(value))[0]
        return single
    except OverflowError:
        return math.copysign(math.inf, value)


def _int_to_f32(value: int) -> float:
    sign = -1 if value < 0 else 1
    magnitude = abs(value)
    drop = magnitude.bit_length() - 24
    kept, rest = magnitude >> drop, magnitude & ((1 << drop) - 1)
    half = 1 << (drop - 1)
    if rest > half or (rest == half and kept & 1):
        kept += 1
    return to_f32(float(sign * (kept << drop)))


class _Float32:
    def read(self, value: Value, pointer: Where) -> Value:
        if type(value) is not int and type(value) is not float:
            raise _expected("a number", value, pointer)
        return to_f32(value)

    def write(self, value: Value, pointer: Where) -> str:
        if type(value) is not int and type(value) is not float:
            raise _expected("a number", value, pointer)
        number = to_f32(value)
        if not math.isfinite(number):
            # As the reference encoder (serde_json) writes it: JSON has no
            # infinity or NaN (SPEC.md §Leniency, f32 overflow).
            return "null"
        return format_f32(number)


_F32_BITS = struct.Struct("<I")
_TENS = [10.0**power for power in range(16)]


def _shortest_f32(magnitude: float) -> tuple[str, int]:
    """Digits and exponent of the shortest decimal that reads back as the
    binary32 `magnitude`, the nearest one when several are as short.

    In the plain range the search is arithmetic first: `magnitude` times a
    power of ten, rounded, is the nearest decimal of six to nine digits (the
    product's error is below 1e-7 of a unit, so only a near tie can come out
    wrong: those take the search by formatting below), and that integer over
    the exact power of ten is the float nearest the decimal. At six digits or
    fewer at most one decimal reads back (they lie further apart than a
    binary32's precision); from seven on, the nearest one failing at a length
    shows that none of that length reads back only when the value's
    neighbours are equally far on both sides, untrue at a power of two (those
    take the search by formatting too). About seven times faster on random
    embedding values, which seldom repeat enough for the writer's cache."""
    if 1e-5 <= magnitude < 1e12:
        six_digits = 5 - math.floor(math.log10(magnitude))
        even_gaps = _F32_BITS.unpack(_F32.pack(magnitude))[0] & 0x7FFFFF != 0
        for more in range(4 if even_gaps else 1):
            shift = six_digits + more
            scaled = magnitude * _TENS[shift] if shift >= 0 else magnitude / _TENS[-shift]
            digits = round(scaled)
            if (more and abs(scaled - digits) > 0.4999) or digits >= _TENS[6 + more]:
                break
            near = digits / _TENS[shift] if shift >= 0 else digits * _TENS[-shift]
            if to_f32(near) == magnitude:
                text = str(digits)
                stripped = text.rstrip("0")
                return stripped, len(text) - len(stripped) - shift
    for precision in range(9):
        text = "%.*e" % (precision, magnitude)
        mantissa, power = text.split("e")
        digits = int(mantissa.replace(".", ""))
        exponent = int(power) - precision
        candidates = [digits, digits - 1, digits + 1]
        found = [
            candidate
            for candidate in candidates
            if candidate > 0 and to_f32(float(f"{candidate}e{exponent}")) == magnitude
        ]
        if found:
            digits = found[0]
            text = str(digits).rstrip("0")
            return text, exponent + len(str(digits)) - len(text)
    text = repr(magnitude)
    raise AssertionError(f"no shortest form for {text}")


def format_f32(number: float) -> str:
    """A finite binary32 value spelled as serde_json spells an f32: the
    shortest digits that read back, fixed notation for decimal exponents
    -6..=12 (`0.000001`, `1.5`, `1000.0`), otherwise `1.5e+20`, `1e-7`."""
    if number == 0:
        return "-0.0" if math.copysign(1.0, number) < 0 else "0.0"
    sign = "-" if number < 0 else ""
    digits, k = _shortest_f32(abs(number))
    length = len(digits)
    kk = length + k
    if 0 <= k and kk <= 13:
        text = digits + "0" * k + ".0"
    elif 0 < kk <= 13:
        text = digits[:kk] + "." + digits[kk:]
    elif -6 < kk <= 0:
        text = "0." + "0" * -kk + digits
    else:
        exponent = kk - 1
        mantissa = digits if length == 1 else f"{digits[0]}.{digits[1:]}"
        text = f"{mantissa}e{'+' if exponent >= 0 else '-'}{abs(exponent)}"
    return sign + text


def _string(value: str) -> str:
    # serde_json escapes `"`, `\` and the C0 controls (short forms where JSON
    # has them, `\u00xx` otherwise) and writes everything else as UTF-8, as
    # json.dumps does with ensure_ascii off.
    return json.dumps(value, ensure_ascii=False)


class Closed:
    """A closed enumeration of strings, as a Python Enum. The reference decoder
    also reads the one-member object `{"value": null}`."""

    __slots__ = ("type", "by_value")

    def __init__(self, enum_type: type[enum.Enum]) -> None:
        self.type = enum_type
        self.by_value = {member.value: member for member in enum_type}

    def read(self, value: Value, pointer: Where) -> Value:
        if type(value) is str:
            found = self.by_value.get(value)
            if found is None:
                raise WireError(f"unknown {self.type.__name__} {value!r}", pointer)
            return found
        if type(value) is _Object and len(value) == 1 and not value.duplicates:
            ((name, inner),) = value.items()
            found = self.by_value.get(name)
            if found is not None and inner is None:
                return found
        raise _expected(f"a {self.type.__name__} string", value, pointer)

    def write(self, value: Value, pointer: Where) -> str:
        if not isinstance(value, self.type):
            raise _expected(f"a {self.type.__name__}", value, pointer)
        return _string(value.value)


class Open:
    """An open vocabulary: known values become the Enum `known`, any other
    string is kept as it is."""

    __slots__ = ("known", "by_value")

    def __init__(self, known: type[enum.Enum]) -> None:
        self.known = known
        self.by_value = {member.value: member for member in known}

    def read(self, value: Value, pointer: Where) -> Value:
        if type(value) is not str:
            raise _expected("a string", value, pointer)
        return self.by_value.get(value, value)

    def write(self, value: Value, pointer: Where) -> str:
        if isinstance(value, self.known):
            return _string(value.value)
        if type(value) is str:
            return _string(value)
        raise _expected(f"a {self.known.__name__} or a string", value, pointer)


class Array:
    """A JSON array of one shape."""

    __slots__ = ("items",)

    def __init__(self, items: Shape) -> None:
        self.items = items

    def read(self, value: Value, pointer: Where) -> Value:
        if type(value) is not list:
            raise _expected("an array", value, pointer)
        read = self.items.read
        return [read(item, (pointer, index)) for index, item in enumerate(value)]

    def write(self, value: Value, pointer: Where) -> str:
        if not isinstance(value, (list, tuple)):
            raise _expected("a list", value, pointer)
        write = self.items.write
        return "[" + ",".join(write(item, (pointer, i)) for i, item in enumerate(value)) + "]"


# Emit rules (SPEC.md, x-cgp-emit).
ALWAYS = "always"
OMIT_IF_ABSENT = "omit-if-absent"
OMIT_IF_EMPTY = "omit-if-empty"
OMIT_IF_DEFAULT = "omit-if-default"


class Member:
    """One member of an object: its JSON name, attribute, shape, whether it is
    required and may be null, its emit rule and its default (a function, which
    omit-if-default compares with)."""

    __slots__ = ("name", "attribute", "shape", "required", "nullable", "emit", "default", "key")

    def __init__(
        self,
        name: str,
        attribute: str,
        shape: Shape,
        required: bool,
        nullable: bool,
        emit: str,
        default: typing.Callable[[], Value] | None,
    ) -> None:
        self.name = name
        self.attribute = attribute
        self.shape = shape
        self.required = required
        self.nullable = nullable
        self.emit = emit
        self.default = default
        self.key = _string(name) + ":"

    def read(self, value: Value, pointer: Where) -> Value:
        if value is None and self.nullable:
            return None
        return self.shape.read(value, pointer)

    def written(self, value: Value) -> bool:
        if self.emit == OMIT_IF_ABSENT:
            return value is not None
        if self.emit == OMIT_IF_EMPTY:
            return len(value) > 0
        if self.emit == OMIT_IF_DEFAULT and self.default is not None:
            return bool(value != self.default())
        return True

    def write(self, value: Value, pointer: Where) -> str:
        if value is None and self.nullable:
            return self.key + "null"
        return self.key + self.shape.write(value, pointer)


class _Layout:
    """The members of one object type, for reading: a member left out gets
    its dataclass default, which is the model's default too."""

    __slots__ = ("members", "by_name", "required")

    def __init__(self, members: tuple[Member, ...]) -> None:
        self.members = members
        self.by_name = {member.name: member for member in members}
        self.required = frozenset(member.name for member in members if member.required)

    def from_object(self, obj: _Object, pointer: Where) -> dict[str, Value]:
        if not obj.keys() >= self.required:
            absent = sorted(self.required - obj.keys())[0]
            raise WireError(f"missing member `{absent}`", pointer)
        values = {}
        by_name = self.by_name
        duplicates = obj.duplicates
        for name, value in obj.items():
            member = by_name.get(name)
            if member is not None:
                if duplicates and name in duplicates:
                    raise WireError(f"duplicate member `{name}`", pointer)
                values[member.attribute] = member.read(value, (pointer, name))
        return values

    def from_array(self, items: list[Value], pointer: Where) -> dict[str, Value]:
        members = self.members
        if len(items) > len(members):
            raise WireError(f"{len(items)} items where at most {len(members)} members fit", pointer)
        for member in members[len(items) :]:
            if member.required:
                raise WireError(f"missing member `{member.name}`", pointer)
        return {
            member.attribute: member.read(item, (pointer, index))
            for index, (member, item) in enumerate(zip(members, items))
        }


def _write_members(
    members: tuple[Member, ...], value: Value, pointer: Where, parts: list[str]
) -> None:
    for member in members:
        item = getattr(value, member.attribute)
        if member.written(item):
            parts.append(member.write(item, (pointer, member.name)))


class Record:
    """An object type, as a dataclass. The reference decoder also reads it as
    an array of its members in order."""

    __slots__ = ("type", "members", "layout")

    def __init__(self, record_type: type, members: tuple[Member, ...] = ()) -> None:
        self.type = record_type
        self.members = members
        self.layout = _Layout(members)

    def read(self, value: Value, pointer: Where) -> Value:
        if type(value) is _Object:
            return self.type(**self.layout.from_object(value, pointer))
        if type(value) is list:
            return self.type(**self.layout.from_array(value, pointer))
        raise _expected(f"a {self.type.__name__} object", value, pointer)

    def write(self, value: Value, pointer: Where) -> str:
        if type(value) is not self.type:
            raise _expected(f"a {self.type.__name__}", value, pointer)
        parts: list[str] = []
        _write_members(self.members, value, pointer, parts)
        return "{" + ",".join(parts) + "}"


class Branch:
    """One branch of a tagged union: its tag value, dataclass and members in
    writing order (`tag_at` is where the tag member goes among them)."""

    __slots__ = ("tag", "type", "members", "tag_at", "layout")

    def __init__(
        self, tag: str, branch_type: type, members: tuple[Member, ...], tag_at: int
    ) -> None:
        self.tag = tag
        self.type = branch_type
        self.members = members
        self.tag_at = tag_at
        self.layout = _Layout(members)


class Union:
    """A flat object whose tag member selects a branch. Nested unions are read
    as the reference reads a flattened enum: the tag may also be the branch's
    index, and the array form is refused. The envelope is read as the
    reference reads an internally tagged enum: the tag is a string, and the
    array form (tag first) is accepted."""

    __slots__ = ("name", "tag", "branches", "by_tag", "by_type", "envelope")

    def __init__(
        self, name: str, tag: str, branches: tuple[Branch, ...], envelope: bool
    ) -> None:
        self.name = name
        self.tag = tag
        self.branches = branches
        self.by_tag = {branch.tag: branch for branch in branches}
        self.by_type = {branch.type: branch for branch in branches}
        self.envelope = envelope

    def _branch(self, tag: Value, pointer: Where) -> Branch:
        if type(tag) is str:
            branch = self.by_tag.get(tag)
            if branch is not None:
                return branch
            raise WireError(f"unknown {self.tag} {tag!r}", pointer)
        if not self.envelope and type(tag) is int and 0 <= tag < len(self.branches):
            return self.branches[tag]
        raise _expected(f"a {self.tag} string", tag, pointer)

    def read(self, value: Value, pointer: Where) -> Value:
        if type(value) is _Object:
            if self.tag not in value:
                raise WireError(f"missing member `{self.tag}`", pointer)
            if value.duplicates and self.tag in value.duplicates:
                raise WireError(f"duplicate member `{self.tag}`", pointer)
            branch = self._branch(value[self.tag], (pointer, self.tag))
            members = branch.layout.from_object(value, pointer)
        elif self.envelope and type(value) is list and value:
            branch = self._branch(value[0], (pointer, 0))
            members = branch.layout.from_array(value[1:], pointer)
        else:
            raise _expected(f"a {self.name} object", value, pointer)
        return branch.type(**members)

    def write(self, value: Value, pointer: Where) -> str:
        branch = self.by_type.get(type(value))
        if branch is None:
            raise _expected(f"a {self.name}", value, pointer)
        parts: list[str] = []
        _write_members(branch.members[: branch.tag_at], value, pointer, parts)
        parts.append(_string(self.tag) + ":" + _string(branch.tag))
        _write_members(branch.members[branch.tag_at :], value, pointer, parts)
        return "{" + ",".join(parts) + "}"


class Named:
    """A reference to a named type, resolved once every type is described."""

    __slots__ = ("table", "name", "shape")

    def __init__(self, table: dict[str, typing.Any], name: str) -> None:
        self.table = table
        self.name = name
        self.shape: Shape | None = None

    def _resolve(self) -> Shape:
        if self.shape is None:
            self.shape = self.table[self.name]
        return self.shape

    def read(self, value: Value, pointer: Where) -> Value:
        return self._resolve().read(value, pointer)

    def write(self, value: Value, pointer: Where) -> str:
        return self._resolve().write(value, pointer)


STRING = _String()
BOOLEAN = _Boolean()
FLOAT32 = _Float32()
