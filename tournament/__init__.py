"""Tournament organisation: events and, as the project grows, players, rounds and tables.

Pages and admin live here; game rules live in the pure-Python ``gameplay`` package and
scoring in the ``scoring`` app, so each can change without the others.
"""
