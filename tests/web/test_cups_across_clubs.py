"""A cup of four evenings: three come as result files from two other clubs, one is played
here. Players are matched by the file's register id, else by a clear name and club; names
spelled alike are offered to the desk, which decides (same person / two people), audited and
reversible; a name that two people of different clubs share stays two. The season figures
(most evenings, best average place, best evening, Pechvogel) follow from the evenings, the
public cup page names only who agreed, and a player sees the season on their personal page."""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.urls import reverse

from binokel_tournament.exports.result_file import document, to_bytes
from binokel_tournament.models import AuditLog, Entrant, Mode, Player, ScoreSheet, Tournament
from binokel_tournament.services.evening import players as personal
from binokel_tournament.services.evening.registration import create_tournament, register_entrant
from binokel_tournament.services.evening.seating import generate_seating
from binokel_tournament.services.evening.simulation import simulate_round
from binokel_tournament.services.evening.standings import compute_standings
from binokel_tournament.services.imports import ResultRefused
from binokel_tournament.services.money import series as cup
from binokel_tournament.services.sheets.writer import save_sheet

from .support import organiser_account

pytestmark = pytest.mark.django_db

ESSLINGEN = ("Esslingen", "CVJM Esslingen")
NUERTINGEN = ("Nürtingen", "TSV Nürtingen")
# people who play only once: names far apart from each other and from those above
FILLERS = tuple(
    f"{first} {last}"
    for first, last in zip(
        [
            "Adelheid",
            "Bonifaz",
            "Cäcilie",
            "Dagobert",
            "Eleonore",
            "Florian",
            "Gertrud",
            "Hieronymus",
            "Irmgard",
            "Jakobus",
            "Kunigunde",
            "Leopold",
            "Mechthild",
            "Norbert",
            "Ottilie",
            "Pankraz",
            "Rosalinde",
            "Sebastian",
            "Theresia",
            "Valentin",
            "Walburga",
            "Xaver",
            "Zenzi",
            "Amalie",
        ],
        [
            "Albrecht",
            "Brenner",
            "Conradi",
            "Dietrich",
            "Eberle",
            "Fürstenberg",
            "Gruber",
            "Hofmeister",
            "Ingold",
            "Jungblut",
            "Kriegsmann",
            "Lichtenau",
            "Morgenroth",
            "Niederberger",
            "Oberholzer",
            "Pfannenschmid",
            "Rappenecker",
            "Seitzinger",
            "Trautwein",
            "Ulmenhof",
            "Wetterauer",
            "Xylander",
            "Zimmerle",
            "Achenbach",
        ],
        strict=True,
    )
)


@dataclass(frozen=True)
class Person:
    name: str
    club: str = ""
    register: str = ""  # the register id a file carries


def evening(name: str, where: tuple[str, str], day: int, people: list[Person], seed: int):
    fillers = _unused.setdefault("names", iter(FILLERS))
    """An Einzel evening of six (two tables of three), one round played and confirmed."""
    town, club = where
    t = create_tournament(
        name,
        modes=(Mode.SINGLES,),
        rounds=1,
        preset="ejl",
        town=town,
        organiser_club=club,
        date=datetime.date(2026, 1 + day, 10),
    )
    singles = t.competitions.get()
    for p in people + [Person(next(fillers)) for _ in range(6 - len(people))]:
        register_entrant(singles, p.name, club=p.club)
    generate_seating(singles)
    simulate_round(t.round_set.get(), None, seed=seed)
    return t


_unused: dict[str, Iterator[str]] = {}  # the filler names not used yet in this test


class _Elsewhere(Exception):
    pass


def result_file_of(name: str, where, day: int, people: list[Person], seed: int) -> bytes:
    """The file another club's laptop writes: the evening is made, written and gone again."""
    made: dict[str, bytes] = {}
    try:
        with transaction.atomic():
            t = evening(name, where, day, people, seed)
            doc = document(t, "results", public=False)
            for row in doc["players"]:  # another installation's register ids
                person = next((p for p in people if p.name == row["name"]["full"]), None)
                row.pop("ids", None)
                if person is not None and person.register:
                    row["ids"] = {"register": person.register}
            made["file"] = to_bytes(doc)
            raise _Elsewhere
    except _Elsewhere:
        pass
    return made["file"]


def line_of(standings, name: str):
    return [line for line in standings.lines if line.name == name]


def places_of(t: Tournament) -> dict[str, tuple[int | None, int]]:
    rows = compute_standings(t.competitions.get()).rows
    return {r.entrant.name: (r.place, r.total) for r in rows}


