"""Scoring models: score sheets, table results, standings and tie-breakers (none yet)."""
