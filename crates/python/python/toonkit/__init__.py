"""toonkit: a TOON codec byte-identical to the reference ``@toon-format/toon`` 4.4.0,
and exact o200k_base token counts.

The codec mirrors the API of the official ``toon-format`` package (itself modelled on
the ``json`` module): ``encode``/``decode``, ``dumps``/``loads``, ``dump``/``load``,
``Delimiter`` and ``ToonDecodeError``. Agent plans in every dialect are in
:mod:`toonkit.plan`.
"""

from enum import Enum
from typing import IO, Any, Callable, Optional, Union

from ._toonkit import Decoder, ToonDecodeError, count_tokens, stats
from ._toonkit import decode as _decode
from ._toonkit import encode as _encode
from . import plan

__all__ = [
    "Decoder",
    "Delimiter",
    "ToonDecodeError",
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


class Delimiter(str, Enum):
    """The delimiters TOON allows between array values and table cells."""

    COMMA = ","
    TAB = "\t"
    PIPE = "|"


def encode(
    obj: Any,
    *,
    indent_size: int = 2,
    delimiter: Union[str, Delimiter] = ",",
    default: Optional[Callable[[Any], Any]] = None,
    sort_keys: bool = False,
) -> str:
    """Encode a JSON-like Python value as TOON text.

    Values with no JSON form are passed to ``default``, whose result is encoded
    instead; without ``default`` they raise ``TypeError``. NaN and infinities
    encode as ``null``, as the reference does.
    """
    return _encode(
        obj, indent_size=indent_size, delimiter=delimiter, default=default, sort_keys=sort_keys
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
    """Decode TOON text (``str`` or UTF-8 bytes) to Python values.

    Raises ``ToonDecodeError`` (a ``ValueError``) with ``line`` and ``column``.
    """
    return _decode(
        s,
        strict=strict,
        indent_size=indent_size,
        parse_float=parse_float,
        parse_int=parse_int,
        object_hook=object_hook,
        object_pairs_hook=object_pairs_hook,
    )


dumps = encode
loads = decode


def dump(obj: Any, fp: IO[str], **kwargs: Any) -> None:
    """Encode ``obj`` as TOON and write it to the text file ``fp``."""
    fp.write(encode(obj, **kwargs))


def load(fp: IO[Any], **kwargs: Any) -> Any:
    """Read TOON text from the file ``fp`` and decode it."""
    return decode(fp.read(), **kwargs)