@pytest.fixture
def season(client):
    _unused["names"] = iter(FILLERS)
    anna = Person("Anna Bauer", "CVJM Esslingen")
    here = evening(
        "Heimabend",
        ESSLINGEN,
        3,
        [anna, Person("Otto Frey"), Person("Karl Schäfer", "CVJM Esslingen")],
        seed=4,
    )
    cup.link_all(here, None, create_new=True)
    series = cup.create_series("Neckar-Cup", None, mode=Mode.SINGLES)
    cup.update_series(series, None, {"min_evenings": 2}, [here])
    anna_uid = str(Player.objects.get(name="Anna Bauer").uid)
    files = [
        result_file_of(
            "Esslingen 1",
            ESSLINGEN,
            0,
            [
                anna,
                Person("Hans Maier", "CVJM Esslingen"),
                Person("Karl Schäffer", "CVJM Esslingen"),
            ],
            seed=1,
        ),
        result_file_of(
            "Esslingen 2", ESSLINGEN, 1, [anna, Person("Karl Schäfer", "CVJM Esslingen")], 2
        ),
        result_file_of(
            "Nürtingen",
            NUERTINGEN,
            2,
            [
                Person("Anna Bauer-Keck", "TSV Nürtingen", register=anna_uid),  # her id wins
                Person("Hans Maier", "TSV Nürtingen"),  # the same name, another man
                Person("Otto Frei", "TSV Nürtingen"),
            ],
            seed=3,
        ),
    ]
    return series, here, files


def test_a_cup_of_three_files_from_two_clubs_and_one_evening_played_here(client, season):
    series, here, files = season
    for data in files[:2]:
        cup.add_result_file(series, data, None)
    # the third through the desk's page, by an organiser
    client.force_login(organiser_account("orga"))
    page = reverse("desk:series_detail", args=[series.slug])
    client.post(
        page,
        {"action": "add_file", "file": SimpleUploadedFile("n.json", files[2], "application/json")},
    )
    evenings = list(series.tournaments.order_by("date"))
    assert [t.name for t in evenings] == ["Esslingen 1", "Esslingen 2", "Nürtingen", "Heimabend"]
    assert all(t.read_only for t in evenings[:3]) and not here.read_only

    standings = cup.series_standings(series)
    assert standings.unlinked == 0
    played = {line.name: [v is not None for v in line.row.values] for line in standings.lines}
    # by name and club (Esslingen 1 and 2), by register id (Nürtingen, another spelling)
    assert played["Anna Bauer"] == [True, True, True, True]
    # one name, two people of two clubs in two towns: two players, never offered as one
    maier = line_of(standings, "Hans Maier")
    assert sorted(x.row.values.count(None) for x in maier) == [3, 3] and len(maier) == 2
    offered = {(c.first.name, c.second.name) for c in cup.candidates_in(series)}
    offered |= {(b, a) for a, b in offered}
    assert ("Hans Maier", "Hans Maier") not in offered
    # spelled alike: offered to the desk (same club / one without a club)
    assert ("Karl Schäfer", "Karl Schäffer") in offered and ("Otto Frey", "Otto Frei") in offered
    schaefer = next(c for c in cup.candidates_in(series) if "Karl" in c.first.name)
    assert schaefer.same_club and schaefer.same_town

    # the desk decides: Schäffer is Schäfer; Frei and Frey are two people
    merge = {"first": schaefer.first.pk, "second": schaefer.second.pk}
    client.post(page, {"action": "merge", **merge})
    frey = next(c for c in cup.candidates_in(series) if "Otto" in c.first.name)
    client.post(page, {"action": "apart", "first": frey.first.pk, "second": frey.second.pk})
    assert cup.candidates_in(series) == []
    standings = cup.series_standings(series)
    karl = [x for x in standings.lines if x.name.startswith("Karl")]
    assert len(karl) == 1 and [v is not None for v in karl[0].row.values] == [
        True,
        True,
        False,
        True,
    ]
    assert len([x for x in standings.lines if x.name.startswith("Otto")]) == 2

    # reversible: split the merge, and the cup counts two again (not offered again)
    merged = cup.merged_in(series)
    assert [p.name for p in merged] in (["Karl Schäffer"], ["Karl Schäfer"])
    client.post(page, {"action": "split", "player": merged[0].pk})
    assert len([x for x in cup.series_standings(series).lines if x.name.startswith("Karl")]) == 2
    assert cup.candidates_in(series) == []
    cup.merge_players(schaefer.first, schaefer.second, None)  # decided again: one person

    actions = list(AuditLog.objects.values_list("action", flat=True))
    assert actions.count("series.add_file") == 3
    assert {"player.merge", "player.distinct", "player.split"} <= set(actions)

    # the season figures, from each evening's own standings
    figures = cup.season_lines(series, public=False)
    assert [(f.name, f.value) for f in figures.most_evenings.lines] == [("Anna Bauer", 4)]
    results = [places_of(t) for t in evenings]
    best = max(total for r in results for _place, total in r.values())
    assert {f.value for f in figures.best_evening.lines} == {best}
    assert {f.name for f in figures.best_evening.lines} == {
        name.replace("Anna Bauer-Keck", "Anna Bauer")
        for r in results
        for name, (_p, total) in r.items()
        if total == best
    }
    karl_places = [r[n][0] for r in results for n in r if n.startswith("Karl Sch")]
    anna_places = [r[n][0] for r in results for n in r if n.startswith("Anna Bauer")]
    averages = {
        "Anna Bauer": sum(anna_places) / len(anna_places),
        "Karl": sum(karl_places) / len(karl_places),
    }  # the only ones with two evenings or more
    best_avg, worst_avg = min(averages.values()), max(averages.values())

    assert {f.value for f in figures.best_average.lines} == {round(best_avg, 2)}
    assert {f.value for f in figures.pechvogel.lines} == {round(worst_avg, 2)}

    # the public cup page: only who agreed is named, in the ranking and in the figures
    Player.objects.update(consent=False)
    Player.objects.filter(name="Anna Bauer").update(consent=True)
    public = client.get(reverse("public:series", args=[series.slug])).content.decode()
    assert "Saisonwertungen" in public and "Anna Bauer" in public
    assert "Hans Maier" not in public and "Karl Sch" not in public and "(ohne Namen)" in public
    desk = client.get(page).content.decode()
    assert "Karl Sch" in desk and "zählt als" in desk  # the desk sees every name and the merge

    # Anna's personal page of the evening played here: her season
    anna_here = Entrant.objects.get(tournament=here, name="Anna Bauer")
    link = next(x for x in personal.ensure_links(here) if x.entrant_id == anna_here.pk)
    mine = client.get(reverse("public:personal", args=[link.token])).content.decode()
    assert "Meine Saison: Neckar-Cup" in mine
    for t in evenings:
        assert t.name in mine
    season = next(s for s in cup.my_seasons(anna_here) if s.series == series)
    assert [e.place for e in season.evenings] == anna_places
    assert season.total == next(x for x in standings.lines if x.name == "Anna Bauer").row.total


