"""Agent plans in every dialect: read, validate, convert, schedule.

The calls are those of the ``toon plan`` commands (the same Rust library, ``toon_plan``),
so a plan reads, validates and converts here exactly as it does on the command line,
and the dictionaries are the CLI's ``--json`` shapes.

Dialects: ``cursor``, ``plandag``, ``composite``, ``workflow``, ``staged``, ``tooldag``
and ``plan`` (the plan model itself). Formats: ``json``, ``yaml``, ``toon``, ``md``.

>>> from toonkit import plan
>>> p = plan.read('{"dag": [{"id": "a", "tool": "search", "query": "x", "dependencies": []}]}')
>>> p.dialect, p.format, p.validate()
('tooldag', 'json', [])
"""

import json
import os
from typing import Any, Dict, Iterable, List, Mapping, Optional, Union, cast

from ._toonkit import LoadedPlan as _LoadedPlan
from ._toonkit import PlanError
from ._toonkit import plan_dialects as _plan_dialects
from ._toonkit import plan_load as _plan_load
from ._toonkit import plan_schema as _plan_schema

__all__ = [
    "DIALECTS",
    "DEFAULT_CAP",
    "Conversion",
    "ConversionRefused",
    "Loss",
    "Plan",
    "PlanError",
    "Problem",
    "read",
    "instructions",
    "read_file",
    "read_model_output",
    "schema",
]

DIALECTS = tuple(_plan_dialects())
"""The dialect names, as ``--from``/``--to`` take them."""

DEFAULT_CAP = 5
"""The dry run's default concurrency cap (``toon plan schedule --events``)."""


class Problem:
    """One finding of validation: ``severity`` (``"error"`` or ``"warning"``), ``rule``
    (e.g. ``"acyclic"``), ``message``, and where: ``line`` (markdown plans) or ``path``
    into the document tree (``"dag[1].dependencies[0]"``), or neither for the whole
    document. ``column`` is always None: rules name lines, not columns."""

    __slots__ = ("severity", "rule", "message", "line", "column", "path")

    def __init__(
        self,
        severity: str,
        rule: str,
        message: str,
        line: Optional[int] = None,
        path: Optional[str] = None,
        column: Optional[int] = None,
    ) -> None:
        self.severity = severity
        self.rule = rule
        self.message = message
        self.line = line
        self.column = column
        self.path = path

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Problem":
        """A problem from its ``--json`` form."""
        return cls(d["severity"], d["rule"], d["message"], d.get("line"), d.get("path"))

    @property
    def is_error(self) -> bool:
        """True for errors (warnings do not make a plan invalid)."""
        return self.severity == "error"

    def to_dict(self) -> Dict[str, Any]:
        """The ``--json`` form: ``severity``, ``rule``, ``message`` and ``line`` or
        ``path`` when the problem has one."""
        d: Dict[str, Any] = {"severity": self.severity, "rule": self.rule, "message": self.message}
        if self.line is not None:
            d["line"] = self.line
        if self.path is not None:
            d["path"] = self.path
        return d

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Problem) and self.to_dict() == other.to_dict()

    def __str__(self) -> str:
        if self.line is not None:
            where = f"line {self.line}"
        elif self.path is not None:
            where = self.path or "(root)"
        else:
            where = "(document)"
        return f"{where}: {self.severity}: {self.message} [{self.rule}]"

    def __repr__(self) -> str:
        return f"Problem({str(self)!r})"


class Loss:
    """One entry of a loss report: what happened to ``field`` of ``owner`` (``"task
    ID"``, ``"group ID"`` or ``"plan"``). ``change`` is ``dropped``, ``changed``,
    ``added`` (the target cannot hold the field as it was), or ``derived``,
    ``defaulted``, ``set`` (filled in for the target, by ``rule`` where one applied).
    ``before`` and ``after`` are the values (None when absent)."""

    __slots__ = ("owner", "field", "change", "before", "after", "rule")

    def __init__(
        self,
        owner: str,
        field: str,
        change: str,
        before: Any = None,
        after: Any = None,
        rule: Optional[str] = None,
    ) -> None:
        self.owner = owner
        self.field = field
        self.change = change
        self.before = before
        self.after = after
        self.rule = rule

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Loss":
        """A loss from its ``--json`` form."""
        return cls(d["owner"], d["field"], d["change"], d["before"], d["after"], d["rule"])

    def to_dict(self) -> Dict[str, Any]:
        """The ``--json`` form (every key present)."""
        return {name: getattr(self, name) for name in self.__slots__}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Loss) and self.to_dict() == other.to_dict()

    def __repr__(self) -> str:
        return (
            f"Loss({self.owner!r}, {self.field!r}, {self.change!r}, "
            f"before={self.before!r}, after={self.after!r})"
        )


