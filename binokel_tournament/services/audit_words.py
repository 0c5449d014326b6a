"""The audit log in words, for the desk's Protokoll: one wording per kind of entry (every
action the code logs has one: ``WORDINGS``), where it happened ("Durchgang 1 · Tisch 16",
"Nr. 12 Anna Maier"), what happened ("Zettel korrigiert") and the changes as lines ("Spiel 10:
Reizwert: 230 → 500", "Startgeld bezahlt: nein → ja"). The kinds group the actions for the
page's filter. A sheet's changes are worded by ``services.sheets.words`` (the one writer's
entries); everything else here."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from .. import numbers
from ..models import (
    AuditLog,
    Category,
    Competition,
    Entrant,
    Mode,
    PrizeMode,
    Role,
    Round,
    ScoreSheet,
    Special,
    Table,
    Tournament,
    display_name,
)
from .sheets.words import sheet_audit_lines

LINES_SHOWN = 60  # lines of one entry (a re-plan that moves many)
VALUE_LENGTH = 120  # characters of one value shown


# --- what the page loads once for a page of entries ------------------------------------------
@dataclass
class Context:
    """The names of the objects a page of entries refers to, read in a few queries."""

    sheets: dict[str, tuple[int, int, int]] = field(default_factory=dict)  # round, table, cols
    tables: dict[str, tuple[int, int]] = field(default_factory=dict)  # round, table
    rounds: dict[str, int] = field(default_factory=dict)
    entrants: dict[str, str] = field(default_factory=dict)  # "Nr. 12 Anna Maier"
    competitions: dict[str, str] = field(default_factory=dict)  # "Einzel"

    @classmethod
    def load(cls, entries: Sequence[AuditLog]) -> Context:
        def ids(kind: str) -> list[int]:
            return [
                int(e.object_id)
                for e in entries
                if e.object_type == kind and e.object_id.isdigit() and len(e.object_id) < 12
            ]

        ctx = cls()
        sheet_ids = ids("ScoreSheet")
        if sheet_ids:
            rows = (
                ScoreSheet.objects.filter(pk__in=sheet_ids)
                .annotate(columns=Count("table__seats"))
                .values_list("pk", "table__round__number", "table__number", "columns")
            )
            ctx.sheets = {str(pk): (r, t, c) for pk, r, t, c in rows}
        table_ids = ids("Table")
        if table_ids:
            ctx.tables = {
                str(pk): (r, t)
                for pk, r, t in Table.objects.filter(pk__in=table_ids).values_list(
                    "pk", "round__number", "number"
                )
            }
        round_ids = ids("Round")
        if round_ids:
            ctx.rounds = {
                str(pk): n
                for pk, n in Round.objects.filter(pk__in=round_ids).values_list("pk", "number")
            }
        entrant_ids = ids("Entrant")
        if entrant_ids:
            ctx.entrants = {
                str(pk): entrant_label(n, display_name(name, partner))
                for pk, n, name, partner in Entrant.objects.filter(pk__in=entrant_ids).values_list(
                    "pk", "start_number", "name", "partner"
                )
            }
        competition_ids = ids("Competition")
        if competition_ids:
            labels = dict(Mode.choices)
            ctx.competitions = {
                str(pk): str(labels.get(mode, mode))
                for pk, mode in Competition.objects.filter(pk__in=competition_ids).values_list(
                    "pk", "mode"
                )
            }
        return ctx


def entrant_label(number: object, name: object) -> str:
    return _("Nr. %(n)s %(name)s") % {"n": number, "name": name}


# --- values and fields in words ------------------------------------------------------------------
def _yes_no(value: object) -> str:
    return _("ja") if value else _("nein")


def _euro(cents: object) -> str:
    if not isinstance(cents, int) or isinstance(cents, bool):
        return _value(cents)
    return numbers.euro(cents)  # in the page's language


def _choice(choices: Iterable[tuple[str, Any]]) -> Callable[[object], str]:
    labels: dict[object, Any] = dict(choices)
    return lambda value: str(labels.get(value, value)) if value not in (None, "") else "–"


def _categories(value: object) -> str:
    labels = dict(Category.choices)
    if not isinstance(value, list) or not value:
        return "–"
    return ", ".join(str(labels.get(v, v)) for v in value)


def _tiers(value: object) -> str:
    if not isinstance(value, list) or not value:
        return _("keine")
    parts = []
    for tier in value:
        if isinstance(tier, list | tuple) and len(tier) == 2:
            start, cents = tier
            amount = _euro(cents)
            parts.append(amount if start == 1 else _("ab %(n)s: %(a)s") % {"n": start, "a": amount})
    return "; ".join(parts)


def _value(value: object) -> str:
    if value is None or value == "":
        return "–"
    if isinstance(value, bool):
        return _yes_no(value)
    if isinstance(value, list):
        return ", ".join(_value(v) for v in value) or "–"
    if isinstance(value, dict):
        return _("%(n)s Angaben") % {"n": len(value)}
    text = str(value)
    return text if len(text) <= VALUE_LENGTH else text[: VALUE_LENGTH - 1] + "…"


def _time(value: object) -> str:
    if not value:
        return "–"
    text = str(value)
    return text[11:16] if len(text) >= 16 and text[10] == "T" else text


# field -> (label, how its value reads); every field a logged snapshot holds
FIELDS: dict[str, tuple[Any, Callable[[object], str]]] = {
    "start_number": (gettext_lazy("Startnummer"), _value),
    "name": (gettext_lazy("Name"), _value),
    "partner": (gettext_lazy("Partner/in"), _value),
    "club": (gettext_lazy("Verein"), _value),
    "categories": (gettext_lazy("Kategorien"), _categories),
    "withdrawn": (gettext_lazy("abgemeldet"), _yes_no),
    "late": (gettext_lazy("Nachzügler"), _yes_no),
    "unranked": (gettext_lazy("außer Konkurrenz"), _yes_no),
    "fee_paid": (gettext_lazy("Startgeld bezahlt"), _yes_no),
    "donation_paid": (gettext_lazy("Spende bezahlt"), _yes_no),
    "user": (gettext_lazy("Konto"), _value),
    "role": (gettext_lazy("Rolle"), _choice(Role.choices)),
    "new_account": (gettext_lazy("neues Konto"), _yes_no),
    "description": (gettext_lazy("Beschreibung"), _value),
    "amount_cents": (gettext_lazy("Betrag"), _euro),
    "value_cents": (gettext_lazy("Wert"), _euro),
    "special": (gettext_lazy("Art"), _choice(Special.choices)),
    "withdrawn_may_win": (gettext_lazy("auch Abgemeldete"), _yes_no),
    "prize": (gettext_lazy("Preis"), _value),
    "entrant": (gettext_lazy("Startnummer"), _value),
    "preset": (gettext_lazy("Regelwerk"), _value),
    "rounds": (gettext_lazy("Durchgänge"), _value),
    "registration_open": (gettext_lazy("Online-Anmeldung offen"), _yes_no),
    "capacity": (gettext_lazy("Plätze"), lambda v: _value(v) if v else _("unbegrenzt")),
    "waiting_list": (gettext_lazy("Warteliste"), _yes_no),
    "registration_closes": (gettext_lazy("Anmeldeschluss"), _value),
    "charity_purpose": (gettext_lazy("Spendenzweck"), _value),
    "entry_fee_cents": (gettext_lazy("Startgeld"), _euro),
    "fee_per_player": (gettext_lazy("Paare zahlen pro Person"), _yes_no),
    "donation_tiers": (gettext_lazy("Spende je verlorenem Spiel"), _tiers),
    "donation_counts_conceded": (
        gettext_lazy("Abgeschriebene Spiele zählen als verloren"),
        _yes_no,
    ),
    "prize_mode": (gettext_lazy("Preisvergabe"), _choice(PrizeMode.choices)),
    "club_best": (gettext_lazy("Vereinswertung: beste"), _value),
    "one_prize_per_person": (gettext_lazy("ein Preis je Person"), _yes_no),
    "locked": (gettext_lazy("gesperrt"), _yes_no),
    "started_at": (gettext_lazy("gestartet um"), _time),
    "finished_at": (gettext_lazy("beendet um"), _time),
    "consent": (gettext_lazy("namentlich genannt"), _yes_no),
}


def field_lines(before: object, after: object, skip: Sequence[str] = ()) -> list[str]:
    """What changed, field by field, in words ("Startgeld bezahlt: nein → ja"); a field only
    in one of the two is shown with its value."""
    old = before if isinstance(before, dict) else {}
    new = after if isinstance(after, dict) else {}
    lines = []
    for key in [k for k in FIELDS if k in old or k in new]:
        if key in skip:
            continue
        label, shown = FIELDS[key]
        if key in old and key in new:
            if old[key] == new[key]:
                continue
            lines.append(f"{label}: {shown(old[key])} → {shown(new[key])}")
        else:
            lines.append(f"{label}: {shown(new.get(key, old.get(key)))}")
    return lines


def _snapshot_lines(before: object, after: object) -> list[str]:
    """A registration or deletion: the entrant's fields worth reading (not the defaults)."""
    data = after if isinstance(after, dict) else before if isinstance(before, dict) else {}
    shown = {k: v for k, v in data.items() if v not in (None, "", [], False)}
    shown.pop("start_number", None)
    shown.pop("name", None)
    shown.pop("partner", None)
    return field_lines(None, shown)


