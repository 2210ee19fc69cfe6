"""The public site's pages and the htmx fragments they poll, plus the organizer's switches.

Every public view goes through ``versioning.cached_public_response``: the page is rendered
at most once per public version (and language), and a phone that already has it gets a
304. Pages render with ``render_to_string`` *without* the request, so nothing personal
(the signed-in user, a CSRF token, messages) can end up in a copy shared by everyone.
Each page is the same fragment the page polls, wrapped in the site's frame; a page the
organizer has not released renders, politely, that nothing is posted yet (200, not 404),
and starts showing once released, without a reload.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.gzip import GZipMiddleware
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from players.services import registration_is_open
from spectator import following, paging, selectors
from spectator.forms import ReleaseForm
from spectator.models import PAGES, PublicRelease
from spectator.services import release_set
from spectator.versioning import (
    PAGE_TIMEOUT_S,
    cached_public_response,
    cached_value,
    public_version,
)
from tournament.access import organizer_required
from tournament.lookups import event_or_404
from tournament.models import Event, Round
from tournament.public_site import release_button
from tournament.requests import AuthenticatedHttpRequest


def _screen(request: HttpRequest) -> bool:
    """?screen=1: the projector's large type."""
    return request.GET.get("screen") == "1"


# Public pages are gzipped for browsers that accept it: a round's results for 2,000 players
# are 600 KiB of HTML and some 20 KiB gzipped. BREACH needs a secret in a compressed page
# that also reflects what an attacker sends; these pages are rendered without the request
# (no CSRF token, no user, nothing typed), and Django adds its random padding anyway.
_gzip = GZipMiddleware(get_response=lambda request: HttpResponse())


def _respond(
    request: HttpRequest,
    *,
    pk: int,
    page: str,
    args: tuple = (),
    live: bool,
    context: Callable[[selectors.PublicEvent, selectors.Release], dict],
    live_url: str,
) -> HttpResponse:
    """The page (``live`` False) or its polled fragment (``live`` True), cached."""
    screen = _screen(request) and not live

    def build() -> str:
        try:
            event = selectors.public_event(pk=pk)
            release = selectors.release_for(event_pk=pk)
            data = context(event, release)
        except (Event.DoesNotExist, Round.DoesNotExist) as exc:
            raise Http404(_("Nothing here.")) from exc
        values = {
            "event": event,
            "release": release,
            "page": page,
            "screen": screen,
            "live_url": live_url,
            # How often the page asks for its fragment again; mostly a 304.
            "poll": f"every {settings.BOARDWALK_LIVE_POLL_SECONDS}s",
            "fragment": f"spectator/_{page}.html",
            **data,
        }
        template = f"spectator/_{page}.html" if live else f"spectator/{page}.html"
        return render_to_string(template, values)

    response = cached_public_response(
        request,
        event_pk=pk,
        page=f"{page}:live" if live else page,
        args=(*args, screen),
        render=build,
    )
    # GZipMiddleware hands back the response it was given, compressed when worth it.
    return cast(HttpResponse, _gzip.process_response(request, response))


def _live(name: str, **kwargs) -> str:
    return reverse(f"spectator:{name}_live", kwargs=kwargs)


# --- The event home ----------------------------------------------------------------------


def _registration_open(pk: int) -> bool:
    """Whether self-registration is open now: the window is cached per public version, so
    the page's cache key follows the clock without a query per request."""

    def window():
        return (
            Event.objects.filter(pk=pk)
            .values("date", "start_time", "registration_opens", "registration_closes")
            .first()
        )

    key = f"spectator:registration:{pk}:{public_version(event_pk=pk)}"
    facts = cache.get_or_set(key, window, timeout=600)
    if facts is None:
        raise Http404(_("Nothing here."))
    return registration_is_open(event=Event(**facts))


# How many places of the standings the event home shows under the winner.
HOME_STANDINGS = 8


