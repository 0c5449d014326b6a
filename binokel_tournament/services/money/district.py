"""A district's cup across its member clubs (issue 34). A district is a Verein (``district``)
whose organisers name its member clubs; a member club's organiser submits an evening to one of
the district's cups (played on this server, or as the result file a hall laptop wrote); the
district's organiser accepts it -- then the evening is taken into the district's Verein from
that file and counts in the cup, its players matched across clubs as for any evening taken in
(register ids, clear names, candidates for the desk: ``series.add_result_file``) -- or declines
it. A club leaving the district takes nothing with it that was accepted (the district holds its
own copy); what it had still waiting is withdrawn."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ...models import CupSubmission, Series, SubmissionStatus, Tournament, Verein
from .. import tenancy
from ..access import Actor, NotAllowed, account_id, can_create_tournament
from ..audit import log_action
from ..errors import DeskError
from ..imports import read_checked
from .series import add_result_file


def _require_organiser(user: Actor, verein: Verein) -> None:
    if not can_create_tournament(user, verein):
        raise NotAllowed(
            _("Das darf nur die Turnierleitung von „%(verein)s“.") % {"verein": verein.name}
        )


def _user_id(user: Actor) -> int | None:
    return account_id(user) if user is not None and user.is_authenticated else None


# --- the district's member clubs ------------------------------------------------------------------
def add_member_club(district: Verein, slug: str, user: Actor) -> Verein:
    _require_organiser(user, district)
    if not district.district:
        raise DeskError(_("Mitgliedsvereine hat nur ein Kreis/Verband."))
    club = tenancy.verein_by_slug(slug.strip())
    if club.pk == district.pk:
        raise DeskError(_("Ein Kreis ist nicht sein eigener Mitgliedsverein."))
    club.member_of.add(district)
    log_action(None, user, "district.member", club, after={"district": district.slug})
    return club


def remove_member_club(district: Verein, club: Verein, user: Actor) -> int:
    """The club leaves: what was accepted stays in the district's cups; what still waits is
    withdrawn (the number withdrawn)."""
    _require_organiser(user, district)
    with transaction.atomic():
        club.member_of.remove(district)
        withdrawn = CupSubmission.objects.filter(
            club=club, series__verein=district, status=SubmissionStatus.PENDING
        ).update(status=SubmissionStatus.WITHDRAWN, decided_at=timezone.now())
        log_action(
            None,
            user,
            "district.leave",
            club,
            after={"district": district.slug, "withdrawn": withdrawn},
        )
    return withdrawn


def member_clubs(district: Verein) -> list[Verein]:
    with tenancy.system():
        return list(district.member_clubs.all())


def district_cups_for(club: Verein) -> list[Series]:
    """The cups a club may submit to: those of the districts it is a member of."""
    with tenancy.system():
        return list(
            Series.across_vereine.filter(verein__in=club.member_of.all()).select_related("verein")
        )


# --- submissions ----------------------------------------------------------------------------------
def submit_file(series: Series, club: Verein, data: bytes, user: Actor) -> CupSubmission:
    """The club's evening, as its result file, submitted to the district's cup (again: the
    waiting submission is replaced by the newer file)."""
    _require_organiser(user, club)
    with tenancy.system():
        if not club.member_of.filter(pk=series.verein.pk).exists():
            raise NotAllowed(
                _("„%(club)s“ ist kein Mitgliedsverein von „%(district)s“.")
                % {"club": club.name, "district": series.verein.name}
            )
        document = read_checked(data)
        if document["kind"] != "results":
            raise DeskError(_("Für einen Cup bitte eine Ergebnisdatei mit Ergebnissen."))
        event = document["event"]
        with transaction.atomic():
            existing = (
                CupSubmission.objects.select_for_update()
                .filter(series=series, club=club, event_id=event["id"])
                .first()
            )
            if existing is not None and existing.status == SubmissionStatus.ACCEPTED:
                raise DeskError(_("Dieser Abend zählt schon in diesem Cup."))
            submission = existing or CupSubmission(series=series, club=club, event_id=event["id"])
            submission.name = str(event.get("name", ""))[:200]
            submission.data = data.decode("utf-8")
            submission.status = SubmissionStatus.PENDING
            submission.submitted_by_id = _user_id(user)
            submission.submitted_at = timezone.now()
            submission.decided_by = None
            submission.decided_at = None
            submission.save()
            log_action(
                None,
                user,
                "district.submit",
                submission,
                after={"cup": series.slug, "club": club.slug, "evening": submission.name},
            )
    return submission


def submit_tournament(series: Series, tournament: Tournament, user: Actor) -> CupSubmission:
    """An evening played on this server, submitted by its club."""
    from ...exports.result_file import document, to_bytes

    return submit_file(series, tournament.verein, to_bytes(document(tournament, "results")), user)


def submissions_of_club(club: Verein) -> list[CupSubmission]:
    with tenancy.system():
        return list(
            CupSubmission.objects.filter(club=club).select_related("series", "series__verein")
        )


def pending_in(series: Series) -> list[CupSubmission]:
    return list(
        CupSubmission.objects.filter(series=series, status=SubmissionStatus.PENDING)
        .select_related("club")
        .order_by("submitted_at")
    )


def decide(submission: CupSubmission, accept: bool, user: Actor) -> Tournament | None:
    """The district's organiser accepts (the evening counts in the cup) or declines."""
    series = submission.series
    _require_organiser(user, series.verein)
    with transaction.atomic():
        locked = CupSubmission.objects.select_for_update().get(pk=submission.pk)
        if locked.status != SubmissionStatus.PENDING:
            raise DeskError(_("Über diese Einreichung ist schon entschieden."))
        taken = add_result_file(series, locked.data.encode("utf-8"), user) if accept else None
        locked.status = SubmissionStatus.ACCEPTED if accept else SubmissionStatus.DECLINED
        locked.decided_by_id = _user_id(user)
        locked.decided_at = timezone.now()
        locked.accepted = taken
        locked.save()
        said = {"cup": series.slug, "club": locked.club.slug, "evening": locked.name}
        if accept:
            log_action(None, user, "district.accept", locked, after=said)
        else:
            log_action(None, user, "district.decline", locked, after=said)
    return taken
