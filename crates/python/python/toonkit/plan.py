"""Agent plans in every dialect: read, validate, convert, schedule.

The calls are those of the Rust library ``toon_plan`` (which the ``toon plan`` commands
use too), so a plan reads, validates and converts here exactly as it does there; the
reports are built from the library's own report objects.

Dialects: ``cursor``, ``plandag``, ``composite``, ``workflow``, ``staged``, ``tooldag``,
``taskmaster``, ``kiro``, ``speckit`` and ``plan`` (the plan model itself). Formats:
``json``, ``yaml``, ``toon``, ``md``.

>>> from toonkit import plan
>>> p = plan.read('{"dag": [{"id": "a", "tool": "search", "query": "x", "dependencies": []}]}')
>>> p.dialect, p.format, p.validate()
('tooldag', 'json', [])
"""

import dataclasses
import json
import os
import tempfile
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Mapping, Optional, Tuple, TypedDict, Union, cast

from ._toonkit import LoadedPlan as _LoadedPlan
from ._toonkit import PlanError
from ._toonkit import plan_dialects as _plan_dialects
from ._toonkit import plan_load as _plan_load
from ._toonkit import plan_schema as _plan_schema

__all__ = [
    "DIALECTS",
    "DEFAULT_CAP",
    "Conversion",
    "Event",
    "Finding",
    "Next",
    "ReadyTask",
    "Schedule",
    "ScheduledTask",
    "Stage",
    "Wave",
    "ConversionRefused",
    "FolderResult",
    "FormStats",
    "Loss",
    "Plan",
    "PlanError",
    "Problem",
    "convert_folder",
    "read",
    "instructions",
    "read_file",
    "read_model_output",
    "schema",
]

DIALECTS = tuple(_plan_dialects())
"""The dialect names: the values ``dialect=`` and ``to=`` take."""

DEFAULT_CAP = 5
"""The dry run's default concurrency cap (:meth:`Plan.dry_run`)."""

_CHANGES_LOST = ("dropped", "changed")


class Wave(TypedDict):
    """One wave of a :class:`Schedule`: tasks that can run together."""

    index: int
    tasks: List[str]


class Stage(TypedDict):
    """A task's derived stage (one per wave): ``stage-N``, its 0-based index, and
    ``parallel`` when the stage holds more than one task, else ``sequence``."""

    stageId: str
    stageIndex: int
    stageMode: str


class _ScheduledTaskKeys(TypedDict):
    index: int
    id: str
    wave: int
    stage: Stage
    waits_for: List[str]
    critical: bool


class ScheduledTask(_ScheduledTaskKeys, total=False):
    """A task of a :class:`Schedule`: its index in the plan, id, wave, stage, the ids
    it waits for, whether it is on the critical path; the groups it waits for
    (``waits_for_groups``), and its ``duration_ms`` (from ``duration_source``:
    ``estimated_duration_ms``, ``estimated_time`` or ``timeout``), ``start_ms`` and
    ``finish_ms`` when known."""

    waits_for_groups: List[str]
    duration_ms: int
    duration_source: str
    start_ms: int
    finish_ms: int


class Finding(TypedDict):
    """A declared group or stage checked against the dependencies: ``level``
    (``error`` or ``warning``), ``rule``, the ``task`` concerned and a ``message``."""

    level: str
    rule: str
    task: str
    message: str


class Schedule(TypedDict):
    """What :meth:`Plan.schedule` returns: the ``waves``, every task in plan order,
    the ``critical_path`` (ids, first to last), ``makespan_ms`` (None when no task has
    a duration), how many tasks have no duration, the plan's own estimate
    (``plan_estimate_ms``, or None) and the ``findings``."""

    waves: List[Wave]
    tasks: List[ScheduledTask]
    critical_path: List[str]
    makespan_ms: Optional[int]
    tasks_without_duration: int
    plan_estimate_ms: Optional[int]
    findings: List[Finding]


