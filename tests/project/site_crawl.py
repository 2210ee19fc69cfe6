"""A crawl of the site as one person sees it: every same-site link on every page reached.

Used by test_role_crawl.py on the demo. From a few start pages the crawl follows each link
a page shows (``<a href>``, a GET form's action, an htmx ``hx-get``), and records:

- every link that does not open for the person it is shown to: 403, 404, any other 4xx or
  5xx, or a signed-in person sent to log in, as "page -> link: what";
- every page whose HTML still holds template syntax (``{#``, ``#}``, ``{%``, ``%}``, ``{{``,
  ``}}``) in its text or attributes, as "page: snippet". Scripts and styles are left out,
  and so are attributes holding JSON (a JSON object may end in ``}}``).

Forms that post (``method="post"``, ``hx-post``, ``formaction``) are not sent, since
sending them would change the demo. Their route is checked instead: it must exist, and the
permission its view's access decorator checks (``required_permission``) must be the
person's, worked out here from the decorators' marks, not asked of the app's own helper.

What keeps it short: a page kind (a route and its query's keys) is fetched at most a few
times per event, and only for the first few events reached (the start pages name the demo
day's three events, so those are the ones). A link beyond that bound is still checked by
its route, as forms that post are.
"""

from __future__ import annotations

import json
import re
from collections import Counter, deque
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urljoin, urlsplit

from django.test import Client
from django.urls import Resolver404, ResolverMatch, resolve, reverse

from tournament.models import Table
from tournament.roles import BANK, JUDGE_PERMISSION

HOST = "testserver"
# Not pages of the site: static files, the admin (staff only), Django's language switch
# (posts) and its login redirects' targets, which are public.
SKIP_PREFIXES = ("/static/", "/admin/", "/i18n/")
RAW = re.compile(r"\{#|#\}|\{%|%\}|\{\{|\}\}")
# A page kind is fetched this many times per event (or per series), for this many events.
VARIANTS = 3
SCOPES = 3


class _Page(HTMLParser):
    """The links and forms of one page, and any template syntax left in it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.gets: list[str] = []
        self.hx_gets: list[str] = []
        self.posts: list[str] = []
        self.raw: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag in ("script", "style"):
            self._hidden += 1
        if tag == "a" and "href" in values:
            self.gets.append(values["href"])
        if tag == "form":
            method = values.get("method", "get").lower()
            (self.posts if method == "post" else self.gets).append(values.get("action", ""))
        if "hx-get" in values:
            self.hx_gets.append(values["hx-get"])
        for name in ("hx-post", "formaction"):
            if values.get(name):
                self.posts.append(values[name])
        for name, value in values.items():
            if RAW.search(value) and not _json(value):
                self.raw.append(f"<{tag} {name}={value!r}>")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self._hidden:
            self._hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            for match in RAW.finditer(data):
                snippet = data[max(match.start() - 60, 0) : match.end() + 60]
                self.raw.append(" ".join(snippet.split()))


def _json(value: str) -> bool:
    try:
        json.loads(value)
    except ValueError:
        return False
    return True


@dataclass
class Visitor:
    """Who crawls: a signed-in user, an anonymous visitor, or a tablet holding a table
    card's link (``table``: the table it opens)."""

    name: str
    client: Client
    user: Any
    table: int | None = None


@dataclass
class Crawl:
    fetched: Counter = field(default_factory=Counter)
    link_problems: list[str] = field(default_factory=list)
    raw_text: list[str] = field(default_factory=list)


def _same_site(base: str, link: str) -> str | None:
    """The path (and query) of a same-site link, or None for anything else."""
    if link.startswith(("mailto:", "tel:", "javascript:", "#")):
        return None
    url = urlsplit(urljoin(f"http://{HOST}{base}", link))
    if url.netloc != HOST or url.path.startswith(SKIP_PREFIXES):
        return None
    return url.path + (f"?{url.query}" if url.query else "")


def _match(path: str) -> ResolverMatch | None:
    try:
        return resolve(urlsplit(path).path)
    except Resolver404:
        return None


