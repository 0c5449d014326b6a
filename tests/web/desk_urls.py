"""Every desk URL with what a request to it may change: the table the role tests and the fuzz
suite walk. A desk URL missing here fails tests/web/test_roles.py."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.urls import reverse

from binokel_tournament.models import Entrant, Mode, Round, TableKind, Tournament
from binokel_tournament.services.access import Action

from .sheets import full_three_table


@dataclass(frozen=True)
class DeskUrl:
    name: str
    method: str  # GET or POST
    action: Action | None  # what the role needs; None: only a login (no tournament)
    args: Callable[[Tournament], list[object]] = lambda t: [t.slug]
    data: Callable[[Tournament], dict[str, object]] = lambda t: {}
    fields: tuple[str, ...] = ()  # form fields the fuzz suite fills with hostile values
    query: tuple[str, ...] = ()  # query parameters the fuzz suite tries
    also: tuple[int, ...] = ()  # answers besides 200/302 for those allowed (a clear refusal)
    note: str = field(default="", compare=False)

    @property
    def label(self) -> str:
        return f"{self.method} {self.name}"

    def url(self, t: Tournament) -> str:
        return reverse(f"desk:{self.name}", args=self.args(t))


def a_series():  # type: ignore[no-untyped-def]
    from binokel_tournament.models import Series

    return Series.objects.get_or_create(slug="cup-test", defaults={"name": "Cup"})[0]


def first_entrant(t: Tournament) -> Entrant:
    return t.entrants.order_by("start_number").first()  # type: ignore[return-value]


def first_three_table(t: Tournament) -> int:
    round_obj = Round.objects.get(tournament=t, number=1)
    return round_obj.tables.filter(kind=TableKind.THREE).order_by("number").first().pk  # type: ignore[union-attr]


def a_waiting(t: Tournament) -> int:
    """A registration on the singles' waiting list (made once)."""
    from binokel_tournament.models import WaitingRegistration

    waiting = WaitingRegistration.objects.filter(tournament=t, entrant=None).first()
    if waiting is None:
        waiting = WaitingRegistration.objects.create(
            tournament=t, competition=t.competitions.get(mode=Mode.SINGLES), name="Wartende Wally"
        )
    return waiting.pk


def singles_pk(t: Tournament) -> int:
    return t.competitions.get(mode=Mode.SINGLES).pk


def _settings(t: Tournament) -> dict[str, object]:
    from .support import form_defaults

    return {**form_defaults(), "name": t.name, "rounds": "3", "competitions": ["singles", "pairs"]}


SHEET_FIELDS = (
    "version",
    "opened",
    "keep-g1",
    "current-g1",
    "checked-g1",
    "g1-kind",
    "g1-declarer",
    "g1-bid",
    "g1-dealer",
    "g1-notrick",
    "g1-c1-meld",
    "g1-c1-tricks",
    "g1-c2-tricks",
    "g1-c3-tricks",
    "g1-c1-revoked",
    "g1-c1-written",
    "written-total-c1",
    "confirm",
    "draft",
)

