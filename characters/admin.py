from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from campaign.admin import ThroughChangeSets

from .models import Armour, Character, Disadvantage, Equipment, Language, Skill, Weapon


class LineAdmin(ThroughChangeSets, SimpleHistoryAdmin):
    def campaign_of(self, obj) -> int | None:
        return obj.character.campaign_id


class SkillInline(admin.TabularInline):
    model = Skill
    extra = 0


@admin.register(Character)
class CharacterAdmin(ThroughChangeSets, SimpleHistoryAdmin):
    list_display = ["name", "campaign", "owner", "state", "karma"]
    list_filter = ["state", "campaign"]
    inlines = [SkillInline]


for model in (Disadvantage, Equipment, Weapon, Armour, Language):
    admin.site.register(model, LineAdmin)
