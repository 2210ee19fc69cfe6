"""The red team's single-request probes (deploy/redteam.py), and the database's verdict on
the races of deploy/redteam_cases.py."""

from __future__ import annotations

import http.client
import re
import ssl
import time
import uuid
from urllib.parse import urlsplit

import smoke
from machine import HOST
from redteam_cases import Site, key, result


def csv_header(site: Site, *, trials: int) -> dict:
    """A 70,000-column CSV header pasted into the registration import."""
    org = site.browser("rt-org1")
    url = f"/organizer/events/{site.ids['twice']}/players/import/"
    fields = smoke.page_form(org.get(url), url)
    header = ",".join(f"column{n}" for n in range(70_000))
    fields["text"] = [header + "\nAda,Lovelace\n"]
    began = time.monotonic()
    answer = org.post(url, fields)
    took = time.monotonic() - began
    refused = "200 columns" in answer.text or "columns" in answer.text
    observed = {"status": answer.status, "seconds": round(took, 2), "refused_on_page": refused}
    observed["bytes_sent"] = len(header)
    return result(
        "CSV import: a 70,000-column header",
        "the form comes back (200) saying the header has too many columns (at most 200), "
        "in well under a second of server time; nothing imported, no 500",
        observed,
        answer.status == 200 and refused and took < 5,
    )


def heartbeats(site: Site, *, trials: int) -> dict:
    """Heartbeats for a table from anyone but its tablet: the table card's link not opened,
    a judge signed in; the tablet that opened the link is the control."""
    table = site.ids["clock"]["table"]
    beat = f"/bank/tables/{table}/heartbeat/"
    form = {"device": "red-team", "queued": "0"}
    stranger = site.browser()
    anonymous = stranger.post(beat, {**form, "csrfmiddlewaretoken": stranger.token()})
    judge = site.browser("rt-judge")
    judged = judge.post(beat, {**form, "csrfmiddlewaretoken": judge.token()})
    org = site.browser("rt-org1")
    link_page = f"/organizer/tables/{table}/banker-link/"
    fields = smoke.page_form(org.get(link_page), f"{link_page}issue/")
    issued = org.post(f"{link_page}issue/", fields)
    link = re.search(r"/bank/k/[^/\"<\s]+/", org.get(link_page).text)
    tablet = site.browser()
    opened = tablet.get(link[0]) if link else None
    own = tablet.post(beat, {**form, "csrfmiddlewaretoken": tablet.token(f"/bank/tables/{table}/")})
    observed = {
        "no_link_opened": [anonymous.status, anonymous.location],
        "judge_signed_in": [judged.status, judged.text[:120]],
        "link_issued": issued.status,
        "tablet_opened_link": opened.status if opened else None,
        "own_tablet": own.status,
    }
    ok = anonymous.status == 302 and "/accounts/login/" in anonymous.location
    ok = ok and judged.status == 403 and own.status == 200
    return result(
        "Heartbeats without the tablet",
        "without the link opened: sent to sign in (302); a judge: 403 'Only the table's own "
        "tablet'; the tablet that opened the link: 200 (one heartbeat recorded in all)",
        observed,
        ok,
    )


def logout_cache(site: Site, *, trials: int) -> dict:
    """Sign out, then the banker's pages again (the back button, a cache)."""
    table = site.ids["clock"]["table"]
    banker = site.browser("rt-banker")
    pages = [f"/bank/tables/{table}/", "/bank/", f"/bank/tables/{table}/sheet/"]
    before = {p: banker.get(p) for p in pages}
    caching = {p: a.headers.get("Cache-Control", "") for p, a in before.items()}
    out = banker.post("/accounts/logout/", {"csrfmiddlewaretoken": banker.token("/bank/")})
    after = {p: banker.get(p) for p in pages}
    observed = {
        "before": {p: a.status for p, a in before.items()},
        "cache_control": caching,
        "logout": [out.status, out.headers.get("Clear-Site-Data", "")],
        "after": {p: [a.status, urlsplit(a.location).path] for p, a in after.items()},
    }
    ok = all("no-store" in c for c in caching.values())
    ok = ok and "storage" in out.headers.get("Clear-Site-Data", "")
    ok = ok and all(a.status == 302 and "/accounts/login/" in a.location for a in after.values())
    return result(
        "Sign out, then the cached banker pages",
        "the pages were sent no-store; sign-out answers Clear-Site-Data cache and storage; "
        "afterwards every banker page sends to sign in (302), none served from a cache",
        observed,
        ok,
    )


def eject_next(site: Site, *, trials: int) -> dict:
    """The eject page's Cancel with ?next= pointing off the site."""
    event = site.ids["twice"]
    judge = site.browser("rt-judge")
    players = f"/organizer/events/{event}/players/"
    pk = site.ids["eject_player"]
    found = {}
    for evil in ("https://evil.example/", "//evil.example/", "/\\evil.example/"):
        page = judge.get(f"{players}{pk}/eject/?next={evil}")
        found[evil] = [page.status, "evil.example" in page.text]
    return result(
        "Eject page Cancel with ?next=https://evil",
        "the page (200) never links off the site: Cancel goes back to the check-in desk",
        found,
        all(status == 200 and not leaked for status, leaked in found.values()),
    )


