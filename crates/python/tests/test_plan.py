"""toonkit.plan on the repository's plan testdata, compared with the `toon` CLI where
one is built (TOON_CLI, else target/debug/toon): the Python assertions run without it."""

import glob
import json
import os
import pathlib
import re
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toonkit
from toonkit import plan

ROOT = pathlib.Path(__file__).resolve().parents[3]
PLANS = ROOT / "testdata" / "plans"
VALID = sorted(pathlib.Path(p) for p in glob.glob(str(PLANS / "*" / "valid" / "*")))
INVALID = sorted(pathlib.Path(p) for p in glob.glob(str(PLANS / "*" / "invalid" / "*")))
MESSY = sorted(pathlib.Path(p) for p in glob.glob(str(PLANS / "*" / "messy" / "*")))


def _cli():
    path = os.environ.get("TOON_CLI") or str(ROOT / "target" / "debug" / "toon")
    return path if os.path.isfile(path) and os.access(path, os.X_OK) else None


CLI = _cli()
needs_cli = pytest.mark.skipif(
    CLI is None, reason="no toon CLI (set TOON_CLI or build target/debug/toon)"
)


def cli_json(*args):
    out = subprocess.run([CLI, *map(str, args)], capture_output=True, text=True, cwd=ROOT)
    return json.loads(out.stdout)


def test_the_testdata_is_there():
    assert len(VALID) >= 7 and len(INVALID) >= 20
    assert {p.parts[-3] for p in VALID} == set(plan.DIALECTS)


@pytest.mark.parametrize("path", VALID, ids=lambda p: f"{p.parts[-3]}/{p.name}")
def test_valid_plans_read_and_validate_clean(path):
    p = plan.read(path)
    assert p.dialect == path.parts[-3]
    assert p.source == str(path)
    assert [x for x in p.validate() if x.is_error] == []
    assert p.is_valid()
    assert len(p.tasks) >= 1
    # The same text as a str reads the same way (the name only adds hints); read as
    # bytes, so that CRLF line endings stay in the text.
    text = path.read_bytes().decode("utf-8")
    same = plan.read(text, dialect=p.dialect, format=p.format)
    assert same.to_dict() == p.to_dict()


@pytest.mark.parametrize("path", INVALID, ids=lambda p: f"{p.parts[-3]}/{p.name}")
def test_invalid_plans_break_the_rule_they_are_named_after(path):
    p = plan.read_file(str(path))
    problems = p.validate()
    errors = [x for x in problems if x.is_error]
    assert errors and not p.is_valid()
    rule = path.name.split(".")[0]
    assert rule in {x.rule for x in errors}, [str(x) for x in problems]
    for x in problems:
        assert x.severity in ("error", "warning")
        # A path in a JSON, YAML or TOON text also has its line and column there.
        assert (x.line is None) or (x.path is None) or (x.column is not None and x.column >= 1)
        assert x.line is None or x.line >= 1
        assert x.message and str(x).endswith(f"[{x.rule}]")


@needs_cli
@pytest.mark.parametrize("path", VALID + INVALID, ids=lambda p: f"{p.parts[-3]}/{p.name}")
def test_validate_gives_the_problems_the_cli_gives(path):
    [record] = cli_json("plan", "validate", "--json", path)
    p = plan.read(path)
    assert (p.dialect, p.format, len(p.tasks)) == (
        record["dialect"],
        record["format"],
        record["tasks"],
    )
    assert [x.to_dict() for x in p.validate()] == record["problems"]
    assert p.is_valid() == record["valid"]


@needs_cli
@pytest.mark.parametrize("path", MESSY, ids=lambda p: f"{p.parts[-3]}/{p.name}")
def test_messy_plans_read_or_fail_as_in_the_cli(path):
    [record] = cli_json("plan", "validate", "--json", path)
    try:
        p = plan.read(path)
    except plan.PlanError as e:
        assert record["error"] == f"{path}: {e}"
        assert e.file == str(path)
        return
    assert "error" not in record
    assert [x.to_dict() for x in p.validate()] == record["problems"]


