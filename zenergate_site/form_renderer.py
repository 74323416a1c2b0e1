"""Django's form renderer, with its most common widgets written out in Python.

A form field's widget is a template (``input.html``, which includes ``attrs.html``; a select
includes ``select_option.html`` once per option, each including ``attrs.html`` again). On the
GM's encounter page, with its attack and NPC forms, that is some 150 template renders and
about 8 ms of a 20 ms page; written out here, the same HTML costs a tenth of it. Only these
templates are replaced, and exactly (tests/test_form_renderer.py compares every widget kind the
app uses with Django's own templates); any other widget, or an option with a template of its
own, renders through the templates as before.
"""

from __future__ import annotations

from django.forms.renderers import DjangoTemplates
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

WIDGETS = "django/forms/widgets/"
#: Widgets whose template is ``input.html`` (directly or through a one-line include).
INPUTS = {f"{WIDGETS}{name}.html" for name in (
    "input", "text", "number", "email", "password", "hidden", "url", "search", "tel", "date", "time",
    "datetime", "checkbox", "color",
)}
SELECT, OPTION, TEXTAREA = f"{WIDGETS}select.html", f"{WIDGETS}select_option.html", f"{WIDGETS}textarea.html"
#: An error list's templates, which write nothing for no errors (every field of every form asks).
ERROR_LISTS = {f"django/forms/errors/list/{name}.html" for name in ("default", "ul", "text")}


def _text(value) -> str:
    """``{{ value|stringformat:'s' }}``: the value as text, escaped."""
    return conditional_escape(value if isinstance(value, str) else f"{value!s}")


def _attrs(attrs: dict) -> str:
    """``attrs.html``: `` name="value"`` for each attribute, a bare name for True, none for False."""
    out = []
    for name, value in attrs.items():
        if value is False:
            continue
        out.append(f" {conditional_escape(name)}" if value is True else f' {conditional_escape(name)}="{_text(value)}"')
    return "".join(out)


def _input(widget: dict) -> str:
    value = widget["value"]
    shown = "" if value is None else f' value="{_text(value)}"'
    return f'<input type="{conditional_escape(widget["type"])}" name="{conditional_escape(widget["name"])}"{shown}{_attrs(widget["attrs"])}>'


def _option(option: dict) -> str:
    return f'<option value="{_text(option["value"])}"{_attrs(option["attrs"])}>{conditional_escape(option["label"])}</option>'


def _select(widget: dict) -> str | None:
    parts = [f'<select name="{conditional_escape(widget["name"])}"{_attrs(widget["attrs"])}>']
    for group_name, group_choices, _index in widget["optgroups"]:
        if group_name:
            parts.append(f'\n  <optgroup label="{conditional_escape(group_name)}">')
        for option in group_choices:
            if option["template_name"] != OPTION:
                return None  # an option of its own kind: the templates render the whole select
            parts.append(f"\n  {_option(option)}\n")  # the option template's own line end comes along
        if group_name:
            parts.append("\n  </optgroup>")
    parts.append("\n</select>")
    return "".join(parts)


def _textarea(widget: dict) -> str:
    value = widget["value"]
    return (f'<textarea name="{conditional_escape(widget["name"])}"{_attrs(widget["attrs"])}>\n'
            f'{conditional_escape(value) if value else ""}</textarea>')


class Renderer(DjangoTemplates):
    """``FORM_RENDERER``: the widgets above in Python, everything else through the templates."""

    def render(self, template_name, context, request=None):
        if template_name in ERROR_LISTS and not context.get("errors"):
            return mark_safe("")
        widget = context.get("widget")
        html = None
        if widget is not None:
            if template_name in INPUTS:
                html = _input(widget)
            elif template_name == SELECT:
                html = _select(widget)
            elif template_name == TEXTAREA:
                html = _textarea(widget)
            elif template_name == OPTION:
                html = _option(widget)
        if html is None:
            return super().render(template_name, context, request)
        return mark_safe(html)
