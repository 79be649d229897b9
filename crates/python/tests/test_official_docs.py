"""The documentation examples of the official `toon-format` 1.2.0 package (its README
on PyPI), run against toonkit: the drop-in promise, checked on what its users copy."""

from decimal import Decimal

import pytest

import toonkit as toon_format
from toonkit import decode, encode

HIKES = {
    "context": {"task": "Our favorite hikes together", "location": "Boulder"},
    "friends": ["ana", "luis", "sam"],
    "hikes": [
        {"id": 1, "name": "Blue Lake Trail", "distanceKm": 7.5, "wasSunny": True},
        {"id": 2, "name": "Ridge Overlook", "distanceKm": 9.2, "wasSunny": False},
    ],
}


def test_quick_start_dumps_and_loads():
    text = toon_format.dumps(HIKES)
    assert text == (
        "context:\n"
        "  task: Our favorite hikes together\n"
        "  location: Boulder\n"
        "friends[3]: ana,luis,sam\n"
        "hikes[2]{id,name,distanceKm,wasSunny}:\n"
        "  1,Blue Lake Trail,7.5,true\n"
        "  2,Ridge Overlook,9.2,false"
    )
    assert toon_format.loads(text) == HIKES
    assert toon_format.count_tokens(text) < toon_format.count_tokens(
        __import__("json").dumps(HIKES, separators=(",", ":")))


def test_options():
    text = toon_format.dumps(HIKES)
    assert toon_format.dumps(HIKES, delimiter="\t").startswith(
        "context:\n  task: Our favorite hikes together\n  location: Boulder\nfriends[3\t]: ana\tluis\tsam")
    # Decimal is a number before `default` is asked, as in the official package.
    assert toon_format.dumps({"when": Decimal("1.5")}, default=str) == "when: 1.5"
    assert toon_format.loads(text, parse_float=Decimal)["hikes"][0]["distanceKm"] == Decimal("7.5")
    assert toon_format.loads("items[3]: a,b", strict=False) == {"items": ["a", "b"]}


def test_errors_carry_line_and_source():
    with pytest.raises(toon_format.ToonDecodeError) as info:
        toon_format.loads("a: 1\ntags[3]: a,b")
    exc = info.value
    assert isinstance(exc, ValueError)
    assert (exc.line, exc.source) == (2, "tags[3]: a,b")
    assert exc.column == 1
    assert str(exc).startswith("line 2")


def test_encode_and_decode_aliases():
    data = {
        "users": [
            {"id": 1, "name": "Ada", "role": "admin"},
            {"id": 2, "name": "Bob", "role": "user"},
        ]
    }
    assert encode(data) == "users[2]{id,name,role}:\n  1,Ada,admin\n  2,Bob,user"
    assert decode(encode(data)) == data
    assert encode(data, indent_size=4, delimiter="\t") == (
        "users[2\t]{id\tname\trole}:\n    1\tAda\tadmin\n    2\tBob\tuser")
    assert decode("a: 1", strict=False) == {"a": 1}
