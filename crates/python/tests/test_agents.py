"""What planners with a model call: the prompt block of each dialect (its example
reads back valid) and reading model answers (testdata/model-output, as the Rust
test and the CLI read them)."""

import json
import os

import pytest

from toonkit import plan

ANSWERS = os.path.join(os.path.dirname(__file__), "..", "..", "..", "testdata", "model-output")


@pytest.mark.parametrize("dialect", plan.DIALECTS)
def test_instructions_example_reads_back_valid(dialect):
    text = plan.instructions(dialect)
    assert "```toon\n" in text
    example = text.split("```toon\n", 2)[-1].split("```", 1)[0]
    answer = plan.read_model_output("Here you go:\n```toon\n" + example + "```\nDone.", dialect=dialect)
    assert answer["valid"], answer["lines"]
    assert answer["found"] == "fence"
    assert len(answer["plan"]["tasks"]) >= 2


def expected():
    with open(os.path.join(ANSWERS, "expected.json"), encoding="utf-8") as f:
        return sorted(json.load(f).items())


@pytest.mark.parametrize("name,want", expected())
def test_model_answers(name, want):
    with open(os.path.join(ANSWERS, name), encoding="utf-8", newline="") as f:
        text = f.read()
    got = plan.read_model_output(text, dialect=want["dialect"])
    tasks = len(got["plan"]["tasks"]) if got["plan"] else None
    assert {
        "dialect": got["dialect"],
        "found": got["found"],
        "first_line": got["first_line"],
        "valid": got["valid"],
        "tasks": tasks,
        "lines": got["lines"],
    } == want


def test_unknown_dialect_is_a_value_error():
    with pytest.raises(ValueError):
        plan.instructions("nope")
