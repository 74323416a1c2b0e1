"""The interface stays translatable and the German catalogue stays whole.

- Every user-visible string in a template, a Python module or a script is marked for
  translation: a scanner reads each and fails on text that is not, apart from a short list of
  named exceptions (the game's notation, the brand). Text written once and read by many (log
  lines, fights' events, roll labels, ledger reasons) is kept as a Said (rulebook.words): its
  message must be a literal the extraction can find.
- The German catalogues hold every marked string, none empty or fuzzy, and compile.
- German text keeps to one German word per game word (rulebook/terms_de.py).
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import unicodedata
from html.parser import HTMLParser
from pathlib import Path

import polib
import pytest
from django.template.base import Lexer, TokenType

from rulebook.terms_de import GERMAN
from zenergate_site.catalogues import catalogues, problems

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"
APPS = ("campaign", "characters", "combat", "dashboard", "downtime", "economy", "rolls", "rulebook", "transfer",
        "zenergate_site", "demo")
SCRIPTS = sorted(p for p in (ROOT / "static" / "js").glob("*.js") if not p.name.endswith(".min.js"))

# --- What is not translated, by kind ------------------------------------------------------------
#: The game's notation, the same in every language: stat codes, dice, the article's abbreviations,
#: the brand. A text made only of these (and numbers and signs) is not a string to translate.
NOTATION = {
    "STR", "CON", "RES", "NIM", "DEX", "ACC", "MEL", "PRAC", "THEO", "ENC", "LAN", "AWA", "PERS", "INT", "HP",
    "SHK", "END", "AV", "DV", "TN", "PT", "DR", "SOM", "ARC", "KS", "US", "ES", "MoS", "Zener", "Gate", "ZeroSpace",
    "PDF", "JSON", "API", "CSV", "OpenAPI", "ok", "OK", "GM", "NPC", "PC",
}
DICE = re.compile(r"\b\d*d\d+(?:k[hl]\d+|[+−-]\d+)*\b|\b\d+[a-z]{0,2}\b")
WORD = re.compile(r"[^\W\d_]{2,}")

#: Templates that are not pages: Swagger UI's shell (its words are Swagger's own).
TEMPLATES_NOT_PAGES = {"drf_spectacular/swagger_ui.html"}

#: Attributes a person reads (or hears).
VISIBLE_ATTRIBUTES = {"title", "aria-label", "placeholder", "alt", "aria-description", "aria-valuetext"}

#: Modules whose strings are for operators or developers, not players: the development stack,
#: settings, system checks, management commands' output, migrations.
PYTHON_NOT_INTERFACE = ("zenergate_site/devstack.py", "zenergate_site/settings.py", "zenergate_site/checks.py",
                        "zenergate_site/catalogues.py", "zenergate_site/gunicorn.conf.py", "zenergate_site/logs.py",
                        "zenergate_site/migration_ops.py", "/management/", "/migrations/", "/tests/", "demo/")

#: Exceptions raised for programming mistakes, never shown to a person as written.
PROGRAMMING_ERRORS = {"ValueError", "TypeError", "RuntimeError", "KeyError", "AttributeError", "NotImplementedError",
                      "AssertionError", "LookupError", "IndexError", "OSError", "ImproperlyConfigured", "Http404",
                      "NoChangeSet", "SystemExit", "ImportError", "StopIteration", "TemplateSyntaxError"}
MARKERS = {"_", "gettext", "gettext_lazy", "ngettext", "ngettext_lazy", "pgettext", "pgettext_lazy", "gettext_noop",
           "npgettext", "format_lazy", "mark_safe", "format_html", "said", "said_plural"}
#: Markers whose message is kept and translated later: it must be a literal, or the catalogue
#: never learns it.
KEPT = {"said", "said_plural"}
#: Keyword arguments whose text a person reads.
VISIBLE_KEYWORDS = {"label", "help_text", "empty_label", "verbose_name", "verbose_name_plural", "empty_value_display"}


def _only_notation(text: str) -> bool:
    text = DICE.sub(" ", text)
    return all(word in NOTATION for word in WORD.findall(text))


# --- Templates ------------------------------------------------------------------------------------
class _VisibleText(HTMLParser):
    """Text and read attributes of a template with its tags replaced by NUL (and what is marked
    for translation removed): what is left that has words was written for people and not marked."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._skip += 1
        for name, value in attrs:
            if value and (name in VISIBLE_ATTRIBUTES or (name == "value" and tag == "input"
                                                        and dict(attrs).get("type") in ("submit", "button"))):
                self.found.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.found.append(data)


