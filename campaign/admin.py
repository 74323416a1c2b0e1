from django.contrib import admin

from rulebook.words import said

from .changes import change_set
from .models import Campaign, Job, LogEntry, Membership


class ThroughChangeSets:
    """Admin edits are writes like any other: each goes through a change set of its campaign,
    so the guard lets it pass and open pages see it (the admin runs it in one transaction)."""

    def campaign_of(self, obj) -> int | None:
        return getattr(obj, "campaign_id", None)

    def _write(self, request, obj):
        return change_set(campaign=self.campaign_of(obj), by=request.user)

    def save_model(self, request, obj, form, change):
        write = self._write(request, obj)
        super().save_model(request, obj, form, change)
        if write.campaign_id is None and isinstance(obj, Campaign):
            write.bind(obj)
        values = {"by": str(request.user), "what": str(obj)}
        write.audit("admin.save", said("%(by)s changed %(what)s in the admin", **values) if change else
                    said("%(by)s added %(what)s in the admin", **values))

    def save_related(self, request, form, formsets, change):
        self._write(request, form.instance)
        super().save_related(request, form, formsets, change)

    def delete_model(self, request, obj):
        self._write(request, obj)
        super().delete_model(request, obj)

    def delete_queryset(self, request, queryset):
        for obj in queryset:
            self._write(request, obj)
        super().delete_queryset(request, queryset)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0


@admin.register(Campaign)
class CampaignAdmin(ThroughChangeSets, admin.ModelAdmin):
    list_display = ["name", "stat_entry", "game_hours", "created_at"]
    inlines = [MembershipInline]

    def campaign_of(self, obj) -> int | None:
        return obj.pk


@admin.register(LogEntry)
class LogEntryAdmin(ThroughChangeSets, admin.ModelAdmin):
    list_display = ["created_at", "campaign", "actor", "action", "summary"]
    list_filter = ["action"]


@admin.register(Job)
class JobAdmin(ThroughChangeSets, admin.ModelAdmin):
    list_display = ["id", "campaign", "kind", "status", "progress", "total", "created_at"]
