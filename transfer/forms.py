"""The import form on the campaigns page: a document file, read as JSON."""

import json

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .services import document_limit


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


class ImportForm(forms.Form):
    document = forms.FileField(label=gettext_lazy("Campaign file (.json)"))

    def clean_document(self):
        upload = self.cleaned_data["document"]
        limit = document_limit()
        if limit is not None and upload.size > limit:
            raise forms.ValidationError(_("The file is %(size)s bytes; this server takes at most %(limit)s.")
                                        % {"size": upload.size, "limit": limit})
        try:
            return json.loads(upload.read().decode("utf-8"), parse_constant=_refuse_constant)
        except UnicodeDecodeError:
            raise forms.ValidationError(_("The file is not UTF-8 text: choose a campaign's .json export.")) from None
        except RecursionError:
            raise forms.ValidationError(_("The file is nested too deeply to be a campaign document.")) from None
        except ValueError as exc:
            raise forms.ValidationError(_("The file is not JSON (%(error)s).") % {"error": exc}) from None
