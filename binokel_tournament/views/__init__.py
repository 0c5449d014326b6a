"""Thin views, split by audience: ``desk`` (organisers, login) and ``public`` (no login)."""
