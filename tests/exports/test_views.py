"""Downloads from the desk: login required, one click per file, the exporter's bytes as an
attachment; every link of the desk's export box works."""

from __future__ import annotations

import json
import re

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from binokel_tournament.exports import PDF_EXPORTERS
from binokel_tournament.exports.registry import EXPORTERS, download_box

from .reading import pdf_pages

pytestmark = pytest.mark.django_db


def export_box_html(tournament) -> str:
    rounds = list(tournament.round_set.order_by("number"))
    box = download_box(tournament, rounds, list(tournament.competitions.all()))
    return render_to_string("desk/_exports.html", {"tournament": tournament, "downloads": box})


def export_links(tournament) -> list[str]:
    html = export_box_html(tournament)
    return [href.replace("&amp;", "&") for href in re.findall(r'href="([^"]+)"', html)]


def test_downloads_need_a_login(client, demo):
    for key in ("scoresheets", "workbook"):
        response = client.get(reverse("desk:export", args=[demo.slug, key]))
        assert response.status_code == 302 and "/anmelden/" in response["Location"]
    response = client.get(reverse("desk:export_xlsx", args=[demo.slug]), follow=True)
    assert "/anmelden/" in response.redirect_chain[-1][0]  # the first address: no way around


def test_every_link_of_the_export_box_downloads_a_file(desk_client, demo):
    links = export_links(demo)
    # 3 rounds × 4 PDFs, standings (all + 2), certificates (all + 2), donations (all + 2),
    # prizes (all + 2), categories, statistics, Excel, 4 CSV, 4 result files
    assert len(links) == 12 + 3 + 3 + 3 + 3 + 1 + 1 + 1 + 4 + 2 + 4
    for url in links:
        response = desk_client.get(url)
        assert response.status_code == 200, url
        disposition = response["Content-Disposition"]
        assert disposition.startswith("attachment; filename=")
        assert demo.slug in disposition
        content_type = response["Content-Type"]
        key = url.split("/export/")[1].split("/")[0]
        if key in PDF_EXPORTERS:
            assert content_type == "application/pdf"
            assert response.content.startswith(b"%PDF")
        elif key == "workbook":
            assert content_type.startswith("application/vnd.openxmlformats")
            assert response.content.startswith(b"PK")
        elif key == "ergebnisdatei":
            assert content_type == "application/json"
            assert json.loads(response.content)["format"] == "binokel-result"
        else:
            assert content_type.startswith("text/csv")


def test_the_download_carries_the_options_of_the_link(desk_client, demo):
    url = reverse("desk:export", args=[demo.slug, "scoresheets"]) + "?round=2"
    response = desk_client.get(url)
    assert 'filename="benefizbinokel-demo-spielzettel-d2.pdf"' in response["Content-Disposition"]
    pages = pdf_pages(response.content)
    assert all("2. Durchgang" in p for p in pages)
    url = reverse("desk:export", args=[demo.slug, "certificates"]) + "?mode=pairs&top=1"
    pages = pdf_pages(desk_client.get(url).content)
    assert len(pages) == 1 and "Paarwertung" in pages[0]


def test_nothing_to_export_goes_back_to_the_dashboard_with_a_message(desk_client, demo):
    url = reverse("desk:export", args=[demo.slug, "seating"]) + "?round=9"
    response = desk_client.get(url, follow=True)
    assert response.redirect_chain[-1][0] == reverse("desk:dashboard", args=[demo.slug])
    assert "Durchgang 9 gibt es nicht" in response.content.decode()


def test_unknown_exports_are_not_found(desk_client, demo):
    assert desk_client.get(reverse("desk:export_pdf", args=[demo.slug, "menu"])).status_code == 404
    assert desk_client.get(reverse("desk:export_csv", args=[demo.slug, "kasse"])).status_code == 404
    missing = reverse("desk:export", args=["kein-turnier", "workbook"])
    assert desk_client.get(missing).status_code == 404
    old = desk_client.get(reverse("desk:export_xlsx", args=["kein-turnier"]), follow=True)
    assert old.status_code == 404


def test_the_export_box_is_built_from_the_registry(demo):
    html = export_box_html(demo)
    for key, cls in EXPORTERS.items():
        assert str(cls.verbose_name) in html, key
        assert reverse("desk:export", args=[demo.slug, key]) in html, key
    assert len(set(EXPORTERS)) == len(EXPORTERS) == 13


def test_the_first_addresses_forward_to_the_registry_address(desk_client, demo):
    pairs = [
        ("desk:export_pdf", [demo.slug, "standings"], "?mode=pairs", "standings", "?mode=pairs"),
        ("desk:export_xlsx", [demo.slug], "", "workbook", ""),
        ("desk:export_csv", [demo.slug, "spiele"], "?round=1", "csv", "?round=1&table=spiele"),
    ]
    for name, args, query, key, new_query in pairs:
        old = desk_client.get(reverse(name, args=args) + query)
        assert old.status_code == 302
        assert old["Location"] == reverse("desk:export", args=[demo.slug, key]) + new_query
        followed = desk_client.get(reverse(name, args=args) + query, follow=True)
        direct = desk_client.get(old["Location"])
        assert followed.status_code == direct.status_code == 200
        assert followed["Content-Disposition"] == direct["Content-Disposition"]
        if key == "csv":  # (a PDF or workbook carries the time it was made)
            assert followed.content == direct.content


def test_an_unknown_key_or_variant_is_no_download(desk_client, demo):
    assert desk_client.get(reverse("desk:export", args=[demo.slug, "menu"])).status_code == 404
    url = reverse("desk:export", args=[demo.slug, "csv"]) + "?table=kasse"
    response = desk_client.get(url, follow=True)
    assert response.redirect_chain[-1][0] == reverse("desk:dashboard", args=[demo.slug])
    assert "Unbekannte Tabelle" in response.content.decode()


def test_every_download_link_of_a_template_names_a_registered_export():
    """The pages' own PDF links (prize list, press report, donation slips, reprints …) are
    written into templates by key: each key must be one the registry serves."""
    from pathlib import Path

    from django.conf import settings

    found = {}
    for path in Path(settings.BASE_DIR, "templates").rglob("*.html"):
        for key in re.findall(r"\{% url 'desk:export' [\w.]+ '(\w+)' %\}", path.read_text()):
            found.setdefault(key, path.name)
    assert len(found) >= 6, found  # prizes, statistics, donations, categories, slips, reprints
    assert {key: name for key, name in found.items() if key not in EXPORTERS} == {}