class _ReadyTaskKeys(TypedDict):
    id: str
    wave: int


class ReadyTask(_ReadyTaskKeys, total=False):
    """A task of :class:`Next`: its id and its wave (0-based), and its ``title``
    (else its description), ``status``, ``priority`` and ``parent`` (the task it is a
    subtask of) where it has them."""

    title: str
    status: str
    priority: str
    parent: str


class Next(TypedDict):
    """What :meth:`Plan.next` returns: the tasks ready to start (``ready``, in
    schedule order), how many tasks are ``finished`` and the ``total``."""

    ready: List[ReadyTask]
    finished: int
    total: int


class _EventKeys(TypedDict):
    event: str
    at_ms: int


class Event(_EventKeys, total=False):
    """One event of :meth:`Plan.dry_run`: its ``event`` name (``plan_created``,
    ``step_start``, ``executor_spawned``, ``tool_call``, ``tool_result``,
    ``executor_result``, ``error``, ``step_complete``, ``operation``) and time
    ``at_ms``, with the keys that event carries: ``plan_id``, ``steps``, ``stages``,
    ``cap`` (plan created); ``step_id``, ``stage_id``, ``status`` (``start``,
    ``complete``, ``failed``, ``skipped``), ``executor``, ``output_refs``,
    ``blocked_by`` (step events); ``tool``, ``query``, ``ok`` (tool calls and
    results); ``message`` (errors, operations)."""

    plan_id: str
    steps: int
    stages: int
    cap: int
    step_id: str
    stage_id: str
    status: str
    executor: str
    output_refs: List[str]
    blocked_by: str
    tool: str
    query: str
    ok: bool
    message: str


@dataclass(frozen=True)
class Problem:
    """One finding of validation: ``severity`` (``"error"`` or ``"warning"``), ``rule``
    (e.g. ``"acyclic"``), ``message``, and where: ``line`` (markdown plans) or ``path``
    into the document tree (``"dag[1].dependencies[0]"``), or neither for the whole
    document. A problem at a path of a plan read from JSON, YAML or TOON text also has
    the ``line`` and ``column`` (1-based) of that path's key or item in the text; a plan
    read from a dict has only the path."""

    severity: str
    rule: str
    message: str
    line: Optional[int] = None
    path: Optional[str] = None
    column: Optional[int] = None

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Problem":
        """A problem from its dict form (:meth:`to_dict`)."""
        return cls(
            d["severity"], d["rule"], d["message"], d.get("line"), d.get("path"), d.get("column")
        )

    @property
    def is_error(self) -> bool:
        """True for errors (warnings do not make a plan invalid)."""
        return self.severity == "error"

    def to_dict(self) -> Dict[str, Any]:
        """``severity``, ``rule``, ``message``, and ``line`` or ``path`` (and
        ``column``) when the problem has one: the library's serialised form."""
        d: Dict[str, Any] = {"severity": self.severity, "rule": self.rule, "message": self.message}
        for key in ("line", "path", "column"):
            if getattr(self, key) is not None:
                d[key] = getattr(self, key)
        return d

    def __str__(self) -> str:
        if self.path is not None:
            where = self.path or "(root)"
            if self.line is not None:
                where += f" (line {self.line}, column {self.column})"
        elif self.line is not None:
            where = f"line {self.line}"
        else:
            where = "(document)"
        return f"{where}: {self.severity}: {self.message} [{self.rule}]"


def _short(v: Any, width: int = 40) -> str:
    text = repr(v)
    return text if len(text) <= width else text[: width - 3] + "..."