# --- where --------------------------------------------------------------------------------------
def _entrant_where(entry: AuditLog, ctx: Context) -> str:
    for data in (entry.after, entry.before):
        if isinstance(data, dict) and "start_number" in data and "name" in data:
            return entrant_label(
                data["start_number"], display_name(str(data["name"]), str(data.get("partner", "")))
            )
    return ctx.entrants.get(entry.object_id, _("ein gelöschter Teilnehmer"))


def _named_where(entry: AuditLog, ctx: Context) -> str:
    for data in (entry.after, entry.before):
        if isinstance(data, dict):
            for key in ("description", "prize", "name", "user"):
                if data.get(key):
                    return str(data[key])
    return ""


def where(entry: AuditLog, ctx: Context) -> str:
    kind = entry.object_type
    if kind == "ScoreSheet" and entry.object_id in ctx.sheets:
        r, t, _columns = ctx.sheets[entry.object_id]
        return _("Durchgang %(r)s · Tisch %(t)s") % {"r": r, "t": t}
    if kind == "Table" and entry.object_id in ctx.tables:
        r, t = ctx.tables[entry.object_id]
        return _("Durchgang %(r)s · Tisch %(t)s") % {"r": r, "t": t}
    if kind == "Round" and entry.object_id in ctx.rounds:
        return _("Durchgang %(r)s") % {"r": ctx.rounds[entry.object_id]}
    if kind == "Entrant":
        return _entrant_where(entry, ctx)
    if kind == "Competition":
        return ctx.competitions.get(entry.object_id, "")
    if entry.action == "print" and isinstance(entry.after, dict):
        number = entry.after.get("round")
        return _("Durchgang %(r)s") % {"r": number} if number else _("alle Durchgänge")
    if kind in ("Tournament", "User"):
        return ""
    return _named_where(entry, ctx)


