"""toonkit: a TOON codec byte-identical to the reference ``@toon-format/toon`` 4.4.0,
and exact o200k_base token counts.

The codec is a drop-in for the official ``toon-format`` package (``toon_format``
1.2.0, itself modelled on the ``json`` module): ``encode``/``decode``,
``dumps``/``loads``, ``dump``/``load``, ``Delimiter``, ``ToonDecodeError``,
``__version__`` and ``__toon_spec__``, with the same results and the same
exceptions. Agent plans in every dialect are in :mod:`toonkit.plan`.
"""

from enum import Enum
from typing import IO, Any

from . import _host
from ._errors import ToonDecodeError
# `encode` and `decode` are the extension's functions themselves (options checked
# there as the official package checks them): a Python frame around each call would
# cost more than a small document's encoding once the caches are cold.
from ._toonkit import Decoder, _set_hooks, count_tokens, decode, encode, stats
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


dumps = encode
loads = decode


def dump(obj: Any, fp: IO[str], **kwargs: Any) -> None:
    """Serialize ``obj`` as TOON to the text file ``fp`` (the options of :func:`encode`)."""
    fp.write(encode(obj, **kwargs))


def load(fp: IO[Any], **kwargs: Any) -> Any:
    """Read a TOON document from the file ``fp`` (text or binary) and decode it (the
    options of :func:`decode`)."""
    return decode(fp.read(), **kwargs)
