"""Scoring for Boardwalk tournaments (placeholder, filled in by later work).

This app will hold score sheets, table results, standings, tie-breakers and the
publication of results. It is a separate app so scoring rules can evolve, and be
tested, independently of how events are organised.
"""
