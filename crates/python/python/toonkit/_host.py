"""Python values outside the JSON data model that ``encode`` writes without a
``default`` hook, as the official ``toon_format`` 1.2.0 does.

The extension module handles ``dict``, ``list``, ``tuple``, ``str``, ``int``,
``float``, ``bool`` and ``None`` (and their subclasses) itself and calls
:func:`replacement` for anything else, before ``default``; the value it returns is
encoded in the object's place (and goes through the same rules again).
"""

import dataclasses
import math
import sys
from collections.abc import Mapping
from datetime import date, datetime, time
from decimal import Decimal
from enum import Enum
from pathlib import PurePath
from typing import Any
from uuid import UUID

__all__ = ["NOT_HANDLED", "replacement"]

NOT_HANDLED = object()
"""What :func:`replacement` returns for a value it has no rule for."""

# Magnitudes written in plain notation (spec §2): integral Decimals below this are
# exact integers.
_PLAIN_MAX = Decimal("1e21")


def _decimal(value: Decimal) -> Any:
    """A finite Decimal as the number the encoder writes: an exact int when integral
    below 1e21, else the nearest float; NaN and infinities as None."""
    if not value.is_finite():
        return None
    if value == value.to_integral_value() and abs(value) < _PLAIN_MAX:
        return int(value)
    number = float(value)
    return number if math.isfinite(number) else None


def _sorted_members(value: Any) -> list:
    """A set's members in a deterministic order: sorted, or sorted by ``repr`` when
    they cannot be compared."""
    try:
        return sorted(value)
    except TypeError:
        return sorted(value, key=repr)


def replacement(value: Any) -> Any:
    """What ``value`` encodes as, or :data:`NOT_HANDLED`."""
    if isinstance(value, Decimal):
        return _decimal(value)
    if isinstance(value, Mapping):
        return dict(value.items())
    if isinstance(value, (set, frozenset)):
        return _sorted_members(value)
    if isinstance(value, (datetime, date, time)):
        return value.isoformat()
    if isinstance(value, (UUID, PurePath)):
        return str(value)
    if isinstance(value, Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {field.name: getattr(value, field.name) for field in dataclasses.fields(value)}
    attributes = getattr(type(value), "__attrs_attrs__", None)
    if attributes is not None:
        return {field.name: getattr(value, field.name) for field in attributes}
    pydantic = sys.modules.get("pydantic")
    if pydantic is not None and isinstance(value, pydantic.BaseModel):
        return value.model_dump(mode="json")
    return NOT_HANDLED
