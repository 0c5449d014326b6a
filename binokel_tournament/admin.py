from django.contrib import admin

from . import models

admin.site.register(models.Tournament)
admin.site.register(models.Competition)


@admin.register(models.Entrant)
class EntrantAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["start_number", "name", "partner", "club", "competition", "withdrawn"]
    list_filter = ["competition", "withdrawn", "unranked"]
    search_fields = ["name", "partner", "club"]


admin.site.register(models.Round)
admin.site.register(models.Table)
admin.site.register(models.ScoreSheet)


@admin.register(models.AuditLog)
class AuditLogAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["at", "user", "action", "object_type", "object_id"]
    list_filter = ["action"]