# --- what: one wording per action ----------------------------------------------------------------
Details = Callable[[AuditLog, Context], list[str]]


def _fields(entry: AuditLog, ctx: Context) -> list[str]:
    return field_lines(entry.before, entry.after)


def _none(entry: AuditLog, ctx: Context) -> list[str]:
    return []


def _sheet(entry: AuditLog, ctx: Context) -> list[str]:
    columns = ctx.sheets.get(entry.object_id, (0, 0, 3))[2] or 3
    return sheet_audit_lines(entry.before, entry.after, columns) or field_lines(
        entry.before, entry.after
    )


def _plan(entry: AuditLog, ctx: Context) -> list[str]:
    plan = entry.after if isinstance(entry.after, dict) else {}
    rounds = [r for r in plan.get("rounds", []) if isinstance(r, dict)]
    lines = []
    for r in rounds:
        tables = r.get("tables", [])
        lines.append(
            ngettext(
                "Durchgang %(r)s: %(n)s Tisch",
                "Durchgang %(r)s: %(n)s Tische",
                len(tables),
            )
            % {"r": r.get("number"), "n": len(tables)}
        )
    return lines


def _place(place: object) -> str:
    if isinstance(place, list | tuple) and len(place) == 2:
        return _("Tisch %(t)s, Platz %(s)s") % {"t": place[0], "s": place[1]}
    return _("kein Platz")


