from django.contrib import admin

from .models import Campaign, Job, LogEntry, Membership


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ["name", "stat_entry", "game_hours", "created_at"]
    inlines = [MembershipInline]


@admin.register(LogEntry)
class LogEntryAdmin(admin.ModelAdmin):
    list_display = ["created_at", "campaign", "actor", "action", "summary"]
    list_filter = ["action"]


@admin.register(Job)
class JobAdmin(admin.ModelAdmin):
    list_display = ["id", "campaign", "kind", "status", "progress", "total", "created_at"]
