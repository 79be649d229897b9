"""toonkit.Decoder, the push decoder: any chunking of a text gives the events that
building the value from the whole text implies; errors are ToonDecodeErrors with lines."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toonkit
from toonkit import Decoder, ToonDecodeError


def build(events):
    """The value a sequence of (kind, value) events describes."""
    stack, keys, root = [], [], []

    def put(v):
        if not stack:
            root.append(v)
        elif isinstance(stack[-1], list):
            stack[-1].append(v)
        else:
            stack[-1][keys.pop()] = v

    for kind, value in events:
        if kind == "start_object":
            d = {}
            put(d)
            stack.append(d)
        elif kind == "start_array":
            a = []
            put(a)
            stack.append(a)
        elif kind in ("end_object", "end_array"):
            stack.pop()
        elif kind == "key":
            keys.append(value)
        else:
            assert kind == "primitive"
            put(value)
    assert not stack and len(root) == 1
    return root[0]


def fed(text, cuts, **options):
    dec = Decoder(**options)
    events = []
    start = 0
    for cut in sorted(c % (len(text) + 1) for c in cuts) + [len(text)]:
        events += dec.feed(text[start:cut])
        start = cut
    events += dec.close()
    assert dec.done
    return events


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)
@given(json_values, st.lists(st.integers(min_value=0), max_size=10), st.booleans())
def test_any_chunking_decodes_like_decode(value, cuts, as_bytes):
    text = toonkit.encode(value)
    data = text.encode() if as_bytes else text
    events = fed(data, cuts)
    assert json.dumps(build(events)) == json.dumps(toonkit.decode(text))
    assert events == fed(data, [])


def test_rows_come_with_their_newline_and_utf8_may_split():
    dec = Decoder()
    assert dec.feed("tasks[2]{id,title}:\n") == []
    first = dec.feed("  a,Écrire\n")
    assert first[:3] == [("start_object", None), ("key", "tasks"), ("start_array", 2)]
    assert ("primitive", "Écrire") in first
    raw = "  b,日本\n".encode()
    assert dec.feed(raw[:6]) == []
    assert ("primitive", "日本") in dec.feed(raw[6:])
    assert dec.close() == [("end_array", None), ("end_object", None)]


def test_close_checks_the_end_and_errors_carry_the_line():
    dec = Decoder()
    dec.feed("items[3]: a,b\n")
    with pytest.raises(ToonDecodeError) as e:
        dec.close()
    assert e.value.line == 1
    assert "3" in e.value.msg
    with pytest.raises(ToonDecodeError):
        dec.feed("x: 1\n")


def test_an_error_keeps_the_events_before_it():
    dec = Decoder()
    with pytest.raises(ToonDecodeError) as e:
        dec.feed("a: 1\nb[2]: x\nc: 3\n")
    assert e.value.line == 2
    assert e.value.events == [("start_object", None), ("key", "a"), ("primitive", 1)]
    # The last line waits for the end of the text: close() reads it, and fails.
    dec = Decoder()
    assert dec.feed("a: 1\nb[2]: x") == []
    with pytest.raises(ToonDecodeError) as e:
        dec.close()
    assert e.value.line == 2
    assert e.value.events == [("start_object", None), ("key", "a"), ("primitive", 1)]


def test_non_strict_and_types():
    dec = Decoder(strict=False)
    events = dec.feed("n[5]: 1,2.5,true,null,12345678901234567890123\n")
    events += dec.close()
    values = [v for k, v in events if k == "primitive"]
    assert values == [1, 2.5, True, None, 12345678901234567890123]
    with pytest.raises(TypeError):
        Decoder().feed(3)


def test_readme_streaming_example_runs(capsys):
    import os
    import re

    readme = os.path.join(os.path.dirname(__file__), "..", "..", "..", "README.md")
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    section = text.split("### Streaming and model answers\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    exec(compile(blocks[0], "README.md", "exec"), {})
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "a Collect b Write [('end_array', None), ('end_object', None)]"
    assert out[1].startswith("True ['line 3: warning: `tasks` declares [3] but has 1 item(s)")
