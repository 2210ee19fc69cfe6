"""The poster follows the kit's advertising rules (Tournament Kit, Advertising & Promotion).

"The first or most prominent use of the word MONOPOLY on a document, a page, or digital
file must always be followed by a ®" (the extraction lost the mark: "followed by a.").
"Any use of the word MONOPOLY, or picture of the game board or its components (together or
separate) must include the following:" the notice below, quoted from the kit (its "©" lost
in the extraction too). "All advertising and promotional material you prepare must conform
to the guidelines in this kit and must be submitted to Hasbro Games for approval at least
four weeks prior to production."
"""

from __future__ import annotations

import re

from django.urls import reverse

from tests.printouts.pdf_helpers import *  # noqa: F403 (the fixtures)
from tests.printouts.pdf_helpers import pdf_pages, squash

KIT_NOTICE = (
    "The MONOPOLY name and logo, the distinctive design of the game board, the four corner "
    "squares, the MR. MONOPOLY name and character, as well as each of the distinctive "
    "elements on the board and the playing pieces are trademarks of Hasbro, Inc. for its "
    "property trading game and game equipment. 2002 Hasbro, Inc. All rights reserved. Used "
    "with permission."
)


def test_the_poster_marks_monopoly_and_carries_the_kits_notice(organizer_client, event):
    event.name = "Spring MONOPOLY Championship"
    event.save(update_fields=["name"])
    response = organizer_client.get(reverse("printouts:poster", kwargs={"pk": event.pk}))
    assert response.status_code == 200
    [page] = pdf_pages(response.content)
    text = squash(page)
    # The first MONOPOLY (the heading above the title) and the title's, the most prominent.
    uses = [m.end() for m in re.finditer(r"MONOPOLY", text)]
    assert text[uses[0]] == "®"
    assert "Spring MONOPOLY® Championship" in text
    assert squash(KIT_NOTICE) in text.replace("© ", "").replace("©", "")


def test_the_printouts_page_reminds_the_organizer_of_the_approval(organizer_client, event):
    page = organizer_client.get(reverse("printouts:index", kwargs={"pk": event.pk}))
    body = " ".join(page.content.decode().split())
    assert "submitted to Hasbro Games for approval at least four weeks prior to production" in body