def unmarked_in_template(source: str) -> list[str]:
    """The texts of a template that people read and that no translate tag covers."""
    parts, depth, comment = [], 0, 0
    for token in Lexer(source).tokenize():
        if token.token_type == TokenType.BLOCK:
            name = token.contents.split()[0] if token.contents else ""
            if name in ("blocktranslate", "blocktrans"):
                depth += 1
            elif name in ("endblocktranslate", "endblocktrans"):
                depth -= 1
            elif name == "comment":
                comment += 1
            elif name == "endcomment":
                comment -= 1
            parts.append(" ")  # a tag may sit inside an HTML tag: a space keeps that tag whole
        elif token.token_type == TokenType.TEXT and not depth and not comment:
            parts.append(token.contents)
        else:
            parts.append("\x00")
    parser = _VisibleText()
    parser.feed("".join(parts))
    parser.close()
    texts = (" ".join(text.replace("\x00", " ").split()) for text in parser.found)
    return [text for text in texts if WORD.search(text) and not _only_notation(text)]


def _templates():
    for path in sorted(TEMPLATES.rglob("*")):
        if path.suffix in (".html", ".txt") and str(path.relative_to(TEMPLATES)) not in TEMPLATES_NOT_PAGES:
            yield path


def test_the_scanner_finds_unmarked_template_text():
    source = ('{% load i18n %}<h1>Roll</h1><p title="Odds">{% translate "Fine" %}</p>'
              '{% blocktranslate with n=x %}Also {{ n }} fine{% endblocktranslate %}<b>3d6 STR</b>'
              '<script>const words = "not for people";</script>{# a comment #}<input type="submit" value="Save">')
    assert unmarked_in_template(source) == ["Roll", "Odds", "Save"]


def test_every_template_marks_its_words():
    found = [f"{path.relative_to(ROOT)}: {text!r}" for path in _templates()
             for text in unmarked_in_template(path.read_text())]
    assert not found, f"{len(found)} texts in templates are not marked for translation:\n" + "\n".join(found[:80])


# --- Python ---------------------------------------------------------------------------------------
def _is_text(node) -> bool:
    """A literal a person would read as written: a string with words, an f-string, or text built
    from them with % or +."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return bool(WORD.search(node.value)) and not _only_notation(node.value)
    if isinstance(node, ast.JoinedStr):
        return any(_is_text(value) for value in node.values if isinstance(value, ast.Constant))
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mod, ast.Add)):
        return _is_text(node.left) or (isinstance(node.op, ast.Add) and _is_text(node.right))
    return False


def _name(func) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def unmarked_in_python(source: str) -> list[tuple[int, str]]:
    """Unmarked texts of a module. An API field's help text is marked too: the API reference
    (OpenAPI) is served in the reader's language, like its errors; field names stay English."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = _name(node.func)
        if name in MARKERS:
            if node.args and isinstance(node.args[0], ast.JoinedStr) and name != "format_html":
                found.append((node.lineno, "an f-string inside a translation call cannot be translated"))
            elif name in KEPT and not all(isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                                          for arg in node.args[:2 if name == "said_plural" else 1]):
                found.append((node.lineno, f"{name}() needs its message as a literal"))
            continue
        owner = node.func.value.id if isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) else ""
        shown = []
        if owner == "messages" and name in ("success", "error", "warning", "info", "add_message"):
            shown = node.args[1:2] if name != "add_message" else node.args[2:3]
        elif (name.endswith(("Error", "Conflict")) or name in ("PermissionDenied", "Busy")) and name not in PROGRAMMING_ERRORS:
            # Any argument that reads as a sentence (ParamError("pool", "Unknown resource…") names
            # its field first: a single word is an identifier, not a message).
            shown = [arg for arg in node.args if not (isinstance(arg, ast.Constant) and " " not in str(arg.value))]
            shown += [k.value for k in node.keywords if k.arg in ("message", "detail")]
        elif name == "add_error":
            shown = node.args[1:2]
        if name.endswith(("Field", "Key", "Input", "Select")) or name in ("ForeignKey", "ManyToManyField"):
            shown += [k.value for k in node.keywords if k.arg in VISIBLE_KEYWORDS]
        found += [(node.lineno, ast.get_source_segment(source, arg)[:90]) for arg in shown if _is_text(arg)]
    return found


