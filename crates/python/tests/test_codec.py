"""The toonkit codec through its Python API: spec fixtures, round trips, errors."""

import glob
import io
import json
import math
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toonkit
from toonkit import Delimiter, ToonDecodeError

SPEC_DIR = os.environ.get(
    "TOON_SPEC_DIR",
    os.path.normpath(
        os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "shared", "toon-spec")),
)


def fixture_cases(kind):
    files = sorted(glob.glob(os.path.join(SPEC_DIR, "tests", "fixtures", kind, "*.json")))
    for path in files:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        for case in doc["tests"]:
            yield pytest.param(case, id=f"{os.path.basename(path)}:{case['name']}")


# Non-strict fixtures that expect a malformed header to become a literal key: the
# reference 4.4 rejects them (DELTA-4.4.md section 1), so they must error.
MUST_ERROR = {
    "treats extra brackets after valid array segment as literal key (non-strict)",
    "treats bracket segment without a length as literal key (non-strict)",
    "treats non-integer bracket content as literal key (non-strict)",
    "treats text between bracket segment and colon as literal key (non-strict)",
}

ENCODE_CASES = list(fixture_cases("encode"))
DECODE_CASES = list(fixture_cases("decode"))


def test_all_fixtures_found_and_none_skipped():
    assert len(ENCODE_CASES) + len(DECODE_CASES) == 516, SPEC_DIR


def encode_kwargs(options):
    options = options or {}
    kw = {}
    if "indentSize" in options:
        kw["indent_size"] = options["indentSize"]
    if "delimiter" in options:
        kw["delimiter"] = options["delimiter"]
    return kw


def decode_kwargs(options):
    options = options or {}
    kw = {}
    if "indentSize" in options:
        kw["indent_size"] = options["indentSize"]
    if "strict" in options:
        kw["strict"] = options["strict"]
    return kw


@pytest.mark.parametrize("case", ENCODE_CASES)
def test_encode_fixture(case):
    unsupported = set((case.get("options") or {})) - {"indentSize", "delimiter"}
    if unsupported:
        pytest.fail(f"options outside the toon-format API: {unsupported}")
    if case.get("shouldError"):
        with pytest.raises((ValueError, TypeError)):
            toonkit.encode(case["input"], **encode_kwargs(case.get("options")))
    else:
        assert toonkit.encode(case["input"], **encode_kwargs(case.get("options"))) == case["expected"]


@pytest.mark.parametrize("case", DECODE_CASES)
def test_decode_fixture(case):
    unsupported = set((case.get("options") or {})) - {"indentSize", "strict"}
    if unsupported:
        pytest.fail(f"options outside the toon-format API: {unsupported}")
    if case.get("shouldError") or case["name"] in MUST_ERROR:
        with pytest.raises(ToonDecodeError):
            toonkit.decode(case["input"], **decode_kwargs(case.get("options")))
    else:
        assert toonkit.decode(case["input"], **decode_kwargs(case.get("options"))) == case["expected"]
        # bytes decode the same as str
        assert toonkit.decode(case["input"].encode(), **decode_kwargs(case.get("options"))) == case["expected"]


HARD_STRINGS = st.sampled_from(
    ["", " ", "true", "false", "null", "1", "-1", "1e5", "05", "-", "- x", "a,b", "a|b", "a\tb",
     "a:b", '"', "\\", "[1]", "{x}", "#", " lead", "trail ", "line\nbreak", "\r", "é", "😀"]
)
KEYS = st.one_of(st.text(max_size=8), HARD_STRINGS)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(2**200), max_value=2**200),
    st.floats(allow_nan=False, allow_infinity=False).filter(lambda f: not (f == 0 and math.copysign(1, f) < 0)),
    st.text(),
    HARD_STRINGS,
)
JSONISH = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=5), st.dictionaries(KEYS, inner, max_size=5)),
    max_leaves=30,
)


@settings(max_examples=400, deadline=None)
@given(JSONISH, st.sampled_from([",", "\t", "|"]))
def test_round_trip(value, delimiter):
    text = toonkit.encode(value, delimiter=delimiter)
    assert same_json(toonkit.decode(text), value)


def same_json(got, want):
    """JSON equality: TOON, like JSON, has one number type, so an integral float
    (printed as JavaScript does, e.g. 64017924066724130) may come back as an int
    of the same float value."""
    if isinstance(want, float):
        return isinstance(got, (int, float)) and not isinstance(got, bool) and float(got) == want
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(map(same_json, got, want))
    if isinstance(want, dict):
        return isinstance(got, dict) and list(got) == list(want) and all(
            same_json(got[k], want[k]) for k in want)
    return type(got) is type(want) and got == want