def _moves(entry: AuditLog, ctx: Context) -> list[str]:
    changes = entry.after.get("changes", []) if isinstance(entry.after, dict) else []
    lines = [
        _("Durchgang %(r)s: %(who)s: %(before)s → %(after)s")
        % {
            "r": c.get("round"),
            "who": entrant_label(c.get("start_number"), c.get("name")),
            "before": _place(c.get("before")),
            "after": _place(c.get("after")),
        }
        for c in changes
        if isinstance(c, dict)
    ]
    return lines or [_("niemand sitzt anders")]


PRINT_KINDS = {
    "seating": gettext_lazy("Tischplan"),
    "tablecards": gettext_lazy("Tischkarten"),
    "scoresheets": gettext_lazy("Spielzettel"),
}


def _print(entry: AuditLog, ctx: Context) -> list[str]:
    after = entry.after if isinstance(entry.after, dict) else {}
    kind = PRINT_KINDS.get(str(after.get("kind")), after.get("kind"))
    tables = after.get("tables")
    line = str(kind)
    if tables:
        line += " · " + _("Tisch %(t)s") % {"t": ", ".join(str(t) for t in tables)}
    if after.get("by_hand"):
        line += " · " + _("von Hand als gedruckt vermerkt")
    return [line]


def _renumber(entry: AuditLog, ctx: Context) -> list[str]:
    after = entry.after if isinstance(entry.after, dict) else {}
    before = entry.before if isinstance(entry.before, dict) else {}
    schemes = {
        "registration": _("in der Reihenfolge der Anmeldung"),
        "random": _("ausgelost"),
        "clubs": _("Vereine getrennt"),
    }
    changed = sum(1 for k, v in before.items() if k in after and after[k] != v)
    return [
        str(schemes.get(str(after.get("scheme")), after.get("scheme"))),
        ngettext("%(n)s Startnummer geändert", "%(n)s Startnummern geändert", changed)
        % {"n": changed},
    ]


def _tournament_edit(entry: AuditLog, ctx: Context) -> list[str]:
    lines = field_lines(entry.before, entry.after)
    old = entry.before.get("rules") if isinstance(entry.before, dict) else None
    new = entry.after.get("rules") if isinstance(entry.after, dict) else None
    if isinstance(old, dict) and isinstance(new, dict):
        keys = sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k))
        for key in keys:
            lines.append(
                _("Regel %(rule)s: %(before)s → %(after)s")
                % {"rule": key, "before": _value(old.get(key)), "after": _value(new.get(key))}
            )
    return lines or [_("nichts geändert")]


def _import(entry: AuditLog, ctx: Context) -> list[str]:
    after = entry.after if isinstance(entry.after, dict) else {}
    kind = after.get("kind")
    if kind == "invitation":
        return [_("Einladung (Turnier ohne Teilnehmer)")]
    if kind == "entries":
        return [
            _("%(n)s Anmeldungen, %(w)s auf der Warteliste")
            % {"n": after.get("entrants", 0), "w": after.get("waiting", 0)}
        ]
    return [
        _("Ergebnisse: %(n)s Teilnehmer, %(t)s Tische")
        % {"n": after.get("entrants", 0), "t": after.get("tables", 0)}
    ]