@dataclass(frozen=True)
class Loss:
    """One entry of a conversion's report: what happened to ``field`` of ``owner``
    (``"task ID"``, ``"group ID"`` or ``"plan"``). ``change`` is ``dropped`` or
    ``changed`` (the target cannot hold the value as it was), ``added`` (the target's
    writer supplies it), or ``derived``, ``defaulted``, ``set`` (filled in for the
    target, by ``rule`` where one applied). ``before`` and ``after`` are the values
    (None when absent)."""

    owner: str
    field: str
    change: str
    before: Any = None
    after: Any = None
    rule: Optional[str] = None

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Loss":
        """A loss from its dict form (:meth:`to_dict`)."""
        return cls(d["owner"], d["field"], d["change"], d["before"], d["after"], d["rule"])

    def to_dict(self) -> Dict[str, Any]:
        """Every field by name: the library's serialised form."""
        return dataclasses.asdict(self)

    def __repr__(self) -> str:
        values = {"dropped": self.before, "changed": self.before}.get(self.change, self.after)
        return f"<Loss {self.owner}: {self.field} {self.change} ({_short(values)})>"


@dataclass(frozen=True)
class FormStats:
    """The size of one form of a plan (:meth:`Plan.stats`): ``key`` (``source``,
    ``json_pretty``, ``json_compact``, ``toon``, ``plan_json_compact``, ``plan_toon``,
    ``prompt``, ``plan_lean``), ``label``, ``bytes``, exact o200k_base ``tokens``; ``lossless``:
    the source converts back from this form unchanged, ``keeps_content``: its content
    does (None for the source and the lean form)."""

    key: str
    label: str
    bytes: int
    tokens: int
    lossless: Optional[bool]
    keeps_content: Optional[bool]


@dataclass
class Conversion:
    """A converted plan: ``text`` in ``format`` and dialect ``to`` (from
    ``from_dialect``), and its report: ``losses`` (what the target could not hold, and
    what was filled in), ``target_problems`` (the target dialect's own validation of
    the text: errors only when converted with ``force=True``) and ``settable`` (the
    fields ``set=`` could fill to clear those errors)."""

    text: str
    from_dialect: Optional[str]
    to: str
    format: str
    losses: List[Loss]
    target_problems: List[Problem]
    settable: List[str]
    source: Optional[str] = field(default=None, repr=False)

    @classmethod
    def _from_report(cls, text: str, report: Mapping[str, Any], source: Optional[str]) -> "Conversion":
        return cls(
            text,
            report["from"],
            report["to"],
            report["format"],
            [Loss.from_dict(d) for d in report["losses"]],
            [Problem.from_dict(d) for d in report["target_problems"]],
            list(report["settable"]),
            source,
        )

    @property
    def problems(self) -> List[Problem]:
        """The same as :attr:`target_problems`."""
        return self.target_problems

    def _of(self, *changes: str) -> List[Loss]:
        return [l for l in self.losses if l.change in changes]

    @property
    def dropped(self) -> List[Loss]:
        """What the target lost of the plan: ``dropped`` and ``changed`` fields."""
        return self._of(*_CHANGES_LOST)

    @property
    def filled(self) -> List[Loss]:
        """What the conversion put in: ``added``, ``derived``, ``defaulted``, ``set``."""
        return [l for l in self.losses if l.change not in _CHANGES_LOST]

    @property
    def added(self) -> List[Loss]:
        """Fields the target's writer supplied."""
        return self._of("added")

    @property
    def derived(self) -> List[Loss]:
        """Fields computed from the plan by a rule (``rule`` says which)."""
        return self._of("derived")

    @property
    def defaulted(self) -> List[Loss]:
        """Fields given their one obvious value."""
        return self._of("defaulted")

    @property
    def set_values(self) -> List[Loss]:
        """Fields filled from ``set=``."""
        return self._of("set")

    def report(self) -> Dict[str, Any]:
        """The report as a dict: ``from``, ``to``, ``format``, ``losses``,
        ``target_problems``, ``settable`` (the library's serialised form)."""
        return {
            "from": self.from_dialect,
            "to": self.to,
            "format": self.format,
            "losses": [l.to_dict() for l in self.losses],
            "target_problems": [p.to_dict() for p in self.target_problems],
            "settable": list(self.settable),
        }

    def read(self) -> "Plan":
        """The converted text read back as a plan of the target dialect."""
        return read(self.text, dialect=self.to, format=self.format)

    def write(self, path: Union[str, "os.PathLike[str]"]) -> str:
        """Writes the text to ``path`` atomically (a temporary file in the same
        folder, then renamed over it): never half a file. Refuses to write over the
        file the plan was read from. Returns the path written."""
        target = os.fspath(path)
        if self.source is not None and os.path.exists(target):
            if os.path.samefile(target, self.source):
                raise PlanError(f"{target}: is the plan's own file: not written over")
        _write_atomic(target, self.text)
        return target

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return (
            f"<Conversion {self.from_dialect or 'plan'} -> {self.to} {self.format}: "
            f"{len(self.text)} chars, {len(self.dropped)} dropped, {len(self.filled)} filled, "
            f"{len(self.target_problems)} target problems>"
        )


