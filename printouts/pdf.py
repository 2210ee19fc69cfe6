"""Render Django templates to PDF with WeasyPrint, reading nothing but our own files.

Every document is parsed with ``BASE_URL`` as its base, an origin that cannot resolve
(``.invalid`` is reserved), and fetched through ``StaticFetcher``: the only URLs it answers are
the project's static files under that origin and ``data:`` URIs (the QR codes). A name, an
address or a future template that says ``file:///etc/passwd``, ``http://host/x.png`` or
``@import url(//host/x.css)`` gets an error, which WeasyPrint logs as a warning and renders on
without the resource (its documented behaviour for any fetcher error short of
``FatalURLFetchingError``).
"""

from __future__ import annotations

import posixpath
from pathlib import Path
from urllib.parse import unquote, urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from weasyprint import CSS, HTML
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse

BASE_URL = "https://printouts.boardwalk.invalid/"
STYLESHEET = "printouts/print.css"  # under static/

# Event.paper_size value -> the CSS @page size keyword.
PAGE_SIZES = {"A4": "A4", "letter": "letter"}


class RefusedURL(ValueError):
    """A printout asked for something that is neither our static file nor a data: URI."""


class StaticFetcher(URLFetcher):
    def fetch(self, url: str, headers=None) -> URLFetcherResponse:
        if url.startswith("data:"):
            return super().fetch(url, headers)
        path = static_path(url)
        if path is None:
            raise RefusedURL(f"printouts fetch only their own static files, not {url[:200]}")
        return URLFetcherResponse(url, path.read_bytes())


def static_path(url: str) -> Path | None:
    """The file a ``BASE_URL`` static URL names, or None for any other URL."""
    prefix = BASE_URL + settings.STATIC_URL.lstrip("/")
    parts = urlsplit(url)
    if not url.startswith(prefix) or parts.query or parts.fragment:
        return None
    name = unquote(parts.path)[len(urlsplit(prefix).path) :]
    # finders.find joins safely too; refuse ".." and absolute names before asking it.
    if not name or name.startswith("/") or ".." in name.split("/"):
        return None
    if posixpath.normpath(name) != name:
        return None
    found = finders.find(name)
    return Path(found) if found else None


def page_size(event) -> str:
    return PAGE_SIZES.get(event.paper_size, "A4")


# page_css(footer=FOOTER_PROBE): an invisible footer, laid out only so a composed PDF can
# measure where each page's own footer goes (printouts/layers.py).
FOOTER_PROBE = "\0probe"


def page_css(*, size: str, footer: str | None) -> str:
    """The @page rule of one document: paper size, margins and the footer.

    ``footer`` None: no footer; a string: "<footer> · page / pages", or the bare numbers
    when it is empty; ``FOOTER_PROBE``: a hidden "0" where that footer would be.
    """
    if footer is None:
        content = ""
    elif footer == FOOTER_PROBE:
        content = 'content: "0"; visibility: hidden;'
    else:
        label = f'"{css_string(footer)} · " ' if footer else ""
        content = f'content: {label}counter(page) " / " counter(pages);'
    return (
        f"@page {{ size: {size}; margin: 12mm 12mm 14mm 12mm; "
        f"@bottom-right {{ {content} font-size: 7pt; color: #555; }} }}"
    )


def css_string(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


class Renderer:
    """One PDF's shared pieces: the fetcher, the fonts and the parsed stylesheets.

    The static stylesheet is parsed once here and handed to every HTML document of the PDF
    (a composed score sheet PDF lays out its body and its stamps separately).
    """

    def __init__(self, *, size: str) -> None:
        self.size = size
        self.fetcher = StaticFetcher()
        self.fonts = FontConfiguration()
        self.stylesheet = CSS(
            url=BASE_URL + settings.STATIC_URL.lstrip("/") + STYLESHEET,
            url_fetcher=self.fetcher,
            font_config=self.fonts,
        )

    def css(self, text: str) -> CSS:
        return CSS(string=text, url_fetcher=self.fetcher, font_config=self.fonts)

    def document(self, html: str, *, footer: str | None, stylesheets: tuple = ()):
        """Lay ``html`` out: a weasyprint Document, pages not yet written."""
        page = self.css(page_css(size=self.size, footer=footer))
        return HTML(string=html, base_url=BASE_URL, url_fetcher=self.fetcher).render(
            stylesheets=[self.stylesheet, page, *stylesheets], font_config=self.fonts
        )


def render_pdf(template_name: str, context: dict, *, request=None) -> bytes:
    """A printout laid out in one go: the forms, table lists, cards and the poster."""
    renderer = Renderer(size=context.get("page_size", "A4"))
    html = render_to_string(template_name, context, request=request)
    return renderer.document(html, footer=context.get("footer", "")).write_pdf()
