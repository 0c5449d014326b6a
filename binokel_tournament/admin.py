from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from . import models

admin.site.register(models.Tournament)
admin.site.register(models.Competition)


@admin.register(models.Entrant)
class EntrantAdmin(admin.ModelAdmin):
    list_display = ["start_number", "name", "partner", "club", "competition", "withdrawn"]
    list_filter = ["competition", "withdrawn", "unranked"]
    search_fields = ["name", "partner", "club"]


admin.site.register(models.Round)
admin.site.register(models.Table)
admin.site.register(models.ScoreSheet)


@admin.register(models.Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["tournament", "user", "role"]
    list_filter = ["role", "tournament"]


@admin.register(models.AuditLog)
class AuditLogAdmin(admin.ModelAdmin):
    """Read-only for everybody, superusers included: the audit log is evidence. It outlives
    its tournaments and accounts: each entry shows the names they had."""

    list_display = [
        "at",
        "tournament_name",
        "tournament_slug",
        "username",
        "action",
        "object_type",
        "object_id",
    ]
    list_filter = ["action"]
    search_fields = ["tournament_slug", "username"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