def test_a_file_that_does_not_check_out_joins_no_cup(season):
    series, here, files = season
    doc = json.loads(files[0])
    doc["rounds"][0]["tables"][0]["games"][0]["points"][0] += 10
    with pytest.raises(ResultRefused):
        cup.add_result_file(series, json.dumps(doc).encode(), None)
    assert list(series.tournaments.all()) == [here]
    assert not Tournament.objects.filter(name="Esslingen 1").exists()


def test_the_same_name_with_another_club_is_not_linked_by_name(season):
    """At the desk as from a file: a name the register knows with another club is the
    desk's decision, never a link made by itself."""
    series, here, _files = season
    t = evening("Gastabend", NUERTINGEN, 4, [Person("Anna Bauer", "TSV Nürtingen")], seed=5)
    summary = cup.link_all(t, None, create_new=True)
    assert "Anna Bauer" in summary.ambiguous
    assert Entrant.objects.get(tournament=t, name="Anna Bauer").player is None


def test_the_players_pages_rank_the_cup_once_per_change_not_once_per_page(
    client, season, monkeypatch
):
    """Every player's page of a cup evening shows the season: the cup's evenings are ranked
    once and shared by all pages until a counted sheet (or anything else) changes."""
    series, here, _files = season
    ranked = []

    def counting(competition, *args, **kwargs):
        ranked.append(competition.tournament_id)
        return compute_standings(competition, *args, **kwargs)

    monkeypatch.setattr(cup, "compute_standings", counting)
    links = personal.ensure_links(here)
    for link in links:
        page = client.get(reverse("public:personal", args=[link.token])).content.decode()
        assert "Meine Saison: Neckar-Cup" in page or link.entrant.player_id is None
    assert ranked == [here.pk]  # one evening in the cup, ranked once for every page
    here.save()  # a change the public pages show: the season is worked out anew
    client.get(reverse("public:personal", args=[links[0].token]))
    assert ranked == [here.pk, here.pk]


def test_a_counted_sheet_of_another_evening_leaves_the_season_kept(client, season, monkeypatch):
    """The season is worked out anew when a counted sheet of one of the cup's evenings
    changes, not for a sheet of an evening the cup does not count (on a server for many
    clubs, the other Vereine confirm sheets all evening)."""
    series, here, _files = season
    elsewhere = evening("Anderswo", ESSLINGEN, 5, [Person("Otto Frey")], seed=6)  # no cup's
    ranked = []

    def counting(competition, *args, **kwargs):
        ranked.append(competition.tournament_id)
        return compute_standings(competition, *args, **kwargs)

    def correct(t: Tournament) -> None:
        """A correction of a confirmed sheet at the desk: still counted."""
        sheet = ScoreSheet.objects.filter(table__round__tournament=t).order_by("pk").first()
        data = {**sheet.entries, "written-total-c1": str(sheet.version)}
        save_sheet(sheet.table, data, None, expected_version=sheet.version)

    monkeypatch.setattr(cup, "compute_standings", counting)
    token = next(link.token for link in personal.ensure_links(here) if link.entrant.player_id)
    page = reverse("public:personal", args=[token])
    assert "Meine Saison: Neckar-Cup" in client.get(page).content.decode()
    assert ranked == [here.pk]
    correct(elsewhere)
    client.get(page)
    assert ranked == [here.pk]  # kept: that evening counts in no cup of this one
    correct(here)
    client.get(page)
    assert ranked == [here.pk, here.pk]
