"""The final's table gets a banker from the seating page, and it becomes the
banker's current table on /bank/."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.demo_rows import load_demo_rows
from tournament.models import Round, Table


@pytest.mark.django_db
def test_the_seating_page_gives_the_finals_table_a_banker(client):
    event = load_demo_rows()
    final = Round.objects.filter(event=event).exclude(kind=Round.Kind.PRELIMINARY).get()
    table = Table.objects.get(round=final)
    User = get_user_model()
    client.force_login(User.objects.get(username="organizer"))
    seating = reverse("seating:seating", kwargs={"pk": event.pk})
    body = client.get(seating).content.decode()
    action = reverse(
        "seating:seating_banker",
        kwargs={"pk": event.pk, "round_number": final.number, "table_number": table.number},
    )
    assert f'action="{action}"' in body and "Bankers of the final" in body
    banker = User.objects.get(username="banker")
    response = client.post(action, {"banker": banker.pk})
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.banker == banker
    client.force_login(banker)
    desk = client.get(reverse("banker:banker_tables")).content.decode()
    top = desk.split("banker-older")[0]
    assert reverse("banker:banker_table", kwargs={"table_pk": table.pk}) in top
