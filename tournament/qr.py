"""QR codes drawn inline on a page: a table card's private link, the public site's address."""

from __future__ import annotations

import segno
from django.utils.safestring import SafeString, mark_safe


def qr_svg(url: str, *, scale: int = 5) -> SafeString:
    """``url`` as an inline SVG QR code (error correction M, a two-module quiet zone).

    segno writes the SVG itself and the URL goes in only as modules, never as text, so it
    can go into a page as it is.
    """
    return mark_safe(segno.make(url, error="m").svg_inline(scale=scale, border=2))
