from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, register_converter

from .views import (
    audit,
    board,
    charity,
    club_sync,
    door,
    entrants,
    organiser,
    players,
    public,
    results,
    seating,
    series,
    setup,
    sheets,
    signup,
    table,
    vereine,
)
from .views import exports as export_views


class NumberConverter:
    """A database id or a round number: at most 18 digits (Django's ``int`` takes any length,
    and a 30-digit id overflows SQLite: a 500 instead of a 404)."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(NumberConverter, "num")


class TokenConverter:
    """A table's link: URL-safe characters (the token itself is checked in the database)."""

    regex = "[A-Za-z0-9_-]{8,64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(TokenConverter, "token")

handler400 = "binokel_tournament.views.errors.bad_request"
handler403 = "binokel_tournament.views.errors.permission_denied"
handler404 = "binokel_tournament.views.errors.page_not_found"
handler500 = "binokel_tournament.views.errors.server_error"

desk_patterns = (
    [
        path("", setup.home, name="home"),
        path("neu/", setup.tournament_new, name="tournament_new"),
        path("sicherung-einspielen/", organiser.restore_upload, name="restore_upload"),
        path("ergebnisdatei-einlesen/", organiser.result_upload, name="result_upload"),
        path("verein/", vereine.choose, name="verein_choose"),
        path("vereinsserver/", club_sync.club_server, name="club_server"),
        path("kreis/", club_sync.district_page, name="district"),
        path("spielerregister/", series.players, name="players"),
        path("cup-serien/", series.series_list, name="series_list"),
        path("cup-serien/<slug:slug>/", series.series_detail, name="series_detail"),
        path("<slug:slug>/", setup.dashboard, name="dashboard"),
        path("<slug:slug>/einstellungen/", setup.tournament_edit, name="tournament_edit"),
        path("<slug:slug>/teilnehmer/<str:mode>/", entrants.entrants, name="entrants"),
        path(
            "<slug:slug>/teilnehmer/<str:mode>/import/",
            entrants.entrants_import,
            name="entrants_import",
        ),
        path(
            "<slug:slug>/teilnehmer-bearbeiten/<num:pk>/",
            entrants.entrant_edit,
            name="entrant_edit",
        ),
        path("<slug:slug>/startnummern/", entrants.renumber, name="renumber"),
        path("<slug:slug>/einlass/", door.checkin_page, name="checkin"),
        path("<slug:slug>/einlass/nicht-erschienen/", door.no_show, name="no_show"),
        path(
            "<slug:slug>/teilnehmer/<str:mode>/online/",
            door.signup_settings,
            name="signup_settings",
        ),
        path("<slug:slug>/warteliste/<num:pk>/", door.waiting_action, name="waiting"),
        path("<slug:slug>/spielplan/", seating.seating_view, name="seating"),
        path("<slug:slug>/durchgang/<num:number>/sperren/", seating.round_lock, name="round_lock"),
        path("<slug:slug>/ergebnisse/", results.overview, name="overview"),
        path("<slug:slug>/zettel/<num:table_id>/", sheets.sheet, name="sheet"),
        path("<slug:slug>/zettel/<num:table_id>/pruefen/", sheets.sheet_check, name="sheet_check"),
        path(
            "<slug:slug>/zettel/<num:table_id>/oeffnen/",
            sheets.sheet_reopen,
            name="sheet_reopen",
        ),
        path(
            "<slug:slug>/zettel/<num:table_id>/papier/",
            sheets.sheet_paper_entry,
            name="sheet_paper_entry",
        ),
        path(
            "<slug:slug>/zettel/<num:table_id>/papier/<num:number>/",
            sheets.sheet_paper,
            name="sheet_paper",
        ),
        path(
            "<slug:slug>/zettel/<num:table_id>/anderswo/",
            sheets.sheet_elsewhere,
            name="sheet_elsewhere",
        ),
        path(
            "<slug:slug>/zettel/<num:table_id>/verwerfen/",
            sheets.sheet_discard,
            name="sheet_discard",
        ),
        path("<slug:slug>/rangliste/<str:mode>/", results.standings, name="standings"),
        path("<slug:slug>/protokoll/", audit.audit, name="audit"),
        path("<slug:slug>/tische/", board.board, name="board"),
        path("<slug:slug>/tische/<num:table_id>/", board.table_link, name="table_link"),
        path(
            "<slug:slug>/tische/<num:table_id>/neuer-link/",
            board.reissue,
            name="table_reissue",
        ),
        path("<slug:slug>/durchgang/<num:number>/starten/", board.start, name="round_start"),
        path(
            "<slug:slug>/tische/<num:table_id>/kommt/",
            board.help_coming,
            name="table_help_coming",
        ),
        path(
            "<slug:slug>/tische/<num:table_id>/erledigt/",
            board.help_done,
            name="table_help_done",
        ),
        path("<slug:slug>/geld/", charity.money, name="money"),
        path("<slug:slug>/bezahlt/<num:pk>/", charity.pay, name="pay"),
        path("<slug:slug>/preise/<str:mode>/", charity.prizes_view, name="prizes"),
        path("<slug:slug>/statistik/", charity.statistics_view, name="statistics"),
        path("<slug:slug>/spieler/", series.player_links, name="player_links"),
        path(
            "<slug:slug>/spieler/vorschlaege/",
            series.player_suggestions,
            name="player_suggestions",
        ),
        path(
            "<slug:slug>/rangliste/<str:mode>/kategorien/",
            charity.subrankings_view,
            name="subrankings",
        ),
        path("<slug:slug>/mitglieder/", organiser.member_list, name="members"),
        path("<slug:slug>/sicherung/", organiser.backups, name="backups"),
        path("<slug:slug>/sicherung/stand/", organiser.backup_state, name="backup_state"),
        path(
            "<slug:slug>/sicherung/herunterladen/",
            organiser.backup_download,
            name="backup_download",
        ),
        path("<slug:slug>/export/pdf/<str:kind>/", export_views.pdf, name="export_pdf"),
        path("<slug:slug>/export/excel/", export_views.xlsx, name="export_xlsx"),
        path("<slug:slug>/export/csv/<str:table>/", export_views.csv, name="export_csv"),
        path("<slug:slug>/export/<str:key>/", export_views.download, name="export"),
    ],
    "desk",
)

