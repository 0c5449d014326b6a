"""The tournament's evening: registration, seating and rounds, standings, players, pace."""