def test_read_takes_str_as_text_and_pathlike_as_file(tmp_path):
    f = tmp_path / "x.json"
    f.write_text((PLANS / "tooldag" / "valid" / "birthdays.json").read_text())
    assert plan.read(f).dialect == "tooldag"
    assert plan.read_file(str(f)).dialect == "tooldag"
    # A str is text, never a file name: this one is no plan at all.
    with pytest.raises(plan.PlanError):
        plan.read(str(f))
    assert plan.read(f.read_bytes()).dialect == "tooldag"
    with pytest.raises(TypeError):
        plan.read(12)


def test_the_file_name_decides_dialect_and_format(tmp_path):
    text = "name: x\nmeta: 1\n"
    with pytest.raises(plan.PlanError, match="cannot tell which plan dialect"):
        plan.read(text)
    f = tmp_path / "PLAN-abc.yaml"
    f.write_text(text)
    p = plan.read(f)
    assert (p.dialect, p.format) == ("composite", "yaml")
    assert plan.read(text, dialect="composite").to_dict() == p.to_dict()
    # A markdown file is a Cursor plan by its .plan.md name, a workflow by its content.
    md = tmp_path / "x.plan.md"
    md.write_text("# T\n")
    assert plan.read(md).format == "md"


def test_errors_carry_line_and_column():
    with pytest.raises(plan.PlanError) as e:
        plan.read('{"dag": [\n  {"id": "a",, }\n]}', format="json")
    assert (e.value.line, e.value.column) == (2, 14)
    assert e.value.path is None and e.value.file is None
    assert isinstance(e.value, ValueError)
    assert "invalid JSON" in str(e.value)

    with pytest.raises(plan.PlanError) as e:
        plan.read("dag[2]:\n  - id: a", format="toon")
    assert e.value.line == 2 and e.value.column == 3
    assert "invalid TOON" in e.value.msg

    with pytest.raises(plan.PlanError) as e:
        plan.read("dag:\n  - id: a\n   tool: [x\n", format="yaml")
    assert e.value.line is not None and e.value.line >= 2
    assert e.value.column is not None and e.value.column >= 1


def test_file_errors_name_the_file(tmp_path):
    f = tmp_path / "broken.toon"
    f.write_text("dag[2]:\n  - id: a\n")
    with pytest.raises(plan.PlanError) as e:
        plan.read(f)
    assert e.value.file == str(f) and e.value.line == 2
    f.write_bytes(b"\xff\xfe")
    with pytest.raises(plan.PlanError, match="not UTF-8"):
        plan.read(f)
    with pytest.raises(FileNotFoundError):
        plan.read(tmp_path / "missing.json")


def test_problems_of_trees_name_their_path():
    problems = plan.read(
        '{"dag": [{"id": [1], "tool": "t", "query": "q", "dependencies": []}]}'
    ).validate()
    # The path, and where it is in the text: `"id"` at line 1, column 11.
    assert [(x.path, x.line, x.column, x.rule) for x in problems] == [("dag[0].id", 1, 11, "schema")]
    assert str(problems[0]).startswith("dag[0].id (line 1, column 11): error: ")
    # A plan built as a dict has no text: the path alone.
    built = plan.read(json.loads('{"dag": [{"id": [1], "tool": "t", "query": "q", "dependencies": []}]}'))
    assert [(x.path, x.line, x.column) for x in built.validate()] == [("dag[0].id", None, None)]
    # YAML and TOON texts too.
    yaml_text = "dag:\n  - id: [1]\n    tool: t\n    query: q\n    dependencies: []\n"
    assert [(x.line, x.column) for x in plan.read(yaml_text, format="yaml").validate()] == [(2, 5)]


def test_bad_arguments_are_value_errors():
    text = (PLANS / "tooldag" / "valid" / "birthdays.json").read_text()
    with pytest.raises(ValueError, match="unknown"):
        plan.read(text, dialect="nope")
    with pytest.raises(ValueError, match="unknown format"):
        plan.read(text, format="xml")
    p = plan.read(text)
    with pytest.raises(ValueError, match="unknown field"):
        p.convert("cursor", set={"colour": "red"})
    with pytest.raises(plan.PlanError, match="markdown"):
        p.convert("plandag", "md")