DESK_URLS: list[DeskUrl] = [
    DeskUrl("home", "GET", None, args=lambda t: [], query=("alle",)),
    DeskUrl("tournament_new", "GET", None, args=lambda t: []),
    DeskUrl(
        "tournament_new",
        "POST",
        None,
        args=lambda t: [],
        data=lambda t: {**_settings(t), "name": "Neu"},
        fields=("name", "date", "rounds", "preset", "competitions", "rule_min_bid"),
    ),
    DeskUrl("restore_upload", "POST", None, args=lambda t: [], fields=("slug", "file", "waiting")),
    DeskUrl("result_upload", "POST", None, args=lambda t: [], fields=("file",)),
    DeskUrl("dashboard", "GET", Action.VIEW),
    DeskUrl("tournament_edit", "GET", Action.RULES),
    DeskUrl(
        "tournament_edit",
        "POST",
        Action.RULES,
        data=_settings,
        fields=("name", "date", "venue", "rounds", "preset", "competitions", "rule_lost_factor"),
    ),
    DeskUrl("entrants", "GET", Action.VIEW, args=lambda t: [t.slug, "singles"]),
    DeskUrl(
        "entrants",
        "POST",
        Action.REGISTER,
        args=lambda t: [t.slug, "singles"],
        data=lambda t: {"name": "Späte Anna", "club": "CVJM"},
        fields=("name", "partner", "club", "unranked", "player", "partner_player"),
    ),
    DeskUrl(
        "entrants_import",
        "POST",
        Action.EDIT_ENTRANTS,
        args=lambda t: [t.slug, "singles"],
        fields=("file",),
    ),
    DeskUrl(
        "entrant_edit", "GET", Action.EDIT_ENTRANTS, args=lambda t: [t.slug, first_entrant(t).pk]
    ),
    DeskUrl(
        "entrant_edit",
        "POST",
        Action.EDIT_ENTRANTS,
        args=lambda t: [t.slug, first_entrant(t).pk],
        data=lambda t: {"start_number": first_entrant(t).start_number, "name": "Neu Name"},
        fields=(
            "start_number",
            "name",
            "partner",
            "club",
            "unranked",
            "late",
            "withdrawn",
            "delete",
        ),
    ),
    DeskUrl("checkin", "GET", Action.VIEW),
    DeskUrl(
        "checkin",
        "POST",
        Action.REGISTER,
        data=lambda t: {"q": str(first_entrant(t).start_number)},
        fields=("q", "entrant", "action", "format"),
    ),
    DeskUrl(
        "no_show",
        "POST",
        Action.EDIT_ENTRANTS,
        data=lambda t: {"confirmed": "1"},
        fields=("confirmed",),
    ),
    DeskUrl(
        "signup_settings",
        "POST",
        Action.EDIT_ENTRANTS,
        args=lambda t: [t.slug, "singles"],
        data=lambda t: {"registration_open": "on", "capacity": "80", "waiting_list": "on"},
        fields=("registration_open", "capacity", "waiting_list", "registration_closes"),
    ),
    DeskUrl(
        "waiting",
        "POST",
        Action.REGISTER,
        args=lambda t: [t.slug, a_waiting(t)],
        data=lambda t: {"action": "move_up"},
        fields=("action",),
    ),
    DeskUrl(
        "renumber",
        "POST",
        Action.EDIT_ENTRANTS,
        data=lambda t: {"scheme": "random", "seed": "7"},
        fields=("scheme", "seed"),
    ),
    DeskUrl("seating", "GET", Action.VIEW),
    DeskUrl(
        "seating",
        "POST",
        Action.SEATING,
        data=lambda t: {"competition": singles_pk(t), "seed": "1", "action": "replan"},
        fields=("competition", "seed", "action"),
    ),
    DeskUrl(
        "round_lock",
        "POST",
        Action.SEATING,
        args=lambda t: [t.slug, 3],
        data=lambda t: {"locked": "1"},
        fields=("locked",),
    ),
    DeskUrl("overview", "GET", Action.VIEW),
    DeskUrl("sheet", "GET", Action.VIEW, args=lambda t: [t.slug, first_three_table(t)]),
    DeskUrl(
        "sheet",
        "POST",
        Action.ENTER_RESULTS,
        args=lambda t: [t.slug, first_three_table(t)],
        data=lambda t: {**full_three_table(2), "version": "0", "draft": "1"},
        fields=SHEET_FIELDS,
    ),
    DeskUrl(
        "sheet_check",
        "POST",
        Action.ENTER_RESULTS,  # it keeps the typist's working draft
        args=lambda t: [t.slug, first_three_table(t)],
        data=lambda t: {**full_three_table(1), "version": "0", "draft_seq": "1000"},
        fields=(*SHEET_FIELDS, "draft_seq"),
    ),
    DeskUrl(
        "sheet_paper",
        "POST",
        Action.ENTER_RESULTS,
        args=lambda t: [t.slug, first_three_table(t), 1],
        data=lambda t: {"choice": "paper", "paper_stamp": "x", "sheet_stamp": "y"},
        fields=("choice", "paper_stamp", "sheet_stamp"),
    ),
    DeskUrl(
        "sheet_reopen",
        "POST",
        Action.CORRECT_RESULTS,
        args=lambda t: [t.slug, first_three_table(t)],
        data=lambda t: {"version": "1"},
        fields=("version",),
    ),
    DeskUrl(
        "sheet_paper_entry",
        "GET",
        Action.VIEW,
        args=lambda t: [t.slug, first_three_table(t)],
    ),
    DeskUrl(
        "sheet_paper_entry",
        "POST",
        Action.ENTER_RESULTS,
        args=lambda t: [t.slug, first_three_table(t)],
        data=lambda t: {**full_three_table(2), "mode": "paper"},
        fields=(*SHEET_FIELDS, "mode"),
        also=(400,),  # no game on the sheet yet: the paper is refused, the typing kept
    ),
    DeskUrl(
        "sheet_elsewhere",
        "GET",
        Action.VIEW,
        args=lambda t: [t.slug, first_three_table(t)],
        query=("v", "s"),
    ),
    DeskUrl(
        "sheet_discard",
        "POST",
        Action.VIEW,  # one's own working draft
        args=lambda t: [t.slug, first_three_table(t)],
    ),
    DeskUrl("board", "GET", Action.VIEW, query=("round", "page", "q")),
    DeskUrl("table_link", "GET", Action.VIEW, args=lambda t: [t.slug, first_three_table(t)]),
    DeskUrl(
        "table_reissue",
        "POST",
        Action.TABLE_LINKS,
        args=lambda t: [t.slug, first_three_table(t)],
    ),
    DeskUrl("round_start", "POST", Action.START_ROUND, args=lambda t: [t.slug, 1]),
    DeskUrl(
        "table_help_coming",
        "POST",
        Action.ENTER_RESULTS,
        args=lambda t: [t.slug, first_three_table(t)],
    ),
    DeskUrl(
        "table_help_done",
        "POST",
        Action.ENTER_RESULTS,
        args=lambda t: [t.slug, first_three_table(t)],
    ),
    DeskUrl("standings", "GET", Action.VIEW, args=lambda t: [t.slug, "singles"], query=("round",)),
    DeskUrl("audit", "GET", Action.VIEW, query=("type", "id")),
    DeskUrl("members", "GET", Action.MEMBERS),
    DeskUrl(
        "members",
        "POST",
        Action.MEMBERS,
        data=lambda t: {
            "action": "add",
            "username": "neuhelfer",
            "role": "helper",
            "password": "Lange-Nacht-42",
        },
        fields=("action", "username", "role", "password", "member"),
    ),
    DeskUrl("backups", "GET", Action.BACKUP),
    DeskUrl("backup_state", "GET", Action.VIEW),
    DeskUrl("backup_download", "GET", Action.BACKUP),
    DeskUrl(
        "export_pdf",
        "GET",
        Action.VIEW,
        args=lambda t: [t.slug, "standings"],
        query=("round", "mode", "top"),
    ),
    DeskUrl("export_xlsx", "GET", Action.VIEW, query=("round",)),
    DeskUrl(
        "export",
        "GET",
        Action.VIEW,
        args=lambda t: [t.slug, "standings"],
        query=("round", "mode", "top"),
    ),
    DeskUrl("money", "GET", Action.VIEW),
    DeskUrl(
        "money",
        "POST",
        Action.MANAGE_CHARITY,
        data=lambda t: {
            "action": "settings",
            "s-charity_purpose": "die Jugend",
            "s-entry_fee_cents": "8",
            "s-donation_tiers": "0,50; ab 5: 1",
            "s-prize_mode": "choice",
            "s-club_best": "3",
        },
        fields=("action", "s-entry_fee_cents", "s-donation_tiers", "s-club_best", "donation"),
    ),
    DeskUrl(
        "money",
        "POST",
        Action.RECORD_PAYMENTS,
        data=lambda t: {"action": "extra", "x-description": "Kuchen", "x-amount": "12,50"},
        fields=("x-description", "x-amount"),
        note="extra donation",
    ),
    DeskUrl("prizes", "GET", Action.VIEW, args=lambda t: [t.slug, "singles"]),
    DeskUrl("statistics", "GET", Action.VIEW),
    DeskUrl("player_links", "GET", Action.VIEW),
    DeskUrl(
        "player_links",
        "POST",
        Action.LINK_PLAYERS,
        data=lambda t: {"entrant": first_entrant(t).pk, "action": "new"},
        fields=("entrant", "action", "player", "partner"),
    ),
    DeskUrl(
        "player_links",
        "POST",
        Action.LINK_PLAYERS,
        data=lambda t: {"action": "create_rest"},
        fields=("action",),
        note="link every clear name",
    ),
    DeskUrl("player_suggestions", "GET", Action.REGISTER, query=("name", "partner", "for")),
    DeskUrl(
        "verein_choose", "POST", None, args=lambda t: [], data=lambda t: {"verein": t.verein_id}
    ),
    DeskUrl("club_server", "GET", None, args=lambda t: []),
    DeskUrl(
        "club_server",
        "POST",
        None,
        args=lambda t: [],
        data=lambda t: {"action": "make_key", "label": "Laptop"},
        fields=("action", "label", "server", "secret", "evening", "tournament", "key"),
    ),
    DeskUrl("district", "GET", None, args=lambda t: []),
    DeskUrl(
        "district",
        "POST",
        None,
        args=lambda t: [],
        data=lambda t: {"action": "add_member", "club": "gibt-es-nicht"},
        fields=("action", "club", "cup", "tournament"),
    ),
    DeskUrl("players", "GET", None, args=lambda t: [], query=("q",)),
    DeskUrl("series_list", "GET", None, args=lambda t: []),
    DeskUrl("series_list", "POST", None, args=lambda t: [], data=lambda t: {"name": "Cup"}),
    DeskUrl("series_detail", "GET", None, args=lambda t: [a_series().slug]),
    DeskUrl(
        "subrankings", "GET", Action.VIEW, args=lambda t: [t.slug, "singles"], query=("round",)
    ),
    DeskUrl(
        "prizes",
        "POST",
        Action.MANAGE_CHARITY,
        args=lambda t: [t.slug, "singles"],
        data=lambda t: {"action": "add", "mode": "singles", "description": "Korb", "value": "5"},
        fields=("action", "description", "value", "special", "prize", "entrant"),
    ),
    DeskUrl(
        "pay",
        "POST",
        Action.RECORD_PAYMENTS,
        args=lambda t: [t.slug, first_entrant(t).pk],
        data=lambda t: {"what": "fee", "paid": "1"},
        fields=("what", "paid", "next"),
    ),
    DeskUrl("export_csv", "GET", Action.VIEW, args=lambda t: [t.slug, "teilnehmer"]),
]