def _write_atomic(target: str, text: str) -> None:
    folder = os.path.dirname(os.path.abspath(target))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".toonkit-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


class ConversionRefused(PlanError):
    """A conversion refused without ``force=True``: the source plan is invalid, or the
    text would fail the target dialect's validation. ``problems`` are the errors;
    ``settable`` the fields ``set=`` could fill (``{"tool": "web_search"}``);
    ``conversion`` the refused result when the source was valid."""

    def __init__(
        self,
        message: str,
        problems: List[Problem],
        settable: Optional[List[str]] = None,
        conversion: Optional[Conversion] = None,
    ) -> None:
        super().__init__(message)
        self.msg = message
        self.problems = problems
        self.settable = list(settable or [])
        self.conversion = conversion
        self.kind = None
        self.line = None
        self.column = None
        self.path = None
        self.file = None


_Settings = Union[None, Mapping[str, Any], Iterable[str], str]


def _settings(set: _Settings) -> List[Tuple[Optional[str], str, str]]:
    """``(task or None, field, value)`` for each value ``set=`` gives."""
    if set is None:
        return []
    if isinstance(set, str):
        set = [set]
    if isinstance(set, Mapping):
        pairs = [(str(k), _value(k, v)) for k, v in set.items()]
    else:
        pairs = []
        for s in set:
            key, eq, value = str(s).partition("=")
            if not eq:
                raise ValueError(f"{s!r}: expected 'FIELD=VALUE' or 'TASK.FIELD=VALUE'")
            pairs.append((key, value))
    out = []
    for key, value in pairs:
        # A task id may hold dots: the field is what follows the last one.
        task, dot, name = key.rpartition(".")
        out.append((task if dot else None, name, value))
    return out


def _value(field: Any, value: Any) -> str:
    # Text, or an integer (``parallel_group``): None or True would become the text
    # "None" or "True" in the plan.
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise ValueError(
            f"set={{{field!r}: {value!r}}}: a value is text (or an integer for parallel_group)"
        )
    return str(value)