@pytest.mark.parametrize("path", VALID, ids=lambda p: f"{p.parts[-3]}/{p.name}")
@pytest.mark.parametrize("to", plan.DIALECTS)
def test_convert_to_every_dialect_and_read_back(path, to):
    p = plan.read(path)
    conv = p.convert(to, force=True)
    assert conv.to == to and conv.format in ("json", "yaml", "toon", "md")
    back = conv.read()
    assert back.dialect == to
    # Every task survives, by id (groups may not: not every dialect has them); a tool
    # DAG's ids are slugs, so its fill writes `_` for other punctuation (`1.2` → `1_2`).
    def held(i):
        return re.sub(r"[^\w-]", "_", i) if to == "tooldag" else i

    assert sorted(t["id"] for t in back.tasks) == sorted(held(t["id"]) for t in p.tasks)
    if all(held(t["id"]) == t["id"] for t in p.tasks):
        assert [l for l in conv.losses if l.field == "(whole)" and l.owner.startswith("task ")] == []
    # Every loss is one the report's own rules describe.
    for l in conv.losses:
        assert l.change in ("dropped", "changed", "added", "derived", "defaulted", "set")
        assert l.owner == "plan" or l.owner.split(" ", 1)[0] in ("task", "group")


@pytest.mark.parametrize("fmt", ["json", "yaml", "toon"])
def test_convert_to_the_plan_model_keeps_everything(fmt):
    p = plan.read(PLANS / "plandag" / "valid" / "checkout.json")
    conv = p.convert("plan", fmt)
    assert conv.format == fmt
    assert conv.dropped == []
    assert conv.read().model() == p.model()


@needs_cli
@pytest.mark.parametrize("path", VALID, ids=lambda p: f"{p.parts[-3]}/{p.name}")
@pytest.mark.parametrize("to", plan.DIALECTS)
def test_convert_gives_what_the_cli_gives(path, to):
    record = cli_json("plan", "convert", "--json", "--force", "--to", to, path)
    conv = plan.read(path).convert(to, force=True)
    assert conv.text == record["text"]
    assert conv.format == record["format"]
    assert [l.to_dict() for l in conv.losses] == record["losses"]
    assert [x.to_dict() for x in conv.problems] == record["target_problems"]


CURSOR = PLANS / "cursor" / "valid" / "dark-mode.plan.md"


def test_a_cursor_plan_as_a_tool_dag_is_refused_with_the_set_hint():
    p = plan.read(CURSOR)
    with pytest.raises(plan.ConversionRefused) as e:
        p.convert("tooldag")
    err = e.value
    assert isinstance(err, plan.PlanError)
    assert err.problems and all(x.is_error for x in err.problems)
    assert "tool" in err.settable
    assert 'set={"tool": VALUE' in str(err)
    assert err.conversion is not None and err.conversion.text
    forced = p.convert("tooldag", force=True)
    assert forced.text == err.conversion.text
    assert [x for x in forced.problems if x.is_error] == err.problems


def test_set_fills_what_the_target_needs():
    p = plan.read(CURSOR)
    conv = p.convert("tooldag", set={"tool": "web_search"})
    assert [x for x in conv.problems if x.is_error] == []
    tools = {t["tool"] for t in conv.read().tasks}
    assert tools == {"web_search"}
    set_losses = [l for l in conv.losses if l.change == "set"]
    assert len(set_losses) == len(p.tasks)
    assert all(l.field == "tool" and l.after == "web_search" for l in set_losses)
    # The same as FIELD=VALUE strings; one task's own value wins for that task.
    first = p.tasks[0]["id"]
    conv2 = p.convert("tooldag", set=["tool=web_search", f"{first}.tool=calculator"])
    by_id = {t["id"]: t["tool"] for t in conv2.read().tasks}
    assert by_id[first] == "calculator"
    assert set(by_id.values()) == {"calculator", "web_search"} or len(by_id) == 1


@needs_cli
def test_set_and_refusal_match_the_cli():
    record = cli_json(
        "plan", "convert", "--json", "--to", "tooldag", "--set", "tool=web_search", CURSOR
    )
    conv = plan.read(CURSOR).convert("tooldag", set={"tool": "web_search"})
    assert record["ok"] and conv.text == record["text"]
    assert [l.to_dict() for l in conv.losses] == record["losses"]
    refused = cli_json("plan", "convert", "--json", "--to", "tooldag", CURSOR)
    assert refused["ok"] is False and "text" not in refused
    with pytest.raises(plan.ConversionRefused) as e:
        plan.read(CURSOR).convert("tooldag")
    assert [x.to_dict() for x in e.value.problems] == [
        x for x in refused["target_problems"] if x["severity"] == "error"
    ]


