"""Text told once and read by many: a Said keeps its message and values and is written out in
each reader's language, or in English, the plain text kept beside it."""

import pytest

from rulebook import words
from rulebook.words import Said, kept, listed, said, said_plural, told


#: A reader's language for these tests: what it has, it translates; the rest comes back as written.
READER = {"%(by)s added %(name)s as %(role)s": "%(by)s hat %(name)s als %(role)s hinzugefügt", "player": "Spieler",
          "%(n)s action": "%(n)s Aktion", "%(n)s actions": "%(n)s Aktionen", "hit": "Treffer",
          " at the %(where)s": " (%(where)s)", "a": "A", "b": "B"}


@pytest.fixture
def reader():
    installed = words._translate, words._translate_plural  # the site's, in a run with Django set up
    words.install(lambda m: READER.get(m, m), lambda s, p, n: READER.get(s if n == 1 else p, s if n == 1 else p))
    yield
    words.install(*installed)


def test_a_said_is_told_in_the_readers_language_and_kept_in_english(reader):
    line = said("%(by)s added %(name)s as %(role)s", by="gm", name="bob", role=said("player"))
    assert line.english() == "gm added bob as player"
    assert line.told() == "gm hat bob als Spieler hinzugefügt"  # the names stay as typed
    assert str(line) == line.told()


def test_plurals_parts_and_joins(reader):
    missed = said_plural("%(n)s action", "%(n)s actions", 2, n=2)
    assert missed.english() == "2 actions" and missed.told() == "2 Aktionen"
    one = said_plural("%(n)s action", "%(n)s actions", 1, n=1)
    assert one.english() == "1 action"
    line = said("hit") + said(" at the %(where)s", where="face")
    assert line.english() == "hit at the face" and line.told() == "Treffer (face)"
    assert listed([said("a"), "Bob", said("b")], separator="; ").told() == "A; Bob; B"
    assert not listed([]) and listed([]).english() == ""


def test_a_said_survives_being_kept_as_json():
    line = said("%(a)s: %(b)s", a="x", b=listed([said_plural("%(n)s day", "%(n)s days", 3, n=3), "y"]))
    data = line.as_data()
    assert Said.from_data(data) == line
    assert Said.from_data(data).english() == "x: 3 days, y"
    assert told("plain", data) == "x: 3 days, y"
    assert kept("plain", data) == line


def test_a_record_kept_before_saids_reads_as_its_text():
    assert told("gm created the campaign", {}) == "gm created the campaign"
    assert kept("gm created the campaign", {}) == "gm created the campaign"


@pytest.mark.parametrize("data", [
    {"m": "%(a)999999999s", "v": {"a": "x"}},      # a width would cost what it asks for
    {"m": "%(a).5000f", "v": {"a": 1}},
    {"m": "%s"},                                    # only named placeholders
    {"m": "%(a)s"},                                 # a placeholder its values do not fill
    {"m": "x" * 1001},
    {"m": "%(a)s", "v": {"a": "y" * 1001}},
    {"m": "%(a)s", "v": {"a": True}},
    {"m": 3},
    {"m": "%(n)s day", "p": "%(n)s days", "n": "3", "v": {"n": 3}},  # a plural needs its count
    {"l": [{"m": "x"}] * 51},
    {"l": "not a list"},
    "a string",
])
def test_a_kept_said_from_a_file_is_refused_when_it_is_not_one(data):
    assert Said.from_data(data) is None
    assert told("the plain text", data) == "the plain text"


def test_saids_nest_only_so_deep():
    data = {"m": "x"}
    for _ in range(7):
        data = {"m": "%(a)s", "v": {"a": data}}
    assert Said.from_data(data) is None
    data = {"m": "x"}
    for _ in range(5):
        data = {"m": "%(a)s", "v": {"a": data}}
    assert Said.from_data(data).english() == "x"


def test_a_said_holds_only_text_numbers_and_saids():
    with pytest.raises(TypeError):
        said("%(a)s", a=object())
    with pytest.raises(TypeError):
        said("%(a)s", a=True)
