"""Request handling of our own: the desk's language, and requests no view should see."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, UnreadablePostError
from django.http.multipartparser import MultiPartParserError
from django.utils import translation


class DeskLocaleMiddleware:
    """German at the desk unless someone switched the language: the choice is kept in the
    language cookie (Django's set_language view); the browser's Accept-Language is not
    consulted, so a desk laptop with an English browser still shows the German desk."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.supported = {code for code, _name in settings.LANGUAGES}

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
        if language not in self.supported:
            language = settings.LANGUAGE_CODE
        translation.activate(language)
        request.LANGUAGE_CODE = language
        response = self.get_response(request)
        response.headers.setdefault("Content-Language", language)
        return response


def _has_null(pairs: Iterable[tuple[str, object]]) -> bool:
    return any("\x00" in key or "\x00" in str(value) for key, value in pairs)


class RejectNullCharactersMiddleware:
    """A NUL character is never typed at a keyboard, PostgreSQL cannot store one in a text or
    JSON column, and SQLite cuts strings at it: a request that carries one in a query
    parameter, a form field or a cookie is answered 400 before any view or the database sees
    it. Nothing is saved."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        from .views.errors import bad_characters, bad_request

        try:
            rejected = (
                _has_null(request.GET.items())
                or _has_null(request.COOKIES.items())
                or (request.method == "POST" and _has_null(self._form_fields(request)))
            )
        except (MultiPartParserError, UnreadablePostError):  # a broken upload body
            return bad_request(request)
        if rejected:
            return bad_characters(request)
        return self.get_response(request)

    @staticmethod
    def _form_fields(request: HttpRequest) -> Iterable[tuple[str, str]]:
        for key, values in request.POST.lists():
            for value in values:
                yield key, value
        for key, uploads in request.FILES.lists():
            for upload in uploads:
                yield key, upload.name or ""


class VereinScopeMiddleware:
    """The one place that scopes the desk to the account's Vereine (django-scopes): every
    query of a tournament, a register entry or a cup made by a desk page sees only those
    Vereine. Public pages, the tables' phones and the admin see what they look up by its
    address (a tournament's slug, a table's or a player's token), as the system does."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        from .services import access, tenancy

        if request.path_info.startswith(DESK_PREFIX):
            with access.one_request(), tenancy.desk_scope(request.user):
                return self.get_response(request)
        with tenancy.system():
            return self.get_response(request)


DESK_PREFIX = "/desk/"  # binokel_tournament/urls.py: path("desk/", include(desk_patterns))
