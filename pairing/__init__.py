"""Binokel seating plans (Spielplan): construct, check and re-plan. Pure Python, no Django.

>>> plan = make_plan([Entrant(n) for n in range(1, 31)], Mode.SINGLES)
>>> check_plan(plan).to_dict()["R"]
{'value': 0, 'bound': 0}
"""

from __future__ import annotations

from .errors import PairingError
from .model import Entrant, Mode, Plan, Round, Table, TableKind, validate_entrant_count
from .planner import make_plan
from .quality import Metric, Quality, check_plan, clubs_by_round
from .replanner import replan

__all__ = [
    "Entrant",
    "Metric",
    "Mode",
    "PairingError",
    "Plan",
    "Quality",
    "Round",
    "Table",
    "TableKind",
    "check_plan",
    "clubs_by_round",
    "make_plan",
    "replan",
    "validate_entrant_count",
]
