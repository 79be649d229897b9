"""The decoder's exception, defined here (not in the extension module) so that it
pickles by reference as ``toonkit.ToonDecodeError`` and crosses process pools."""

from typing import Optional, Tuple

__all__ = ["ToonDecodeError"]


class ToonDecodeError(ValueError):
    """Raised when a TOON document cannot be decoded.

    A :class:`ValueError`, like :class:`json.JSONDecodeError`. The attributes of the
    official ``toon_format.ToonDecodeError``, with the same meaning and ``str()``
    (``"line N: msg"``, or ``msg`` alone without a line):

    - ``msg``: the message without its location;
    - ``line``: the 1-based line of the offending text, or ``None``;
    - ``source``: that line as it appears in the document, or ``None``.

    And two more, which the official package does not give:

    - ``column``: the 1-based column (in characters) of the offending text, or ``None``;
    - ``snippet``: the offending line with a caret under that column, or ``None``.
    """

    msg: str
    line: Optional[int]
    source: Optional[str]
    column: Optional[int]
    snippet: Optional[str]

    def __init__(
        self,
        msg: str,
        line: Optional[int] = None,
        source: Optional[str] = None,
        column: Optional[int] = None,
        snippet: Optional[str] = None,
    ) -> None:
        self.msg = msg
        self.line = line
        self.source = source
        self.column = column
        self.snippet = snippet
        super().__init__(f"line {line}: {msg}" if line is not None else msg)

    def __reduce__(
        self,
    ) -> Tuple[type, Tuple[str, Optional[int], Optional[str], Optional[int], Optional[str]]]:
        return type(self), (self.msg, self.line, self.source, self.column, self.snippet)


ToonDecodeError.__module__ = "toonkit"
