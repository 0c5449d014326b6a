"""Standings per competition (after round N) with places, points per round and totals; and
certificates for the first places."""

from __future__ import annotations

import pytest

from binokel_tournament.exports import ExportError, ExportOptions
from binokel_tournament.exports.pdf import CertificatesExporter, StandingsExporter
from binokel_tournament.exports.pdf.base import number
from binokel_tournament.models import Entrant, Mode
from binokel_tournament.services.demo import ensure_users
from binokel_tournament.services.evening.simulation import simulate_round
from binokel_tournament.services.evening.standings import compute_standings

from .reading import assert_fits_a4, lines, pdf_pages

pytestmark = pytest.mark.django_db


def expected_line(row) -> str:
    e = row.entrant
    points = " ".join("–" if p is None else number(p) for p in row.round_points)
    metrics = " ".join(number(v) for k, v in row.metrics.items() if k != "total")
    club = f" {e.club}" if e.club else ""
    return f"{row.place_label} {e.start_number} {e.display_name}{club} {points} " + (
        f"{number(row.total)} {metrics}"
    )


def test_standings_list_places_points_per_round_and_totals(demo):
    result = StandingsExporter(demo).render(ExportOptions(mode=Mode.SINGLES))
    assert result.filename == f"{demo.slug}-rangliste-singles.pdf"
    pages = pdf_pages(result)
    assert len(pages) == 1
    text = pages[0]
    assert lines(text)[:2] == ["Rangliste Einzelwertung", "Stand nach dem 1. Durchgang"]
    found = lines(text)
    # the tie-break columns' labels take two lines: "gew. / Spiele", "bester / Durchgang"
    assert found[3:6] == ["gew. bester", "Platz Nr. Name Verein D1 Gesamt", "Spiele Durchgang"]
    standings = compute_standings(demo.competitions.get(mode=Mode.SINGLES), 1)
    for row in standings.rows:
        assert expected_line(row) in found, expected_line(row)
    assert standings.rows[0].total > standings.rows[-1].total
    assert_fits_a4(result, landscape=True)


def test_all_competitions_in_one_pdf_and_after_round_n(demo):
    simulate_round(demo.round_set.get(number=2), ensure_users(), seed=5)
    pages = pdf_pages(StandingsExporter(demo).render())
    assert len(pages) == 2
    assert lines(pages[0])[:2] == ["Rangliste Einzelwertung", "Stand nach dem 2. Durchgang"]
    assert lines(pages[1])[:2] == ["Rangliste Paarwertung", "Stand nach dem 2. Durchgang"]
    pairs = compute_standings(demo.competitions.get(mode=Mode.PAIRS), 2)
    for row in pairs.rows:
        assert expected_line(row) in lines(pages[1])
    assert "D1 D2 Gesamt" in pages[1]

    after_one = pdf_pages(StandingsExporter(demo).render(ExportOptions(round_number=1)))
    assert lines(after_one[1])[:2] == ["Rangliste Paarwertung", "Stand nach dem 1. Durchgang"]
    assert "D2" not in after_one[1]
    for row in compute_standings(demo.competitions.get(mode=Mode.PAIRS), 1).rows:
        assert expected_line(row) in lines(after_one[1])


def test_long_standings_run_over_pages_with_the_header_on_each(demo):
    singles = demo.competitions.get(mode=Mode.SINGLES)
    Entrant.objects.bulk_create(
        Entrant(tournament=demo, competition=singles, start_number=100 + i, name=f"Nachzügler {i}")
        for i in range(40)
    )
    result = StandingsExporter(demo).render(ExportOptions(mode=Mode.SINGLES))
    pages = pdf_pages(result)
    assert len(pages) == 3
    for index, text in enumerate(pages, start=1):
        assert text.startswith("Rangliste Einzelwertung")
        assert any(line.startswith("Platz Nr. Name") for line in lines(text))
        assert text.rstrip().endswith(f"Seite {index}")
    names = [line for text in pages for line in lines(text) if "Nachzügler" in line]
    assert len(names) == 40
    assert_fits_a4(result, landscape=True)


def test_a_competition_that_does_not_exist_is_a_message(db):
    from binokel_tournament.services.evening.registration import create_tournament

    tournament = create_tournament("Nur Einzel", modes=[Mode.SINGLES])
    with pytest.raises(ExportError):
        StandingsExporter(tournament).render(ExportOptions(mode=Mode.PAIRS))
    assert (
        "Noch keine bestätigten Ergebnisse" in pdf_pages(StandingsExporter(tournament).render())[0]
    )


def test_certificates_for_the_first_three_places_of_each_competition(demo):
    result = CertificatesExporter(demo).render()
    pages = pdf_pages(result)
    expected = []
    for mode, title in ((Mode.SINGLES, "Einzelwertung"), (Mode.PAIRS, "Paarwertung")):
        rows = compute_standings(demo.competitions.get(mode=mode), 1).rows
        expected += [(title, r) for r in rows if r.place is not None and r.place <= 3]
    assert len(pages) == len(expected) >= 6
    for text, (title, row) in zip(pages, expected, strict=True):
        found = lines(text)
        e = row.entrant
        assert found[0] == "Urkunde"
        assert demo.name in found and title in found
        assert e.name in found
        if e.partner:
            assert f"und {e.partner}" in found
        assert f"belegte mit {number(row.total)} Punkten den" in found
        assert f"{row.place}. Platz" in found
    assert_fits_a4(result, landscape=False)


def test_certificates_for_one_competition_and_more_places(demo):
    pages = pdf_pages(CertificatesExporter(demo).render(ExportOptions(mode=Mode.PAIRS, top=4)))
    assert len(pages) == 4
    assert all("Paarwertung" in p for p in pages)
    places = [next(x for x in lines(p) if x.endswith(". Platz")) for p in pages]
    assert places == ["1. Platz", "2. Platz", "3. Platz", "4. Platz"]


def test_no_certificates_before_anybody_played(db):
    from binokel_tournament.services.evening.registration import create_tournament, register_entrant

    tournament = create_tournament("Noch nicht gespielt")
    register_entrant(tournament.competitions.get(mode=Mode.SINGLES), "Anna Müller")
    with pytest.raises(ExportError, match="bestätigte Ergebnisse"):
        CertificatesExporter(tournament).render()
