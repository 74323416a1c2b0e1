"""``{{ part|share:whole }}``: how much of a bar to fill, 0 to 100.

HP may go below zero (RULINGS §8: −25 says how deep a character is) and shock above its
threshold; the number says so, the bar only fills from empty to full."""

from django import template

register = template.Library()


@register.filter
def share(part, whole) -> int:
    try:
        part, whole = float(part), float(whole)
    except (TypeError, ValueError):
        return 0
    return max(0, min(100, round(100 * part / whole))) if whole > 0 else 0
