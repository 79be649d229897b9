"""toonkit: a TOON codec byte-identical to the reference ``@toon-format/toon`` 4.4.0,
and exact o200k_base token counts.

The codec is a drop-in for the official ``toon-format`` package (``toon_format``
1.2.0, itself modelled on the ``json`` module): ``encode``/``decode``,
``dumps``/``loads``, ``dump``/``load``, ``Delimiter``, ``ToonDecodeError``,
``__version__`` and ``__toon_spec__``, with the same results and the same
exceptions. Agent plans in every dialect are in :mod:`toonkit.plan`.
"""

import gc
from enum import Enum
from typing import IO, Any, Callable, Optional, Union

from . import _host
from ._errors import ToonDecodeError
from ._toonkit import Decoder, _set_hooks, count_tokens, stats
from ._toonkit import decode as _decode
from ._toonkit import encode as _encode
from . import plan

__all__ = [
    "Decoder",
    "Delimiter",
    "ToonDecodeError",
    "__toon_spec__",
    "__version__",
    "count_tokens",
    "decode",
    "dump",
    "dumps",
    "encode",
    "load",
    "loads",
    "plan",
    "stats",
]

__version__ = "0.1.0"
"""The version of this package."""

__toon_spec__ = "4.4"
"""The version of the TOON specification the codec implements."""

_set_hooks(ToonDecodeError, _host.replacement, _host.NOT_HANDLED)


class Delimiter(str, Enum):
    """The delimiters TOON allows between array values and table cells (spec §11).
    Members compare equal to, and ``str()`` as, their character."""

    COMMA = ","
    TAB = "\t"
    PIPE = "|"

    def __str__(self) -> str:
        return self.value


_DELIMITERS = (",", "\t", "|")


def _check_indent_size(indent_size: Any) -> int:
    if isinstance(indent_size, bool) or not isinstance(indent_size, int):
        raise TypeError(f"indent_size must be an int, not {type(indent_size).__name__}")
    if indent_size < 1:
        raise ValueError(f"indent_size must be at least 1, got {indent_size}")
    return indent_size


def encode(
    obj: Any,
    *,
    indent_size: int = 2,
    delimiter: Union[str, Delimiter] = ",",
    default: Optional[Callable[[Any], Any]] = None,
    sort_keys: bool = False,
) -> str:
    """Serialize ``obj`` to a TOON document (no trailing newline).

    Values: ``dict`` (and any ``Mapping``) becomes an object, ``list``, ``tuple``,
    ``set`` and ``frozenset`` (sorted) an array; ``str``, ``int`` (exact at any size),
    ``float`` (written so that it decodes to the same float; NaN and infinities as
    ``null``), ``bool`` and ``None`` as themselves. As in the official package,
    ``Decimal`` is a number, ``datetime``/``date``/``time`` their ISO text, ``UUID``
    and ``pathlib`` paths their ``str``, an ``Enum`` member its value, and dataclasses,
    attrs classes and pydantic models an object of their fields. Anything else is
    passed to ``default``, whose result is encoded in its place.

    Keys: ``str`` as they are; ``int``, ``float`` (``NaN``, ``Infinity``), ``bool``
    and ``None`` by their ``json.dumps`` spelling.

    Options:
        indent_size: spaces per indentation level (an int, at least 1).
        delimiter: between array values and table cells: ``","`` (default), ``"\\t"``
            or ``"|"``, or a :class:`Delimiter` member. Headers declare a tab or pipe.
        default: called with each value that has no TOON form; returns a replacement.
        sort_keys: write every object's keys sorted.

    Raises:
        TypeError: a value has no TOON form (and no ``default``), a key is not a
            str, int, float, bool or None, or ``indent_size`` is not an int.
        ValueError: an invalid option; two keys of one mapping spell the same after
            conversion (``{1: "a", "1": "b"}``); a circular reference (also through
            ``default``); nesting deeper than 1000 levels; a str with an unpaired
            surrogate.
        Whatever ``default`` raises.
    """
    if delimiter not in _DELIMITERS:
        raise ValueError(f"delimiter must be ',', '\\t', or '|', got {delimiter!r}")
    return _encode(
        obj,
        indent_size=_check_indent_size(indent_size),
        delimiter=str.__str__(delimiter),
        default=default,
        sort_keys=bool(sort_keys),
    )


def decode(
    s: Union[str, bytes, bytearray],
    *,
    strict: bool = True,
    indent_size: int = 2,
    parse_float: Optional[Callable[[str], Any]] = None,
    parse_int: Optional[Callable[[str], Any]] = None,
    object_hook: Optional[Callable[[dict], Any]] = None,
    object_pairs_hook: Optional[Callable[[list], Any]] = None,
) -> Any:
    """Deserialize a TOON document (``str``, or UTF-8 ``bytes``/``bytearray``).

    Objects become dicts in document order, arrays lists. Each array header declares
    its delimiter (``[N]`` comma, ``[N\\t]`` tab, ``[N|]`` pipe), so no delimiter
    option is needed.

    Options:
        strict: enforce every check of spec §14 (declared lengths, indentation,
            duplicate keys, blank lines inside arrays). ``strict=False`` tolerates
            those as the reference does (a repeated key: the last value wins).
        indent_size: spaces per indentation level (an int, at least 1).
        parse_float: called with the text of every number with a fraction or an
            exponent, as written (``Decimal`` for lossless decoding).
        parse_int: called with the text of every integer, as written.
        object_hook: called with every decoded dict; its result takes its place.
        object_pairs_hook: called with every object as a list of ``(key, value)``
            pairs; wins over ``object_hook``.

    Raises:
        ToonDecodeError: the document is not valid TOON (also a number out of the
            float range without ``parse_float``, an integer ``int()`` refuses, or a
            ``ValueError`` from ``parse_int``); it has ``msg``, ``line`` and
            ``source`` as in the official package, and ``column`` and ``snippet``.
        TypeError: ``s`` is not str, bytes or bytearray; ``indent_size`` is not an int.
        ValueError: ``indent_size`` is below 1.
        Whatever a hook raises (other than the above).
    """
    if not isinstance(s, (str, bytes, bytearray)):
        raise TypeError(
            f"the TOON document must be str, bytes or bytearray, not {type(s).__name__}"
        )
    options = {
        "strict": bool(strict),
        "indent_size": _check_indent_size(indent_size),
        "parse_float": parse_float,
        "parse_int": parse_int,
        "object_hook": object_hook,
        "object_pairs_hook": object_pairs_hook,
    }
    if not gc.isenabled():
        return _decode(s, **options)
    # Every container the decoder makes is new and holds no cycle, yet each batch of
    # them would set off the cyclic collector, which walks all young containers again
    # (half the time of a nested document): it is paused for the call.
    gc.disable()
    try:
        return _decode(s, **options)
    finally:
        gc.enable()


dumps = encode
loads = decode


def dump(obj: Any, fp: IO[str], **kwargs: Any) -> None:
    """Serialize ``obj`` as TOON to the text file ``fp`` (the options of :func:`encode`)."""
    fp.write(encode(obj, **kwargs))


def load(fp: IO[Any], **kwargs: Any) -> Any:
    """Read a TOON document from the file ``fp`` (text or binary) and decode it (the
    options of :func:`decode`)."""
    return decode(fp.read(), **kwargs)
