"""Forms of the charity evening: fees and the donation rule, extra donations, the prize
table. Amounts are typed in euros ("7", "0,50") and kept in cents."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from django import forms
from django.utils.formats import get_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .models import Category, Mode, Series, Special, Tournament
from .numbers import euro
from .services.money.charity import CHARITY_FIELDS

MAX_EUROS = Decimal("100000")
EURO_PATTERN = re.compile(r"^\s*(\d{1,6})(?:[.,](\d{1,2}))?\s*(?:€|EUR)?\s*$", re.IGNORECASE)
TIER_PATTERN = re.compile(r"^\s*(?:ab\s*)?(?:(\d{1,3})\s*[.:]\s*)?(.+?)\s*$", re.IGNORECASE)


def parse_cents(text: str) -> int | None:
    """ "7" → 700, "0,50" → 50, "1.5" → 150, "12,5 €" → 1250; anything else → None."""
    match = EURO_PATTERN.match(text or "")
    if not match:
        return None
    whole, part = match.groups()
    return int(whole) * 100 + int((part or "0").ljust(2, "0"))


def cents_input(cents: int) -> str:
    """An amount as it is typed in the active language: 0,50 (German), 0.50 (English); both
    are read either way."""
    return f"{cents // 100}{get_format('DECIMAL_SEPARATOR')}{cents % 100:02d}"


def example_tiers() -> str:
    """The example of a donation rule, written in the active language: "0,50; ab 5: 1,00"."""
    return tiers_text([[1, 50], [5, 100]])


class EuroField(forms.CharField):
    """An amount in euros, typed the German way; ``clean`` gives cents."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 12)
        super().__init__(**kwargs)
        self.widget.attrs.update({"inputmode": "decimal", "size": 8})

    def prepare_value(self, value: Any) -> Any:
        return cents_input(value) if isinstance(value, int) else value

    def clean(self, value: Any) -> int:
        text = super().clean(value)
        if not text:
            return 0
        cents = parse_cents(text)
        if cents is None:
            raise forms.ValidationError(
                _("„%(value)s“ ist kein Betrag (z. B. 7 oder %(example)s)."),
                params={"value": text[:20], "example": cents_input(50)},
            )
        return cents


def parse_tiers(text: str) -> list[list[int]]:
    """ "0,50; ab 5: 1,00" → [[1, 50], [5, 100]]: entries separated by ";" or new lines,
    each an amount per lost game, optionally "ab N:" (from the N-th lost game on)."""
    tiers: dict[int, int] = {}
    for raw in re.split(r"[;\n]+", text or ""):
        if not raw.strip():
            continue
        match = TIER_PATTERN.match(raw)
        cents = parse_cents(match.group(2)) if match else None
        if match is None or cents is None:
            raise forms.ValidationError(
                _("„%(value)s“ verstehe ich nicht. Beispiel: %(example)s"),
                params={"value": raw.strip()[:30], "example": example_tiers()},
            )
        start = int(match.group(1) or 1)
        if start < 1:
            raise forms.ValidationError(_("Die Zählung der verlorenen Spiele beginnt bei 1."))
        if start in tiers:
            raise forms.ValidationError(
                _("Ab dem %(n)s. verlorenen Spiel steht zweimal ein Betrag."), params={"n": start}
            )
        tiers[start] = cents
    return [[k, tiers[k]] for k in sorted(tiers)]


def tiers_text(pairs: list[list[int]]) -> str:
    parts = []
    for start, cents in pairs:
        amount = cents_input(cents)
        parts.append(amount if start == 1 else f"ab {start}: {amount}")
    return "; ".join(parts)


