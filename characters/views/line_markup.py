"""A sheet line's HTML, written out in Python.

A sheet shows some fifty lines (skills, weapons, equipment, ...), each with its facts, its odds
and their breakdown, its Roll and its Edit and Remove. As a template included fifty times that
was about 160 µs a line, two thirds of an uncached sheet's render (docs/performance.md, "Where
a sheet's time goes"); the same markup built here costs a fraction of that. Everything a line
shows is already computed in its ``Line`` (characters/views/page.py); this module only writes
it out, escaping every value. The line being edited includes its form through the
``characters/_line_edit.html`` template, as before.
"""

from __future__ import annotations

from urllib.parse import quote

from django.template.loader import render_to_string
from django.utils.html import conditional_escape as esc
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from rulebook.dice import miracle_dice
from zenergate_site.templatetags.odds import likelihood

from ..sheet import ASPECT_WORDS


def line_html(line, section: dict, *, first: bool, csrf_token: str) -> SafeString:
    """One ``<li>`` of a section's list (``first``: the section's first line, the profession;
    ``csrf_token``: the page's, as ``{% csrf_token %}`` would write it, or empty for none)."""
    kind, pk = section["kind"], line.item.pk
    name = esc(line.item.name)
    out = [f'<li class="line{" pending" if line.pending else ""}" id="{kind}-{pk}">\n',
           f'  <div class="line-name">\n    <strong>{name}</strong>\n']
    if kind == "skills" and first:
        profession = esc(_("Profession"))
        out.append(f'    <span class="badge">{profession}</span>\n')
    if line.pending:
        awaiting = esc(_("awaiting GM"))
        out.append(f'    <span class="badge warn">{awaiting}</span>\n')
    out.append("  </div>\n")
    out.append(_facts(line))
    if line.check:
        out.append(_odds(line))
        if line.roll_line:
            out.append(roll_line_html(section["roll_url"], line.roll_line, label=line.check.label))
    if line.roll_aspects:
        out.append('  <div class="roll-aspects">')
        out.extend(roll_line_html(section["roll_url"], roll_line, label=line.item.name,
                                  summary=str(ASPECT_WORDS.get(aspect, aspect)))
                   for aspect, roll_line in line.roll_aspects)
        out.append("</div>\n")
    if line.errors:
        out.append('  <ul class="errorlist" role="alert">'
                   + "".join(f"<li>{esc(error)}</li>" for error in line.errors) + "</ul>\n")
    token = (f'<input type="hidden" name="csrfmiddlewaretoken" value="{esc(csrf_token)}">'
             if csrf_token and csrf_token != "NOTPROVIDED" else "")
    hidden = f'{token}<input type="hidden" name="next" value="{esc(section["page"])}">'
    if line.classify_form:
        out.append(_classify(line, kind, name, hidden))
    if line.can_edit:
        out.append(_actions(line, section, name, hidden, csrf_token))
    out.append("</li>\n")
    return mark_safe("".join(out))


def _facts(line) -> str:
    facts = "".join(f"<div><dt>{esc(label)}</dt><dd>{esc(value)}</dd></div>" for label, value in line.facts)
    if line.cost is not None:
        cost = esc(_("Cost"))
        facts += f"<div><dt>{cost}</dt><dd>{esc(line.cost)}</dd></div>"
    return f'  <dl class="facts">\n    {facts}\n  </dl>\n'