class Plan:
    """A plan read from text, a file or a dict: its ``dialect``, ``format``, its
    document in its dialect's own field names (:meth:`to_dict`) and its plan model
    (:meth:`model`, :attr:`tasks`). Build one with :func:`read` or :func:`read_file`."""

    __slots__ = ("_loaded", "source")

    def __init__(self, loaded: _LoadedPlan, source: Optional[str] = None) -> None:
        self._loaded = loaded
        self.source = source
        """The file it was read from (None for text)."""

    @property
    def dialect(self) -> str:
        """The dialect it is written in (given, else detected from the content)."""
        return self._loaded.dialect

    @property
    def format(self) -> str:
        """The format it is written in: ``json``, ``yaml``, ``toon``, ``md`` or
        ``prompt``."""
        return self._loaded.format

    def to_dict(self) -> Any:
        """The plan in its own dialect's JSON form, with the dialect's own field names
        (a Cursor todo's ``content``, a PlanDAG step's ``agent_type``; a markdown plan's
        front matter keys and ``body``), a fresh copy on each call.
        ``read(p.to_dict(), dialect=p.dialect)`` reads it back."""
        return self._loaded.document()

    def model(self) -> Dict[str, Any]:
        """The plan model as a dict: the one shape every dialect maps into (tasks with
        ``title``, ``description``, ``dependencies``, …), a fresh copy on each call.
        ``read(p.model(), dialect="plan")`` reads it back."""
        return cast(Dict[str, Any], self._loaded.model())

    @property
    def tasks(self) -> List[Dict[str, Any]]:
        """The model's tasks, in plan order (``model()["tasks"]``)."""
        return cast(List[Dict[str, Any]], self.model()["tasks"])

    @property
    def title(self) -> Optional[str]:
        """The plan's title, when it has one."""
        return self.model().get("title")

    def validate(self) -> List[Problem]:
        """Every problem: the dialect's rules, reading warnings, and the placement
        errors the schedule finds."""
        return [Problem.from_dict(d) for d in self._loaded.problems()]

    def is_valid(self) -> bool:
        """True when :meth:`validate` finds no error (warnings allowed)."""
        return not any(p.is_error for p in self.validate())

    def convert(
        self,
        to: str,
        format: Optional[str] = None,
        *,
        set: _Settings = None,
        force: bool = False,
        lean: bool = False,
    ) -> Conversion:
        """Converts the plan to dialect ``to``.

        ``format`` defaults to the target's natural format. ``set`` gives what the
        target needs and the plan lacks: a mapping ``{"tool": "web_search",
        "open.action": "navigate"}`` (``FIELD`` for every task without a valid value,
        ``TASK.FIELD`` for one) or ``"FIELD=VALUE"`` strings. ``lean`` leaves the
        markdown body and the source's layout out.

        Raises :class:`ConversionRefused` when the plan has validation errors, or the
        text fails the target's validation (it needs what the source does not hold) —
        unless ``force``. Raises :class:`PlanError` when the target cannot be written
        at all (``md`` for a JSON dialect) or a ``set`` field is unknown, ``ValueError``
        for an unknown dialect or format, or a ``set`` value that is not text (or an
        integer for ``parallel_group``).
        """
        sets = _settings(set)
        if not force:
            errors = [p for p in self.validate() if p.is_error]
            if errors:
                raise ConversionRefused(
                    f"not converted: {len(errors)} error(s) (use force=True to convert anyway)",
                    errors,
                )
        text, report = self._loaded.convert(to, format, sets, lean)
        conv = Conversion._from_report(text, report, self.source)
        target_errors = [p for p in conv.target_problems if p.is_error]
        if target_errors and not force:
            message = (
                f"not converted (use force=True to convert anyway): as {to} it fails "
                f"{to}'s own validation with {len(target_errors)} error(s) (it needs what "
                "the source does not hold)"
            )
            if conv.settable:
                fields = ", ".join(f'"{f}": VALUE' for f in conv.settable)
                message += (
                    f"; the plan has no value for these; give one with set={{{fields}}} "
                    '(or "TASK.FIELD" for one task)'
                )
            raise ConversionRefused(message, target_errors, conv.settable, conv)
        return conv

    def stats(self) -> List[FormStats]:
        """The plan's size in every form a prompt might hold it: its source, its
        dialect as pretty and compact JSON and as TOON, the plan model as compact JSON
        and as TOON (and lean, without a markdown body), in bytes and exact o200k_base
        tokens."""
        return [FormStats(**d) for d in self._loaded.stats()]

    def graph(self, format: str = "mermaid") -> str:
        """The plan's graph with its waves: ``"mermaid"``, ``"dot"`` (Graphviz) or
        ``"text"``. Raises :class:`PlanError` when the plan has no schedule."""
        return cast(str, self._loaded.graph(format))

    def schedule(self) -> Schedule:
        """Waves, tasks with their wave, stage and timing, critical path and makespan:
        a dict with ``waves``, ``tasks``, ``critical_path``, ``makespan_ms``,
        ``tasks_without_duration``, ``plan_estimate_ms`` and ``findings``. Raises
        :class:`PlanError` (kind ``unschedulable``, with the ``path`` of the task at
        fault) when the plan has no schedule: a repeated id, a cycle."""
        return cast(Schedule, self._loaded.schedule())

    def next(self) -> Next:
        """The tasks ready to start — not started (``pending`` or no status), every
        task they wait for finished (``done`` or ``completed``), none of their subtasks
        unfinished — in schedule order, as a :class:`Next`. Raises :class:`PlanError`
        (kind ``unschedulable``) when the plan has no schedule: a repeated id, a
        cycle."""
        return cast(Next, self._loaded.next())

    def dry_run(
        self,
        cap: int = DEFAULT_CAP,
        *,
        fail: Iterable[str] = (),
        tool_caps: Optional[Mapping[str, int]] = None,
    ) -> List[Event]:
        """A simulated run's events, one :class:`Event` dict each: at most ``cap`` steps at once, at
        most ``tool_caps[tool]`` using a tool, the steps in ``fail`` failing (their
        dependents are skipped). Raises :class:`PlanError` for a cap below 1, a step
        not in the plan, or a plan with no schedule."""
        caps = dict(tool_caps or {})
        return cast(List[Event], self._loaded.events(cap, list(fail), caps))

    def __repr__(self) -> str:
        n = len(self.tasks)
        where = f" from {self.source}" if self.source else ""
        return f"<Plan {self.dialect} {self.format}, {n} task{'s' * (n != 1)}{where}>"


