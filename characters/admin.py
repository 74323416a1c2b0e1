from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from .models import Armour, Character, Disadvantage, Equipment, Language, Skill, Weapon


class SkillInline(admin.TabularInline):
    model = Skill
    extra = 0


@admin.register(Character)
class CharacterAdmin(SimpleHistoryAdmin):
    list_display = ["name", "campaign", "owner", "state", "karma"]
    list_filter = ["state", "campaign"]
    inlines = [SkillInline]


for model in (Disadvantage, Equipment, Weapon, Armour, Language):
    admin.site.register(model, SimpleHistoryAdmin)
