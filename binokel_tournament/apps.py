from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BinokelTournamentConfig(AppConfig):
    name = "binokel_tournament"
    verbose_name = _("Binokel-Turnier")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import signals
        from .services import access
        from .services.server import public_cache

        signals.connect_lockout_signal()
        public_cache.connect()
        access.connect()
