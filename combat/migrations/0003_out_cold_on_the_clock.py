"""A knock-out is kept as the second on the fight's clock at which it ends, not as a count of
turns (rulebook.game_time): a combatant who had n actions left to miss is out cold until the
start of the round n rounds from this one."""

from django.db import migrations, models

TO_THE_CLOCK = """
UPDATE combat_combatant AS c
   SET out_cold_until = (GREATEST(e.round, 1) + c.out_cold_turns - 1)::bigint * e.round_seconds
  FROM combat_encounter AS e
 WHERE e.id = c.encounter_id AND c.out_cold_turns > 0
"""

TO_TURNS = """
UPDATE combat_combatant AS c
   SET out_cold_turns = LEAST(GREATEST(CEIL((c.out_cold_until - (GREATEST(e.round, 1) - 1)::bigint * e.round_seconds)
                                            / e.round_seconds::numeric), 0), 32767)
  FROM combat_encounter AS e
 WHERE e.id = c.encounter_id AND c.out_cold_until IS NOT NULL
"""


class Migration(migrations.Migration):

    dependencies = [
        ("combat", "0002_audience"),
    ]

    operations = [
        migrations.AddField(
            model_name="combatant",
            name="out_cold_until",
            field=models.PositiveBigIntegerField(blank=True, null=True),
        ),
        migrations.RunSQL(TO_THE_CLOCK, TO_TURNS),
        migrations.RemoveField(
            model_name="combatant",
            name="out_cold_turns",
        ),
        migrations.AlterField(
            model_name="combatant",
            name="skipped_rounds",
            field=models.PositiveIntegerField(default=0),
        ),
    ]
