"""``{% sheet_line line section forloop.first %}``: a sheet line, written out in Python
(characters/views/line_markup.py), with the page's CSRF token."""

from django import template

from characters.views.line_markup import line_html

register = template.Library()


@register.simple_tag(takes_context=True)
def sheet_line(context, line, section, first):
    return line_html(line, section, first=first, csrf_token=str(context.get("csrf_token") or ""))
