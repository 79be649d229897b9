"""Edges of the direct codec: Python objects serialized straight into TOON text and
built straight from it. Expected texts are what the `toon` CLI (the `Value` route,
which matches the reference @toon-format/toon 4.4.0) prints for the same data."""

import enum
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toonkit
from toonkit import ToonDecodeError


@pytest.mark.parametrize("value, text", [
    ({"rows": [{"a": 2**64, "b": -(2**130)}, {"a": 1, "b": 2**200}], "n": -(2**63) - 1, "m": 2**63},
     "rows[2]{a,b}:\n  18446744073709551616,-1361129467683753853853498429727072845824\n"
     "  1,1606938044258990275541962092341162602522202993782792835301376\n"
     "n: -9223372036854775809\nm: 9223372036854775808"),
    ([-0.0, 1.0, 5e-324, 1.7976931348623157e308, 0.1 + 0.2, 1e21, 1e-7, 123456789.0, 2.5e-5, 1e20],
     "[10]: 0,1,5e-324,1.7976931348623157e+308,0.30000000000000004,1e+21,1e-7,123456789,"
     "0.000025,100000000000000000000"),
    ({"a b": 1, "": 2, "1x": 3, "x:y": 4, "-k": 5, "true": 6, "é": 7, 'a"b': 8, "[x]": 9},
     '"a b": 1\n"": 2\n"1x": 3\n"x:y": 4\n"-k": 5\ntrue: 6\n"é": 7\n"a\\"b": 8\n"[x]": 9'),
    ({"orders": [{"id": 1, "c": {"name": "A", "tier": {"x": 1.5}}},
                 {"id": 2, "c": {"name": "B,C", "tier": {"x": None}}}]},
     'orders[2]{id,c{name,tier{x}}}:\n  1,A,1.5\n  2,"B,C",null'),
    ({"orders": [{"id": 1, "c": {"name": "A", "tier": {"x": 1}}, "t": [1, 2]},
                 {"id": 2, "c": {"name": "B,C", "tier": {"x": 2}}, "t": []}]},
     "orders[2]:\n  - id: 1\n    c:\n      name: A\n      tier:\n        x: 1\n    t[2]: 1,2\n"
     '  - id: 2\n    c:\n      name: "B,C"\n      tier:\n        x: 2\n    t: []'),
    ({"users": {"ada": {"age": 36, "x": None}, "bob": {"age": 41, "x": True}}},
     "users[2:]{age,x}:\n  ada: 36,null\n  bob: 41,true"),
    ([1, "a", {"k": [1, {"z": 2}]}, (1, 2), [], {}],
     "[6]:\n  - 1\n  - a\n  - k[2]:\n      - 1\n      - z: 2\n  - [2]: 1,2\n  - [0]:\n  -"),
    (["", " ", "null", "05", "-", "- x", "a,b", "line\nbreak", "tab\tx", "#", "1e5", "😀"],
     '[12]: ""," ","null","05","-","- x","a,b","line\\nbreak","tab\\tx","#","1e5",😀'),
    ({"t": [{"a": float("nan"), "b": float("-inf")}, {"a": 1, "b": 2}]}, "t[2]{a,b}:\n  null,null\n  1,2"),
])
def test_encode_matches_the_value_route(value, text):
    assert toonkit.encode(value) == text


def test_big_ints_decode_exact_and_hooks_get_digits():
    text = toonkit.encode({"a": 2**64, "b": -(2**130), "c": 2**200})
    assert toonkit.decode(text) == {"a": 2**64, "b": -(2**130), "c": 2**200}
    seen = []
    toonkit.decode(text, parse_int=lambda s: seen.append(s) or 0)
    assert seen == [str(2**64), str(-(2**130)), str(2**200)]


def test_int_subclasses_encode_by_value():
    class Loud(int):
        def __repr__(self):
            return "loud"

        __str__ = __repr__

    class Colour(enum.IntEnum):
        RED = 2**70

    assert toonkit.encode([Loud(5), Loud(2**100), Colour.RED]) == f"[3]: 5,{2**100},{2**70}"