def _link_revoke(entry: AuditLog, ctx: Context) -> list[str]:
    partner = isinstance(entry.after, dict) and entry.after.get("partner")
    return [_("der Link der Partnerin / des Partners") if partner else _("der eigene Link")]


def _login(entry: AuditLog, ctx: Context) -> list[str]:
    after = entry.after if isinstance(entry.after, dict) else {}
    line = _("Konto %(user)s") % {"user": entry.object_id}
    if after.get("ip"):
        line += " · " + _("von %(ip)s") % {"ip": after["ip"]}
    return [line]


def _unlock(entry: AuditLog, ctx: Context) -> list[str]:
    after = entry.after if isinstance(entry.after, dict) else {}
    return [_("Konto %(user)s") % {"user": after.get("user", entry.object_id)}]


def _player(entry: AuditLog, ctx: Context) -> list[str]:
    after = entry.after if isinstance(entry.after, dict) else {}
    lines = []
    if after.get("name"):
        lines.append(
            _("mit %(name)s (%(club)s) zusammengeführt")
            % {"name": after["name"], "club": after.get("club") or "–"}
        )
    return lines


def _series(entry: AuditLog, ctx: Context) -> list[str]:
    after = entry.after if isinstance(entry.after, dict) else {}
    lines = field_lines(None, after)
    if after.get("tournaments"):
        lines.append(_("Abende: %(list)s") % {"list": ", ".join(after["tournaments"])})
    if after.get("tournament"):
        lines.append(_("Abend: %(slug)s") % {"slug": after["tournament"]})
    return lines


def _verein(entry: AuditLog, ctx: Context) -> list[str]:
    after = entry.after if isinstance(entry.after, dict) else {}
    return field_lines(None, {k: v for k, v in after.items() if k in ("name", "user", "role")})


FACTS = {  # what the Vereine's, the club server's and the districts' entries carry
    "cup": gettext_lazy("Cup"),
    "club": gettext_lazy("Verein"),
    "district": gettext_lazy("Kreis"),
    "verein": gettext_lazy("Verein"),
    "evening": gettext_lazy("Abend"),
    "label": gettext_lazy("Schlüssel"),
    "key": gettext_lazy("Schlüssel"),
    "server": gettext_lazy("Vereinsserver"),
    "withdrawn": gettext_lazy("zurückgezogene Einreichungen"),
    "slug": gettext_lazy("Kurzname"),
    "name": gettext_lazy("Name"),
}


def _facts(entry: AuditLog, ctx: Context) -> list[str]:
    """The known facts of the entry, each a line ("Cup: Kreiscup"), in FACTS' order."""
    lines = []
    for part in (entry.before, entry.after):
        if not isinstance(part, dict):
            continue
        for key, label in FACTS.items():
            value = part.get(key)
            if value not in (None, "", []):
                lines.append(f"{label}: {value}")
    if isinstance(entry.after, dict) and entry.after.get("replaced"):
        lines.append(_("ersetzt einen älteren Stand"))
    return lines


@dataclass(frozen=True)
class Wording:
    kind: str  # the filter group (KINDS)
    title: Any  # what happened, a lazy German text
    details: Details = _fields


# the filter groups of the page
KINDS: dict[str, Any] = {
    "zettel": gettext_lazy("Spielzettel"),
    "durchgang": gettext_lazy("Durchgänge"),
    "spielplan": gettext_lazy("Spielplan und Drucke"),
    "teilnehmer": gettext_lazy("Teilnehmer"),
    "geld": gettext_lazy("Preise und Geld"),
    "einstellungen": gettext_lazy("Einstellungen und Zugänge"),
    "cup": gettext_lazy("Ergebnisdateien und Cups"),
}

