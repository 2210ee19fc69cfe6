"""Every form of the project, fuzzed: whatever a user types, the answer is never a 5xx.

``FUZZED`` names every route that reads a POST, with the fields its form takes; hypothesis
fills them with text (unicode, control characters, huge strings), numbers out of range,
wrong types, repeated and missing fields and stray JSON bodies, and posts them as a user
with the role the view asks for (``required_permission``), or anonymously for public
pages. ``test_every_post_route_is_fuzzed`` walks the URL conf, so a new POST view fails
until it is listed here. Each example runs in a savepoint that is rolled back, so every
post meets the same tournament (``fuzz_world``).

`make test` posts 12 examples a form (it stays under five minutes on two cores); CI's
PostgreSQL pass posts 25 (.ci/run). Run more locally with FUZZ_EXAMPLES=200 FUZZ_RANDOM=1.
"""

from __future__ import annotations

import inspect
import json
import os
import traceback
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.resilience.fuzz_specs import FUZZED, Spec, json_values, texts, value_of
from tests.resilience.fuzz_world import World

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "12"))
FUZZ_SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    derandomize=os.environ.get("FUZZ_RANDOM") != "1",
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


# Routes that take POST only because they do not restrict the method: they answer it like
# a GET and read nothing posted (checked below by reading their source).
ANSWERED_LIKE_GET = {
    "tournament:home",
    "series:detail",
    "seating:seating_search",
    "series:people",
    "tournament:signed_in",
    "players:register_done",
    "players:player_export",
    "players:player_list",
    "players:check_in",
    "seating:seating",
    "clock:clock_control",
    "banker:banker_table",
    "scoring:results_round",
    "scoring:results_table",
    "scoring:results_csv",
    "scoring:standings",
    "scoring:standings_csv",
    "printouts:index",
    "printouts:jobs",
    "printouts:job",
    "printouts:job_download",
    "printouts:blank_score_sheet",
    "printouts:round_score_sheets",
    "printouts:table_score_sheets",
    "printouts:assignments_organizer",
    "printouts:assignments_public",
    "printouts:event_registration",
    "printouts:participant_registration",
    "printouts:winner_notification",
    "printouts:table_cards",
    "printouts:poster",
}


def _project_module(module: str) -> bool:
    top = module.split(".")[0]
    return (ROOT / top).is_dir() and top not in ("tests",)


def project_routes():
    """(qualified name, callback) of every named route served by the project's own code."""

    def walk(resolver, namespace):
        for entry in resolver.url_patterns:
            if isinstance(entry, URLResolver):
                inner = namespace
                if entry.namespace:
                    inner = f"{namespace}:{entry.namespace}" if namespace else entry.namespace
                yield from walk(entry, inner)
            elif isinstance(entry, URLPattern) and entry.name:
                name = f"{namespace}:{entry.name}" if namespace else entry.name
                yield name, entry

    for name, entry in walk(get_resolver(), ""):
        callback = entry.callback
        view_class = getattr(callback, "view_class", None)
        module = (view_class or callback).__module__
        if _project_module(module):
            yield name, entry


def _innermost(view):
    while hasattr(view, "__wrapped__"):
        view = view.__wrapped__
    return view


def allowed_methods(view) -> set[str] | None:
    """The methods a view accepts: from ``require_http_methods`` or a class view; None = all."""
    view_class = getattr(view, "view_class", None)
    if view_class is not None:
        return {m.upper() for m in view_class.http_method_names if hasattr(view_class, m)}
    seen = set()
    todo = [view]
    while todo:
        func = todo.pop()
        if id(func) in seen or not callable(func):
            continue
        seen.add(id(func))
        code = getattr(func, "__code__", None)
        cells = getattr(func, "__closure__", None) or ()
        if code is not None:
            for name, cell in zip(code.co_freevars, cells, strict=False):
                try:
                    content = cell.cell_contents
                except ValueError:
                    continue
                if name == "request_method_list":
                    return {m.upper() for m in content}
                if callable(content):
                    todo.append(content)
        if hasattr(func, "__wrapped__"):
            todo.append(func.__wrapped__)
    return None


