"""Render a Django template to PDF bytes with WeasyPrint.

The print stylesheet is a template (``printouts/print.css``) included inline by
``printouts/base.html``, so no static file has to be fetched while rendering; ``base_url``
is the project directory so a relative URL in a template still resolves offline.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse
from django.template.loader import render_to_string
from weasyprint import HTML

# Event.paper_size value -> the CSS @page size keyword.
PAGE_SIZES = {"A4": "A4", "letter": "letter"}


def page_size(event) -> str:
    return PAGE_SIZES.get(event.paper_size, "A4")


def render_pdf(template_name: str, context: dict, *, request=None) -> bytes:
    html = render_to_string(template_name, context, request=request)
    return HTML(string=html, base_url=str(settings.BASE_DIR)).write_pdf()


def pdf_response(pdf: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response
