from typing import Any, Callable, Optional, Union

class ToonDecodeError(ValueError):
    """Malformed TOON text; ``line`` and ``column`` are 1-based (None when unknown)."""

    line: Optional[int]
    column: Optional[int]
    msg: str
    source: Optional[str]

def encode(
    obj: Any,
    *,
    indent_size: int = 2,
    delimiter: Any = ",",
    default: Optional[Callable[[Any], Any]] = None,
    sort_keys: bool = False,
) -> str: ...
def decode(
    s: Union[str, bytes, bytearray],
    *,
    strict: bool = True,
    indent_size: int = 2,
    parse_float: Optional[Callable[[str], Any]] = None,
    parse_int: Optional[Callable[[str], Any]] = None,
    object_hook: Optional[Callable[[dict], Any]] = None,
    object_pairs_hook: Optional[Callable[[list], Any]] = None,
) -> Any: ...
def count_tokens(text: str) -> int:
    """Exact o200k_base token count of ``text``."""

def stats(value: Any) -> dict:
    """Token and byte counts per format: the keys of ``toon stats --json``."""
