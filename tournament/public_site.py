"""What the public site shows of an event, as the officials' pages below it may ask.

The release switches belong to the spectator app, which tournament and scoring must not
import (docs/architecture.md). The page names and which of them a round's publishing or
posting opens are decided here, so the officials' messages and the spectator app's
receivers (spectator/apps.py) agree; spectator hands down, at start-up, how to read an
event's switches (``public_site_register``).

The default a new organizer gets: pages follow publishing and posting. Publishing a
round's tables opens the event home and the tables; posting a round opens its results,
the standings, and the final and winner pages (each says "nothing posted yet" until there
is something to show). An organizer who holds the public site releases each page by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from django.contrib import messages
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from tournament.formats import event_has_final
from tournament.models import Event, Round
from tournament.roles import MANAGE

# The public pages, in the order the organizer's page lists them.
HOME, TABLES, RESULTS, STANDINGS, FINAL, WINNER = (
    "home",
    "tables",
    "results",
    "standings",
    "final",
    "winner",
)
PAGES = (HOME, TABLES, RESULTS, STANDINGS, FINAL, WINNER)
FINAL_KINDS = (Round.Kind.SEMIFINAL, Round.Kind.FINAL)


def pages_on_publish(*, round_: Round) -> tuple[str, ...]:
    """The pages a round's published tables appear on: the event home (its schedule and
    the hall's clock link them) and the tables; a semifinal or final also on its page."""
    if round_.kind in FINAL_KINDS:
        return (HOME, TABLES, FINAL)
    return (HOME, TABLES)


def pages_on_post(*, round_: Round) -> tuple[str, ...]:
    """The pages a posted round's scores appear on. The winner page waits, saying so, until
    the winner is decided (the final posted, or the last round and any tie for first)."""
    pages: tuple[str, ...] = (HOME, RESULTS, STANDINGS)
    if round_.kind in FINAL_KINDS or event_has_final(event=round_.event):
        pages += (FINAL,)
    return (*pages, WINNER)


@dataclass(frozen=True)
class PublicSite:
    """An event's public site: whether it is held, which pages are released, their names."""

    held: bool = False
    released: frozenset[str] = frozenset()
    # The page names as the organizer's page calls them, for the messages.
    labels: dict[str, str] = field(default_factory=dict)

    def waiting(self, pages: tuple[str, ...]) -> tuple[str, ...]:
        """Those of ``pages`` the public cannot see yet."""
        return tuple(page for page in pages if page not in self.released)

    def label(self, page: str) -> str:
        return self.labels.get(page, page)


_sources: list[Callable[[int], PublicSite]] = []


def public_site_register(source: Callable[[int], PublicSite]) -> None:
    """Tell the officials' pages where to read an event's release switches."""
    _sources[:] = [source]


def public_site(*, event_pk: int) -> PublicSite:
    """The event's public site now; without the spectator app nothing is public."""
    return _sources[0](event_pk) if _sources else PublicSite()


def say_public(
    request: HttpRequest,
    *,
    event: Event,
    pages: tuple[str, ...],
    public: str,
    waiting: str,
    params: Mapping[str, object],
    back: str,
) -> None:
    """The message after an action that shows something on ``pages``, true as it is sent.

    ``public`` (formatted with ``params``) is said when every page is released; otherwise
    a warning, ``waiting`` (which also takes the unreleased pages' names as ``%(pages)s``)
    and whether the site is held, and an organizer gets the button that releases them (a
    POST that comes back to ``back``, with its own undo).
    """
    site = public_site(event_pk=event.pk)
    missing = site.waiting(pages)
    if not missing:
        messages.success(request, public % params)
        return
    text = waiting % {**params, "pages": ", ".join(site.label(page) for page in missing)}
    if site.held:
        held = _("The public site is held: the organizer releases its pages.")
        text = f"{text} {held}"
    button = _("Release to the public")
    messages.warning(
        request,
        release_button(request, event=event, text=text, pages=missing, back=back, button=button),
    )


def release_button(
    request: HttpRequest,
    *,
    event: Event,
    text: str,
    pages: tuple[str, ...],
    back: str,
    button: str,
    released: bool = True,
    primary: bool = True,
) -> SafeString:
    """``text`` and one ``button`` that releases (or, ``released`` False, withdraws)
    ``pages`` and comes back to ``back``, for an organizer (an undo is a secondary button,
    ``primary`` False); anyone else is told who may.
    The answer is HTML, ``text`` escaped in it; messages keep it safe through their
    storage, so base.html shows the form.
    """
    return render_to_string(
        "tournament/_public_release.html",
        {
            "text": text,
            "event": event,
            "pages": pages,
            "back": back,
            "released": released,
            "button": button,
            "primary": primary,
            "may_release": request.user.has_perm(MANAGE),
        },
        request=request,
    )


def say_published(request: HttpRequest, *, round_: Round, back: str) -> None:
    """The message after publishing ``round_``'s tables (the seating page's button)."""
    say_public(
        request,
        event=round_.event,
        pages=pages_on_publish(round_=round_),
        public=_("Round %(number)s's tables are public."),
        waiting=_("Round %(number)s's tables are published; not public yet: %(pages)s."),
        params={"number": round_.number},
        back=back,
    )
