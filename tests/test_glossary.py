"""The glossary explains every game word the pages show, in both languages, with where it lives.

- Every term a page marks (``{% term "X" %}`` in a template, ``explain("X")`` or ``term("X")`` in
  the code) has an entry, looked up in the rule set the mark names.
- Every entry has a name, an explanation and the place in the app where its rule is used, all
  marked for translation in rulebook/glossary.py (which imports no Django).
- Every game word of rulebook/terms_de.py has an entry, but for a short, named list of the table's
  words that are not rules.
- The glossary page lists every entry, by rule set (Zener Gate's groups first), and the ``term``
  tag's English stays as it was.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape
from django.utils.text import slugify

from characters.models import STAT_CHOICES
from rulebook.glossary import BY_CODE, GROUPS, SYSTEM_NAMES, SYSTEMS, TERMS, ZENER, by_system, explain
from rulebook.terms_de import GERMAN
from zenergate_site.templatetags.glossary import term

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"
#: Folders that hold no page or application code.
NOT_CODE = {".venv", "staticfiles", "node_modules", "tests", "bench", ".git", "locale", "static"}

#: Words of terms_de.py that name the table and its paperwork, not a rule: no glossary entry.
TABLE_WORDS = {"roll", "campaign", "character", "GM", "player", "viewer", "adventure", "game night", "recap", "draft",
               "submitted", "approved", "ledger", "invitation"}

TERM_TAG = re.compile(r"""\{%\s*term\s+(["'])(?P<code>.+?)\1(?P<rest>[^%]*)%\}""")
SYSTEM_ARG = re.compile(r"""\bsystem\s*=\s*(["'])(?P<system>\w+)\1""")


# --- (a) every marked term has an entry -----------------------------------------------------------
def _template_marks():
    for path in sorted(TEMPLATES.rglob("*.html")):
        for match in TERM_TAG.finditer(path.read_text()):
            system = SYSTEM_ARG.search(match["rest"])
            yield path.relative_to(ROOT), match["code"], system["system"] if system else None


def _python_files():
    for path in sorted(ROOT.rglob("*.py")):
        parts = set(path.relative_to(ROOT).parts[:-1])
        if parts & NOT_CODE or path.name == "conftest.py" or path.name.startswith("test_"):
            continue
        yield path


def _python_marks():
    for path in _python_files():
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            if name not in ("explain", "term") or not node.args:
                continue
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                system = next((k.value.value for k in node.keywords if k.arg == "system"
                               and isinstance(k.value, ast.Constant)), None)
                yield path.relative_to(ROOT), first.value, system


def test_the_scanners_find_marks():
    assert TERM_TAG.search('{% term "Edge" system="success_check" %}')["code"] == "Edge"
    assert TERM_TAG.search("{% term 'AWA' %}")["code"] == "AWA"
    assert TERM_TAG.search("{% term row.code %}") is None  # a variable: checked below by its values
    assert any(path.name == "glossary.py" for path in _python_files())


def test_every_term_a_page_marks_has_an_entry():
    missing = [f"{path}: {code!r}" + (f" ({system})" if system else "")
               for path, code, system in (*_template_marks(), *_python_marks())
               if explain(code, system) is None]
    assert not missing, "terms marked on a page without a glossary entry:\n" + "\n".join(missing)


def test_every_value_the_sheets_mark_by_variable_has_an_entry():
    """``{% term row.code %}`` on the sheet, the builder and the derived values: the 13 stats
    and the 4 calculated ones."""
    for code in [code for code, _label in STAT_CHOICES] + ["INT", "HP", "SHK", "END"]:
        found = explain(code)
        assert found is not None and found.code == code and found.system == ZENER, code


# --- (b) every entry is whole, and marked -------------------------------------------------------------
def test_every_entry_has_a_name_an_explanation_and_a_place():
    for t in TERMS:
        assert t.code.strip() and t.name.strip(), t
        assert len(t.explanation.strip()) > 20, f"{t.code}: explanation"
        assert t.where.strip(), f"{t.code}: where the rule lives"
        assert t.group in GROUPS and t.system in SYSTEMS, t.code
    assert len(BY_CODE) == len(TERMS), "short forms are unique"
    assert len({slugify(t.code) for t in TERMS}) == len(TERMS), "each entry has an anchor of its own"


def test_no_word_names_two_entries_of_one_rule_set():
    for system in SYSTEMS:
        seen: dict[str, str] = {}
        for t in (t for t in TERMS if t.system == system):
            for word in {t.code.casefold(), t.name.casefold(), *(a.casefold() for a in t.aliases)}:
                assert seen.setdefault(word, t.code) == t.code, f"{system}: {word!r} names {seen[word]} and {t.code}"
                assert explain(word, system) is not None


def test_every_text_is_marked_for_translation():
    """Each name, explanation, group and place is a ``gettext_noop`` literal, so the catalogue
    holds it; short forms are the game's notation and are not marked."""
    source = (ROOT / "rulebook" / "glossary.py").read_text()
    marked = {node.args[0].value for node in ast.walk(ast.parse(source))
              if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "gettext_noop"}
    for t in TERMS:
        for text in (t.name, t.explanation, t.group, t.where):
            assert text in marked, f"{t.code}: {text[:60]!r} is not marked"
    assert set(SYSTEM_NAMES.values()) <= marked
    assert "django" not in source.replace("Django", "")  # the rulebook imports no Django


# --- (c) every game word of terms_de.py has an entry -------------------------------------------------
def test_every_game_word_with_a_german_word_has_an_entry():
    assert TABLE_WORDS <= set(GERMAN), "the table words are words of terms_de.py"
    missing = [word for word in GERMAN if word not in TABLE_WORDS and explain(word) is None]
    assert not missing, f"game words with a German word but no glossary entry: {missing}"


# --- (d) the page, and the tag ------------------------------------------------------------------------
def test_the_glossary_is_grouped_by_rule_set_with_zener_gate_first():
    systems = by_system()
    assert [key for key, _name, _groups in systems] == list(SYSTEMS) and systems[0][0] == ZENER
    shown = [group for _key, _name, groups in systems for group, _terms in groups]
    assert shown == list(GROUPS), "every group shown once, in order"
    assert sum(len(terms) for _k, _n, groups in systems for _g, terms in groups) == len(TERMS)


@pytest.mark.django_db
def test_the_page_lists_every_entry(personas):
    client = Client()
    assert client.get(reverse("glossary")).status_code == 302  # the glossary is for people logged in
    client.force_login(personas["viewer"])
    response = client.get(reverse("glossary"))
    assert response.status_code == 200
    html = response.content.decode()
    for t in TERMS:
        assert escape(t.name) in html, t.code
        assert f'id="term-{slugify(t.code)}"' in html, t.code
    for group in GROUPS:
        assert f">{escape(group)}</h2>" in html, group
    assert html.index(">Stats</h2>") < html.index(">ZeroSpace</h2>") < html.index(">Core Rules (chapter V)</h2>")
    assert "Where: The encounter page&#x27;s attack form" in html
    with translation.override("de"):
        assert client.get(reverse("glossary"), HTTP_ACCEPT_LANGUAGE="de").status_code == 200


def test_the_tag_keeps_its_english():
    assert term("AWA") == ('<abbr class="term" title="Awareness: Noticing what is around: the spot and listen '
                           'checks, and surprise.">AWA</abbr>')
    assert term("nothing here") == "nothing here"
    assert term("Plot points", "plot points", system="zerospace").endswith(">plot points</abbr>")
    assert "The greater of Brawn and Presence" in term("Endurance", system="zerospace")
    assert "Staying power" in term("Endurance")  # Zener Gate's END unless a rule set is named
    strength = escape(BY_CODE["STR"].explanation)
    assert term("Strength") == f'<abbr class="term" title="Strength: {strength}">Strength</abbr>'
