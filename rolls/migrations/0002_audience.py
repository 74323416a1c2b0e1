"""Who may read a row, as an audience (campaign.audience); what was GM-only stays GM-only."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def _roll_secret_to_audience(apps, schema_editor):
    apps.get_model("rolls", "Roll").objects.filter(private=True).update(audience="gm")


class Migration(migrations.Migration):

    dependencies = [
        ('campaign', '0010_audience'),
        ('rolls', '0001_initial'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='roll',
            name='audience',
            field=models.CharField(choices=[('everyone', 'Everyone in the campaign'), ('gm', 'The GM only'), ('owner', "The character's owner and the GM")], default='everyone', max_length=8),
        ),
        migrations.AddField(
            model_name='roll',
            name='audience_user',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddConstraint(
            model_name='roll',
            constraint=models.CheckConstraint(condition=models.Q(('audience__in', ['everyone', 'gm', 'owner'])), name='roll_audience_valid'),
        ),
        migrations.RunPython(_roll_secret_to_audience, migrations.RunPython.noop),
        migrations.RemoveField(
            model_name='roll',
            name='private',
        ),
    ]