W = Wording
WORDINGS: dict[str, Wording] = {
    # the score sheet's one writer (services/sheets/writer.py ``_action``)
    "sheet.save": W("zettel", gettext_lazy("Zettel gespeichert"), _sheet),
    "sheet.confirm": W("zettel", gettext_lazy("Zettel bestätigt"), _sheet),
    "sheet.correct": W("zettel", gettext_lazy("bestätigten Zettel korrigiert"), _sheet),
    "sheet.table": W("zettel", gettext_lazy("am Tisch-Handy eingetragen"), _sheet),
    "sheet.table_delete": W("zettel", gettext_lazy("am Tisch-Handy gelöscht"), _sheet),
    "sheet.table_confirm": W("zettel", gettext_lazy("am Tisch bestätigt"), _sheet),
    "sheet.paper": W("zettel", gettext_lazy("Papier blind eingetippt"), _sheet),
    "sheet.paper_decision": W("zettel", gettext_lazy("Papier und Zettel abgeglichen"), _sheet),
    "sheet.reopen": W("zettel", gettext_lazy("Zettel wieder geöffnet"), _sheet),
    # the rounds' one writer (services/rounds/writer.py, "round." + RoundChange)
    "round.start": W("durchgang", gettext_lazy("Durchgang gestartet"), _none),
    "round.unlock": W("durchgang", gettext_lazy("Durchgang wieder entsperrt"), _none),
    "round.finish": W("durchgang", gettext_lazy("Durchgang beendet: alle Zettel bestätigt"), _none),
    "round.reopen": W(
        "durchgang",
        gettext_lazy("Durchgang wieder offen: ein Zettel ist nicht mehr bestätigt"),
        _none,
    ),
    "seating.generate": W("spielplan", gettext_lazy("Spielplan erstellt"), _plan),
    "seating.replan": W("spielplan", gettext_lazy("offene Durchgänge neu geplant"), _plan),
    "seating.moved": W("spielplan", gettext_lazy("Plätze durch die Neuplanung geändert"), _moves),
    "print": W("spielplan", gettext_lazy("gedruckt"), _print),
    "table.link": W(
        "spielplan", gettext_lazy("neuer Tisch-Link (der alte gilt nicht mehr)"), _none
    ),
    "entrant.register": W("teilnehmer", gettext_lazy("angemeldet"), _snapshot_lines),
    "entrant.update": W("teilnehmer", gettext_lazy("geändert"), _fields),
    "entrant.delete": W("teilnehmer", gettext_lazy("Anmeldung gelöscht"), _snapshot_lines),
    "entrant.payment": W("geld", gettext_lazy("Zahlung"), _fields),
    "entrant.check_in": W("teilnehmer", gettext_lazy("am Einlass angekommen"), _none),
    "entrant.check_in_undone": W("teilnehmer", gettext_lazy("Ankunft zurückgenommen"), _none),
    "entrant.no_show": W("teilnehmer", gettext_lazy("nicht erschienen: abgemeldet"), _none),
    "entrant.player": W("cup", gettext_lazy("mit dem Spielerregister verknüpft"), _none),
    "entrants.renumber": W("teilnehmer", gettext_lazy("Startnummern neu vergeben"), _renumber),
    "signup.entrant": W("teilnehmer", gettext_lazy("online angemeldet"), _snapshot_lines),
    "signup.waiting": W("teilnehmer", gettext_lazy("online auf die Warteliste"), _snapshot_lines),
    "signup.move_up": W("teilnehmer", gettext_lazy("von der Warteliste nachgerückt"), _none),
    "signup.cancel": W("teilnehmer", gettext_lazy("von der Warteliste gestrichen"), _none),
    "signup.settings": W("teilnehmer", gettext_lazy("Online-Anmeldung eingestellt"), _fields),
    "personal_link.revoke": W(
        "teilnehmer", gettext_lazy("persönlicher Link gesperrt, ein neuer ausgegeben"), _link_revoke
    ),
    "prize.add": W("geld", gettext_lazy("Preis hinzugefügt"), _fields),
    "prize.remove": W("geld", gettext_lazy("Preis entfernt"), _none),
    "prize.choose": W("geld", gettext_lazy("Preis gewählt"), _fields),
    "prize.unchoose": W("geld", gettext_lazy("Wahl eines Preises zurückgenommen"), lambda e, c: []),
    "donation.add": W("geld", gettext_lazy("Spende eingetragen"), _fields),
    "donation.remove": W("geld", gettext_lazy("Spende entfernt"), _fields),
    "tournament.charity": W(
        "geld", gettext_lazy("Startgeld, Spenden und Preise eingestellt"), _fields
    ),
    "tournament.create": W("einstellungen", gettext_lazy("Turnier angelegt"), _fields),
    "tournament.edit": W("einstellungen", gettext_lazy("Einstellungen geändert"), _tournament_edit),
    "member.add": W("einstellungen", gettext_lazy("Mitglied hinzugefügt"), _fields),
    "member.role": W("einstellungen", gettext_lazy("Rolle geändert"), _fields),
    "member.remove": W("einstellungen", gettext_lazy("Mitglied entfernt"), _fields),
    "login": W("einstellungen", gettext_lazy("angemeldet (Login)"), _login),
    "login.failed": W("einstellungen", gettext_lazy("Login fehlgeschlagen"), _login),
    "login.locked": W("einstellungen", gettext_lazy("Login gesperrt (zu viele Versuche)"), _login),
    "login.unlock": W("einstellungen", gettext_lazy("Login-Sperre aufgehoben"), _unlock),
    "verein.create": W("einstellungen", gettext_lazy("Verein angelegt"), _verein),
    "verein.member": W("einstellungen", gettext_lazy("Mitglied des Vereins"), _verein),
    "result.import": W("cup", gettext_lazy("Ergebnisdatei übernommen"), _import),
    "result.received": W("cup", gettext_lazy("Ergebnis vom Hallen-Laptop übernommen"), _facts),
    "result.replace": W("cup", gettext_lazy("älteren Stand eines Abends ersetzt"), _facts),
    "result.sent": W("cup", gettext_lazy("Ergebnis an den Vereinsserver gesendet"), _facts),
    "verein.key": W("einstellungen", gettext_lazy("Schlüssel für einen Hallen-Laptop"), _facts),
    "verein.key_revoke": W("einstellungen", gettext_lazy("Schlüssel widerrufen"), _facts),
    "district.member": W("cup", gettext_lazy("Mitgliedsverein aufgenommen"), _facts),
    "district.leave": W("cup", gettext_lazy("Mitgliedsverein ausgetragen"), _facts),
    "district.submit": W("cup", gettext_lazy("Abend beim Kreis eingereicht"), _facts),
    "district.accept": W("cup", gettext_lazy("Einreichung angenommen"), _facts),
    "district.decline": W("cup", gettext_lazy("Einreichung abgelehnt"), _facts),
    "backup.replace": W(
        "einstellungen", gettext_lazy("älteren Stand durch eine Sicherung ersetzt"), _fields
    ),
    "series.create": W("cup", gettext_lazy("Cup-Serie angelegt"), _series),
    "series.edit": W("cup", gettext_lazy("Cup-Serie geändert"), _series),
    "series.add_file": W("cup", gettext_lazy("Abend eines anderen Vereins aufgenommen"), _series),
    "player.merge": W("cup", gettext_lazy("Spieler zusammengeführt"), _player),
    "player.split": W("cup", gettext_lazy("Zusammenführung getrennt"), _none),
    "player.distinct": W("cup", gettext_lazy("als zwei Personen vermerkt"), _none),
    "player.delete": W("cup", gettext_lazy("aus dem Spielerregister gelöscht"), _none),
    "player.consent": W("cup", gettext_lazy("Einverständnis geändert"), _fields),
}