def _not_utf8(message: str, file: Optional[str]) -> PlanError:
    err = PlanError(message)
    err.kind, err.line, err.column, err.path, err.msg = "unreadable", None, None, None, message
    err.file = file
    return err


def read(
    source: Union[str, bytes, "os.PathLike[str]", Mapping[str, Any], List[Any]],
    dialect: Optional[str] = None,
    format: Optional[str] = None,
) -> Plan:
    """Reads a plan. ``source`` is the plan itself when it is a ``str`` (or UTF-8
    ``bytes``), a document built in code when it is a ``dict`` or ``list`` (any
    dialect's JSON form, or the plan model's), a file when it is an ``os.PathLike``
    (``pathlib.Path``): a ``str`` is never taken for a file name (use
    :func:`read_file` for one).

    The format comes from ``format``, else the file's extension, else the text; the
    dialect from ``dialect``, else the content, else the file's name (``*.plan.md`` is
    Cursor's). Raises :class:`PlanError` (a ``ValueError``) with ``kind``, ``line``
    and ``column`` where the text is not valid JSON, YAML or TOON, or its dialect
    cannot be told.
    """
    if isinstance(source, os.PathLike):
        return read_file(source, dialect=dialect, format=format)
    if isinstance(source, (dict, list)) or (
        isinstance(source, Mapping) and not isinstance(source, (str, bytes))
    ):
        text = json.dumps(source, ensure_ascii=False)
        return Plan(_plan_load(text, None, dialect, "json", True))
    if isinstance(source, (bytes, bytearray)):
        try:
            source = bytes(source).decode("utf-8")
        except UnicodeDecodeError as e:
            raise _not_utf8(f"not UTF-8 text (byte {e.start})", None) from None
    if not isinstance(source, str):
        raise TypeError(
            "read() takes plan text (str, bytes), a document (dict, list) or a path "
            f"(os.PathLike), not {type(source).__name__}"
        )
    return Plan(_plan_load(source, None, dialect, format))