def test_every_post_route_is_fuzzed():
    """A route that accepts POST is fuzzed here or listed as answering POST like GET."""
    accepting = set()
    for name, entry in project_routes():
        methods = allowed_methods(entry.callback)
        if methods is None or "POST" in methods:
            accepting.add(name)
    fuzzed = {name for name in FUZZED if name not in ("set_language",)}
    assert accepting - fuzzed - ANSWERED_LIKE_GET == set(), "POST routes nobody fuzzes"
    assert (fuzzed | ANSWERED_LIKE_GET) - accepting == set(), "listed but no such POST route"
    # The "like GET" ones really read nothing posted.
    for name, entry in project_routes():
        if name in ANSWERED_LIKE_GET:
            source = inspect.getsource(_innermost(entry.callback))
            for marker in ("request.POST", "request.FILES", "request.body", "request.method"):
                assert marker not in source, f"{name} reads {marker}: fuzz it"


# --- The fuzzing ----------------------------------------------------------------------------


def _url(name: str, world: World, spec: Spec) -> tuple[str, object]:
    entry = dict(project_routes()).get(name)
    known = {**world.url_kwargs(), **spec.kwargs(world)}
    if entry is None:  # Django's own routes (set_language)
        return reverse(name), None
    kwargs = {key: known[key] for key in entry.pattern.converters}
    return reverse(name, kwargs=kwargs), entry.callback


def _describe(response) -> str:
    exc_info = getattr(response, "exc_info", None)
    if exc_info:
        return "".join(traceback.format_exception(*exc_info))
    return response.content[:2000].decode(errors="replace")


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted(FUZZED))
def test_no_input_makes_a_form_fail_with_a_server_error(name, world, quiet):
    from django.core.cache import cache

    spec = FUZZED[name]
    url, callback = _url(name, world, spec)
    user = world.user_for(getattr(callback, "required_permission", None))
    client = Client(raise_request_exception=False)
    if user is not None:
        client.force_login(user)
    fields = spec.fields(world)
    # Anything in any field (each one missing, wrong, or sent twice)...
    wild = st.fixed_dictionaries(
        {}, optional={**{n: value_of(s) for n, s in fields.items()}, "zz-unknown": texts}
    )
    # ...or a whole form of the fields' own kinds with one or two of them spoiled, so
    # that the posts also get past the form into the services.
    spoiled = st.tuples(
        st.fixed_dictionaries(fields),
        st.dictionaries(st.sampled_from(sorted(fields) or ["zz-unknown"]), texts, max_size=2),
    ).map(lambda pair: {**pair[0], **pair[1]})
    bodies = st.one_of(
        wild.map(lambda data: ("form", data)),
        spoiled.map(lambda data: ("form", data)),
        spoiled.map(lambda data: ("form", data)),
        st.one_of(json_values, st.fixed_dictionaries({}, optional=fields)).map(
            lambda data: ("json", data)
        ),
    )
    headers = st.fixed_dictionaries(
        {},
        optional={
            "HTTP_ACCEPT": st.sampled_from(["application/json", "text/html", "*/*"]),
            "HTTP_HX_REQUEST": st.just("true"),
        },
    )
    examples = spec.examples or EXAMPLES

    @settings(FUZZ_SETTINGS, max_examples=examples)
    @given(body=bodies, extra=headers)
    def post(body, extra):
        kind, data = body
        cache.clear()
        with transaction.atomic():
            if kind == "json":
                content = json.dumps(data, default=repr)
                response = client.post(url, content, content_type="application/json", **extra)
            else:
                for value in data.values():
                    if isinstance(value, SimpleUploadedFile):
                        value.seek(0)
                response = client.post(url, data, **extra)
            transaction.set_rollback(True)
        assert response.status_code < 500, f"{name} answered {response.status_code}:\n" + (
            _describe(response)
        )

    post()
