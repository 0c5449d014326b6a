"""The only code that both touches the ORM and calls an engine (seating, results, standings)."""
