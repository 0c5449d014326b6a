"""Rounds have a life: planned (a seating plan exists) -> started (by the desk, or by the first
sheet the desk saves from paper; its seating no longer changes and its table links take games)
-> finished (every sheet confirmed at the desk). ``writer.change_round`` is the one function that
writes a round's state, under the round's row lock and audited in words; ``state.round_states``
is the one read model every page asks ("which round is in play, how many tables are done")."""
