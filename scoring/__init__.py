"""Scoring for Boardwalk tournaments: score sheets, table results, ties, postings, standings.

A separate app so scoring rules can evolve, and be tested, independently of how events are
organised. See scoring/README.md for the workflow and the decisions behind it.
"""
