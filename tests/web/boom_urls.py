"""A URL that fails, for the 500 page and the error log (tests only)."""

from django.http import HttpRequest, HttpResponse
from django.urls import include, path


def boom(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("the desk's database fell over")


urlpatterns = [
    path("boom/", boom),
    path("", include("binokel_tournament.urls")),
]
handler500 = "binokel_tournament.views.errors.server_error"
