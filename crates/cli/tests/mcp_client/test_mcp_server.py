"""`toon mcp` driven by the official Python MCP client over stdio: initialize, list the
tools (each with a JSON Schema), call every tool, call with bad input (a tool error
with the located message), and the server still answers afterwards.

Runs against TOON_CLI (default: target/debug/toon of this checkout). `.ci/run` runs it
in its own virtual environment with the `mcp` package installed."""

import json
import os

import anyio
import pytest

mcp = pytest.importorskip("mcp", reason="the `mcp` package (official MCP Python SDK) is not installed")
from mcp import ClientSession, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))
TOON = os.environ.get("TOON_CLI", os.path.join(ROOT, "target", "debug", "toon"))
PLANS = os.path.join(ROOT, "testdata", "plans")
TOOLDAG = os.path.join(PLANS, "tooldag", "valid", "birthdays.json")
ANSWER = os.path.join(ROOT, "testdata", "model-output", "miscounted.md")

TOOLS = {
    "toon_encode", "toon_decode", "toon_stats", "plan_validate", "plan_convert",
    "plan_schedule", "plan_next", "plan_show", "plan_instructions",
}
TASKMASTER = os.path.join(PLANS, "taskmaster", "valid", "legacy-basic.json")
SPECKIT = os.path.join(PLANS, "speckit", "valid", "avatar-upload.md")


def run(scenario):
    async def main():
        params = StdioServerParameters(command=TOON, args=["mcp"])
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                await scenario(session)

    anyio.run(main)


def structured(result):
    assert not result.is_error, result.content
    data = result.structured_content
    assert data is not None
    # The text content is the same result, as JSON.
    assert json.loads(result.content[0].text) == data
    return data


def error_text(result):
    assert result.is_error, result
    return result.content[0].text


def test_every_tool_is_listed_with_a_schema_and_answers():
    async def scenario(s):
        tools = {t.name: t for t in (await s.list_tools()).tools}
        assert set(tools) == TOOLS
        for t in tools.values():
            assert t.input_schema["type"] == "object", t.name
            assert t.description
        assert "to" in tools["plan_convert"].input_schema["required"]

        enc = structured(await s.call_tool("toon_encode", {"json": '{"a":[1,2],"b":"x"}'}))
        assert enc["toon"] == "a[2]: 1,2\nb: x"
        dec = structured(await s.call_tool("toon_decode", {"toon": enc["toon"]}))
        assert dec["json"] == {"a": [1, 2], "b": "x"}
        stats = structured(await s.call_tool("toon_stats", {"json": '[{"id":1,"n":"a"},{"id":2,"n":"b"}]'}))
        assert stats["toon"]["tokens"] < stats["json_pretty"]["tokens"]

        v = structured(await s.call_tool("plan_validate", {"path": TOOLDAG}))
        assert v["valid"] and v["dialect"] == "tooldag" and v["tasks"] == 3
        with open(TOOLDAG, encoding="utf-8") as f:
            text = f.read()
        conv = structured(await s.call_tool(
            "plan_convert", {"text": text, "to": "composite", "to_format": "toon"}))
        assert conv["text"].startswith("tasks[3]:")
        assert any(l["field"] == "tool" for l in conv["losses"])
        sched = structured(await s.call_tool("plan_schedule", {"text": text}))
        assert len(sched["waves"]) == 2
        nxt = structured(await s.call_tool("plan_next", {"path": TASKMASTER}))
        assert [t["id"] for t in nxt["ready"]] == ["2"] and nxt["finished"] == 1
        nxt = structured(await s.call_tool("plan_next", {"path": SPECKIT}))
        assert [t["id"] for t in nxt["ready"]] == ["T006"] and nxt["finished"] == 5
        show = structured(await s.call_tool("plan_show", {"path": TOOLDAG}))
        assert [t["id"] for t in show["tasks"]] == ["einstein_birth", "curie_birth", "gap-days"]
        ins = structured(await s.call_tool("plan_instructions", {"dialect": "tooldag"}))
        assert "```toon" in ins["text"] and ins["tokens"] > 100
        with open(ANSWER, encoding="utf-8") as f:
            answer = f.read()
        read = structured(await s.call_tool(
            "plan_validate", {"text": answer, "model_output": True, "dialect": "composite"}))
        assert read["valid"] and "line 2: warning" in read["lines"][0]

    run(scenario)


def test_bad_input_is_a_tool_error_and_the_server_stays_up():
    async def scenario(s):
        msg = error_text(await s.call_tool("toon_decode", {"toon": "a:\n  b: 1\n   c: 2"}))
        assert "line 3" in msg.lower() or ":3:" in msg, msg
        msg = error_text(await s.call_tool("toon_encode", {"json": "{nope"}))
        assert "line 1" in msg.lower() or "column" in msg.lower(), msg
        msg = error_text(await s.call_tool("plan_validate", {"text": '{"dag": [', "format": "json"}))
        assert "line" in msg, msg
        msg = error_text(await s.call_tool("plan_convert", {"path": TOOLDAG, "to": "klingon"}))
        assert "klingon" in msg
        msg = error_text(await s.call_tool("plan_show", {"path": os.path.join(PLANS, "no-such-file.json")}))
        assert "no-such-file" in msg
        msg = error_text(await s.call_tool("toon_decode", {"toon": 3}))
        assert "`toon`" in msg
        msg = error_text(await s.call_tool("plan_validate", {}))
        assert "text" in msg and "path" in msg
        # Still serving.
        ok = structured(await s.call_tool("toon_decode", {"toon": "x: 1"}))
        assert ok["json"] == {"x": 1}
        assert len((await s.list_tools()).tools) == len(TOOLS)

    run(scenario)


def test_paths_are_only_read():
    before = os.stat(TOOLDAG).st_mtime_ns

    async def scenario(s):
        structured(await s.call_tool("plan_convert", {"path": TOOLDAG, "to": "tooldag", "to_format": "json"}))

    run(scenario)
    assert os.stat(TOOLDAG).st_mtime_ns == before
