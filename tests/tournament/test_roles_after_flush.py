"""The role groups come back after a flush, as Django's permissions do (tournament/apps.py).

A flush empties every table and the groups with them; the tests that commit (the browser
tests) end with one, and ``manage.py flush`` is one. Without the groups no official can
be given a role, so the next officials' page would refuse everyone.
"""

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command

from tournament.roles import ROLE_PERMISSIONS


@pytest.mark.django_db(transaction=True)
def test_a_flush_leaves_every_role_with_its_permissions():
    Group.objects.all().delete()
    call_command("flush", interactive=False, verbosity=0)
    groups = {
        group.name: sorted(group.permissions.values_list("codename", flat=True))
        for group in Group.objects.all()
    }
    assert groups == {role: sorted(codes) for role, codes in ROLE_PERMISSIONS.items()}