public_patterns = (
    [
        path("", public.home, name="home"),
        path("t/<slug:slug>/", public.tournament, name="tournament"),
        path("t/<slug:slug>/rangliste/<str:mode>/", public.standings, name="standings"),
        path("t/<slug:slug>/beamer/<str:mode>/", public.beamer, name="beamer"),
        path("t/<slug:slug>/wo-sitze-ich/", public.where, name="where"),
        path("t/<slug:slug>/preise/<str:mode>/", public.prizes, name="prizes"),
        path("t/<slug:slug>/statistik/", public.statistics_view, name="statistics"),
        path("cup/<slug:slug>/", series.public_series, name="series"),
        path("v/<slug:slug>/", vereine.verein_page, name="verein"),
        path("p/<token:token>/", players.personal, name="personal"),
        path("p/<token:token>/urkunde/", players.certificate, name="certificate"),
        path("t/<slug:slug>/anmelden/", signup.register, name="signup"),
        path("t/<slug:slug>/anmeldung/<token:token>/", signup.signed_up, name="signed_up"),
        path(
            "t/<slug:slug>/rangliste/<str:mode>/kategorien/",
            public.subrankings_view,
            name="subrankings",
        ),
    ],
    "public",
)

table_patterns = (
    [
        path("sw.js", table.service_worker, name="service_worker"),
        path("<token:token>/", table.page, name="page"),
        path("<token:token>/stand/", table.state, name="state"),
        path("<token:token>/plaetze/", table.seats, name="seats"),
        path("<token:token>/pruefen/", table.check, name="check"),
        path("<token:token>/spiel/", table.game, name="game"),
        path("<token:token>/bestaetigen/", table.confirm, name="confirm"),
        path("<token:token>/rufen/", table.call, name="call"),
    ],
    "table",
)

# the club server's API for the Vereine's hall laptops (a key per Verein, no login)
api_patterns = (
    [
        path("abende/", club_sync.api_evenings, name="evenings"),
        path("abende/<slug:slug>/anmeldungen/", club_sync.api_entries, name="entries"),
        path("ergebnis/", club_sync.api_result, name="result"),
    ],
    "api",
)

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("anmelden/", auth_views.LoginView.as_view(), name="login"),
    path("abmelden/", auth_views.LogoutView.as_view(), name="logout"),
    path("desk/", include(desk_patterns)),
    path("tisch/", include(table_patterns)),
    path("api/v1/", include(api_patterns)),
    path("", include(public_patterns)),
]