def test_number_forms_decode_as_the_value_route():
    assert toonkit.decode("[5]: -0,-0.0,1e3,1.50,2") == [0, 0.0, 1000.0, 1.5, 2]
    assert [type(x) for x in toonkit.decode("[3]: 1,1.0,1e3")] == [int, float, float]
    # The hooks get each number as written, as the official package's do.
    assert toonkit.decode("[2]: 1.50,1e3", parse_float=str) == ["1.50", "1e3"]
    assert toonkit.decode("[2]: -0,7", parse_int=str) == ["-0", "7"]


def test_mixed_and_sorted_keys():
    value = {2: "a", 1.5: "b", None: "c", True: "d", 2**70: "e", float("inf"): "f"}
    assert toonkit.encode(value) == f'"2": a\n"1.5": b\nnull: c\ntrue: d\n"{2**70}": e\nInfinity: f'
    # Keys that spell the same once converted would lose a value.
    with pytest.raises(ValueError, match="Duplicate key after conversion"):
        toonkit.encode({1: "a", "1": "b"})
    with pytest.raises(ValueError, match="Duplicate key after conversion"):
        toonkit.encode({"null": 0, None: 1}, sort_keys=True)
    assert toonkit.encode({"b": {"y": 1, "x": 2}, "a": 0}, sort_keys=True) == "a: 0\nb:\n  x: 2\n  y: 1"
    with pytest.raises(TypeError, match="Keys must be"):
        toonkit.encode({(1, 2): 3})


def test_default_runs_once_per_object_and_its_errors_propagate():
    class Box:
        def __init__(self, v):
            self.v = v

    calls = []

    def default(o):
        calls.append(o)
        return {"v": o.v}

    boxes = [Box(1), Box(2), Box(3)]
    assert toonkit.encode({"rows": boxes}, default=default) == "rows[3]{v}:\n  1\n  2\n  3"
    assert calls == boxes

    def broken(o):
        raise KeyError("no form")

    with pytest.raises(KeyError, match="no form"):
        toonkit.encode({"rows": [Box(1)]}, default=broken)
    with pytest.raises(TypeError, match="bytes"):
        toonkit.encode({"b": b"x"})
    with pytest.raises(ValueError):  # default handing back its argument never ends
        toonkit.encode([Box(1)], default=lambda o: o)


def test_depth_limits_are_errors_never_crashes():
    deep = 0
    for _ in range(999):
        deep = [deep]
    assert toonkit.encode(deep).endswith("- [1]: 0")
    for _ in range(5):
        deep = [deep]
    with pytest.raises(ValueError, match="(?i)nest"):
        toonkit.encode(deep)
    d = {}
    d["self"] = d
    with pytest.raises(ValueError):
        toonkit.encode(d)

    class Forever:
        pass

    with pytest.raises(ValueError):
        toonkit.encode(Forever(), default=lambda o: [Forever()])


def test_lone_surrogates_raise_value_errors():
    with pytest.raises(ValueError, match="unpaired surrogate"):
        toonkit.encode({"a": "\ud800"})
    with pytest.raises(ValueError, match="unpaired surrogate"):
        toonkit.encode({"\udc00": 1})


def test_decode_inputs_and_duplicates():
    assert toonkit.decode("\ufeffa: 1") == toonkit.decode(b"\xef\xbb\xbfa: 1") == {"a": 1}
    assert toonkit.decode(bytearray(b"t[2]: x,y")) == {"t": ["x", "y"]}
    assert toonkit.decode("a: 1\nb: 2\na: 3", strict=False) == {"a": 3, "b": 2}
    assert toonkit.decode("a: 1\nb: 2\na: 3", strict=False, object_pairs_hook=list) == [("a", 3), ("b", 2)]
    with pytest.raises(ToonDecodeError):
        toonkit.decode("a: 1\nb: 2\na: 3")


def test_decoded_rows_share_key_strings():
    rows = toonkit.decode("t[3]{id,name}:\n  1,a\n  2,b\n  3,c")["t"]
    keys = [list(r) for r in rows]
    assert keys == [["id", "name"]] * 3
    assert all(k[0] is keys[0][0] and k[1] is keys[0][1] for k in keys)


