"""Who may read a row, as an audience (campaign.audience); what was GM-only stays GM-only."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def _event_secret_to_audience(apps, schema_editor):
    apps.get_model("campaign", "Event").objects.filter(gm_only=True).update(audience="gm")


class Migration(migrations.Migration):

    dependencies = [
        ('campaign', '0009_rule_set'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='event',
            name='audience',
            field=models.CharField(choices=[('everyone', 'Everyone in the campaign'), ('gm', 'The GM only'), ('owner', "The character's owner and the GM")], default='everyone', max_length=8),
        ),
        migrations.AddField(
            model_name='event',
            name='audience_user',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name='logentry',
            name='audience',
            field=models.CharField(choices=[('everyone', 'Everyone in the campaign'), ('gm', 'The GM only'), ('owner', "The character's owner and the GM")], default='everyone', max_length=8),
        ),
        migrations.AddField(
            model_name='logentry',
            name='audience_user',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddConstraint(
            model_name='event',
            constraint=models.CheckConstraint(condition=models.Q(('audience__in', ['everyone', 'gm', 'owner'])), name='event_audience_valid'),
        ),
        migrations.AddConstraint(
            model_name='logentry',
            constraint=models.CheckConstraint(condition=models.Q(('audience__in', ['everyone', 'gm', 'owner'])), name='logentry_audience_valid'),
        ),
        migrations.RunPython(_event_secret_to_audience, migrations.RunPython.noop),
        migrations.RemoveField(
            model_name='event',
            name='gm_only',
        ),
    ]