class Conversion:
    """A converted plan: ``text`` in ``format`` and dialect ``to``, the ``losses``
    (what the target could not hold, and what was filled in), and ``problems``: the
    target dialect's own validation of the text (errors only when written with
    ``force=True``)."""

    __slots__ = ("text", "to", "format", "losses", "problems")

    def __init__(
        self, text: str, to: str, format: str, losses: List[Loss], problems: List[Problem]
    ) -> None:
        self.text = text
        self.to = to
        self.format = format
        self.losses = losses
        self.problems = problems

    @property
    def dropped(self) -> List[Loss]:
        """The losses that are really lost: ``dropped``, ``changed`` or ``added``."""
        return [l for l in self.losses if l.change in ("dropped", "changed", "added")]

    def read(self) -> "Plan":
        """The converted text read back as a plan of the target dialect."""
        return read(self.text, dialect=self.to, format=self.format)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return (
            f"<Conversion to {self.to} {self.format}: {len(self.text)} chars, "
            f"{len(self.losses)} losses, {len(self.problems)} problems>"
        )


class ConversionRefused(PlanError):
    """A conversion the CLI refuses without ``--force``: the source plan is invalid, or
    the text would fail the target dialect's validation. ``problems`` are the errors;
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
        self.line = None
        self.column = None
        self.path = None
        self.file = None


def _settings(set: Union[None, Mapping[str, Any], Iterable[str]]) -> List[str]:
    if set is None:
        return []
    if isinstance(set, str):
        return [set]
    if isinstance(set, Mapping):
        return [_setting(k, v) for k, v in set.items()]
    return [str(s) for s in set]


def _setting(field: Any, value: Any) -> str:
    # Text, or an integer (``parallel_group``): None or True would become the text
    # "None" or "True" in the plan.
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise ValueError(
            f"set={{{field!r}: {value!r}}}: a value is text (or an integer for parallel_group)"
        )
    return f"{field}={value}"


class Plan:
    """A plan read from text: its ``dialect``, ``format`` and model (``to_dict()``,
    ``tasks``). Build one with :func:`read` or :func:`read_file`."""

    __slots__ = ("_loaded", "source")

    def __init__(self, loaded: _LoadedPlan, source: Optional[str] = None) -> None:
        self._loaded = loaded
        self.source = source
        """The file it was read from (None for text)."""

    @property
    def dialect(self) -> str:
        """The dialect it is written in (given, else detected as the CLI does)."""
        return self._loaded.dialect

    @property
    def format(self) -> str:
        """The format it is written in: ``json``, ``yaml``, ``toon`` or ``md``."""
        return self._loaded.format

    def to_dict(self) -> Dict[str, Any]:
        """The plan model as a dict: its fields nested as the model holds them (tasks
        with their ``dependencies``), a fresh copy on each call. ``read(json.dumps(d),
        dialect="plan")`` reads it back; ``convert("plan", "json")`` gives the
        table-friendly document with its ``schema`` key, which reads back without naming
        the dialect."""
        return cast(Dict[str, Any], json.loads(self._loaded.plan_json()))

    @property
    def tasks(self) -> List[Dict[str, Any]]:
        """The model's tasks, in plan order (``to_dict()["tasks"]``)."""
        return cast(List[Dict[str, Any]], self.to_dict()["tasks"])

    @property
    def title(self) -> Optional[str]:
        """The plan's title, when it has one."""
        return self.to_dict().get("title")

    def validate(self) -> List[Problem]:
        """Every problem, as ``toon plan validate`` finds them: the dialect's rules,
        reading warnings, and placement errors the schedule finds."""
        return [Problem.from_dict(d) for d in json.loads(self._loaded.problems_json())]

    def is_valid(self) -> bool:
        """True when :meth:`validate` finds no error (warnings allowed)."""
        return not any(p.is_error for p in self.validate())

    def convert(
        self,
        to: str,
        format: Optional[str] = None,
        *,
        set: Union[None, Mapping[str, Any], Iterable[str]] = None,
        force: bool = False,
        lean: bool = False,
    ) -> Conversion:
        """Converts the plan to dialect ``to``, as ``toon plan convert --to TO``.

        ``format`` defaults to the target's natural format. ``set`` gives what the
        target needs and the plan lacks, as ``--set`` does: a mapping
        ``{"tool": "web_search", "open.action": "navigate"}`` (``FIELD`` for every task
        without a valid value, ``TASK.FIELD`` for one) or ``"FIELD=VALUE"`` strings.
        ``lean`` leaves the markdown body and layout out.

        Raises :class:`ConversionRefused` where the CLI refuses: the plan has
        validation errors, or the text fails the target's validation (it needs what the
        source does not hold) — unless ``force``. Raises :class:`PlanError` when the
        target cannot be written at all (e.g. ``md`` for a JSON dialect), ``ValueError``
        for an unknown dialect, format or ``set`` field, or a ``set`` value that is not
        text (or an integer for ``parallel_group``).
        """
        sets = _settings(set)
        if not force:
            errors = [p for p in self.validate() if p.is_error]
            if errors:
                raise ConversionRefused(
                    f"not converted: {len(errors)} error(s) (use force=True to convert anyway)",
                    errors,
                )
        text, fmt, losses, problems, settable = self._loaded.convert(to, format, sets, lean)
        conv = Conversion(
            text,
            to,
            fmt,
            [Loss.from_dict(d) for d in json.loads(losses)],
            [Problem.from_dict(d) for d in json.loads(problems)],
        )
        target_errors = [p for p in conv.problems if p.is_error]
        if target_errors and not force:
            message = (
                f"not converted (use force=True to convert anyway): as {to} it fails "
                f"{to}'s own validation with {len(target_errors)} error(s) (it needs what "
                "the source does not hold)"
            )
            if settable:
                fields = ", ".join(f'"{f}": VALUE' for f in settable)
                message += (
                    f"; the plan has no value for these; give one with set={{{fields}}} "
                    '(or "TASK.FIELD" for one task)'
                )
            raise ConversionRefused(message, target_errors, settable, conv)
        return conv

    def schedule(self) -> Dict[str, Any]:
        """Waves, tasks with their wave, stage and timing, critical path and makespan:
        the dict ``toon plan schedule --json`` prints (keys ``waves``, ``tasks``,
        ``critical_path``, ``makespan_ms``, ``tasks_without_duration``,
        ``plan_estimate_ms``, ``findings``). Raises :class:`PlanError` when the plan has
        no schedule (a cycle)."""
        return cast(Dict[str, Any], json.loads(self._loaded.schedule_json()))

    def dry_run(
        self,
        cap: int = DEFAULT_CAP,
        *,
        fail: Iterable[str] = (),
        tool_caps: Optional[Mapping[str, int]] = None,
    ) -> List[Dict[str, Any]]:
        """A simulated run's events, as ``toon plan schedule --events`` prints them
        (one dict per JSON line): at most ``cap`` steps at once, at most
        ``tool_caps[tool]`` using a tool, the steps in ``fail`` failing (their
        dependents are skipped). Raises :class:`PlanError` for a cap below 1, a
        step not in the plan, or a plan with no schedule."""
        caps = dict(tool_caps or {})
        events = json.loads(self._loaded.events_json(cap, list(fail), caps))
        return cast(List[Dict[str, Any]], events)

    def __repr__(self) -> str:
        n = len(self.tasks)
        where = f" from {self.source}" if self.source else ""
        return f"<Plan {self.dialect} {self.format}, {n} task{'s' * (n != 1)}{where}>"