def test_an_invalid_plan_is_refused_unless_forced():
    path = PLANS / "plandag" / "invalid" / "unique-ids.json"
    p = plan.read(path)
    with pytest.raises(plan.ConversionRefused, match="not converted: .* error") as e:
        p.convert("plan")
    assert e.value.problems == [x for x in p.validate() if x.is_error]
    assert e.value.conversion is None
    assert p.convert("plan", force=True).text


def test_lean_leaves_the_body_out():
    p = plan.read(CURSOR)
    assert p.to_dict().get("body")
    full = p.convert("plan", "json")
    lean = p.convert("plan", "json", lean=True)
    assert "body" in json.loads(full.text)
    assert "body" not in json.loads(lean.text)
    assert len(lean.text) < len(full.text)


def test_the_prompt_form_is_toon_front_matter_and_the_body_and_reads_back():
    p = plan.read(CURSOR)
    prompt = p.convert("plan", "prompt")
    assert prompt.text.startswith("---\nschema: toon-plan/1\n")
    assert prompt.text.endswith(p.to_dict()["body"])
    back = plan.read(prompt.text)
    assert (back.dialect, back.format) == ("plan", "prompt")
    assert [t["id"] for t in back.to_dict()["tasks"]] == [t["id"] for t in p.convert("plan", "json").read().to_dict()["tasks"]]
    assert back.convert("cursor", "md").text == CURSOR.read_text(encoding="utf-8")
    by_key = {f.key: f for f in p.stats()}
    assert by_key["prompt"].lossless is True
    assert by_key["prompt"].tokens < by_key["plan_toon"].tokens


def _ids(n):
    return [f"t{i}" for i in range(n)]


@st.composite
def dags(draw):
    n = draw(st.integers(min_value=1, max_value=9))
    ids = _ids(n)
    deps = [
        sorted(draw(st.sets(st.sampled_from(ids[:i]), max_size=i))) if i else [] for i in range(n)
    ]
    durations = [draw(st.integers(min_value=0, max_value=10_000)) for _ in range(n)]
    return ids, deps, durations


@settings(max_examples=60, deadline=None)
@given(dags())
def test_schedule_waves_and_makespan_are_the_longest_chains(dag):
    ids, deps, durations = dag
    doc = {
        "dag": [
            {"id": i, "tool": "t", "query": "q", "dependencies": d, "estimated_duration_ms": ms}
            for i, d, ms in zip(ids, deps, durations)
        ]
    }
    s = plan.read(json.dumps(doc)).schedule()
    # Computed here: a task's wave is its longest chain of dependencies, its finish
    # the latest finish among them plus its own duration.
    wave, finish = {}, {}
    for i, d, ms in zip(ids, deps, durations):
        wave[i] = 1 + max((wave[x] for x in d), default=-1)
        finish[i] = ms + max((finish[x] for x in d), default=0)
    expected_waves = [[i for i in ids if wave[i] == w] for w in range(max(wave.values()) + 1)]
    assert [w["tasks"] for w in s["waves"]] == expected_waves
    assert [w["index"] for w in s["waves"]] == list(range(len(expected_waves)))
    assert s["makespan_ms"] == max(finish.values())
    assert {t["id"]: t["finish_ms"] for t in s["tasks"]} == finish
    assert {t["id"]: t["wave"] for t in s["tasks"]} == wave
    # The critical path is a chain of dependencies that takes the makespan.
    path = s["critical_path"]
    assert all(a in deps[ids.index(b)] for a, b in zip(path, path[1:]))
    assert deps[ids.index(path[0])] == []
    assert sum(durations[ids.index(x)] for x in path) == s["makespan_ms"]
    assert s["tasks_without_duration"] == 0


def test_schedule_of_the_checkout_plan():
    s = plan.read(PLANS / "plandag" / "valid" / "checkout.json").schedule()
    assert [w["tasks"] for w in s["waves"]] == [["open"], ["prices", "shot"], ["buy"]]
    # open's timeout 20000 then buy's 60000; prices and shot have no duration.
    assert s["makespan_ms"] == 20000 + 60000
    assert s["critical_path"][0] == "open" and s["critical_path"][-1] == "buy"
    assert s["tasks_without_duration"] == 2
    assert s["plan_estimate_ms"] == 90000


