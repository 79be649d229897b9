"""`toonkit.decode` builds Python objects straight from the decoder's state machine:
the places where that builder could part from the rules — integers at every width,
hooks on table cells and inline values, a table's keys reused across rows and tables,
repeated keys, depth, and errors (with their lines) raised inside tables — each checked
against fixed expectations and, where the official package agrees, against
`toon_format` 1.2.0."""

from decimal import Decimal

import pytest
import toon_format

import toonkit
from toonkit import ToonDecodeError

I64_MAX = 2**63 - 1
U64_MAX = 2**64 - 1


@pytest.mark.parametrize("n", [0, 1, -1, 10**18 - 1, -(10**18) + 1, 10**18, I64_MAX,
                               -I64_MAX - 1, I64_MAX + 1, U64_MAX, U64_MAX + 1,
                               -(2**64), 2**70, -(2**127), 10**60, -(10**400)])
def test_integers_are_exact_at_every_width(n):
    assert toonkit.decode(f"n: {n}") == {"n": n}
    assert toonkit.decode(f"t[1]{{a,b}}:\n  {n},x") == {"t": [{"a": n, "b": "x"}]}
    assert toonkit.decode(f"[2]: {n},{n}") == [n, n]
    got = toonkit.decode(str(n))
    assert type(got) is int and got == n


def test_negative_zero_and_floats():
    assert toonkit.decode("[4]: -0,-0.0,1e2,0.1") == toon_format.decode("[4]: -0,-0.0,1e2,0.1")
    got = toonkit.decode("x: -0.0")["x"]
    assert got == 0.0 and str(got) == "0.0"


def test_an_integer_int_refuses_is_a_decode_error_at_its_line():
    text = "a: 1\nt[2]{x,y}:\n  1,2\n  3," + "9" * 5000
    with pytest.raises(ToonDecodeError) as e:
        toonkit.decode(text)
    assert e.value.line == 4


def test_hooks_see_every_number_token_as_written():
    text = "v: 1.50\nt[2]{a,b}:\n  1,2.50\n  -3,1e2\nk[3]: 3,4.0,-0"
    seen = []

    def pi(s):
        seen.append(("int", s))
        return ("i", s)

    def pf(s):
        seen.append(("float", s))
        return Decimal(s)

    got = toonkit.decode(text, parse_int=pi, parse_float=pf)
    assert got == {
        "v": Decimal("1.50"),
        "t": [{"a": ("i", "1"), "b": Decimal("2.50")}, {"a": ("i", "-3"), "b": Decimal("1e2")}],
        "k": [("i", "3"), Decimal("4.0"), ("i", "-0")],
    }
    assert [s for _, s in seen] == ["1.50", "1", "2.50", "-3", "1e2", "3", "4.0", "-0"]
    assert got == toon_format.decode(text, parse_int=pi, parse_float=pf)


def test_parse_float_takes_floats_beyond_the_range():
    assert toonkit.decode("t[1]{a}:\n  1e400", parse_float=Decimal) == {"t": [{"a": Decimal("1e400")}]}
    with pytest.raises(ToonDecodeError) as e:
        toonkit.decode("a: 1\nt[1]{a}:\n  1e400")
    assert e.value.line == 3


def test_a_value_error_from_parse_int_is_located_other_exceptions_pass_through():
    def bad(s):
        if s == "2":
            raise ValueError("no two")
        return int(s)

    with pytest.raises(ToonDecodeError) as e:
        toonkit.decode("t[3]{a}:\n  1\n  2\n  3", parse_int=bad)
    assert e.value.line == 3 and "no two" in e.value.msg

    def worse(s):
        raise KeyError(s)

    with pytest.raises(KeyError):
        toonkit.decode("t[2]{a,b}:\n  x,1\n  y,2", parse_int=worse)


def test_object_hooks_on_rows_and_a_raising_hook_stops_the_decode():
    text = "t[2]{a,b}:\n  1,x\n  2,y"
    got = toonkit.decode(text, object_hook=lambda d: sorted(d.items()))
    assert got == [("t", [[("a", 1), ("b", "x")], [("a", 2), ("b", "y")]])]
    pairs = toonkit.decode(text, object_pairs_hook=list)
    assert pairs == toon_format.decode(text, object_pairs_hook=list)

    calls = []

    def boom(d):
        calls.append(d)
        raise RuntimeError("hook")

    with pytest.raises(RuntimeError, match="hook"):
        toonkit.decode(text, object_hook=boom)
    assert len(calls) == 1


