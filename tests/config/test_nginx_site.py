"""The README's nginx site lets through every request body Boardwalk itself accepts.

nginx's own default is 1 MB: a 2 MB registration import would get nginx's bare 413, never
Boardwalk's page saying what is too big.
"""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings

from players.csv_io import MAX_IMPORT_BYTES

SITE = Path(__file__).resolve().parents[2] / "deploy" / "nginx" / "boardwalk.conf"
UNITS = {"": 1, "k": 1024, "m": 1024 * 1024, "g": 1024 * 1024 * 1024}


def test_the_nginx_site_takes_bodies_as_large_as_the_app_does():
    found = re.findall(r"^\s*client_max_body_size\s+(\d+)([kKmMgG]?);", SITE.read_text(), re.M)
    assert len(found) == 1, "one client_max_body_size in the TLS server"
    number, unit = found[0]
    limit = int(number) * UNITS[unit.lower()]
    # The import's own limit, with room for the form around the file.
    assert limit > MAX_IMPORT_BYTES
    assert limit >= settings.DATA_UPLOAD_MAX_MEMORY_SIZE