def _modules():
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            relative = str(path.relative_to(ROOT))
            if not any(part in relative if part.startswith("/") or part.endswith("/") else relative == part
                       for part in PYTHON_NOT_INTERFACE):
                yield path


def test_the_scanner_finds_unmarked_python_text():
    source = '''
from django.utils.translation import gettext as _
messages.success(request, "Saved.")
messages.success(request, _("Saved."))
raise CampaignError(f"No user called {name}.", field="username")
raise CampaignError(_("No user called %(name)s.") % {"name": name})
raise ValueError("a programming mistake")
name = forms.CharField(label="Name", help_text=_("How the table knows you."))
_(f"Hello {name}")
said("%(name)s rested", name=name)
said(message)
'''
    assert [line for line, _text in unmarked_in_python(source)] == [3, 5, 8, 9, 11]


def test_every_python_module_marks_its_words():
    found = [f"{path.relative_to(ROOT)}:{line}: {text}" for path in _modules()
             for line, text in unmarked_in_python(path.read_text())]
    assert not found, f"{len(found)} texts in Python are not marked for translation:\n" + "\n".join(found[:80])


# --- Scripts --------------------------------------------------------------------------------------
SCRIPT_TEXT = re.compile(
    r"""(?:\.(?:textContent|innerText|title|placeholder)\s*=\s*|setAttribute\(\s*["'](?:aria-label|title)["']\s*,\s*"""
    r"""|(?:alert|confirm)\(\s*)(["'`])((?:(?!\1).)*)\1""")


def unmarked_in_script(source: str) -> list[str]:
    return [text for _quote, text in SCRIPT_TEXT.findall(source) if WORD.search(text) and not _only_notation(text)]


def test_every_script_marks_its_words():
    assert unmarked_in_script('el.textContent = "Reconnecting…"; el.title = gettext("Fine");') == ["Reconnecting…"]
    found = [f"{path.relative_to(ROOT)}: {text!r}" for path in SCRIPTS for text in unmarked_in_script(path.read_text())]
    assert not found, "texts in scripts are not marked for translation:\n" + "\n".join(found)


# --- The German catalogues ------------------------------------------------------------------------
def _german() -> list[Path]:
    return [path for path in catalogues() if path.parts[-3] == "de"]


def test_the_german_catalogues_are_complete_and_compile(tmp_path):
    found = _german()
    assert {path.name for path in found} == {"django.po", "djangojs.po"}
    assert not [problem for path in found for problem in problems(path)]
    for path in found:  # each compiles, and its German is what Django serves
        mo = tmp_path / path.with_suffix(".mo").name
        polib.pofile(str(path)).save_as_mofile(str(mo))
        assert polib.mofile(str(mo)).percent_translated() == 100


@pytest.mark.skipif(shutil.which("xgettext") is None and not os.environ.get("REQUIRE_GETTEXT"),
                    reason="extracting strings needs GNU gettext's xgettext (CI installs it)")