def read_file(
    path: Union[str, "os.PathLike[str]"],
    dialect: Optional[str] = None,
    format: Optional[str] = None,
) -> Plan:
    """Reads a plan file (a path as ``str`` or ``os.PathLike``), as :func:`read`
    does; its name and extension help tell the format and dialect. A ``PlanError``'s
    ``file`` attribute names the file."""
    name = os.fspath(path)
    with open(name, "rb") as f:
        data = f.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise _not_utf8(f"{name}: not UTF-8 text (byte {e.start})", name) from None
    try:
        return Plan(_plan_load(text, name, dialect, format), source=name)
    except PlanError as e:
        e.file = name
        raise




@dataclass
class FolderResult:
    """One file of :func:`convert_folder`: its ``source``, the ``target`` written (None
    when nothing was), the ``conversion`` (None when it failed) and the ``error``
    (None when it did not)."""

    source: str
    target: Optional[str]
    conversion: Optional[Conversion]
    error: Optional[PlanError] = None


def convert_folder(
    source: Union[str, "os.PathLike[str]"],
    target: Union[str, "os.PathLike[str]"],
    to: str,
    format: Optional[str] = None,
    *,
    set: _Settings = None,
    force: bool = False,
    lean: bool = False,
) -> List[FolderResult]:
    """Converts every plan file under the folder ``source`` (recursively, hidden
    entries skipped) to dialect ``to``, writing each into the folder ``target`` under
    its own relative path with the new format's extension (``x.plan.md`` becomes
    ``x.plan.toon``; composite plans get a new ``PLAN-<random>.yaml`` name), each
    atomically. ``format``, ``set``, ``force`` and ``lean`` are :meth:`Plan.convert`'s.
    The folder's dialect is the one most of its plans are in; a plan in another dialect
    is reported, not converted. A file that fails to read or convert is reported in its
    :class:`FolderResult`, not raised. A ``source`` that is not a folder or holds no
    plan, a ``target`` that is a file, is ``source`` itself, or would have a plan
    written over a source or two plans written to one file, is a :class:`PlanError`
    (kind ``output``) and nothing is written."""
    from ._toonkit import plan_folder

    work = plan_folder(os.fspath(source), os.fspath(target), to, format)
    results = []
    for entry in work["entries"]:
        path, out = entry["source"], entry["target"]
        if entry["foreign_dialect"] is not None:
            err = PlanError(
                f"{path}: a {entry['foreign_dialect']} plan among {work['dialect']} plans: "
                "not converted (convert it on its own, naming its dialect)"
            )
            err.kind, err.line, err.column, err.path, err.msg = "shape", None, None, None, str(err)
            results.append(FolderResult(path, None, None, err))
            continue
        try:
            conv = read_file(path).convert(to, format, set=set, force=force, lean=lean)
        except PlanError as e:
            results.append(FolderResult(path, None, None, e))
            continue
        os.makedirs(os.path.dirname(out), exist_ok=True)
        results.append(FolderResult(path, conv.write(out), conv))
    return results


def schema(dialect: str) -> Dict[str, Any]:
    """The JSON Schema of a dialect's documents, as ``toon plan schema DIALECT``
    prints it (for structured output from a model)."""
    return cast(Dict[str, Any], json.loads(_plan_schema(dialect)))


def instructions(dialect: str) -> str:
    """A prompt block teaching a model to write a plan of ``dialect`` as TOON (fields,
    closed values, rules and a valid example), as ``toon plan instructions --to``
    prints it."""
    from ._toonkit import plan_instructions

    return cast(str, json.loads(plan_instructions(dialect))["text"])


def read_model_output(text: str, dialect: str) -> Dict[str, Any]:
    """Reads the plan in a model's answer (a fenced ```toon block, or bare among
    prose) leniently and validates it as ``dialect``: a dict with ``found``
    (``fence``/``bare``), ``first_line``, ``text``, ``plan`` (the plan model, or None),
    ``lines`` (each problem as one located line to send back to the model) and
    ``valid``, as ``toon plan validate --model-output --json`` prints it."""
    from ._toonkit import plan_read_model_output

    return cast(Dict[str, Any], json.loads(plan_read_model_output(text, dialect)))