def _home_context(event, release) -> dict:
    """What the event home shows, and in which order: before the day, when and where;
    during it, the clock and the round being played; after it, the winner and the
    standings (``stage``: "before", "during" or "after")."""
    schedule = selectors.schedule(event_pk=event.pk, release=release) if release.home else None
    winner = selectors.winner(event_pk=event.pk, release=release)
    stages = selectors.final_stages(event_pk=event.pk, release=release)
    # After the day: the final's places where a final was played, else the standings.
    final = stages[-1] if winner and stages and stages[-1].results else None
    standings = (
        selectors.standings(event_pk=event.pk, release=release) if winner and not final else None
    )
    if winner is not None:
        stage = "after"
    elif schedule is not None and schedule.current_round is not None:
        stage = "during"
    else:
        stage = "before"
    return {
        "schedule": schedule,
        "final_seated": bool(stages),
        "has_winner": winner is not None,
        "winner": winner,
        "final": final,
        "top_standings": standings.rows[:HOME_STANDINGS] if standings else (),
        "stage": stage,
    }


def _home(request: HttpRequest, pk: int, *, live: bool) -> HttpResponse:
    registration_open = _registration_open(pk)

    def context(event, release) -> dict:
        return {
            **_home_context(event, release),
            "registration_open": registration_open,
            # The few words clock.js writes itself, in the page's language.
            "clock_labels": {"next": _("Next: %s")},
        }

    return _respond(
        request,
        pk=pk,
        page="home",
        args=(registration_open,),
        live=live,
        context=context,
        live_url=_live("home", pk=pk),
    )


@require_safe
def event_home(request: HttpRequest, pk: int) -> HttpResponse:
    """The event's practical details and registration, and once released the day itself:
    schedule, the round and wave being played, the clock and links to released pages."""
    return _home(request, pk, live=False)


@require_safe
def event_home_live(request: HttpRequest, pk: int) -> HttpResponse:
    return _home(request, pk, live=True)


# --- Tables, results, standings, final, winner ---------------------------------------------


def _listed(pk: int, name: str, build: Callable[[], object]):
    """A long page's whole list (the standings, a round's tables or results), cached per
    public version and language like the pages: rendering a page of it and finding an
    alias read it, not the database. An unknown event or round is a 404."""
    key = f"spectator:list:{pk}:{name}:{public_version(event_pk=pk)}:{get_language()}"
    try:
        return cache.get_or_set(key, build, timeout=PAGE_TIMEOUT_S)
    except (Event.DoesNotExist, Round.DoesNotExist) as exc:
        raise Http404(_("Nothing here.")) from exc