def kind_actions(kind: str) -> list[str]:
    return [action for action, w in WORDINGS.items() if w.kind == kind]


@dataclass(frozen=True)
class Worded:
    where: str
    what: str
    lines: list[str]
    known: bool  # False: an action without a wording (shown as logged)


def word(entry: AuditLog, ctx: Context) -> Worded:
    """The entry in words; an action without a wording (none in this code: a test walks every
    action it logs) shows its name and fields as logged."""
    wording = WORDINGS.get(entry.action)
    if wording is None:
        raw = field_lines(entry.before, entry.after) or [
            f"{entry.before!s:.{VALUE_LENGTH}} → {entry.after!s:.{VALUE_LENGTH}}"
        ]
        return Worded(f"{entry.object_type} {entry.object_id}", entry.action, raw, False)
    lines = wording.details(entry, ctx)
    if len(lines) > LINES_SHOWN:
        rest = len(lines) - LINES_SHOWN
        lines = [*lines[:LINES_SHOWN], _("… und %(n)s weitere") % {"n": rest}]
    return Worded(where(entry, ctx), str(wording.title), lines, True)


def words_of(entries: Sequence[AuditLog]) -> list[Worded]:
    ctx = Context.load(entries)
    return [word(e, ctx) for e in entries]


def sentence(worded: Worded, who: str = "") -> str:
    """One line: "Durchgang 1 · Tisch 16: Spiel 10: Reizwert: 230 → 500, anna"."""
    parts = [p for p in (worded.where, worded.what) if p]
    head = ": ".join(parts)
    body = "; ".join(worded.lines)
    text = f"{head}: {body}" if body else head
    return f"{text}, {who}" if who else text