def read(
    source: Union[str, bytes, "os.PathLike[str]"],
    dialect: Optional[str] = None,
    format: Optional[str] = None,
) -> Plan:
    """Reads a plan. ``source`` is the plan itself when it is a ``str`` (or UTF-8
    ``bytes``), a file when it is an ``os.PathLike`` (``pathlib.Path``): a ``str`` is
    never taken for a file name (use :func:`read_file` for one).

    The format comes from ``format``, else the file's extension, else the text; the
    dialect from ``dialect``, else the content, else the file's name (``*.plan.md`` is
    Cursor's) — as ``toon plan`` decides. Raises :class:`PlanError` (a ``ValueError``)
    with ``line`` and ``column`` where the text is not valid JSON, YAML or TOON, or its
    dialect cannot be told.
    """
    if isinstance(source, os.PathLike):
        return read_file(source, dialect=dialect, format=format)
    if isinstance(source, (bytes, bytearray)):
        try:
            source = bytes(source).decode("utf-8")
        except UnicodeDecodeError as e:
            err = PlanError(f"not UTF-8 text (byte {e.start})")
            err.line, err.column, err.path, err.msg = None, None, None, str(err)
            err.file = None
            raise err from None
    if not isinstance(source, str):
        raise TypeError(
            f"read() takes plan text (str) or a path (os.PathLike), not {type(source).__name__}"
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
        err = PlanError(f"{name}: not UTF-8 text (byte {e.start})")
        err.line, err.column, err.path, err.msg = None, None, None, str(err)
        err.file = name
        raise err from None
    try:
        return Plan(_plan_load(text, name, dialect, format), source=name)
    except PlanError as e:
        e.file = name
        raise


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