@needs_cli
@pytest.mark.parametrize("path", VALID, ids=lambda p: f"{p.parts[-3]}/{p.name}")
def test_schedule_is_the_cli_schedule(path):
    assert plan.read(path).schedule() == cli_json("plan", "schedule", "--json", path)


@needs_cli
@pytest.mark.parametrize("path", VALID, ids=lambda p: f"{p.parts[-3]}/{p.name}")
def test_next_is_the_cli_next(path):
    assert plan.read(path).next() == cli_json("plan", "next", "--json", path)


def test_next_of_a_task_master_file():
    n = plan.read(PLANS / "taskmaster" / "valid" / "legacy-basic.json").next()
    assert [t["id"] for t in n["ready"]] == ["2"]
    assert (n["finished"], n["total"]) == (1, 4)
    n = plan.read(PLANS / "taskmaster" / "valid" / "tagged-multi.json").next()
    assert [t["id"] for t in n["ready"]] == ["feature-auth:1", "master:2"]
    with pytest.raises(plan.PlanError, match="cannot tell what is ready"):
        plan.read(PLANS / "taskmaster" / "invalid" / "acyclic.json").next()


def test_next_of_a_spec_kit_file():
    # Phases run in order and tasks in order within a phase; [P] tasks together.
    p = plan.read(PLANS / "speckit" / "valid" / "rate-limits.md")
    assert p.dialect == "speckit"
    assert [t["id"] for t in p.next()["ready"]] == ["T005a"]
    n = plan.read(PLANS / "speckit" / "valid" / "search-no-phases.md").next()
    assert [t["id"] for t in n["ready"]] == ["T001"]


def test_a_cycle_has_no_schedule():
    p = plan.read(PLANS / "plandag" / "invalid" / "acyclic.json")
    with pytest.raises(plan.PlanError, match="cannot schedule"):
        p.schedule()


def test_dry_run_respects_the_cap_and_failures():
    doc = {
        "dag": [{"id": f"s{i}", "tool": "t", "query": "q", "dependencies": []} for i in range(6)]
    }
    doc["dag"].append({"id": "last", "tool": "t", "query": "q", "dependencies": ["s0"]})
    p = plan.read(json.dumps(doc))

    def most_running(events):
        running, peak = set(), 0
        for e in events:
            if e["event"] == "step_start":
                running.add(e["step_id"])
                peak = max(peak, len(running))
            elif e["event"] == "step_complete":
                running.discard(e["step_id"])
        return peak

    assert most_running(p.dry_run(cap=2)) == 2
    assert most_running(p.dry_run()) == plan.DEFAULT_CAP
    done = {e["step_id"]: e for e in p.dry_run(fail=["s0"]) if e["event"] == "step_complete"}
    assert done["s0"]["status"] == "failed"
    assert done["last"]["status"] == "skipped" and done["last"]["blocked_by"] == "s0"
    assert {done[f"s{i}"]["status"] for i in range(1, 6)} == {"complete"}
    with pytest.raises(plan.PlanError, match="at least 1"):
        p.dry_run(cap=0)
    with pytest.raises(plan.PlanError, match="no step"):
        p.dry_run(fail=["nope"])