def test_big_ints_and_floats_are_exact():
    value = {"big": 2**100, "neg": -(3**90), "f": 0.1 + 0.2, "tiny": 1e-7, "huge": 1e21}
    text = toonkit.encode(value)
    assert "1267650600228229401496703205376" in text
    assert "tiny: 1e-7" in text and "huge: 1e+21" in text
    assert toonkit.decode(text) == value


def test_nan_and_infinity_encode_as_null():
    assert toonkit.encode({"a": float("nan"), "b": float("inf")}) == "a: null\nb: null"


def test_dict_order_kept_and_sort_keys():
    assert toonkit.encode({"b": 1, "a": 2}) == "b: 1\na: 2"
    assert toonkit.encode({"b": 1, "a": 2}, sort_keys=True) == "a: 2\nb: 1"


def test_default_and_type_error():
    class Point:
        def __init__(self, x, y):
            self.x, self.y = x, y

    with pytest.raises(TypeError, match="Point"):
        toonkit.encode({"p": Point(1, 2)})
    assert toonkit.encode({"p": Point(1, 2)}, default=lambda o: vars(o)) == "p:\n  x: 1\n  y: 2"
    with pytest.raises(TypeError, match="bytes"):
        toonkit.encode({"b": b"x"})
    assert toonkit.encode({2, 1}) == "[2]: 1,2"  # sets are sorted arrays, as officially


def test_circular_reference_is_an_error_not_a_crash():
    a = []
    a.append(a)
    with pytest.raises(ValueError):
        toonkit.encode(a)


def test_error_position_and_source_line():
    with pytest.raises(ToonDecodeError) as info:
        toonkit.decode("a: 1\nitems[3]: x,y")
    err = info.value
    assert isinstance(err, ValueError)
    assert err.line == 2
    assert err.column is not None and err.column >= 1
    assert err.source == "items[3]: x,y" and "items[3]: x,y" in err.snippet
    assert str(err) == f"line 2: {err.msg}"


def test_depth_bomb_is_a_decode_error():
    text = "".join("  " * i + "k:\n" for i in range(5000))
    with pytest.raises(ToonDecodeError):
        toonkit.decode(text)


def test_invalid_utf8_bytes():
    with pytest.raises(ToonDecodeError):
        toonkit.decode(b"a: \xff\xfe")


def test_hooks():
    text = "a: 1.5\nb: 2\nc:\n  d: x"
    assert toonkit.decode(text, parse_float=str, parse_int=lambda s: int(s) * 10) == {
        "a": "1.5", "b": 20, "c": {"d": "x"}}
    assert toonkit.decode(text, object_hook=lambda d: sorted(d)) == ["a", "b", "c"]
    assert toonkit.decode(text, object_pairs_hook=lambda p: [k for k, _ in p]) == ["a", "b", "c"]


def test_dump_load_and_delimiter_enum():
    buf = io.StringIO()
    toonkit.dump({"t": [1, 2]}, buf, delimiter=Delimiter.PIPE)
    assert buf.getvalue() == "t[2|]: 1|2"
    buf.seek(0)
    assert toonkit.load(buf) == {"t": [1, 2]}
    assert toonkit.dumps is toonkit.encode and toonkit.loads is toonkit.decode


def test_count_tokens_and_stats():
    assert toonkit.count_tokens("") == 0
    assert toonkit.count_tokens("hello world") == 2
    s = toonkit.stats({"rows": [{"id": i, "name": f"n{i}"} for i in range(20)]})
    assert set(s) >= {"tokenizer", "json_pretty", "json_compact", "yaml", "toon", "csv"}
    assert s["tokenizer"] == "o200k_base"
    assert s["toon"]["tokens"] < s["json_pretty"]["tokens"]
    assert s["toon"]["tokens"] == toonkit.count_tokens(toonkit.encode(
        {"rows": [{"id": i, "name": f"n{i}"} for i in range(20)]}))


@pytest.mark.parametrize("data", [
    "a: 1\r\ntags[3]: a,b\r\n",
    b"a: 1\r\ntags[3]: a,b\r\n",
    bytearray(b"a: 1\r\ntags[3]: a,b\r\n"),
])
def test_error_source_is_the_offending_line(data):
    with pytest.raises(ToonDecodeError) as info:
        toonkit.decode(data)
    assert (info.value.line, info.value.source) == (2, "tags[3]: a,b")