def nginx_upload(site: Site, *, trials: int) -> dict:
    """A 1.5 MB registration import uploaded as a file through nginx."""
    org = site.browser("rt-org1")
    url = f"/organizer/events/{site.ids['twice']}/players/import/"
    token = org.token(url)
    row = "Ann,Lee,1990-01-01,ann@example.org," + "x" * 700 + "\n"
    text = "first_name,last_name,date_of_birth,email,notes\n" + row * 2000
    body, boundary = multipart(token, text.encode())
    parts = urlsplit(site.base)
    conn = http.client.HTTPSConnection(
        parts.hostname, parts.port, context=ssl._create_unverified_context(), timeout=60
    )
    headers = {
        "Host": HOST,
        "Content-Type": f"multipart/form-data; boundary={boundary}",
        "Cookie": "; ".join(f"{k}={v}" for k, v in org.cookies.items()),
        "Origin": f"https://{HOST}",
        "Referer": f"https://{HOST}{url}",
    }
    conn.request("POST", url, body=body, headers=headers)
    response = conn.getresponse()
    page = response.read().decode("utf-8", "replace")
    conn.close()
    site.seen("POST", url, response.status)
    location = response.getheader("Location", "")
    # Accepted, Boardwalk sends to the import's page; refused, it says why on its own page.
    target = urlsplit(location)
    target = target.path + (f"?{target.query}" if target.query else "")
    landed = org.get(target) if location else None
    shown = landed.text if landed else page
    boardwalk = "<title>413" not in page and 'class="site' in shown
    observed = {
        "bytes": len(body),
        "status": response.status,
        "location": target,
        "then": landed.status if landed else None,
        "boardwalk_page": boardwalk,
        "says": re.findall(r'<li class="message[^"]*"[^>]*>(.*?)</li>', shown, re.S)[:2],
    }
    # The import runs in the background worker; what its page says a moment later.
    time.sleep(3)
    later = org.get(target).text if location else ""
    main = later.split("<main", 1)[-1].split("<h1", 1)[-1].split("<form", 1)[0]
    text = re.sub(r"\s+", " ", re.sub(r"<script.*?</script>|<[^>]+>", " ", main, flags=re.S))
    observed["page_then"] = text.strip()[:400]
    return result(
        "nginx: a 1.5 MB import file",
        "through nginx to Boardwalk (its limit is 2 MB; nginx takes 5 MB): Boardwalk's own "
        "answer, never nginx's bare 413, no 500",
        observed,
        response.status in (200, 302) and boardwalk,
    )


def multipart(token: str, data: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    lines = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="csrfmiddlewaretoken"\r\n\r\n'
        f"{token}\r\n",
        f'--{boundary}\r\nContent-Disposition: form-data; name="idempotency_key"\r\n\r\n'
        f"{key()}\r\n",
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\n'
        "Content-Type: text/csv\r\n\r\n",
    ]
    body = "".join(lines).encode() + data + f"\r\n--{boundary}--\r\n".encode()
    return body, boundary


CASES = [csv_header, heartbeats, logout_cache, eject_next, nginx_upload]


# --- The verdict of the database and of the logs ----------------------------------------------


def judged_by_facts(site: Site, facts: dict) -> list[dict]:
    adds = [s for s in facts["adjustments"] if s > 0]
    removes = [s for s in facts["adjustments"] if s < 0]
    clock = facts["clock"]
    alternates = facts["alternates"]
    return [
        result(
            "Database: the alternates after the races",
            "positions 1..n with no gap or repeat, no one withdrawn holding a position",
            {k: facts[k] for k in ("alternates", "alternates_withdrawn", "alternates_round_1")}
            | {"withdrawn_with_position": facts["alternates_withdrawn_holding_a_position"]},
            alternates == list(range(1, len(alternates) + 1))
            and facts["alternates_withdrawn_holding_a_position"] == 0,
        ),
        result(
            "Database: the clock after the races",
            "two additions of 300 s (one per page drawn), removals never below zero: time up, "
            "0 s left",
            {"adjustments": facts["adjustments"], "clock": clock},
            adds == [300, 300]
            and len(removes) >= 1
            and clock["remaining_s"] == 0
            and clock["elapsed_s"] >= clock["allotted_s"] >= 0,
        ),
        result(
            "Database: the knockouts' round 1",
            "seated once at the plan's 6 tables (26 players), published and started",
            {k: facts[f"{k}_round_1"] for k in ("seat_race", "confirm_race")},
            all(
                facts[k]["round_1_tables"] == 6
                and facts[k]["round_1_started"]
                and facts[k]["bracket_confirmed"]
                for k in ("seat_race_round_1", "confirm_race_round_1")
            ),
        ),
        result(
            "Database: the same key twice, the 1.5 MB import",
            "the alternate withdrawn once, those behind closed up (1..n)",
            facts["twice"] | {"players_in_the_event": facts["players_in_import_event"]},
            facts["twice"]["status"] == "withdrawn"
            and facts["twice"]["positions"] == list(range(1, len(facts["twice"]["positions"]) + 1)),
        ),
        result(
            "Database: heartbeats",
            "one heartbeat for the table: the tablet's own",
            {"heartbeats": facts["heartbeats"]},
            facts["heartbeats"] == 1,
        ),
    ]


def no_server_errors(errors: dict) -> dict:
    return result(
        "No 500s: nginx's access log, gunicorn's logs, every answer seen",
        "no 5xx anywhere, no traceback in the logs",
        errors,
        errors["nginx_5xx"] == 0
        and errors["gunicorn_tracebacks"] == 0
        and not errors["client_5xx"],
    )
