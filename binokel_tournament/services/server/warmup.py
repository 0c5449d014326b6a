"""What the hall server works out once, before its worker processes start, so that no desk's
first save of the evening waits for it: the rule sets of the tournaments with the meld totals
the engine checks bids against (a second of CPU for a pair table, remembered in the rule set;
only for tournaments with a pairs competition),
the URL patterns with every view module, the compiled templates and the translations.

``manage.py hall`` calls :func:`warm_up` in gunicorn's master process; the workers are forked
from it and inherit all of it (without it each worker, and each of its threads that got there
at the same moment, worked it out again under the first requests)."""

from __future__ import annotations

from pathlib import Path
from typing import cast

from django.conf import settings
from django.db.models import Exists, OuterRef
from django.template.loader import get_template
from django.urls import get_resolver
from django.utils import translation

from scoring import RuleSet, achievable_pair_totals, achievable_totals, get_preset

from ...models import Competition, Mode, Tournament

PAIR_PARTIES = 2
PLAYER_PARTIES = 3


def warm_rules(rules: RuleSet, *, pairs: bool = True) -> None:
    """The meld totals the engine checks a bid against, for every kind of table it has; the
    pair tables' only where a pairs competition plays (``pairs``)."""
    cards = rules.hand_size(PLAYER_PARTIES)
    if cards is not None:
        achievable_totals(cards, rules)
    if pairs and rules.hand_size(PAIR_PARTIES) is not None:
        achievable_pair_totals(rules)


def warm_up() -> None:
    seen: set[tuple[str, str, int, bool]] = set()
    has_pairs = Exists(Competition.objects.filter(tournament=OuterRef("pk"), mode=Mode.PAIRS))
    tournaments = Tournament.objects.annotate(has_pairs=has_pairs)
    for preset, changed, rounds, pairs in tournaments.values_list(
        "preset", "rules_json", "rounds", "has_pairs"
    ):
        key = (preset, repr(changed), rounds, pairs)
        if key not in seen:
            seen.add(key)
            rules = Tournament(preset=preset, rules_json=changed, rounds=rounds).rules()
            warm_rules(rules, pairs=pairs)
    if not seen:  # a new installation: the default rule set (pairs play nowhere yet)
        warm_rules(get_preset(Tournament._meta.get_field("preset").get_default()), pairs=False)
    get_resolver().url_patterns  # noqa: B018 - imports the URLconf and every view module
    for folder in [Path(d) for d in cast(list[str], settings.TEMPLATES[0]["DIRS"])]:
        for path in sorted(folder.rglob("*.html")):
            get_template(path.relative_to(folder).as_posix())
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("Spielzettel")
