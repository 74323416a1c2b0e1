"""``{% term "AWA" %}``: a game term with its explanation (rulebook/glossary.py) as its title.

``{% term "Edge" system="success_check" %}`` looks the word up in one rule set's terms (a
ZeroSpace page's "Endurance" is ZeroSpace's); ``{% term "Plot points" _("Plot points") %}`` shows
other text than the word looked up. The name and explanation are translated as the page is made.
"""

from django import template
from django.utils.html import format_html
from django.utils.translation import gettext

from rulebook.glossary import explain

register = template.Library()


@register.simple_tag
def term(code, shown: str = "", system: str | None = None):
    """The term as the page shows it (``shown``, or its short form), explained on hover and to
    assistive technology; text with no glossary entry comes back as it is.

    A term named by its full name (``{% term "Strength" %}``) shows that name in the reader's
    language; a short form (``AWA``) stays as written.
    """
    found = explain(str(code), system)
    text = shown or str(code)
    if found is None:
        return text
    if not shown and str(code) == found.name:
        text = gettext(found.name)
    return format_html('<abbr class="term" title="{}: {}">{}</abbr>', gettext(found.name),
                       gettext(found.explanation), text)
