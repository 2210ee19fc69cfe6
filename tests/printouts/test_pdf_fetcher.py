"""WeasyPrint reads nothing but the project's static files and data: URIs (printouts/pdf.py).

A refused URL must not stop the printout: WeasyPrint logs any fetcher error other than a
FatalURLFetchingError as a warning and renders on without the resource (its documentation,
"URL Fetchers"), so these tests render documents that ask for forbidden things and check both
that the PDF comes out and that nothing was read.
"""

from __future__ import annotations

import socket
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from django.conf import settings
from weasyprint.urls import URLFetcher

from printouts.pdf import BASE_URL, RefusedURL, Renderer, StaticFetcher
from tests.printouts.pdf_helpers import pdf_pages, squash

STATIC = BASE_URL + settings.STATIC_URL.lstrip("/")
PRINT_CSS = Path(settings.BASE_DIR) / "static" / "printouts" / "print.css"
QR_PIXEL = (
    "data:image/svg+xml;base64,"
    "PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHdpZHRoPSIxIiBoZWlnaHQ9IjEiLz4="
)


@pytest.fixture
def no_network(monkeypatch):
    """Any connection attempt fails the test, and every URL the fetcher hands on is kept."""

    def refuse(*args, **kwargs):
        raise AssertionError(f"a printout tried to connect: {args}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    passed_on: list[str] = []
    original = URLFetcher.fetch

    def fetch(self, url, headers=None):
        passed_on.append(url)
        return original(self, url, headers)

    monkeypatch.setattr(URLFetcher, "fetch", fetch)
    return passed_on


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "http://example.com/x.png",
        "https://example.com/x.css",
        "ftp://example.com/x.css",
        BASE_URL + "etc/passwd",
        STATIC + "../config/settings.py",
        STATIC + "printouts/../../config/settings.py",
        STATIC + "%2e%2e/config/settings.py",
        STATIC + "/etc/passwd",
        STATIC + "printouts/print.css?x=1",
        STATIC + "printouts/no-such-file.css",
        "https://printouts.boardwalk.invalid.example.com/static/printouts/print.css",
    ],
)
def test_fetcher_refuses_files_hosts_and_ways_out_of_static(url, no_network):
    with pytest.raises(RefusedURL):
        StaticFetcher().fetch(url)
    assert no_network == []


def test_fetcher_serves_our_static_files_and_data_uris(no_network):
    fetcher = StaticFetcher()
    assert fetcher.fetch(STATIC + "printouts/print.css").read() == PRINT_CSS.read_bytes()
    assert fetcher.fetch(QR_PIXEL).read().startswith(b"<svg")
    assert no_network == [QR_PIXEL]  # only the data: URI goes on to WeasyPrint's fetcher


def test_forbidden_resources_are_left_out_and_the_printout_still_renders(no_network, caplog):
    html = f"""
    <style>@import url(http://example.com/evil.css); @import url(file:///etc/passwd);</style>
    <link rel="stylesheet" href="//example.com/other.css">
    <p>Still printed</p>
    <img src="file:///etc/passwd">
    <img src="http://example.com/x.png">
    <img src="../../../../etc/hostname">
    <img src="{QR_PIXEL}">
    """
    pdf = Renderer(size="A4").document(html, footer="").write_pdf()
    assert "Still printed" in squash(pdf_pages(pdf)[0])
    assert no_network == [QR_PIXEL]
    refused = " ".join(record.getMessage() for record in caplog.records)
    for url in ("example.com/evil.css", "/etc/passwd", "example.com/x.png", "/etc/hostname"):
        assert url in refused


def test_our_static_stylesheet_loads_through_the_fetcher(no_network):
    """print.css makes a table card's number 96 pt; without it the text would be 12 pt."""
    pdf = Renderer(size="A4").document('<p class="card-number">7</p>', footer="").write_pdf()
    text = pdfium.PdfDocument(pdf)[0].get_textpage()
    (index,) = [i for i in range(text.count_chars()) if text.get_text_range(i, 1) == "7"]
    _, bottom, _, top = text.get_charbox(index)
    assert top - bottom > 50  # a 96-pt digit is about 70 pt tall
    assert no_network == []  # read from the static folder, not fetched over any network
