

class _Miss(Exception):
    """This value is for the exact writer."""


def _miss() -> typing.NoReturn:
    raise _Miss


def _int(value: typing.Any, minimum: int | None, maximum: int | None) -> str:
    if type(value) is not int:
        _miss()
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        _miss()
    return str(value)


# The spelling of each f32 written lately (a few thousand; cleared when full).
_SPELLED: dict[float, str] = {}


def _f32(value: typing.Any) -> str:
    if type(value) is not float or value == 0.0:
        _miss()
    text = _SPELLED.get(value)
    if text is None:
        number = _w.to_f32(value)
        if not math.isfinite(number):
            _miss()
        text = _w.format_f32(number)
        if len(_SPELLED) >= 4096:
            _SPELLED.clear()
        _SPELLED[value] = text
    return text


def encode(envelope: typing.Any) -> str:
    """The canonical line of `envelope`, or an exception for the exact writer."""
    parts: list[str] = []
    _write_Envelope(envelope, parts.append)
    parts.append("\n")
    return "".join(parts)
