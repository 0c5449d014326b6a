"""Forms of the desk. The score sheet is not a Django form: its fields are generated from the
table layout and evaluated by services.results (one source of validation: the scoring engine)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import Max
from django.utils.translation import gettext_lazy as _

from scoring import PRESETS, RuleSet, ScoringError

from .models import Entrant, Mode, Role, Round, ScoreSheet, Tournament
from .services.errors import active_language
from .services.registration import NumberingScheme

RULE_FIELD_LABELS = {
    "min_bid": _("Mindestreizwert"),
    "bid_step": _("Reizschritt"),
    "lost_factor": _("Verlorenes Spiel: Faktor × Reizwert"),
    "conceded_declarer_factor": _("Abgeschrieben: Faktor × Reizwert für den Spielmacher"),
    "conceded_bonus_per_player": _("Abgeschrieben (klassisch): Bonus je Spieler am Tisch"),
    "durch_won": _("Durch gewonnen: Punkte"),
    "durch_lost_factor": _("Durch verloren: Faktor × Reizwert"),
    "rundlauf_value": _("Rundlauf"),
    "rundlauf_with_familie_value": _("Rundlauf mit Familie"),
    "meld_needs_trick": _("Meldung zählt nur mit Stich"),
    "opponents_half_bid_on_lost": _("Verlorenes Spiel: Gegenspieler erhalten den halben Reizwert"),
    "double_familie_counts_twice": _("Doppelte Familie zählt doppelt"),
    "durch_player_deals_next": _("Nach einem Durch gibt der Durch-Spieler das nächste Spiel"),
    "four_sitout_keeps_rotation": _(
        "Vierertisch (Geber setzt aus): nach einem Durch bleibt die gedruckte Geberfolge"
    ),
}
RULE_CHOICES = {
    "conceded_opponent_mode": (
        _("Abgeschrieben: Gegenspieler erhalten"),
        [
            ("half_bid", _("halben Reizwert (auf 10 aufgerundet) + Meldung")),
            ("per_player", _("Meldung + Bonus je Spieler am Tisch")),
        ],
    ),
    "trick_rounding": (
        _("Stiche runden"),
        [("round10", _("auf 10 (ab 5 aufrunden)")), ("none", _("nicht runden"))],
    ),
    "tie_breaks": (
        _("Gleichstand entscheiden nach"),
        [
            ("declarer_wins,best_round", _("gewonnenen Spielen, dann bestem Durchgang")),
            ("best_round,declarer_wins", _("bestem Durchgang, dann gewonnenen Spielen")),
            ("declarer_wins", _("gewonnenen Spielen")),
            ("", _("nichts (geteilter Platz)")),
        ],
    ),
}
GAMES_LABELS = {
    "three": _("Spiele je Durchgang am Dreiertisch"),
    "pairs": _("Spiele je Durchgang am Paartisch"),
    "four_sitout": _("Spiele je Durchgang am Vierertisch (Geber setzt aus)"),
}


class TournamentForm(forms.ModelForm):
    competitions = forms.MultipleChoiceField(
        label=_("Wertungen"),
        choices=Mode.choices,
        widget=forms.CheckboxSelectMultiple,
        initial=[Mode.SINGLES, Mode.PAIRS],
    )
    preset = forms.ChoiceField(label=_("Regelwerk"), choices=[(k, k) for k in PRESETS])

    class Meta:
        model = Tournament
        fields = ["name", "date", "venue", "preset", "rounds", "double_check", "public_pages"]
        widgets = {"date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["rounds"].widget.attrs.update(min=1, max=6)
        self.original_preset = self.instance.preset if self.instance.pk else None
        rules = self.instance.rules() if self.instance.pk else PRESETS["ejl"]
        defaults = rules.to_dict()
        for key, label in RULE_FIELD_LABELS.items():
            value = defaults.get(key)
            if isinstance(value, bool):
                self.fields[f"rule_{key}"] = forms.BooleanField(
                    label=label, required=False, initial=value
                )
            elif isinstance(value, int):
                self.fields[f"rule_{key}"] = forms.IntegerField(
                    label=label, initial=value, required=False
                )
        for key, (label, choices) in RULE_CHOICES.items():
            value = defaults[key]
            initial = ",".join(value) if isinstance(value, list) else value
            self.fields[f"rule_{key}"] = forms.ChoiceField(
                label=label, choices=choices, initial=initial, required=False
            )
        for kind, label in GAMES_LABELS.items():
            self.fields[f"rule_games_{kind}"] = forms.IntegerField(
                label=label,
                initial=defaults["games_per_round"][kind],
                min_value=1,
                max_value=40,
                required=False,
            )
        if self.instance.pk:
            self.fields["competitions"].initial = list(
                self.instance.competitions.values_list("mode", flat=True)
            )

    def clean_rounds(self) -> int:
        rounds: int = self.cleaned_data["rounds"]
        if not 1 <= rounds <= 6:
            raise forms.ValidationError(_("Zwischen 1 und 6 Durchgängen."))
        return rounds

    def rule_overrides(self) -> dict[str, object]:
        """The rule fields that differ from the chosen preset (kept in Tournament.rules_json)."""
        preset = PRESETS[self.cleaned_data["preset"]].to_dict()
        # A field counts when the organiser changed what the form showed, or, for a tournament
        # whose preset stays, when it still differs from the preset (an earlier change).
        keep_old = self.original_preset == self.cleaned_data["preset"]
        wanted: dict[str, object] = {}
        for key in [*RULE_FIELD_LABELS, *RULE_CHOICES, *(f"games_{k}" for k in GAMES_LABELS)]:
            name = f"rule_{key}"
            value = self.cleaned_data.get(name)
            if value is None or value == "" and key != "tie_breaks":
                continue
            if name in self.changed_data or keep_old:
                wanted[key] = value
        if "tie_breaks" in wanted:
            wanted["tie_breaks"] = [k for k in str(wanted["tie_breaks"]).split(",") if k]
        games = {k: wanted.pop(f"games_{k}") for k in GAMES_LABELS if f"games_{k}" in wanted}
        if games:
            wanted["games_per_round"] = {**preset["games_per_round"], **games}
        return {k: v for k, v in wanted.items() if v != preset.get(k)}

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if "preset" not in data or self.errors:
            return data
        try:
            rules = RuleSet.from_dict(
                {**PRESETS[data["preset"]].to_dict(), **self.rule_overrides()}
            )
        except ScoringError as exc:  # the engine names the problem
            raise forms.ValidationError([e.text(active_language()) for e in exc.errors]) from exc
        if self.instance.pk:
            self._check_against_what_was_played(rules, data)
        return data

    def _check_against_what_was_played(self, rules: RuleSet, data: dict[str, Any]) -> None:
        """Once results exist, the scoring rules stay as they were (stored points would no
        longer match the sheets); rounds and competitions that are in use stay too."""
        t = self.instance
        original = Tournament.objects.get(pk=t.pk)
        played = ScoreSheet.objects.filter(table__round__tournament=t).exists()
        if played and rules != original.rules():
            raise forms.ValidationError(
                _(
                    "Es sind schon Spielzettel erfasst: die Regeln können nicht mehr "
                    "geändert werden."
                )
            )
        seated = Round.objects.filter(tournament=t, tables__isnull=False).aggregate(
            top=Max("number")
        )["top"]
        if seated and data.get("rounds", original.rounds) < seated:
            self.add_error(
                "rounds",
                _("Es gibt schon einen Spielplan für %(n)s Durchgänge.") % {"n": seated},
            )
        wanted = set(data.get("competitions", []))
        for competition in original.competitions.all():
            if competition.mode not in wanted and competition.entrants.exists():
                self.add_error(
                    "competitions",
                    _("Die Wertung %(name)s hat schon Teilnehmer.")
                    % {"name": competition.get_mode_display()},
                )


class EntrantForm(forms.ModelForm):
    class Meta:
        model = Entrant
        fields = ["start_number", "name", "partner", "club", "unranked", "late", "withdrawn"]


class QuickEntrantForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    partner = forms.CharField(label=_("Partner/in"), max_length=120, required=False)
    club = forms.CharField(label=_("Verein"), max_length=120, required=False)
    unranked = forms.BooleanField(label=_("a. K."), required=False)


class ImportForm(forms.Form):
    file = forms.FileField(label=_("CSV- oder Excel-Datei"))


class NumberingForm(forms.Form):
    scheme = forms.ChoiceField(
        label=_("Startnummern für das ganze Turnier (Einzel und Paare)"),
        choices=[
            (NumberingScheme.REGISTRATION, _("in der Reihenfolge der Anmeldung")),
            (NumberingScheme.RANDOM, _("ausgelost")),
            (NumberingScheme.CLUBS_SPLIT, _("Vereine getrennt")),
        ],
    )
    seed = forms.IntegerField(
        label=_("Los-Nummer"),
        required=False,
        min_value=0,
        max_value=999_999_999,
        help_text=_("leer lassen für eine neue Auslosung"),
    )


class MemberForm(forms.Form):
    username = forms.CharField(label=_("Benutzername"), max_length=150)
    role = forms.ChoiceField(label=_("Rolle"), choices=Role.choices, initial=Role.HELPER)
    password = forms.CharField(
        label=_("Passwort (nur für ein neues Konto)"),
        required=False,
        strip=False,
        widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "new-password"}),
    )


class RestoreForm(forms.Form):
    file = forms.FileField(label=_("Sicherung (.json)"))
    slug = forms.SlugField(
        label=_("Kurzname des eingespielten Turniers"),
        required=False,
        max_length=80,
        help_text=_("leer lassen: der Kurzname aus der Sicherung"),
    )
