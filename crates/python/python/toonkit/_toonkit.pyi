from typing import Any, Callable, Dict, List, Optional, Tuple, Union

def _set_hooks(decode_error: type, replacement: Callable[[Any], Any], not_handled: object) -> None:
    """Registers ``toonkit.ToonDecodeError`` and ``toonkit._host.replacement``."""

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

class PlanError(ValueError):
    """A plan that cannot be read or written: ``line`` and ``column`` are 1-based (None
    when unknown), ``path`` is the place in the document tree when that is what the error
    names, ``file`` the file it was read from (``toonkit.plan.read_file``)."""

    kind: Optional[str]
    line: Optional[int]
    column: Optional[int]
    path: Optional[str]
    msg: str
    file: Optional[str]

class LoadedPlan:
    """A plan as read by ``toon_plan::read`` (wrapped by ``toonkit.plan.Plan``); its
    results are the library's objects in their serialised form."""

    @property
    def dialect(self) -> str: ...
    @property
    def format(self) -> str: ...
    def problems(self) -> List[Dict[str, Any]]: ...
    def model(self) -> Dict[str, Any]: ...
    def document(self) -> Any: ...
    def schedule(self) -> Dict[str, Any]: ...
    def graph(self, format: str) -> str: ...
    def stats(self) -> List[Dict[str, Any]]: ...
    def events(self, cap: int, fail: List[str], tool_caps: Dict[str, int]) -> List[Dict[str, Any]]: ...
    def convert(
        self,
        to: str,
        format: Optional[str],
        sets: List[Tuple[Optional[str], str, str]],
        lean: bool,
    ) -> Tuple[str, Dict[str, Any]]:
        """The text and the report (``from``, ``to``, ``format``, ``losses``,
        ``target_problems``, ``settable``)."""

def plan_load(
    text: str,
    path: Optional[str] = None,
    dialect: Optional[str] = None,
    format: Optional[str] = None,
    built: bool = False,
) -> LoadedPlan: ...
def plan_schema(dialect: str) -> str: ...
def plan_folder(
    source: str, target: str, to: str, format: Optional[str] = None, dialect: Optional[str] = None
) -> Dict[str, Any]: ...
def plan_dialects() -> List[str]: ...
def plan_settable_names() -> List[str]: ...

class Decoder:
    """A push decoder: ``feed`` TOON text in chunks (``str`` or UTF-8 bytes, split
    anywhere) and take the events each chunk completes, as ``(kind, value)`` pairs:
    ``("start_object", None)``, ``("end_object", None)``, ``("start_array", length)``,
    ``("end_array", None)``, ``("key", name)``, ``("primitive", value)``. ``close()``
    returns the last events or raises ``ToonDecodeError`` for an invalid or incomplete
    document. A ``ToonDecodeError`` from ``feed`` or ``close`` carries the events that
    call completed before the error as ``events``."""

    def __init__(self, *, strict: bool = True, indent_size: int = 2) -> None: ...
    def feed(self, chunk: Union[str, bytes, bytearray]) -> List[Tuple[str, Any]]: ...
    def close(self) -> List[Tuple[str, Any]]: ...
    @property
    def done(self) -> bool: ...
    @property
    def line(self) -> int: ...
def plan_instructions(dialect: str) -> str: ...
def plan_read_model_output(text: str, dialect: str) -> str: ...
