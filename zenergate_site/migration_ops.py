"""A migration operation for models that moved between apps without moving their tables.

When the economy's models left the campaign app, their creation moved into the economy's own
first migration. A new database gets the tables from there. A database made before the move
already has them, made by the campaign app's old migrations, with every row in them: there the
same operations only take the tables over in Django's state, and the database is not touched.
"""

from django.db import migrations


class TakeOver(migrations.SeparateDatabaseAndState):
    """Run ``operations`` unless ``table`` (and ``column``, if given) already exists.

    Django's state always follows ``operations``, so a new database and an upgraded one end
    in the same state; tests compare their schemas (economy/tests/test_upgrade.py).
    """

    def __init__(self, operations, *, table: str, column: str | None = None):
        super().__init__(database_operations=operations, state_operations=operations)
        self.operations, self.table, self.column = operations, table, column

    def deconstruct(self):
        kwargs = {"operations": self.operations, "table": self.table}
        if self.column:
            kwargs["column"] = self.column
        return self.__class__.__qualname__, [], kwargs

    def _present(self, connection) -> bool:
        introspection = connection.introspection
        with connection.cursor() as cursor:
            if self.table not in introspection.table_names(cursor):
                return False
            if self.column is None:
                return True
            return any(c.name == self.column for c in introspection.get_table_description(cursor, self.table))

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        if not self._present(schema_editor.connection):
            super().database_forwards(app_label, schema_editor, from_state, to_state)

    def describe(self):
        return f"Create {self.table}{'.' + self.column if self.column else ''}, or take over the one already there"