def route_opens(visitor: Visitor, match: ResolverMatch) -> bool:
    """Whether the view at ``match`` lets ``visitor`` in, from its access decorator's marks
    (tournament/access.py): the same rules tests/project/test_security.py walks."""
    view = match.func
    user = visitor.user
    if getattr(view, "table_scoped", False):
        table = Table.objects.filter(pk=match.kwargs.get("table_pk")).first()
        if table is None:
            return False
        if visitor.table == table.pk:
            return True
        return user.is_authenticated and (
            user.has_perm(JUDGE_PERMISSION) or (user.has_perm(BANK) and table.banker_id == user.pk)
        )
    permission = getattr(view, "required_permission", None)
    if permission:
        return user.has_perm(permission)
    # login_required marks its view with login_url; a visitor without a login is refused.
    return user.is_authenticated or not hasattr(view, "login_url")


def _kind(match: ResolverMatch, path: str) -> tuple[tuple, Any]:
    """A page kind (its route, its query's keys, htmx or not) and its scope (the event or
    series it belongs to, None for pages of no event)."""
    query = urlsplit(path.removeprefix("hx:")).query
    keys = tuple(sorted({part.split("=")[0] for part in query.split("&") if part}))
    family = "series" if match.view_name.startswith("series:") else "event"
    scope = (family, match.kwargs["pk"]) if "pk" in match.kwargs else None
    return (match.view_name, keys, path.startswith("hx:")), scope


class _Crawler:
    def __init__(self, visitor: Visitor) -> None:
        self.visitor = visitor
        self.result = Crawl()
        self.queue: deque[tuple[str, str]] = deque()
        # What each address answered: None when it opened, else what went wrong; a second
        # page showing a broken link is reported too.
        self.outcome: dict[str, str | None] = {}
        self.scopes: list[Any] = []
        self.login = reverse("login")

    def run(self, starts: list[str]) -> Crawl:
        for start in starts:
            self.queue.append(("(start)", start))
        while self.queue:
            source, path = self.queue.popleft()
            if path not in self.outcome:
                self.outcome[path] = self._visit(source, path)
            if self.outcome[path]:
                self.result.link_problems.append(f"{source} -> {path}: {self.outcome[path]}")
        return self.result

    def _within_bound(self, kind: tuple, scope: Any) -> bool:
        if scope is not None and scope not in self.scopes:
            if len([s for s in self.scopes if s[0] == scope[0]]) >= SCOPES:
                return False
            self.scopes.append(scope)
        self.result.fetched[(kind, scope)] += 1
        return self.result.fetched[(kind, scope)] <= VARIANTS

    def _visit(self, source: str, path: str) -> str | None:
        """Fetch ``path`` (or check its route, beyond the bound): None, or what is wrong."""
        match = _match(path.removeprefix("hx:"))
        if match is None:
            return "404, no such page"
        kind, scope = _kind(match, path)
        if not self._within_bound(kind, scope):
            return None if route_opens(self.visitor, match) else "refused by its view's access"
        if path.startswith("hx:"):
            response = self.visitor.client.get(path[3:], HTTP_HX_REQUEST="true")
        else:
            response = self.visitor.client.get(path)
        return self._answer(source, path, response)

    def _answer(self, source: str, path: str, response) -> str | None:
        status = response.status_code
        if status in (301, 302, 303, 307, 308):
            target = _same_site(path, response["Location"])
            if target is not None and target.startswith(self.login + "?"):
                if self.visitor.user.is_authenticated:
                    return f"{status}, sent to log in"
                return None if source == "(start)" else f"{status}, a login is asked"
            if target is not None:
                self.queue.append((source, target))
            return None
        if status >= 400:
            return str(status)
        if "text/html" in response.get("Content-Type", ""):
            self._read(path.removeprefix("hx:"), response.content.decode())
        return None

    def _read(self, path: str, html: str) -> None:
        page = _Page()
        page.feed(html)
        self.result.raw_text += [f"{path}: {snippet}" for snippet in page.raw]
        for links, prefix in ((page.gets, ""), (page.hx_gets, "hx:")):
            for link in links:
                target = _same_site(path, link)
                if target is not None:
                    self.queue.append((path, prefix + target))
        for action in page.posts:
            target = _same_site(path, action) if action else None
            if target is None:
                continue
            match = _match(target)
            if match is None or not route_opens(self.visitor, match):
                what = "404, no such route" if match is None else "refused by its view's access"
                self.result.link_problems.append(f"{path} -> POST {target}: {what}")


def crawl(visitor: Visitor, starts: list[str]) -> Crawl:
    """Crawl the site as ``visitor`` from ``starts``."""
    return _Crawler(visitor).run(starts)