def test_hook_errors_propagate_unchanged():
    with pytest.raises(ZeroDivisionError):
        toonkit.decode("a: 1", parse_int=lambda s: 1 // 0)
    with pytest.raises(ZeroDivisionError):
        toonkit.decode("a:\n  b: 1", object_hook=lambda d: 1 // 0)


SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**140), max_value=2**140),
    st.floats(), st.text(max_size=6),
)
TREES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(st.fixed_dictionaries({"a": inner, "b": SCALARS}), min_size=2, max_size=3),
        st.dictionaries(st.one_of(st.text(max_size=4), st.integers()), inner, max_size=4),
    ),
    max_leaves=25,
)


@settings(max_examples=200, deadline=None)
@given(TREES)
def test_direct_encoder_agrees_with_the_value_serializer(value):
    """`stats` encodes through a whole `toon::Value` (`toon::to_value` over the same
    objects), `encode` through the direct encoder: the TOON texts must be the same."""
    text = toonkit.encode(value)
    toon = toonkit.stats(value)["toon"]
    assert toon["bytes"] == len(text.encode())
    assert toon["tokens"] == toonkit.count_tokens(text)
    if not any(isinstance(x, float) and not math.isfinite(x) for x in _leaves(value)):
        assert toonkit.encode(toonkit.decode(text)) == text


def _leaves(value):
    if isinstance(value, dict):
        for v in value.values():
            yield from _leaves(v)
    elif isinstance(value, list):
        for v in value:
            yield from _leaves(v)
    else:
        yield value


def test_default_changing_the_tree_is_no_panic():
    class Thief:
        pass

    d = {"a": Thief(), "b": 1, "c": 2}
    items = [Thief(), 1, 2]
    try:
        text = toonkit.encode(d, default=lambda o: d.pop("b", 0))
    except Exception:  # an ordinary exception is fine; a PanicException is not
        text = None
    assert text in (None, "a: 1\nc: 2", "a: 1\nb: 1\nc: 2")
    try:
        toonkit.encode(items, default=lambda o: items.clear() or 0)
    except Exception:
        pass


def test_host_types_as_the_official_package_writes_them():
    import dataclasses
    import datetime
    import decimal
    import pathlib
    import uuid

    class Colour(enum.Enum):
        RED = "red"

    @dataclasses.dataclass
    class P:
        x: int
        tags: frozenset

    value = [decimal.Decimal("1.50"), decimal.Decimal("NaN"), {3, 1, 2},
             datetime.date(2020, 1, 2), uuid.UUID(int=1), pathlib.PurePosixPath("/a"),
             Colour.RED, P(1, frozenset({"b", "a"})), 2.0**60]
    assert toonkit.encode(value) == (
        "[9]:\n  - 1.5\n  - null\n  - [3]: 1,2,3\n  - 2020-01-02\n"
        "  - 00000000-0000-0000-0000-000000000001\n  - /a\n  - red\n"
        "  - x: 1\n    tags[2]: a,b\n  - 1152921504606846976")
    assert toonkit.decode(toonkit.encode(2.0**60)) == 2**60
    p = P(1, frozenset())
    p.x = p
    with pytest.raises(ValueError, match="Circular reference"):
        toonkit.encode(p)


def test_decode_errors_pickle_and_numbers_out_of_range():
    import pickle

    with pytest.raises(ToonDecodeError) as info:
        toonkit.decode("a: 1\nx: 1e400")
    err = info.value
    assert (err.msg, err.line, err.source, str(err)) == (
        "Number 1e400 is out of range", 2, "x: 1e400", "line 2: Number 1e400 is out of range")
    back = pickle.loads(pickle.dumps(err))
    assert (type(back), back.line, back.source, back.column, str(back)) == (
        ToonDecodeError, 2, "x: 1e400", err.column, str(err))
    assert toonkit.decode('x: "1e400"') == {"x": "1e400"}
    with pytest.raises(ToonDecodeError):
        toonkit.decode("n: " + "9" * 5000)


def test_decode_leaves_the_garbage_collector_as_it_found_it():
    import gc

    assert gc.isenabled()
    assert toonkit.decode("a:\n  b[1]: 1") == {"a": {"b": [1]}}
    with pytest.raises(ToonDecodeError):
        toonkit.decode("a[2]: 1")
    with pytest.raises(ZeroDivisionError):
        toonkit.decode("a: 1", parse_int=lambda s: 1 / 0)
    assert gc.isenabled()
    gc.disable()
    try:
        toonkit.decode("a: 1")
        assert not gc.isenabled()
    finally:
        gc.enable()
