"""Writing imported rows: ids taken from the tables' sequences first, timestamps as given."""

from __future__ import annotations

from django.db import connection, models

#: Rows per INSERT.
BATCH = 500


def allocate(model: type[models.Model], count: int) -> list[int]:
    """Take ``count`` ids from the model's id sequence, in increasing order."""
    if count <= 0:
        return []
    table = connection.ops.quote_name(model._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute("SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
                       [table, model._meta.pk.column, count])
        return sorted(row[0] for row in cursor.fetchall())


def insert(model: type[models.Model], instances: list[models.Model]) -> None:
    """Insert rows; columns set automatically on insert (created_at) keep the document's values."""
    if not instances:
        return
    stamped = [f for f in model._meta.concrete_fields if getattr(f, "auto_now", False)
               or getattr(f, "auto_now_add", False)]
    given = [[getattr(obj, f.attname) for f in stamped] for obj in instances]
    model.objects.bulk_create(instances, batch_size=BATCH)
    if stamped:
        for obj, values in zip(instances, given, strict=True):
            for f, value in zip(stamped, values, strict=True):
                setattr(obj, f.attname, value)
        model.objects.bulk_update(instances, [f.name for f in stamped], batch_size=BATCH)
