"""The paths of `encode`'s walker over Python objects that a plain dict/list tree does
not take: table rows whose keys are equal but distinct str objects, subclasses of the
built-in types, bool next to int, big ints and floats in table cells, keys that collide
after conversion inside rows, rows that fit only out of order or stop fitting late,
the stack on deep values, and which error comes first. The official `toon_format`
1.2.0 is the oracle wherever it encodes the value (the differential test covers the
rest of its behaviour)."""

import collections
import threading

import pytest
import toon_format
from hypothesis import given, settings
from hypothesis import strategies as st

import toonkit


def fresh(text):
    """An str equal to `text` but not the same object (never interned)."""
    return "".join(list(text))


def official(value, **options):
    try:
        return toon_format.encode(value, **options)
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        return type(e).__name__


def ours(value, **options):
    try:
        return toonkit.encode(value, **options)
    except Exception as e:  # noqa: BLE001
        return type(e).__name__


def test_rows_with_equal_but_distinct_key_objects_are_one_table():
    rows = [{fresh("id"): i, fresh("name"): f"n{i}", fresh("meta"): {fresh("x"): i}} for i in range(4)]
    for a, b in zip(rows, rows[1:]):
        assert all(x is not y for x, y in zip(a, b))
    text = toonkit.encode({"rows": rows})
    assert text.startswith("rows[4]{id,name,meta{x}}:\n  0,n0,0\n")
    assert text == official({"rows": rows})


def test_a_row_whose_key_differs_late_is_no_table():
    rows = [{"id": i, "name": "x"} for i in range(50)] + [{"id": 50, "nam": "x"}]
    text = toonkit.encode({"rows": rows})
    assert text.startswith("rows[51]:\n  - id: 0\n")
    assert text == official({"rows": rows})
    # A later row with one more key, or a container where a cell was, also ends it.
    for last in ({"id": 1, "name": "x", "z": 0}, {"id": 1, "name": [1]}, {"id": 1, "name": {}}, 7):
        value = {"rows": [{"id": 0, "name": "a"}, last]}
        assert toonkit.encode(value) == official(value)


def test_rows_that_fit_only_out_of_order_are_written_in_field_order():
    value = {"t": [{"a": 1, "b": {"c": 2, "d": 3}}, {"b": {"d": 5, "c": 4}, "a": 6}]}
    assert toonkit.encode(value) == "t[2]{a,b{c,d}}:\n  1,2,3\n  6,4,5"
    assert toonkit.encode(value) == official(value)


def test_subclasses_of_the_built_in_types_encode_as_their_base():
    class D(dict):
        def items(self):  # not consulted: a dict's own entries are read
            raise AssertionError

    class L(list):
        pass

    class S(str):
        pass

    rows = L([D(a=1, b=S("x")), collections.OrderedDict(a=2, b="y")])
    value = {S("rows"): rows, "t": (1, 2), S("k"): D({S("n"): D(v=1), "m": D(v=2)})}
    text = toonkit.encode(value)
    assert text == "rows[2]{a,b}:\n  1,x\n  2,y\nt[2]: 1,2\nk[2:]{v}:\n  n: 1\n  m: 2"
    plain = {"rows": [{"a": 1, "b": "x"}, {"a": 2, "b": "y"}], "t": [1, 2],
             "k": {"n": {"v": 1}, "m": {"v": 2}}}
    assert text == toonkit.encode(plain) == official(plain)


def test_bools_stay_bools_next_to_ints_and_numbers_stay_exact_in_cells():
    value = {"t": [{"a": True, "b": 1, "c": 2**70, "d": 2.0**60},
                   {"a": 0, "b": False, "c": -(2**64), "d": 2.0**53}]}
    text = toonkit.encode(value)
    assert text == ("t[2]{a,b,c,d}:\n  true,1,1180591620717411303424,1152921504606846976\n"
                    "  0,false,-18446744073709551616,9007199254740992")
    back = toonkit.decode(text)
    assert back["t"][0]["d"] == 2.0**60 and back["t"][1]["c"] == -(2**64)
    assert [type(x) for x in back["t"][0].values()] == [bool, int, int, int]


def test_keys_colliding_after_conversion_raise_inside_rows_and_keyed_tables():
    for value in ({"t": [{"1": 1, "x": 2}, {1: 3, "1": 4}]},
                  {"t": [{1: "a", "1": "b"}, {"a": 1}]},
                  {"u": {"a": {1: 1, "1": 2}, "b": {"x": 1, "y": 2}}}):
        with pytest.raises(ValueError, match="Duplicate key"):
            toonkit.encode(value)
        assert official(value) == "ValueError"
    # Converted keys that do not collide are fields like any other.
    value = {"t": [{1: "a", None: "b"}, {"1": "c", "null": "d"}]}
    assert toonkit.encode(value) == 't[2]{"1",null}:\n  a,b\n  c,d' == official(value)