@needs_cli
def test_dry_run_is_the_cli_events():
    path = PLANS / "tooldag" / "valid" / "birthdays.json"
    out = subprocess.run(
        [CLI, "plan", "schedule", "--events", "--cap", "1", "--fail", "curie_birth", str(path)],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    assert plan.read(path).dry_run(cap=1, fail=["curie_birth"]) == [
        json.loads(l) for l in out.splitlines()
    ]


@pytest.mark.parametrize("dialect", plan.DIALECTS)
def test_schema_is_a_json_schema_the_testdata_meets(dialect):
    jsonschema = pytest.importorskip("jsonschema")
    s = plan.schema(dialect)
    assert isinstance(s, dict) and s
    jsonschema.Draft202012Validator.check_schema(s)
    validator = jsonschema.Draft202012Validator(s)
    checked = 0
    for path in VALID:
        if path.parts[-3] != dialect or path.suffix != ".json":
            continue
        validator.validate(json.loads(path.read_text()))
        checked += 1
    if dialect in ("plandag", "staged", "tooldag", "plan"):
        assert checked >= 1
    # A document of the wrong shape fails it.
    assert not validator.is_valid([1, 2, 3])


@needs_cli
@pytest.mark.parametrize("dialect", plan.DIALECTS)
def test_schema_is_the_cli_schema(dialect):
    assert plan.schema(dialect) == cli_json("plan", "schema", dialect)


def test_objects_read_well():
    p = plan.read(PLANS / "tooldag" / "valid" / "birthdays.json")
    assert repr(p).startswith("<Plan tooldag json, 3 tasks from ")
    assert toonkit.plan is plan
    conv = p.convert("cursor")
    assert repr(conv).startswith("<Conversion tooldag -> cursor md: ")
    assert str(conv) == conv.text
    problem = plan.Problem("error", "acyclic", "cycle", path="dag[0]")
    assert str(problem) == "dag[0]: error: cycle [acyclic]"
    assert "acyclic" in repr(problem)
    assert plan.Problem("warning", "r", "m").to_dict() == {
        "severity": "warning",
        "rule": "r",
        "message": "m",
    }


def test_readme_plan_example_runs(capsys):
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Python\n", 1)[1].split("\n## ", 1)[0]
    plans = section.split("### Plans\n", 1)[1]
    block = plans.split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(block, "README.md", "exec"), {})
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "cursor md ['tokens', 'toggle', 'docs']"
    assert out[1] == "['tool']"
    assert "task tokens tool set" in out and "task toggle status dropped" in out
    assert "[['tokens'], ['toggle', 'docs']]" in out
    assert out[-2] == str({to: 2 for to in plan.DIALECTS})
    assert out[-1] == "2 3"


def test_set_values_are_text_or_integers():
    p = plan.read_file(CURSOR)
    for bad in (None, True, 1.5, ["web"]):
        with pytest.raises(ValueError, match="a value is text"):
            p.convert("tooldag", set={"tool": bad})
    conv = p.convert("tooldag", set={"tool": "web_search"})
    assert "web_search" in conv.text


def test_dry_run_caps_below_one_are_plan_errors():
    p = plan.read_file(CURSOR)
    for cap in (0, -1):
        with pytest.raises(plan.PlanError, match="at least 1"):
            p.dry_run(cap)
    with pytest.raises(plan.PlanError, match="at least 1"):
        p.dry_run(2, tool_caps={"web": -3})


def test_bytes_that_are_not_utf8_are_a_plan_error():
    with pytest.raises(plan.PlanError, match="not UTF-8 text \\(byte 0\\)"):
        plan.read(b"\xe9")


def test_read_takes_a_document_built_in_code():
    doc = {
        "dag": [
            {"id": "a", "tool": "search", "query": "x", "dependencies": []},
            {"id": "b", "tool": "calc", "query": "{{a.result}} + 1", "dependencies": ["a"]},
        ]
    }
    p = plan.read(doc)
    assert (p.dialect, p.format) == ("tooldag", "json")
    assert p.model() == plan.read(json.dumps(doc)).model()
    assert p.to_dict() == doc
    # A plan-model dict, as a planner builds one, converts to every dialect.
    model = {
        "title": "Ship",
        "tasks": [
            {"id": "build", "title": "Build", "tool": "cargo"},
            {"id": "publish", "title": "Publish", "tool": "twine", "dependencies": ["build"]},
        ],
    }
    m = plan.read(model, dialect="plan")
    for to in plan.DIALECTS:
        conv = m.convert(to, force=True)
        assert sorted(t["id"] for t in conv.read().tasks) == ["build", "publish"], to
    with pytest.raises(plan.PlanError) as e:
        plan.read([1, 2])
    assert e.value.kind == "unknown_dialect"


@pytest.mark.parametrize(
    "path", [p for p in VALID if p.suffix == ".json"], ids=lambda p: f"{p.parts[-3]}/{p.name}"
)
def test_to_dict_keeps_the_dialects_own_field_names(path):
    p = plan.read(path)
    assert p.to_dict() == json.loads(path.read_text(encoding="utf-8"))


def test_a_composite_task_keeps_its_prompt():
    [path] = [p for p in VALID if p.parts[-3] == "composite"][:1]
    p = plan.read(path)
    tasks = p.to_dict()["tasks"]
    assert tasks and all("prompt" in t and "description" not in t for t in tasks)
    assert [t["prompt"] for t in tasks] == [t["description"] for t in p.tasks]
    assert tasks[0]["branchName"] == "feature/billing-schema"