def _paged(
    request: HttpRequest,
    *,
    pk: int,
    page: str,
    load: Callable[[], Any],
    items_of: Callable[[Any], paging.Items],
    context: Callable[[Any, paging.Pager], dict],
    args: tuple = (),
    live: bool,
    anchor: str,
    size: int,
    page_url: str,
    live_url: str,
) -> HttpResponse:
    """A page of a long list (``load``: the whole, cached; ``items_of``: its labels and
    aliases) or its polled fragment. ``?find=`` goes to the page and the item (``anchor``)
    holding the alias typed; what was typed is never in the page, so it cannot fill the
    cache. A poll reads only the list's length (also cached), never the whole list."""
    count_key = f"spectator:count:{pk}:{page}:{args}:{public_version(event_pk=pk)}"
    total = cached_value(count_key, lambda: len(items_of(load())), timeout=PAGE_TIMEOUT_S)
    number = min(paging.page_number(request.GET.get("page")), max(-(-total // size), 1))
    typed = "" if live else request.GET.get("find", "").strip()
    if typed:
        items = items_of(load())
        index = paging.find(groups=[aliases for _label, aliases in items], typed=typed)
        if index is not None:
            found = index // size + 1
            query = f"?page={found}" if found > 1 else ""
            return redirect(f"{page_url}{query}#{anchor.format(items[index][0])}")

    def values(event, release) -> dict:
        whole = load()
        labels = [label for label, _aliases in items_of(whole)]
        pager = paging.paginate(labels=labels, size=size, number=number)
        return {
            **context(whole, pager),
            "pager": pager,
            "page_url": page_url,
            "not_found": bool(typed),
        }

    return _respond(
        request,
        pk=pk,
        page=page,
        args=(*args, number, bool(typed)),
        live=live,
        context=values,
        live_url=f"{live_url}?page={number}" if number > 1 else live_url,
    )


def _round_page(
    request: HttpRequest, pk: int, number: int, *, page: str, live: bool
) -> HttpResponse:
    """A page of one round's tables or results (a page of tables at a time), or its
    polled fragment."""
    tables_page = page == "tables"
    build = selectors.round_tables if tables_page else selectors.round_results

    def context(whole, pager: paging.Pager) -> dict:
        if tables_page:
            part = paging.tables_part(whole, pager)
        else:
            part = whole and whole[pager.start : pager.stop]
        return {"number": number, page: part, "listing": "tables"}

    return _paged(
        request,
        pk=pk,
        page=page,
        load=lambda: _listed(
            pk,
            f"{page}:{number}",
            lambda: build(event_pk=pk, number=number, release=selectors.release_for(event_pk=pk)),
        ),
        items_of=paging.tables_items if tables_page else paging.results_items,
        context=context,
        args=(number,),
        live=live,
        anchor="table-{}" if tables_page else "results-table-{}",
        size=paging.TABLES_PAGE,
        page_url=reverse(f"spectator:{page}", kwargs={"pk": pk, "number": number}),
        live_url=_live(page, pk=pk, number=number),
    )


@require_safe
def tables(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Who plays where in round ``number``, by alias, a page of tables at a time."""
    return _round_page(request, pk, number, page="tables", live=False)


@require_safe
def tables_live(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    return _round_page(request, pk, number, page="tables", live=True)


@require_safe
def results(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A posted round's places and points, a page of tables at a time."""
    return _round_page(request, pk, number, page="results", live=False)


@require_safe
def results_live(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    return _round_page(request, pk, number, page="results", live=True)


def _standings(request: HttpRequest, pk: int, *, live: bool) -> HttpResponse:
    """The standings from the top, a hundred places a page, or the polled fragment."""

    def rows(whole) -> tuple:
        return whole.rows if whole else ()

    return _paged(
        request,
        pk=pk,
        page="standings",
        load=lambda: _listed(
            pk,
            "standings",
            lambda: selectors.standings(event_pk=pk, release=selectors.release_for(event_pk=pk)),
        ),
        items_of=lambda whole: [
            (position, (row.alias,)) for position, row in enumerate(rows(whole), start=1)
        ],
        context=lambda whole, pager: {
            "standings": whole,
            "rows": rows(whole)[pager.start : pager.stop],
            "listing": "places",
        },
        live=live,
        anchor="standing-{}",
        size=paging.STANDINGS_PAGE,
        page_url=reverse("spectator:standings", kwargs={"pk": pk}),
        live_url=_live("standings", pk=pk),
    )


@require_safe
def standings(request: HttpRequest, pk: int) -> HttpResponse:
    """Posted rounds ranked, the top first, a page of places at a time."""
    return _standings(request, pk, live=False)


@require_safe
def standings_live(request: HttpRequest, pk: int) -> HttpResponse:
    return _standings(request, pk, live=True)


def _simple(page: str, build: Callable) -> tuple[Callable, Callable]:
    """A page without arguments and its fragment."""

    def respond(request: HttpRequest, pk: int, *, live: bool) -> HttpResponse:
        return _respond(
            request,
            pk=pk,
            page=page,
            live=live,
            context=lambda event, release: build(event, release),
            live_url=_live(page, pk=pk),
        )

    @require_safe
    def view(request: HttpRequest, pk: int) -> HttpResponse:
        return respond(request, pk, live=False)

    @require_safe
    def live_view(request: HttpRequest, pk: int) -> HttpResponse:
        return respond(request, pk, live=True)

    view.__name__, live_view.__name__ = page, f"{page}_live"
    return view, live_view


final, final_live = _simple(
    "final",
    lambda event, release: {"stages": selectors.final_stages(event_pk=event.pk, release=release)},
)
winner, winner_live = _simple(
    "winner",
    lambda event, release: {"winner": selectors.winner(event_pk=event.pk, release=release)},
)


# --- Following one alias ----------------------------------------------------------------------


def _followable(pk: int) -> tuple[str, ...]:
    """The aliases one may follow, cached per public version like the pages."""
    key = f"spectator:aliases:{pk}:{public_version(event_pk=pk)}"
    return cached_value(
        key,
        lambda: following.followable_aliases(
            event_pk=pk, release=selectors.release_for(event_pk=pk)
        ),
        timeout=600,
    )


def _follow(request: HttpRequest, pk: int, *, live: bool) -> HttpResponse:
    typed = request.GET.get("alias", "").strip()
    # Only aliases already public are followed (and cached under their own key); anything
    # else is the chooser with a note, so made-up aliases cannot fill the cache.
    alias = typed if typed in _followable(pk) else ""
    unknown = bool(typed) and not alias

    def context(event, release) -> dict:
        followed = following.follow(event_pk=pk, alias=alias, release=release) if alias else None
        return {
            "alias": alias,
            "unknown": unknown,
            "aliases": following.followable_aliases(event_pk=pk, release=release),
            "followed": followed,
        }

    live_url = _live("follow", pk=pk)
    return _respond(
        request,
        pk=pk,
        page="follow",
        args=(alias, unknown),
        live=live,
        context=context,
        live_url=f"{live_url}?{urlencode({'alias': alias})}" if alias else live_url,
    )


@require_safe
def follow(request: HttpRequest, pk: int) -> HttpResponse:
    """Pick an alias, then see where it sits this round, its points and its place."""
    return _follow(request, pk, live=False)


@require_safe
def follow_live(request: HttpRequest, pk: int) -> HttpResponse:
    return _follow(request, pk, live=True)


# --- The organizer's switches ---------------------------------------------------------------


@organizer_required
def release(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Release (or withdraw) each public page, and hold the site or let it follow the day;
    the GET shows the switches, POST saves."""
    event = event_or_404(pk)
    instance = PublicRelease.objects.filter(event=event).first() or PublicRelease(event=event)
    form = ReleaseForm(request.POST or None, instance=instance)
    if request.method == "POST" and form.is_valid():
        release_set(
            event=event,
            pages={name: form.cleaned_data[name] for name in PAGES},
            by=request.user,
            held=form.cleaned_data["held"],
        )
        messages.success(request, _("The public pages are updated."))
        return redirect("spectator:release", pk=event.pk)
    return render(
        request,
        "spectator/organizer/release.html",
        {
            "event": event,
            "form": form,
            "held_field": form["held"],
            "page_fields": [form[name] for name in PAGES],
            "public_url": reverse("spectator:event_home", args=[pk]),
            "hall_url": reverse("spectator:hall_display", args=[pk]),
        },
    )


@organizer_required
@require_POST
def release_pages(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """One tap from a message: release (``released=1``) or withdraw (``0``) the named pages,
    then back to the page the message was on, with a message whose button undoes it."""
    event = event_or_404(pk)
    back = request.POST.get("back", "")
    # A page of this site only: a path, no control character that would break the header.
    if (
        not back.startswith("/")
        or any(ord(char) < 32 or ord(char) == 127 for char in back)
        or not url_has_allowed_host_and_scheme(
            back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        )
    ):
        back = reverse("spectator:release", kwargs={"pk": event.pk})
    released = request.POST.get("released", "1") == "1"
    named = [page for page in request.POST.getlist("pages") if page in PAGES]
    current = selectors.public_site(event.pk)
    # Only the pages this tap changes, so its undo puts back exactly what was there.
    changed = tuple(
        page for page in PAGES if page in named and (page in current.released) != released
    )
    if not changed:
        messages.info(request, _("Nothing to change: the public pages are as you asked."))
        return redirect(back)
    release_set(event=event, pages=dict.fromkeys(changed, released), by=request.user)
    names = ", ".join(current.label(page) for page in changed)
    text = (
        _("Released to the public: %(pages)s.")
        if released
        else _("Withdrawn from the public: %(pages)s.")
    ) % {"pages": names}
    messages.success(
        request,
        release_button(
            request,
            event=event,
            text=text,
            pages=changed,
            back=back,
            button=_("Undo"),
            released=not released,
            primary=False,
        ),
    )
    return redirect(back)