def test_the_catalogues_hold_every_marked_string(tmp_path, monkeypatch):
    """Extract the strings again into a copy of the catalogues: nothing new may appear, and
    nothing may stay that is no longer marked."""
    from django.core.management import call_command
    from django.test import override_settings

    # makemessages writes to the catalogue beside the files it reads: a tree of links to the
    # sources with a copy of the catalogues in it keeps the real ones untouched.
    tree = tmp_path / "tree"
    tree.mkdir()
    for source in (*APPS, "templates", "static"):
        (tree / source).symlink_to(ROOT / source)
    copy = tree / "locale"
    shutil.copytree(ROOT / "locale", copy)
    monkeypatch.chdir(tree)
    ignore = ["bench/*", "*/tests/*", "tests/*", "staticfiles/*", "conftest.py", "static/js/htmx.min.js",
              "node_modules/*"]
    with override_settings(LOCALE_PATHS=[str(copy)]):
        for domain in ("django", "djangojs"):
            call_command("makemessages", locale=["de"], domain=domain, no_location=True, ignore_patterns=ignore,
                         symlinks=True, verbosity=0)
    for name in ("django.po", "djangojs.po"):
        ours = {(e.msgctxt, e.msgid) for e in polib.pofile(str(ROOT / "locale/de/LC_MESSAGES" / name)) if not e.obsolete}
        fresh = {(e.msgctxt, e.msgid) for e in polib.pofile(str(copy / "de/LC_MESSAGES" / name)) if not e.obsolete}
        assert not fresh - ours, f"{name} lacks: {sorted(m for _c, m in fresh - ours)[:40]}"
        assert not ours - fresh, f"{name} holds strings no longer marked: {sorted(m for _c, m in ours - fresh)[:40]}"


# --- One German word per game word ----------------------------------------------------------------
def _plain(text: str) -> str:
    """Lower case without umlauts, so that a plural (Würfe, Ränge) still holds its word (Wurf, Rang)."""
    text = text.replace("ß", "ss").lower()
    return "".join(c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c) != "Mn")


#: English words that are game words in some sentences and everyday words in others ("check
#: your e-mail", "turn it off", "a draft of the recap"): the consistency check cannot tell which,
#: so it leaves them out. Each named here, none silently.
EVERYDAY = {"check", "roll", "round", "turn", "rank", "load", "pool", "success", "failure", "draft", "language",
            "skill", "stat", "player", "character", "campaign", "attack", "fight", "critical", "budget", "odds",
            "difficulty", "modifier", "healing", "experience", "equipment", "weapon", "armour", "submitted",
            "approved", "dead", "encounter", "invitation", "trait", "stance", "declaration", "therapy", "wounds",
            "breadth", "adventure", "recap", "ledger", "viewer", "initiative", "reroll", "shock", "trauma", "radiation",
            "dying", "downtime", "Advantage", "Edge", "game night", "Triumph", "Despair", "success", "GM"}


def test_german_text_keeps_to_one_word_per_game_word():
    strays = []
    for path in _german():
        for entry in polib.pofile(str(path)):
            if entry.obsolete or entry.msgid_plural:
                continue
            for english, german in GERMAN.items():
                if english in EVERYDAY or english.lower() in EVERYDAY:
                    continue
                # The noun carries the word ("abgeleitete Attribute" for "abgeleitetes Attribut"),
                # its stem the plural and the cases.
                stem = _plain(german.split()[-1])[:-1]
                # A capitalised game word (Strength, Fatigue) only as written; a lower-case one
                # also at the start of a sentence. Placeholders (%(fatigue)s) are not words.
                first = english[0] if english[0].isupper() else f"[{english[0]}{english[0].upper()}]"
                text = re.sub(r"%\(\w+\)[sdr]", " ", entry.msgid)
                if re.search(rf"\b{first}{re.escape(english[1:])}s?\b", text) and stem not in _plain(entry.msgstr):
                    strays.append(f"{entry.msgid[:50]!r}: {english} → {german}, German text {entry.msgstr[:50]!r}")
    assert not strays, f"{len(strays)} German texts stray from rulebook/terms_de.py:\n" + "\n".join(strays[:60])
