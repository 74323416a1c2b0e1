"""``{% term "AWA" %}``: a game term with its explanation (rulebook/glossary.py) as its title."""

from django import template
from django.utils.html import format_html

from rulebook.glossary import explain

register = template.Library()


@register.simple_tag
def term(code, shown: str = ""):
    """The term as the page shows it (``shown``, or its short form), explained on hover and to
    assistive technology; text with no glossary entry comes back as it is."""
    found = explain(str(code))
    text = shown or str(code)
    if found is None:
        return text
    return format_html('<abbr class="term" title="{}: {}">{}</abbr>', found.name, found.explanation, text)