def test_table_keys_follow_each_tables_fields():
    # Two tables with different fields inside every list item, so a reused key list
    # of one table would mislabel the other's cells.
    item = "  - p[1]{a,b}:\n      1,2\n    q[2]{c,d,e}:\n      3,4,5\n      6,7,8\n"
    text = "items[3]:\n" + item * 3 + "r[1]{b,a}:\n  9,10"
    got = toonkit.decode(text)
    one = {"p": [{"a": 1, "b": 2}], "q": [{"c": 3, "d": 4, "e": 5}, {"c": 6, "d": 7, "e": 8}]}
    assert got == {"items": [one, one, one], "r": [{"b": 9, "a": 10}]}
    assert list(got["r"][0]) == ["b", "a"]
    assert got == toon_format.decode(text)


def test_keyed_and_nested_field_groups():
    text = "[2]{id,c{n,m}}:\n  1,A,x\n  2,B,y"
    try:
        expected = toon_format.decode(text)
    except Exception:  # noqa: BLE001 - field groups are a toonkit extension
        expected = None
    got = toonkit.decode(text)
    assert got == [{"id": 1, "c": {"n": "A", "m": "x"}}, {"id": 2, "c": {"n": "B", "m": "y"}}]
    if expected is not None:
        assert got == expected


@pytest.mark.parametrize("text", [
    "a: 1\nb: 2\na: 3",
    "o:\n  x: 1\n  x: [2]: 1,2",
    "t[2]{a,a}:\n  1,2\n  3,4",
    "[1]:\n  - a: 1\n    a: 2",
])
def test_repeated_keys(text):
    with pytest.raises(ToonDecodeError):
        toonkit.decode(text)
    got = toonkit.decode(text, strict=False)
    assert got == toon_format.decode(text, strict=False)


def test_repeated_key_keeps_first_position_last_value():
    got = toonkit.decode("a: 1\nb: 2\na: 3", strict=False)
    assert list(got.items()) == [("a", 3), ("b", 2)]


def test_depth_limit_is_a_decode_error_not_a_crash():
    # Objects 999 deep are within the limit (1000); one more level is not.
    def nested(n):
        return "".join("  " * i + f"k{i}:\n" for i in range(n)) + "  " * n + "v: 1"

    got = toonkit.decode(nested(999))
    for i in range(999):
        got = got[f"k{i}"]
    assert got == {"v": 1}
    with pytest.raises(ToonDecodeError) as e:
        toonkit.decode(nested(1000))
    assert e.value.line == 1000
    lists = "".join("  " * i + "- [1]:\n" for i in range(3000))
    with pytest.raises(ToonDecodeError):
        toonkit.decode("[1]:\n" + "  " + lists.replace("\n", "\n  "))


@pytest.mark.parametrize("text, line", [
    ("a: 1\nt[2]{x,y}:\n  1,2\n  3", 4),
    ("t[2]{x,y}:\n  1,\"open\n  3,4", 2),
    ("t[3]{x}:\n  1\n  2", 3),
    ("a:\n  b[2]: 1", 2),
    ("t[1]{x}:\n  \"bad\\q\"", 2),
])
def test_errors_inside_tables_carry_their_line(text, line):
    with pytest.raises(ToonDecodeError) as e:
        toonkit.decode(text)
    assert e.value.line == line
    assert e.value.source == text.split("\n")[line - 1]
    with pytest.raises(toon_format.ToonDecodeError if hasattr(toon_format, "ToonDecodeError")
                       else Exception):
        toon_format.decode(text)


def test_a_lying_header_reserves_nothing():
    with pytest.raises(ToonDecodeError):
        toonkit.decode("a[999999999999]: 1,2")
    assert toonkit.decode("a[999999999999]: 1,2", strict=False) == {"a": [1, 2]}


def test_strings_keys_and_unicode():
    text = 't[2]{"a b",é}:\n  "x,y",ünï\n  "",null\nq: "tab\\there"'
    got = toonkit.decode(text)
    assert got == {"t": [{"a b": "x,y", "é": "ünï"}, {"a b": "", "é": None}], "q": "tab\there"}
    assert got == toon_format.decode(text)
