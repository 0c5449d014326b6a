"""Forms of the desk. The score sheet is not a Django form: its fields are generated from the
table layout and evaluated by services.results (one source of validation: the scoring engine)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from scoring import PRESETS, GameKind, RuleSet, ScoringError

from .charity_forms import CategoriesField
from .models import Competition, Entrant, Mode, Role, Tournament
from .models import GameKind as ModelGameKind
from .services.errors import active_language
from .services.evening.registration import NumberingScheme, settings_problems
from .services.evening.standings import tie_break_choices

MAX_ID = 999_999_999  # a database id a form accepts (more would overflow the column)

RULE_FIELD_LABELS = {
    "min_bid": _("Mindestreizwert"),
    "bid_step": _("Reizschritt"),
    "lost_factor": _("Verlorenes Spiel (kein Durch, kein Bettel): Faktor × Reizwert"),
    "lost_extra": _(
        "Verlorenes Spiel (kein Durch, kein Bettel): zusätzlich abgezogen (z. B. 100, das "
        "Gemeldete verfällt)"
    ),
    "conceded_declarer_factor": _("Abgeschrieben: Faktor × Reizwert für den Spielmacher"),
    "conceded_bonus_per_player": _("Abgeschrieben (klassisch): Bonus je Spieler am Tisch"),
    "conceded_bonus_per_opponent": _("Abgeschrieben: Bonus je Gegenspieler (Dabb: 40)"),
    "durch_won": _("Durch gewonnen: Punkte"),
    "durch_lost_factor": _("Durch verloren: Faktor × Reizwert"),
    "durch_aufgelegt_won": _("Durch aufgelegt gewonnen: Punkte"),
    "durch_aufgelegt_lost_factor": _("Durch aufgelegt verloren: Faktor × Reizwert"),
    "bettel_won": _("Bettel gewonnen: Punkte (500, 1000 oder 1500)"),
    "bettel_lost_factor": _("Bettel verloren: Faktor × Reizwert"),
    "meld_needs_trick": _("Meldung zählt nur mit Stich"),
    "opponents_half_bid_on_lost": _("Verlorenes Spiel: Gegenspieler erhalten den halben Reizwert"),
    "durch_player_deals_next": _("Nach einem Durch gibt der Durch-Spieler das nächste Spiel"),
    "four_sitout_keeps_rotation": _(
        "Vierertisch (Geber setzt aus): nach einem Durch bleibt die gedruckte Geberfolge"
    ),
    "sevens": _("Mit Siebenern (48 Karten)"),
    "last_trick_bonus": _("Letzter Stich: Augen extra"),
    "penalty_before_scaling": _("Minuspunkte vor der Stichpunkte-Staffel von den Augen abziehen"),
    "binokel_value": _("Binokel"),
    "doppelbinokel_value": _("Doppelbinokel"),
    "rundlauf_value": _("Rundlauf (0: kein Rundlauf)"),
    "rundlauf_with_familie_value": _("Rundlauf mit Familie"),
}
RULE_CHOICES: dict[str, tuple[Any, list[tuple[str, Any]]]] = {
    "conceded_opponent_mode": (
        _("Abgeschrieben: Gegenspieler erhalten"),
        [
            ("half_bid", _("halben Reizwert (auf 10 aufgerundet) + Meldung")),
            ("per_player", _("Meldung + Bonus je Spieler am Tisch")),
            ("per_opponent", _("Meldung + Bonus je Gegenspieler")),
        ],
    ),
    "trick_rounding": (
        _("Stiche runden"),
        [("round10", _("auf 10 (ab 5 aufrunden)")), ("none", _("nicht runden"))],
    ),
    "tie_breaks": (
        _("Gleichstand entscheiden nach"),
        tie_break_choices(),
    ),
}
GAMES_LABELS = {
    "three": _("Spiele je Durchgang am Dreiertisch"),
    "pairs": _("Spiele je Durchgang am Paartisch"),
    "four_sitout": _("Spiele je Durchgang am Vierertisch (Geber setzt aus)"),
}
# The kinds of game a rule set may play, in the engine's order (a test checks every kind is
# here); the model's labels, with Bettel explained.
KIND_LABELS = {
    kind: _("Bettel (Spielmacher ohne Stich)")
    if kind is GameKind.BETTEL
    else ModelGameKind(kind.value).label
    for kind in GameKind
}
# Rules that hold a value per key (a table kind, a hand, a rank): one form field per key,
# named rule_<prefix>_<key>; what the organiser leaves empty keeps the preset's value.
MAPPED_RULES: dict[str, tuple[str, dict[str, Any]]] = {
    "games_per_round": ("games", GAMES_LABELS),
    "hand_cards": (
        "hand",
        {
            "three": _("Karten je Spieler am Dreiertisch"),
            "pairs": _("Karten je Partner am Paartisch"),
        },
    ),
    "card_eyes": (
        "eyes",
        {
            "A": _("Augen: Ass"),
            "10": _("Augen: Zehn"),
            "K": _("Augen: König"),
            "O": _("Augen: Ober"),
            "U": _("Augen: Unter"),
            "7": _("Augen: Sieben"),
        },
    ),
    "four_of_a_rank": (
        "four",
        {
            "A": _("Vier Asse"),
            "10": _("Vier Zehner"),
            "K": _("Vier Könige"),
            "O": _("Vier Ober"),
            "U": _("Vier Unter"),
            "7": _("Vier Siebener"),
        },
    ),
    "eight_of_a_rank": (
        "eight",
        {
            "A": _("Acht Asse"),
            "10": _("Acht Zehner"),
            "K": _("Acht Könige"),
            "O": _("Acht Ober"),
            "U": _("Acht Unter"),
            "7": _("Acht Siebener"),
        },
    ),
}
# The suit melds of the presets' meld tables (other keys are shown as they are named).
SUIT_MELD_LABELS = {
    "paar": _("Paar"),
    "doppelpaar": _("Doppeltes Paar"),
    "familie": _("Familie"),
    "doppelfamilie": _("Doppelte Familie"),
    "familie_doppelpaar": _("Familie mit doppeltem Paar"),
    "luxusfamilie": _("Luxusfamilie"),
    "doppelluxusfamilie": _("Doppelte Luxusfamilie"),
    "luxusfamilie_doppelpaar": _("Luxusfamilie mit doppeltem Paar"),
    "luxusfamilie_doppelfamilie": _("Luxusfamilie mit doppelter Familie"),
    "diss": _("Trumpf-Sieben (Diss)"),
}
TRICK_SCALING_LABEL = _("Stichpunkte-Staffel: ab Auge:Faktor, z. B. 60:2, 120:3, 180:4")
PENALTY_VALUES_LABEL = _("Minuspunkte je Verstoß, z. B. 20, 50, 100 (leer: keine)")


class NumberListField(forms.CharField):
    """Whole numbers separated by commas ("20, 50, 100"); ``pairs``: "from:factor" pairs."""

    def __init__(self, *, pairs: bool = False, **kwargs: Any) -> None:
        self.pairs = pairs
        super().__init__(required=False, **kwargs)

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list | tuple):
            if self.pairs:
                return ", ".join(f"{a}:{b}" for a, b in value)
            return ", ".join(str(v) for v in value)
        return value

    # a CharField's cleaning (strip, empty values) gives the text; the field's value is a list
    def to_python(self, value: Any) -> list[Any]:  # type: ignore[override]
        text = str(super().to_python(value) or "")
        items = [item.strip() for item in text.replace(";", ",").split(",") if item.strip()]
        try:
            if self.pairs:
                return [[int(n) for n in item.split(":")] for item in items]
            return [int(item) for item in items]
        except ValueError:
            raise forms.ValidationError(_("Bitte ganze Zahlen, durch Kommas getrennt.")) from None

    def validate(self, value: Any) -> None:
        super().validate(value)
        if self.pairs and any(len(item) != 2 for item in value):
            raise forms.ValidationError(_("Bitte Paare wie 60:2, durch Kommas getrennt."))

    def has_changed(self, initial: Any, data: Any) -> bool:
        try:
            return bool(self.to_python(data) != self.to_python(self.prepare_value(initial)))
        except forms.ValidationError:
            return True


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
        fields = [
            "name",
            "date",
            "venue",
            "preset",
            "rounds",
            "double_check",
            "blind_second_entry",
            "public_pages",
            "table_entry",
            "provisional_table_sheets",
            "show_interim",
            "pace_minutes",
            "break_minutes",
        ]
        widgets = {"date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}
        help_texts = {
            "public_pages": _(
                "Aus: nichts von diesem Abend ist ohne Anmeldung zu sehen – keine Rangliste, "
                "kein Beamer, kein „Wo sitze ich?“, keine Preise und Statistik, keine "
                "persönlichen Seiten und Urkunden der Spieler, keine Online-Anmeldung, kein "
                "Cup mit diesem Abend, keine statische Website (export_site). Offen bleiben nur "
                "die Links der Tische zum Eintragen am Handy (eigener Schalter unten)."
            ),
        }

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
        self.fields["rule_game_kinds"] = forms.MultipleChoiceField(
            label=_("Spielarten"),
            choices=list(KIND_LABELS.items()),
            widget=forms.CheckboxSelectMultiple,
            initial=defaults["game_kinds"],
            required=False,
        )
        for rule, (prefix, labels) in MAPPED_RULES.items():
            for key, label in labels.items():
                self.fields[f"rule_{prefix}_{key}"] = forms.IntegerField(
                    label=label,
                    initial=defaults[rule].get(key),
                    min_value=1 if rule in ("games_per_round", "hand_cards") else 0,
                    max_value=40 if rule == "games_per_round" else None,
                    required=False,
                )
        # the suit melds in play: with the sevens also the Diss the engine adds (RULES.md)
        self.melds_in_play = [meld.to_dict() for meld in rules.suit_melds_in_play]
        for meld in self.melds_in_play:
            label = SUIT_MELD_LABELS.get(meld["key"], meld["key"])
            name = f"{label} ({meld['cards']})"
            self.fields[f"rule_suit_{meld['key']}_plain"] = forms.IntegerField(
                label=name, initial=meld["plain"], min_value=0, required=False
            )
            self.fields[f"rule_suit_{meld['key']}_trump"] = forms.IntegerField(
                label=format_lazy(_("{meld} in Trumpf"), meld=name),
                initial=meld["trump"],
                min_value=0,
                required=False,
            )
        self.fields["rule_trick_scaling"] = NumberListField(
            label=TRICK_SCALING_LABEL, pairs=True, initial=defaults["trick_scaling"]
        )
        self.fields["rule_penalty_values"] = NumberListField(
            label=PENALTY_VALUES_LABEL, initial=defaults["penalty_values"]
        )
        if self.instance.pk:
            self.fields["competitions"].initial = list(
                self.instance.competitions.values_list("mode", flat=True)
            )

    def rule_overrides(self) -> dict[str, object]:
        """The rule fields that differ from the chosen preset (kept in Tournament.rules_json)."""
        preset = PRESETS[self.cleaned_data["preset"]].to_dict()
        # A field counts when the organiser changed what the form showed, or, for a tournament
        # whose preset stays, when it still differs from the preset (an earlier change).
        keep_old = self.original_preset == self.cleaned_data["preset"]

        def given(name: str) -> Any:
            """What the organiser set in field ``name`` (None: keep the preset's value)."""
            value = self.cleaned_data.get(name)
            if name in self.changed_data or keep_old:
                return value
            return None

        wanted: dict[str, object] = {}
        for key in [*RULE_FIELD_LABELS, *RULE_CHOICES, "game_kinds"]:
            value = given(f"rule_{key}")
            if value is None or value == "" and key != "tie_breaks":
                continue
            wanted[key] = value
        if "tie_breaks" in wanted:
            wanted["tie_breaks"] = [k for k in str(wanted["tie_breaks"]).split(",") if k]
        if "game_kinds" in wanted:  # in the order of the kinds
            chosen = set(self.cleaned_data["rule_game_kinds"])
            wanted["game_kinds"] = [k.value for k in KIND_LABELS if k.value in chosen]
        for rule, (prefix, labels) in MAPPED_RULES.items():
            values = {k: given(f"rule_{prefix}_{k}") for k in labels}
            values = {k: v for k, v in values.items() if v is not None}
            if values:
                wanted[rule] = {**preset[rule], **values}
        melds = [dict(meld) for meld in preset["suit_melds"]]
        for meld in melds:
            for side in ("plain", "trump"):
                value = given(f"rule_suit_{meld['key']}_{side}")
                if value is not None:
                    meld[side] = value
        # a meld the form showed beyond the preset's (the Diss with the sevens) is written only
        # when the organiser changed it (e.g. Diss 0 / 0: none); unchanged, the engine adds it
        known = {meld["key"] for meld in melds}
        for shown in self.melds_in_play:
            if shown["key"] in known:
                continue
            meld = dict(shown)
            for side in ("plain", "trump"):
                value = given(f"rule_suit_{meld['key']}_{side}")
                if value is not None:
                    meld[side] = value
            if meld != shown:
                melds.append(meld)
        wanted["suit_melds"] = melds
        for key in ("trick_scaling", "penalty_values"):
            value = given(f"rule_{key}")
            if value is not None:
                wanted[key] = value
        return {k: v for k, v in wanted.items() if v != preset.get(k)}

    def clean(self) -> dict[str, Any]:
        """The rule set these settings make, and the tournament's settings invariants: checked
        by the service (``registration.settings_problems``), shown here at their fields."""
        data = super().clean() or {}
        if "preset" not in data or self.errors:
            return data
        try:
            rules = RuleSet.from_dict(
                {**PRESETS[data["preset"]].to_dict(), **self.rule_overrides()}
            )
        except ScoringError as exc:  # the engine names the problem
            raise forms.ValidationError([e.text(active_language()) for e in exc.errors]) from exc
        instance = self.instance if self.instance.pk else None
        rounds = data.get("rounds", self.instance.rounds)
        modes = data.get("competitions", [])
        for problem in settings_problems(instance, rules, rounds, modes):
            self.add_error(problem.field if problem.field in self.fields else None, problem.message)
        return data


class EntrantForm(forms.ModelForm):
    categories = CategoriesField()

    class Meta:
        model = Entrant
        fields = [
            "start_number",
            "name",
            "partner",
            "club",
            "categories",
            "unranked",
            "late",
            "withdrawn",
            "fee_paid",
            "donation_paid",
        ]


class QuickEntrantForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    partner = forms.CharField(label=_("Partner/in"), max_length=120, required=False)
    club = forms.CharField(label=_("Verein"), max_length=120, required=False)
    unranked = forms.BooleanField(label=_("a. K."), required=False)
    categories = CategoriesField()
    fee_paid = forms.BooleanField(label=_("Startgeld bezahlt"), required=False)
    # chosen among the register's suggestions while the name was typed (register.js)
    player = forms.IntegerField(required=False, min_value=1, max_value=MAX_ID)
    partner_player = forms.IntegerField(required=False, min_value=1, max_value=MAX_ID)


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


class ResultFileForm(forms.Form):
    file = forms.FileField(label=_("Ergebnisdatei (binokel-result, .json)"))


class SignUpForm(forms.Form):
    """The public registration form (``/t/<slug>/anmelden/``); the service checks the rules.
    ``website`` is a honeypot: hidden from people, filled in by form robots."""

    mode = forms.ChoiceField(label=_("Wertung"), choices=Mode.choices)
    name = forms.CharField(label=_("Name"), max_length=120)
    partner = forms.CharField(label=_("Partner/in"), max_length=120, required=False)
    club = forms.CharField(label=_("Verein"), max_length=120, required=False)
    categories = CategoriesField()
    email = forms.CharField(label=_("E-Mail (freiwillig)"), max_length=254, required=False)
    public_name = forms.BooleanField(
        label=_(
            "Mein Name (bei Paaren: unsere Namen) darf auf den öffentlichen Seiten und dem "
            "Beamer erscheinen. Ohne Häkchen steht dort nur die Startnummer."
        ),
        required=False,
    )
    website = forms.CharField(required=False, max_length=200)
    key = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)

    def __init__(self, *args: Any, modes: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        mode = self.fields["mode"]
        assert isinstance(mode, forms.ChoiceField)
        mode.choices = [(m, label) for m, label in Mode.choices if m in modes]
        if len(modes) == 1:
            self.fields["mode"].initial = modes[0]
            self.fields["mode"].widget = forms.HiddenInput()


class CompetitionSignUpForm(forms.ModelForm):
    """The desk's settings of a competition's online registration."""

    class Meta:
        model = Competition
        fields = ["registration_open", "capacity", "waiting_list", "registration_closes"]
        widgets = {
            "registration_closes": forms.DateTimeInput(
                attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"
            )
        }
