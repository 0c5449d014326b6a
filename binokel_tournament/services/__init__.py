"""The only code that both touches the ORM and calls an engine, grouped by domain:

- ``sheets/``: the score sheet — its fields, the one writer, drafts and versions, the tables'
  phones, the double check, who types what now, re-scoring checks;
- ``evening/``: the tournament's evening — registration (at the desk, online, at the door),
  seating and rounds, the hall, standings, the players' own pages, the pace, the demo and the
  simulation;
- ``money/``: the charity evening — fees and donations, prizes, sub-rankings, cup series,
  statistics;
- ``server/``: what keeps the hall running — backups, the public pages' cache, addresses and QR
  codes, rate limits, warming up;
- and beside them what every group uses: ``access`` (who may do what), ``audit``, ``errors``,
  ``members``, ``names``."""
