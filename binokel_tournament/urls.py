from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from .views import desk, public, sheets
from .views import exports as export_views

desk_patterns = (
    [
        path("", desk.home, name="home"),
        path("neu/", desk.tournament_new, name="tournament_new"),
        path("<slug:slug>/", desk.dashboard, name="dashboard"),
        path("<slug:slug>/einstellungen/", desk.tournament_edit, name="tournament_edit"),
        path("<slug:slug>/teilnehmer/<str:mode>/", desk.entrants, name="entrants"),
        path(
            "<slug:slug>/teilnehmer/<str:mode>/import/",
            desk.entrants_import,
            name="entrants_import",
        ),
        path("<slug:slug>/teilnehmer-bearbeiten/<int:pk>/", desk.entrant_edit, name="entrant_edit"),
        path("<slug:slug>/startnummern/", desk.renumber, name="renumber"),
        path("<slug:slug>/spielplan/", desk.seating_view, name="seating"),
        path("<slug:slug>/durchgang/<int:number>/sperren/", desk.round_lock, name="round_lock"),
        path("<slug:slug>/ergebnisse/", desk.overview, name="overview"),
        path("<slug:slug>/zettel/<int:table_id>/", sheets.sheet, name="sheet"),
        path("<slug:slug>/zettel/<int:table_id>/pruefen/", sheets.sheet_check, name="sheet_check"),
        path(
            "<slug:slug>/zettel/<int:table_id>/verwerfen/",
            sheets.sheet_discard,
            name="sheet_discard",
        ),
        path("<slug:slug>/rangliste/<str:mode>/", desk.standings, name="standings"),
        path("<slug:slug>/protokoll/", desk.audit, name="audit"),
        path("<slug:slug>/export/pdf/<str:kind>/", export_views.pdf, name="export_pdf"),
        path("<slug:slug>/export/excel/", export_views.xlsx, name="export_xlsx"),
        path("<slug:slug>/export/csv/<str:table>/", export_views.csv, name="export_csv"),
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
    ],
    "public",
)

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("anmelden/", auth_views.LoginView.as_view(), name="login"),
    path("abmelden/", auth_views.LogoutView.as_view(), name="logout"),
    path("desk/", include(desk_patterns)),
    path("", include(public_patterns)),
]