# --- the page's filters --------------------------------------------------------------------------
MAX_FOUND = 50  # entrants a name search takes


@dataclass(frozen=True)
class Filters:
    kind: str = ""  # a key of KINDS
    table: int | None = None
    round: int | None = None
    entrant: str = ""  # a start number or part of a name

    @property
    def active(self) -> bool:
        return bool(self.kind or self.table is not None or self.entrant)


def filtered(
    log: QuerySet[AuditLog], tournament: Tournament, filters: Filters
) -> QuerySet[AuditLog]:
    """The tournament's entries of one kind, about one table (its sheets and its link) and/or
    one entrant (its registration, payments, links, and the sheets of every table it sat at)."""
    if filters.kind in KINDS:
        log = log.filter(action__in=kind_actions(filters.kind))
    if filters.table is not None:
        tables = Table.objects.filter(round__tournament=tournament, number=filters.table)
        if filters.round is not None:
            tables = tables.filter(round__number=filters.round)
        log = log.filter(_about_tables(tables))
    if filters.entrant:
        entrants = Entrant.objects.filter(tournament=tournament)
        text = filters.entrant.strip()
        if text.isdigit() and len(text) < 7:
            entrants = entrants.filter(start_number=int(text))
        else:
            entrants = entrants.filter(Q(name__icontains=text) | Q(partner__icontains=text))
        pks = list(entrants.values_list("pk", flat=True)[:MAX_FOUND])
        tables = Table.objects.filter(seats__entrant_id__in=pks)
        if filters.round is not None:
            tables = tables.filter(round__number=filters.round)
        log = log.filter(
            Q(object_type="Entrant", object_id__in=[str(pk) for pk in pks])
            | _about_tables(tables, links=False)
        )
    return log


def _about_tables(tables: QuerySet[Table], *, links: bool = True) -> Q:
    ids = list(tables.values_list("pk", flat=True))
    sheets = ScoreSheet.objects.filter(table_id__in=ids).values_list("pk", flat=True)
    about = Q(object_type="ScoreSheet", object_id__in=[str(pk) for pk in sheets])
    if links:
        about |= Q(object_type="Table", object_id__in=[str(pk) for pk in ids])
    return about