def _odds(line) -> str:
    check, exact = line.check, esc(line.exact)
    # One target and one dice count: the ones rolled (the miracle rule's, when it escalates).
    dice, target = miracle_dice(check.target, check.dice)
    terms = "".join(f"<li><span>{esc(label)}</span> <b>{value:+d}</b></li>" for label, value in check.breakdown)
    miracle = ""
    if dice != check.dice:
        said = _("Impossible on %(dice)sd6 at %(target)s: the miracle rule adds %(more)s dice and %(plus)s to the "
                 "target.") % {"dice": check.dice, "target": check.target, "more": dice - check.dice,
                               "plus": 2 * (dice - check.dice)}
        miracle = f'\n      <p class="small">{esc(said)}</p>'
    on_dice = esc(_("on %(dice)sd6") % {"dice": dice})
    return (
        '  <div class="odds">\n'
        '    <details class="breakdown">\n'
        f'      <summary>≤ <strong>{target}</strong> <span class="muted small">{on_dice}</span></summary>\n'
        f"      <ul>{terms}</ul>\n"
        f'      <p class="small muted">{exact}.</p>{miracle}\n'
        "    </details>\n"
        f'    <span class="pct" data-odds title="{exact}">{esc(check.percent)}</span>'
        f'<span class="visually-hidden"> ({esc(likelihood(check.probability))})</span>\n'
        f'    <span class="odds-bar" aria-hidden="true"><span style="width: {round(check.probability * 100)}%">'
        "</span></span>\n"
        "  </div>\n")


def roll_line_html(roll_url: str, roll_line: str, *, label: str, summary: str = "") -> str:
    """"Roll" on a sheet line: its form loads when opened, so a sheet of thirty lines renders no
    thirty forms (``roll_url``: the character's roll-form address, reversed once per section)."""
    summary = f" {esc(summary)}" if summary else ""
    roll, loading = esc(_("Roll")), esc(_("Loading…"))
    return (f'<details class="roll-line" hx-get="{esc(roll_url)}?line={esc(quote(roll_line, safe="/"))}" '
            'hx-trigger="toggle once" hx-target="find .roll-body">\n'
            f'  <summary>{roll}{summary}<span class="visually-hidden"> {esc(label)}</span></summary>\n'
            f'  <div class="roll-body"><span class="small muted">{loading}</span></div>\n'
            "</details>\n")


def _classify(line, kind: str, name: str, hidden: str) -> str:
    url = esc(line.url)
    breadth_of = esc(_("Breadth of %(name)s") % {"name": line.item.name})
    classify = esc(_("Classify"))
    fields = "".join(f'<label class="visually-hidden" for="{esc(field.id_for_label)}">{breadth_of}</label>{field}'
                     for field in line.classify_form)
    return (f'  <form method="post" action="{url}classify/" class="classify" hx-post="{url}classify/"\n'
            f'        hx-target="#sec-{kind}" hx-swap="outerHTML" hx-include="#sec-{kind} .classify select">\n'
            f"    {hidden}\n    {fields}\n"
            f'    <button type="submit" class="secondary">{classify}</button>\n'
            "  </form>\n")


def _actions(line, section: dict, name: str, hidden: str, csrf_token: str) -> str:
    kind, pk, url, page = section["kind"], line.item.pk, esc(line.url), esc(section["page"])
    edit, remove = esc(_("Edit")), esc(_("Remove"))
    confirm = esc(_("Remove %(name)s?") % {"name": line.item.name})
    if line.edit_form:
        lazy = ""
        body = render_to_string("characters/_line_edit.html",
                                {"line": line, "section": section, "csrf_token": csrf_token})
    else:
        lazy = (f'\n             hx-get="{url}edit/?next={page}"\n'
                '             hx-trigger="toggle once" hx-target="find .edit-body"')
        open_form = esc(_("Open the form"))
        body = f'<a class="small" href="?edit={kind}-{pk}#{kind}-{pk}">{open_form}</a>'
    return ('  <div class="line-actions">\n'
            f'    <details class="edit"{" open" if line.open else ""}{lazy}>\n'
            f"      <summary>{edit}</summary>\n"
            f'      <div class="edit-body">{body}</div>\n'
            "    </details>\n"
            f'    <form method="post" action="{url}delete/" class="remove" hx-post="{url}delete/"\n'
            f'          hx-target="#sec-{kind}" hx-swap="outerHTML" hx-confirm="{confirm}">\n'
            f"      {hidden}\n"
            f'      <button type="submit" class="link danger">{remove}</button>\n'
            "    </form>\n"
            "  </div>\n")