def test_object_fields_with_repeated_shared_and_colliding_key_objects():
    # Records that are list items (not a table: values of mixed kinds), their keys the
    # same str objects in every record, more distinct keys than the entry-key table has
    # slots, keys that need quotes, and equal keys made apart, in one document.
    shared = [f"k{i}" for i in range(600)] + ["a b", "", "-x", "05", "é", 'q"t']
    records = [{k: (i if j % 3 else [i, j]) for j, k in enumerate(shared)} for i in range(3)]
    records.append({fresh(k): 1 for k in shared[:40]})
    value = {"records": records, "tail": {k: True for k in shared[-6:]}}
    assert ours(value) == official(value)
    assert toonkit.decode(toonkit.encode(value)) == value
    # A dict whose str keys come before and after keys that need converting: the
    # fields keep their order, and a collision is found whatever comes first.
    value = {"items": [{"a": 1, 2: "b", "c": None, 2.5: 1.5}, {"x": 1}]}
    assert ours(value) == official(value)
    value = {"items": [{"a": 1, "1": 2, 1: 3}, {"x": 1}]}
    assert ours(value) == official(value) == "ValueError"


def test_the_first_error_in_document_order_is_raised():
    class Opaque:
        pass

    # A collision in the first row (ValueError) comes before an object without a form
    # in the third (TypeError), though the array is looked at before it is written.
    value = {"t": [{"a": {1: 1, "1": 2}}, {"a": 1}, Opaque()]}
    assert ours(value) == official(value) == "ValueError"
    value = {"t": [{"a": Opaque()}, {"a": {1: 1, "1": 2}}]}
    assert ours(value) == official(value) == "TypeError"
    value = [[1, 2], [Opaque()], {"k": {1: 0, "1": 0}}]
    assert ours(value) == official(value) == "TypeError"


def test_default_runs_once_even_when_it_raises_during_a_look_ahead():
    class Opaque:
        pass

    calls = []

    def default(o):
        calls.append(o)
        raise LookupError("no form")

    o = Opaque()
    with pytest.raises(LookupError):
        toonkit.encode({"t": [{"a": 1}, {"a": o}], "u": [1, o]}, default=default)
    assert calls == [o]

    replaced = []

    def once(o):
        replaced.append(o)
        return {"a": len(replaced)}

    rows = [Opaque(), Opaque(), Opaque()]
    assert toonkit.encode(rows, default=once) == "[3]{a}:\n  1\n  2\n  3"
    assert replaced == rows


def test_sort_keys_and_default_read_snapshots_with_tables():
    rows = [{"b": 1, "a": 2}, {"a": 3, "b": 4}]
    assert toonkit.encode({"t": rows}, sort_keys=True) == "t[2]{a,b}:\n  2,1\n  3,4"
    assert toonkit.encode({"t": rows}, default=str) == "t[2]{b,a}:\n  1,2\n  4,3"
    assert toonkit.encode({"t": rows}, sort_keys=True) == official({"t": rows}, sort_keys=True)


def test_deep_values_in_tables_and_lists_never_crash_on_small_stacks():
    deep = {"x": 1}
    for _ in range(990):
        deep = {"g": deep}
    value = {"t": [deep, deep]}
    results = []

    def run():
        results.append(ours(value))
        too_deep = {"x": 1}
        for _ in range(1100):
            too_deep = {"g": too_deep}
        results.append(ours({"t": [too_deep, too_deep]}))
        circular = {"a": 1}
        circular["b"] = [circular]
        results.append(ours({"t": [circular, circular]}))

    threading.stack_size(256 * 1024)
    try:
        t = threading.Thread(target=run)
        t.start()
        t.join()
    finally:
        threading.stack_size(0)
    assert results[0].startswith("t[2]")
    assert results[0] == toonkit.encode(value)
    assert results[1:] == ["ValueError", "ValueError"]


KEYS = st.sampled_from(["a", "b", "c", 1, "1", None])
CELLS = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70),
                  st.floats(allow_nan=False), st.text(max_size=3))
ROWS = st.lists(st.dictionaries(KEYS, st.one_of(CELLS, st.dictionaries(KEYS, CELLS, max_size=2)),
                                min_size=1, max_size=3), min_size=1, max_size=5)


@settings(max_examples=300, deadline=None)
@given(ROWS, st.booleans(), st.booleans())
def test_tables_agree_with_the_official_package(rows, fresh_keys, sort_keys):
    """Rows of mostly equal shapes (tables, near-tables, keyed tables), with keys
    that are shared objects or fresh copies, written as the official package does."""
    if fresh_keys:
        rows = [{fresh(k) if isinstance(k, str) else k: v for k, v in r.items()} for r in rows]
    value = {"t": rows, "k": {f"r{i}": r for i, r in enumerate(rows)}}
    assert ours(value, sort_keys=sort_keys) == official(value, sort_keys=sort_keys)
