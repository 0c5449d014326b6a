"""What the table-link tests share: a game as a phone sends it, a table of a round, the link's
endpoints and a JSON post to them."""

from __future__ import annotations

import json

from django.urls import reverse

from binokel_tournament.models import Table, TableKind

# docs/rules.md worked example 1 at a 3-table: 210, 80, 40 for columns 1, 2, 3
GAME = {
    "kind": "played",
    "declarer": 1,
    "bid": 200,
    "columns": [
        {"meld": 60, "tricks": 152},
        {"meld": 20, "tricks": 58},
        {"meld": 0, "tricks": 40},
    ],
}


def three_table(tournament, number: int = 1) -> Table:
    return tournament.round_set.get(number=number).tables.filter(kind=TableKind.THREE).first()


def url(table: Table, name: str = "page") -> str:
    return reverse(f"table:{name}", args=[table.entry_token])


def post(client, table: Table, name: str, body: object):
    return client.post(url(table, name), json.dumps(body), content_type="application/json")
