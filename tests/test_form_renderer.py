"""The form renderer writes the common widgets in Python (zenergate_site/form_renderer.py): its
HTML must be Django's own, byte for byte, for every kind of widget the app's forms use."""

from __future__ import annotations

import pytest
from django import forms
from django.forms.renderers import DjangoTemplates
from django.utils.safestring import mark_safe

from zenergate_site.form_renderer import Renderer

DJANGO, OURS = DjangoTemplates(), Renderer()

CHOICES = [("", "—"), ("a", "Alpha & <b>"), (3, 'Three "quoted"')]
GROUPED = [("Stats", [("STR", "Strength"), ("AWA", "Awareness")]), ("x", "Lone")]


class Every(forms.Form):
    text = forms.CharField(max_length=20, initial='He said "no" & <left>')
    blank = forms.CharField(required=False)
    number = forms.IntegerField(min_value=-3, max_value=40, initial=7)
    decimal = forms.DecimalField(max_digits=5, decimal_places=2, initial="1.50")
    email = forms.EmailField(required=False)
    secret = forms.CharField(widget=forms.PasswordInput(render_value=True), initial="x<y")
    hidden = forms.CharField(widget=forms.HiddenInput, initial="build")
    tick = forms.BooleanField(required=False, initial=True)
    untick = forms.BooleanField(required=False)
    pick = forms.ChoiceField(choices=CHOICES, initial="a")
    grouped = forms.ChoiceField(choices=GROUPED, initial="AWA")
    many = forms.MultipleChoiceField(choices=CHOICES[1:], initial=["a", 3], required=False)
    maybe = forms.NullBooleanField()
    text_area = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), initial="line\n<two>")
    empty_area = forms.CharField(widget=forms.Textarea, required=False)
    day = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}), required=False)
    safe = forms.CharField(initial=mark_safe("<i>kept</i>"), widget=forms.TextInput(attrs={"data-x": True, "aria-y": False}))


def _both(form) -> list[tuple[str, str, str]]:
    rows = []
    for field in form:
        django_html = field.as_widget(widget=field.field.widget)
        field.form.renderer = OURS
        ours = field.as_widget(widget=field.field.widget)
        field.form.renderer = DJANGO
        rows.append((field.name, str(django_html), str(ours)))
    return rows


@pytest.mark.parametrize("bound", [False, True])
def test_every_widget_kind_renders_as_djangos_templates(bound):
    data = {"text": "typed <x>", "number": "12", "pick": "3", "grouped": "STR", "many": ["a"], "tick": "on",
            "maybe": "true", "text_area": "a & b", "secret": "s3cret", "hidden": "sheet", "day": "2026-11-29"}
    form = Every(data if bound else None, renderer=DJANGO)
    for name, django_html, ours in _both(form):
        assert ours == django_html, name


def test_the_apps_forms_render_as_before():
    from characters.views.wounds import WoundForm
    from combat.forms import NpcForm

    for form in (WoundForm(), NpcForm(), WoundForm({"hit_points": "x"})):
        form.renderer = DJANGO
        for name, django_html, ours in _both(form):
            assert ours == django_html, f"{type(form).__name__}.{name}"


def test_a_widget_it_does_not_know_goes_through_the_templates():
    radio = forms.ChoiceField(choices=CHOICES, widget=forms.RadioSelect)
    form = forms.Form(renderer=OURS)
    form.fields["r"] = radio
    assert 'type="radio"' in str(form["r"])


def test_error_lists_render_as_djangos_templates_empty_or_not():
    data = {"number": "99", "pick": "nope"}
    for bound in (Every(renderer=DJANGO), Every(data, renderer=DJANGO)):
        bound.is_valid() if bound.is_bound else None
        for name in ("number", "pick", "blank"):
            errors = bound[name].errors
            django_html = str(errors)
            errors.renderer = OURS
            assert str(errors) == django_html, name
            assert (django_html == "") == (not bound.is_bound or name == "blank")
        bound.renderer = OURS
        ours = str(bound.non_field_errors())
        bound.renderer = DJANGO
        assert ours == str(bound.non_field_errors())