class CharityForm(forms.ModelForm):
    entry_fee_cents = EuroField(label=_("Startgeld (€)"), required=False)
    donation_tiers = forms.CharField(
        label=_("Spende je verlorenem Spiel (€)"),
        required=False,
        max_length=300,
    )

    class Meta:
        model = Tournament
        fields = list(CHARITY_FIELDS)  # the service's list: one place

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk and not self.is_bound:
            self.initial["donation_tiers"] = tiers_text(self.instance.donation_tiers or [])
        # the example in the page's language (0,50 in German, 0.50 in English)
        self.fields["donation_tiers"].help_text = gettext(
            "Betrag je verlorenem Spiel als Spielmacher, Stufen mit „ab N:“ – z. B. "
            "%(example)s (ab dem 5. verlorenen Spiel %(amount)s). Leer: keine Spende."
        ) % {"example": example_tiers(), "amount": euro(100)}
        self.fields["club_best"].widget.attrs["max"] = 20

    def clean_donation_tiers(self) -> list[list[int]]:
        return parse_tiers(self.cleaned_data.get("donation_tiers") or "")

    def clean_club_best(self) -> int:
        value = self.cleaned_data.get("club_best") or 0
        if value > 20:
            raise forms.ValidationError(_("Höchstens 20."))
        return int(value)


class ExtraDonationForm(forms.Form):
    description = forms.CharField(label=_("Wofür / von wem"), max_length=200)
    amount = EuroField(label=_("Betrag (€)"))

    def clean_amount(self) -> int:
        cents = int(self.cleaned_data["amount"])
        if cents <= 0:
            raise forms.ValidationError(_("Der Betrag muss größer als 0 sein."))
        return cents


class PrizeForm(forms.Form):
    mode = forms.ChoiceField(label=_("Wertung"), choices=Mode.choices)
    description = forms.CharField(label=_("Preis"), max_length=200)
    value = EuroField(label=_("Wert (€)"), required=False)
    special = forms.ChoiceField(label=_("Art"), choices=Special.choices, required=False)
    withdrawn_may_win = forms.BooleanField(
        label=_("auch Abgemeldete können ihn gewinnen"), required=False
    )


class CategoriesField(forms.MultipleChoiceField):
    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("label", _("Kategorien"))
        kwargs.setdefault("required", False)
        kwargs.setdefault("choices", Category.choices)
        kwargs.setdefault("widget", forms.CheckboxSelectMultiple)
        super().__init__(**kwargs)


class SeriesForm(forms.ModelForm):
    cup_points = forms.CharField(
        label=_("Cup-Punkte je Platz"),
        required=False,
        max_length=400,
        help_text=_("Durch Komma getrennt, z. B. 25, 20, 16, 13, 11 (leer: die übliche Tabelle)."),
    )
    tournaments = forms.ModelMultipleChoiceField(
        label=_("Turniere"),
        queryset=Tournament.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    class Meta:
        model = Series
        fields = [
            "name",
            "mode",
            "method",
            "best",
            "cup_points",
            "require_all",
            "min_evenings",
            "tournaments",
        ]

    def __init__(self, *args: Any, tournaments: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if tournaments is not None:
            field = self.fields["tournaments"]
            assert isinstance(field, forms.ModelMultipleChoiceField)
            field.queryset = tournaments
        if self.instance.pk and not self.is_bound:
            self.initial["cup_points"] = ", ".join(str(v) for v in self.instance.cup_points or [])

    def clean_cup_points(self) -> list[int]:
        text = self.cleaned_data.get("cup_points") or ""
        values = []
        for part in re.split(r"[,;\s]+", text.strip()):
            if not part:
                continue
            if not part.isascii() or not part.isdigit() or len(part) > 5:
                raise forms.ValidationError(
                    _("„%(value)s“ ist keine Zahl von Cup-Punkten."), params={"value": part[:20]}
                )
            values.append(int(part))
        if len(values) > 200:
            raise forms.ValidationError(_("Höchstens 200 Plätze."))
        return values

    def clean_best(self) -> int:
        value = int(self.cleaned_data.get("best") or 0)
        if value > 50:
            raise forms.ValidationError(_("Höchstens 50."))
        return value
