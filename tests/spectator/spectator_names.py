"""Aliases and the registered names behind them: no public page may print the names.

A module of its own (not conftest) so test files import it unambiguously: several test
folders have a conftest.py, and ``from conftest import`` picks whichever came first.
"""

REAL_NAMES = {
    "Boot": ("Rosalind", "Quimby"),
    "Car": ("Thaddeus", "Wrexham"),
    "Hat": ("Philippa", "Onslow"),
    "Dog": ("Barnaby", "Fitzgerald"),
}