@needs_cli
@pytest.mark.parametrize("path", VALID + INVALID, ids=lambda p: f"{p.parts[-3]}/{p.name}")
@pytest.mark.parametrize("to", plan.DIALECTS)
def test_the_report_objects_are_the_clis_report(path, to):
    record = cli_json("plan", "convert", "--json", "--force", "--to", to, path)
    conv = plan.read(path).convert(to, force=True)
    report = conv.report()
    assert report == {key: record[key] for key in report}
    lost = [l for l in record["losses"] if l["change"] in ("dropped", "changed")]
    assert [l.to_dict() for l in conv.dropped] == lost
    assert len(conv.dropped) + len(conv.filled) == len(record["losses"])


@needs_cli
def test_dropped_counts_what_the_cli_counts():
    out = subprocess.run(
        [CLI, "plan", "convert", "--to", "staged", str(CURSOR)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    conv = plan.read(CURSOR).convert("staged", force=True)
    said = f"{len(conv.dropped)} field(s) not carried over, {len(conv.filled)} filled in"
    assert said in out.stderr, out.stderr
    assert all(l.change in ("dropped", "changed") for l in conv.dropped)


def test_a_loss_reads_short():
    p = plan.read(CURSOR)
    conv = p.convert("plan", "json", lean=True)
    body = [l for l in conv.dropped if l.field == "body"]
    assert body and len(p.to_dict()["body"]) > 100
    assert len(repr(body[0])) < 100, repr(body[0])
    assert repr(body[0]).startswith("<Loss plan: body dropped (")


def test_a_repeated_id_has_no_schedule_and_says_where():
    p = plan.read(PLANS / "plandag" / "invalid" / "unique-ids.json")
    with pytest.raises(plan.PlanError, match="cannot schedule") as e:
        p.schedule()
    assert e.value.kind == "unschedulable"
    ids = [t["id"] for t in p.tasks]
    assert e.value.path is not None and e.value.path.startswith("tasks[")
    index = int(e.value.path[len("tasks[") :].split("]")[0])
    assert ids[index] in ids[:index] and e.value.path.endswith("].id")


def test_stats_count_every_form():
    path = PLANS / "tooldag" / "valid" / "birthdays.json"
    stats = plan.read(path).stats()
    keys = [f.key for f in stats]
    assert keys[:4] == ["source", "json_pretty", "json_compact", "toon"]
    assert stats[0].bytes == len(path.read_bytes())
    assert stats[0].tokens == toonkit.count_tokens(path.read_text(encoding="utf-8"))
    by_key = {f.key: f for f in stats}
    assert by_key["toon"].tokens < by_key["json_pretty"].tokens
    assert by_key["toon"].lossless is True and stats[0].lossless is None


@needs_cli
def test_stats_are_the_clis_stats():
    path = PLANS / "cursor" / "valid" / "dark-mode.plan.md"
    record = cli_json("plan", "stats", "--json", path)
    stats = plan.read(path).stats()
    assert {f.key for f in stats} == set(record["forms"])
    for f in stats:
        cli = record["forms"][f.key]
        assert (f.bytes, f.tokens, f.lossless) == (cli["bytes"], cli["tokens"], cli["lossless"])


def test_graph_draws_the_waves():
    p = plan.read(PLANS / "plandag" / "valid" / "checkout.json")
    assert p.graph().startswith("flowchart")
    assert "->" in p.graph("dot")
    assert "open" in p.graph("text")
    with pytest.raises(plan.PlanError, match="graph format"):
        p.graph("png")


@needs_cli
@pytest.mark.parametrize("fmt", ["mermaid", "dot", "text"])
def test_graph_is_the_clis_graph(fmt):
    path = PLANS / "plandag" / "valid" / "checkout.json"
    out = subprocess.run(
        [CLI, "plan", "graph", "--format", fmt, str(path)], capture_output=True, text=True
    ).stdout
    assert plan.read(path).graph(fmt) == out.rstrip("\n") or plan.read(path).graph(fmt) == out


def test_write_is_atomic_and_never_over_the_source(tmp_path):
    src = tmp_path / "dark-mode.plan.md"
    src.write_bytes(CURSOR.read_bytes())
    p = plan.read(src)
    conv = p.convert("plan", "toon")
    out = tmp_path / "dark-mode.plan.toon"
    assert conv.write(out) == str(out)
    assert out.read_text(encoding="utf-8") == conv.text
    assert [f.name for f in tmp_path.iterdir() if f.name.startswith(".")] == []
    same = p.convert("cursor")
    with pytest.raises(plan.PlanError, match="own file"):
        same.write(src)
    assert src.read_bytes() == CURSOR.read_bytes()


def test_a_folder_converts_and_comes_back(tmp_path):
    source = PLANS / "cursor" / "valid"
    results = plan.convert_folder(source, tmp_path / "toon", "plan", "toon")
    assert len(results) == len(list(source.iterdir()))
    assert all(r.error is None and r.target.endswith(".toon") for r in results)
    back = plan.convert_folder(tmp_path / "toon", tmp_path / "md", "cursor")
    for r in back:
        original = source / pathlib.Path(r.target).name
        assert pathlib.Path(r.target).read_bytes() == original.read_bytes(), r.target
    with pytest.raises(plan.PlanError, match="input folder"):
        plan.convert_folder(source, source, "plan")


@needs_cli
def test_a_folder_converts_as_the_cli_converts_it(tmp_path):
    # Mixed dialects, composite names and refusals come from the one library plan of
    # work the CLI uses too.
    source = tmp_path / "src"
    source.mkdir()
    cursor = sorted((PLANS / "cursor" / "valid").iterdir())[:2]
    for p in cursor:
        (source / p.name).write_bytes(p.read_bytes())
    other = sorted((PLANS / "plandag" / "valid").iterdir())[0]
    (source / other.name).write_bytes(other.read_bytes())
    results = plan.convert_folder(source, tmp_path / "yaml", "composite")
    converted = [r for r in results if r.error is None]
    assert len(converted) == 2
    assert all(pathlib.Path(r.target).name.startswith("PLAN-") for r in converted)
    (foreign,) = [r for r in results if r.error is not None]
    assert foreign.source.endswith(other.name) and "plandag plan among cursor plans" in str(foreign.error)
    cli = subprocess.run(
        [CLI, "plan", "convert", str(source), "--to", "composite", "-o", str(tmp_path / "cli"), "--json"],
        capture_output=True, text=True,
    )
    outcomes = {pathlib.Path(r["file"]).name: r["ok"] for r in json.loads(cli.stdout)}
    assert outcomes == {pathlib.Path(r.source).name: r.error is None for r in results}
    (tmp_path / "file.toon").write_text("x")
    with pytest.raises(plan.PlanError, match="not a folder") as e:
        plan.convert_folder(source, tmp_path / "file.toon", "plan")
    assert e.value.kind == "output"


def _keys_agree(d, typed):
    required = set(getattr(typed, "__required_keys__", typed.__annotations__))
    assert required <= set(d) <= set(typed.__annotations__), (typed.__name__, sorted(d))


@pytest.mark.parametrize("path", VALID, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_schedule_and_events_have_the_typed_dicts_keys(path):
    p = plan.read_file(path)
    try:
        s = p.schedule()
    except plan.PlanError:
        return
    _keys_agree(s, plan.Schedule)
    for w in s["waves"]:
        _keys_agree(w, plan.Wave)
    for t in s["tasks"]:
        _keys_agree(t, plan.ScheduledTask)
        _keys_agree(t["stage"], plan.Stage)
    for f in s["findings"]:
        _keys_agree(f, plan.Finding)
    for e in p.dry_run(2, fail=[s["tasks"][0]["id"]] if s["tasks"] else []):
        _keys_agree(e, plan.Event)
    n = p.next()
    _keys_agree(n, plan.Next)
    for t in n["ready"]:
        _keys_agree(t, plan.ReadyTask)


def test_messages_name_no_command_line_flags():
    messages = []
    for attempt in (
        lambda: plan.read('{"x": 1}'),
        lambda: plan.read(CURSOR).convert("cursor", set={"colour": "red"}),
        lambda: plan.read(CURSOR).convert("tooldag", set={"tool": "x", "nope.tool": "y"}),
        lambda: plan.read(CURSOR).convert("plandag", "md"),
        lambda: plan.read(CURSOR).convert("tooldag"),
        lambda: plan.read(PLANS / "plandag" / "invalid" / "unique-ids.json").convert("plan"),
    ):
        with pytest.raises(plan.PlanError) as e:
            attempt()
        messages.append(str(e.value))
    for m in messages:
        assert "--" not in m, m
