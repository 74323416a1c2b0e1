"""Every table that belongs to a campaign, and each of its columns, is in the document or left out on purpose."""

from django.apps import apps

from campaign.models import Campaign
from transfer import document as doc
from transfer.checks import reader_for


def _in_a_campaign(model, depth: int = 4) -> bool:
    """Say whether rows of ``model`` belong to a campaign: a chain of foreign keys leads to one."""
    if model is Campaign:
        return True
    if depth == 0:
        return False
    return any(_in_a_campaign(f.related_model, depth - 1) for f in model._meta.concrete_fields
               if f.is_relation and f.related_model is not None and f.related_model is not model
               and f.related_model._meta.label != "auth.User")


def test_every_table_is_exported_or_left_out_with_a_reason():
    labels = {m._meta.label for m in apps.get_models() if _in_a_campaign(m)}
    unaccounted = labels - set(doc.EXPORTED) - set(doc.NOT_EXPORTED)
    assert not unaccounted, f"Tables the campaign document neither holds nor leaves out on purpose: {unaccounted}"
    assert not set(doc.EXPORTED) & set(doc.NOT_EXPORTED)
    assert all(reason for reason in doc.NOT_EXPORTED.values())


def test_every_column_of_an_exported_table_is_accounted_for():
    for label, table in doc.EXPORTED.items():
        meta = table.model._meta
        columns = {f.name for f in meta.concrete_fields if not f.primary_key}
        said = set(table.fields) | set(table.users) | set(table.refs) | set(table.without) | set(table.implied) \
            | set(table.line_refs) | set(table.index_refs)
        assert columns <= said, f"{label}: columns the document does not account for: {columns - said}"
        assert not set(table.fields) & {f.name for f in meta.concrete_fields if f.is_relation}, label


def test_every_exported_column_type_can_be_read_back():
    unknown = [f"{table.model.__name__}.{name}" for table in doc.EXPORTED.values() for name in table.fields
               if reader_for(table.model._meta.get_field(name)) is None]
    assert not unknown, f"Column types the import cannot check: {unknown}"
