"""What a user types into a query string (a GET form, an edited address) never gives a 5xx.

The pages that read a query parameter, each given the values that used to break
``int()`` (a superscript digit, a number over Python's 4300-digit limit) and other junk.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import resolve, reverse

VALUES = ["²", "9" * 5000, "9" * 30, "\x00", "a b", "1"]

PAGES = [
    # (route, its URL kwargs as names in World.url_kwargs(), the query parameter)
    ("players:check_in", {"pk": "pk"}, "q"),
    ("tournament:event_create", {}, "format"),
    ("tournament:event_create", {}, "international"),
    ("scoring:standings_csv", {"pk": "pk"}, "posted"),
    ("banker:banker_sheet", {"table_pk": "table_pk"}, "edit"),
    ("printouts:assignments_organizer", {"pk": "pk", "number": "number"}, "wave"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "kwargs", "param"), PAGES)
def test_query_parameters_never_break_a_page(name, kwargs, param, world, quiet):
    known = world.url_kwargs()
    url = reverse(name, kwargs={key: known[source] for key, source in kwargs.items()})
    permission = getattr(resolve(url).func, "required_permission", None)
    client = Client(raise_request_exception=False)
    client.force_login(world.user_for(permission))
    for value in VALUES:
        response = client.get(url, {param: value})
        assert response.status_code < 500, (name, param, value[:20], response.status_code)
