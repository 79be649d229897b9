"""toonkit against the official `toon_format` 1.2.0 (PyPI `toon-format`), the package it
replaces: hypothesis-generated Python values, host types, colliding keys, big and
non-finite numbers, every delimiter, indent and `sort_keys`, encoded by both, must give
the same text or the same exception class; TOON texts, valid and damaged, decoded by
both (strict and not, with and without hooks) must give the same value or the same
exception class.

Documented differences (README, "Python") are left out explicitly below, each where
the strategy or the comparison excludes it."""

import dataclasses
import datetime
import enum
import math
import pathlib
import uuid
from decimal import Decimal

import pytest
import toon_format
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import toonkit

assert toon_format.__version__ == "1.2.0", toon_format.__version__

SETTINGS = settings(max_examples=400, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def outcome(call):
    """The value `call` returns, or the name of the exception class it raises (the
    two packages' ToonDecodeError are different classes with one name)."""
    try:
        return ("value", call())
    except RecursionError:
        raise
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        return ("error", type(e).__name__)


def same(a, b):
    """Equal, and of the same types throughout (1 == 1.0 == True are not the same)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return a == b


def assert_same(ours, theirs):
    assert ours[0] == theirs[0] and (
        ours[1] == theirs[1] if ours[0] == "error" else same(ours[1], theirs[1])
    ), f"toonkit {ours!r}\nofficial {theirs!r}"


# ---------------------------------------------------------------- values to encode

class Colour(enum.Enum):
    RED = "red"
    ONE = 1


class Size(enum.IntEnum):
    BIG = 2**70


@dataclasses.dataclass
class Point:
    x: int
    y: object


TRICKY_TEXT = st.sampled_from([
    "", " ", " a", "a ", "-", "- x", "#", "# c", "true", "false", "null", "1", "-1", "05",
    "+1", "1.5", "1e5", "1E-3", "a,b", "a|b", "a\tb", "a:b", "[1]", "{x}", '"', "\\",
    "line\nbreak", "\r", "\x00", "\x1f", "\u00e9", "\ufeffbom", "\u2028", "caf\u00e9",
    "[]", "- [1]: x", "NaN", "Infinity", "-Infinity",
])
TEXT = st.one_of(TRICKY_TEXT, st.text(max_size=12))
# Floats exactly as the official package meets them, non-finite and huge included.
FLOATS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([2.0**53, 2.0**60, -(2.0**64), 1e20, 1e21, 1e-6, 1e-7, 0.1, -0.0,
                     5e-324, 1.7976931348623157e308, 123456789.0, 1.5e300]),
)
INTS = st.one_of(st.integers(), st.integers(min_value=-(2**200), max_value=2**200),
                 st.sampled_from([2**53, 2**63, 2**64, -(2**63) - 1, 2**128]))
# Documented difference: a Decimal is written through the nearest float where it is
# not an integer below 1e21, so only Decimals a float holds exactly are compared.
DECIMALS = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False).map(lambda f: Decimal(repr(f))),
    st.integers(min_value=-(10**20), max_value=10**20).map(Decimal),
    st.sampled_from([Decimal("1.50"), Decimal("-0"), Decimal("NaN"), Decimal("Infinity"),
                     Decimal("1E+3"), Decimal("0.000001"), Decimal("1e-7")]),
)
HOST = st.one_of(
    DECIMALS,
    st.datetimes(), st.dates(), st.times(),
    st.uuids(),
    st.text(max_size=8).map(pathlib.PurePosixPath),
    st.sampled_from([Colour.RED, Colour.ONE, Size.BIG]),
    st.frozensets(st.integers(-5, 5), max_size=4),
    st.sets(st.text(max_size=3), max_size=4),
)
SCALARS = st.one_of(st.none(), st.booleans(), INTS, FLOATS, TEXT, HOST)
KEYS = st.one_of(
    TEXT, st.integers(-3, 3), st.sampled_from([1.5, 2.0, float("nan"), float("inf"),
                                                float("-inf"), 2.0**60, 1e22]),
    st.booleans(), st.none(),
)


def rows(children):
    """Lists of objects with one shape (tables, keyed tables, nested field groups)."""
    return st.lists(st.sampled_from(["a", "b", "c d", "1"]), min_size=1, max_size=3,
                    unique=True).flatmap(
        lambda keys: st.lists(st.fixed_dictionaries({k: children for k in keys}),
                              min_size=1, max_size=4))


VALUES = st.recursive(
    SCALARS,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.lists(children, max_size=3).map(tuple),
        st.dictionaries(KEYS, children, max_size=4),
        rows(SCALARS),
        rows(children),
        rows(children).map(lambda rs: {f"k{i}": r for i, r in enumerate(rs)}),
        st.builds(Point, st.integers(), children),
    ),
    max_leaves=24,
)
OPTIONS = st.fixed_dictionaries({
    "indent_size": st.integers(1, 4),
    "delimiter": st.sampled_from([",", "\t", "|", *toonkit.Delimiter]),
    "sort_keys": st.booleans(),
})


@SETTINGS
@given(VALUES, OPTIONS)
def test_encode_gives_the_official_text_or_error(value, options):
    theirs_options = dict(options, delimiter=str(options["delimiter"]))
    assert_same(outcome(lambda: toonkit.encode(value, **options)),
                outcome(lambda: toon_format.encode(value, **theirs_options)))


@SETTINGS
@given(st.dictionaries(KEYS, st.integers(), max_size=6), st.booleans())
def test_colliding_keys(value, sort_keys):
    assert_same(outcome(lambda: toonkit.encode(value, sort_keys=sort_keys)),
                outcome(lambda: toon_format.encode(value, sort_keys=sort_keys)))


@pytest.mark.parametrize("options", [
    {"indent_size": 0}, {"indent_size": -2}, {"indent_size": True}, {"indent_size": 1.0},
    {"indent_size": "2"}, {"delimiter": None}, {"delimiter": ";"}, {"delimiter": 5},
    {"delimiter": ""}, {"delimiter": ",,"}, {"delimiter": toonkit.Delimiter.TAB},
])
def test_option_validation(options):
    assert_same(outcome(lambda: toonkit.encode({"a": [1, 2]}, **options)),
                outcome(lambda: toon_format.encode({"a": [1, 2]}, **options)))
    if "indent_size" in options:
        assert_same(outcome(lambda: toonkit.decode("a: 1", **options)),
                    outcome(lambda: toon_format.decode("a: 1", **options)))


def test_references_defaults_and_surrogates():
    cyclic = []
    cyclic.append(cyclic)
    looped = {}
    looped["self"] = [looped]
    cases = [
        (cyclic, {}), (looped, {}), (object(), {"default": lambda o: o}),
        (object(), {}), (b"x", {}), ({(1,): 1}, {}), ("\ud800", {}), ({"\udfff": 1}, {}),
        (Point(1, None), {}), ({"p": object()}, {"default": repr}),
    ]
    for value, options in cases:
        assert_same(outcome(lambda: toonkit.encode(value, **options)),
                    outcome(lambda: toon_format.encode(value, **options)))
    deep = []
    for _ in range(5000):
        deep = [deep]
    assert_same(outcome(lambda: toonkit.encode(deep)), outcome(lambda: toon_format.encode(deep)))


# ---------------------------------------------------------------- texts to decode

DAMAGE = st.sampled_from(list(":-[]{},|\t\" \\\n#0123456789e.+abxtn") + ["  ", "\r\n"])


@st.composite
def damaged(draw, text):
    """`text` with a few characters deleted, inserted or replaced."""
    chars = list(text)
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(chars)))
        what = draw(st.sampled_from(["delete", "insert", "replace"]))
        if what == "insert" or not chars or at == len(chars):
            chars.insert(at, draw(DAMAGE))
        elif what == "delete":
            del chars[at]
        else:
            chars[at] = draw(DAMAGE)
    return "".join(chars)


def official_text(value, options):
    try:
        return toon_format.encode(value, **options)
    except (TypeError, ValueError):
        return "a: 1"


TEXTS = st.builds(official_text, VALUES, OPTIONS).flatmap(
    lambda text: st.one_of(st.just(text), damaged(text)))
DECODE_OPTIONS = st.fixed_dictionaries({
    "strict": st.booleans(),
    "indent_size": st.sampled_from([1, 2, 4]),
})


@SETTINGS
@given(TEXTS, DECODE_OPTIONS)
def test_decode_gives_the_official_value_or_error(text, options):
    assert_same(outcome(lambda: toonkit.decode(text, **options)),
                outcome(lambda: toon_format.decode(text, **options)))


@SETTINGS
@given(TEXTS, st.sampled_from([
    {"parse_float": Decimal}, {"parse_int": str, "parse_float": str},
    {"object_pairs_hook": list}, {"object_hook": lambda d: sorted(d.items())},
]))
def test_decode_hooks(text, hooks):
    assert_same(outcome(lambda: toonkit.decode(text, **hooks)),
                outcome(lambda: toon_format.decode(text, **hooks)))


@pytest.mark.parametrize("text", [
    "x: 1e400", "x: -1e400", "[2]: 1e308,1e309", "n: " + "9" * 5000, "a: 1e-400",
    "x: 1.0", "x: -0", "x: 1E+2", "x: 01", "x: -01.5", "x: 1.", "x: .5",
    b"a: \xff", bytearray(b"a: 1"), "\ufeffa: 1", "a: 1\r\nb: 2",
])
def test_decode_numbers_and_inputs(text):
    for hooks in ({}, {"parse_float": Decimal}, {"parse_int": float}):
        assert_same(outcome(lambda: toonkit.decode(text, **hooks)),
                    outcome(lambda: toon_format.decode(text, **hooks)))


def test_errors_match_and_pickle():
    import pickle

    for text in ["a:\n  b: 1\n   c: 2", "a: 1\ntags[3]: a,b", "x: 1e400"]:
        with pytest.raises(toon_format.ToonDecodeError) as theirs:
            toon_format.decode(text)
        with pytest.raises(toonkit.ToonDecodeError) as ours:
            toonkit.decode(text)
        assert (ours.value.line, ours.value.source) == (theirs.value.line, theirs.value.source)
        assert str(ours.value) == f"line {ours.value.line}: {ours.value.msg}"
        back = pickle.loads(pickle.dumps(ours.value))
        assert type(back) is toonkit.ToonDecodeError
        assert (back.msg, back.line, back.source, back.column, str(back)) == (
            ours.value.msg, ours.value.line, ours.value.source, ours.value.column,
            str(ours.value))
    assert str(toonkit.Delimiter.PIPE) == str(toon_format.Delimiter.PIPE) == "|"
    assert toonkit.__toon_spec__ == toon_format.__toon_spec__
    assert isinstance(toonkit.__version__, str)
