"""The score sheet as a body and stamps (printouts/stamps.py).

The body (``printouts/score_sheet_body.html``) is the blank sheet every page shares: title,
grid, title deeds, every printed amount, bill rows, labels. Its ``data-slot`` elements mark
where a page's own content goes; ``measure`` reads where each one's text would sit, and the
style its text has there. ``sheet_stamps`` then turns one SheetPage into stamps at those
targets: the header fields, the footer, and on a filled sheet its marks, amounts, bill counts,
totals, initials, approval and bankruptcy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from weasyprint.formatting_structure import boxes

from printouts.sheets import SheetPage
from printouts.stamps import LayoutError, Point, Stamp, anchor_point, element_boxes
from tournament.money import money as money_text

if TYPE_CHECKING:
    from weasyprint import Document

# Text slots anchored at their right edge (amounts) or left edge (initials, notes).
LEFT_SLOTS = ("signature-", "approval")
GENERIC_FAMILIES = {"serif", "sans-serif", "monospace", "cursive", "fantasy", "system-ui"}


@dataclass
class SheetLayout:
    """The body of one PDF's score sheets, laid out once, and where its slots are."""

    document: Document  # of one page
    targets: dict[str, Point] = field(default_factory=dict)
    classes: dict[str, str] = field(default_factory=dict)  # slot -> its stamps' class
    cells: dict[str, tuple[Point, str]] = field(default_factory=dict)  # top-left, size class
    css: list[str] = field(default_factory=list)  # the generated classes

    def target(self, slot: str) -> Point:
        try:
            return self.targets[slot]
        except KeyError:
            raise LayoutError(f"the score sheet body has no slot {slot!r}") from None

    @property
    def styles(self) -> str:
        return "\n".join(self.css)


def _declarations(box, *, width: float, wrap: bool) -> str:
    """CSS giving a stamp the font, colour, alignment and width its slot's text has."""
    style = box.style
    families = ", ".join(
        name if name in GENERIC_FAMILIES else f'"{name}"' for name in style["font_family"]
    )
    color = style["color"]
    r, g, b = color.to("srgb").coordinates
    parts = [
        f"font-family: {families}",
        f"font-size: {style['font_size']:.4f}px",
        f"font-weight: {style['font_weight']}",
        f"font-style: {style['font_style']}",
        f"color: rgb({r * 100:.3f}% {g * 100:.3f}% {b * 100:.3f}% / {color.alpha})",
        "text-align: " + ("right" if style["text_align_all"] in ("right", "end") else "left"),
        f"width: {width:.4f}px",
        "white-space: " + ("normal" if wrap else "nowrap"),
    ]
    line_height = style["line_height"]
    if line_height != "normal":
        parts.append(f"line-height: {line_height.value}{line_height.unit or ''}")
    return "; ".join(parts)


def _class(layout: SheetLayout, declarations: str) -> str:
    rule = f"{{ {declarations} }}"
    for index, existing in enumerate(layout.css):
        if existing.endswith(rule):
            return f"k{index}"
    layout.css.append(f".k{len(layout.css)} {rule}")
    return f"k{len(layout.css) - 1}"


def measure(document) -> SheetLayout:
    """Where each slot of a one-page body puts its text, and the class that matches it."""
    if len(document.pages) != 1:
        raise LayoutError(f"the score sheet body takes {len(document.pages)} pages, not 1")
    page = document.pages[0]
    layout = SheetLayout(document=document)
    for name, box in element_boxes(page, "data-slot").items():
        if isinstance(box, boxes.TableBox):  # the totals: a bankrupt row goes under them
            bottom = box.border_box_y() + box.border_height()
            layout.targets[name] = (box.border_box_x(), bottom)
            layout.classes[name] = _class(layout, f"width: {box.border_width():.4f}px")
            continue
        left = name.startswith(LEFT_SLOTS)
        last = name == "header"
        layout.targets[name] = anchor_point(box, "left" if left else "right", last_line=last)
        if name == "header":
            layout.classes[name] = "header-fields"  # the stamp takes the slot's own class
        else:
            wrap = name == "approval"
            layout.classes[name] = _class(layout, _declarations(box, width=box.width, wrap=wrap))
        if name.startswith("cell-"):
            size = f"width: {box.padding_width():.4f}px; height: {box.padding_height():.4f}px"
            layout.cells[name] = (
                (box.padding_box_x(), box.padding_box_y()),
                _class(layout, size),
            )
    footer = next(
        (b for b in page._page_box.children if getattr(b, "at_keyword", "") == "@bottom-right"),
        None,
    )
    if footer is None:
        raise LayoutError("the score sheet body has no footer probe")
    layout.targets["footer"] = anchor_point(footer, "right")
    # As wide as the page: right-aligned text wider than its box would start at its left.
    width = page._page_box.width
    layout.classes["footer"] = _class(layout, _declarations(footer, width=width, wrap=False))
    return layout


def sheet_stamps(sheet: SheetPage, layout: SheetLayout, *, event, footer: str) -> list:
    """(stamp, target) pairs that make ``sheet``'s page out of the body."""
    placed: list[tuple[Stamp, Point]] = []

    def text(slot: str, html: str, *, anchor="right", last_line=False, line=True) -> None:
        style = layout.classes[slot]
        stamp = Stamp(html, style, anchor=anchor, last_line=last_line, line=line)
        placed.append((stamp, layout.target(slot)))

    header = render_to_string("printouts/_header_fields.html", {"sheet": sheet, "event": event})
    text("header", mark_safe(header.strip()), last_line=True, line=False)
    text("footer", escape(footer))
    money = partial(money_text, edition=sheet.edition)
    for row in sheet.rows:
        for index, cell in enumerate(row.cells):
            if cell.marked and cell.value is not None:
                slot = f"cell-{row.deed.position}-{index}"
                corner, size = layout.cells[slot]
                placed.append((Stamp("", f"mark-cell {size}", anchor="box"), corner))
                x = format_html('<b>X</b> <span class="ghost">{}</span>', money(cell.value))
                text(slot, x, line=False)
        if row.value is not None:
            text(f"value-{row.deed.position}", escape(money(row.value)))
    for bill in sheet.bills:
        if bill.count is not None:
            text(f"count-{bill.denomination}", escape(str(bill.count)))
            text(f"cash-{bill.denomination}", escape(money(bill.value or 0)))
    for slot, amount in (
        ("total-property", sheet.total_property),
        ("total-cash", sheet.total_cash),
        ("grand-total", sheet.grand_total),
    ):
        if amount is not None:
            text(slot, escape(money(amount)))
    for slot, initials in (
        ("signature-player", sheet.signature),
        ("signature-banker", sheet.banker_signature),
    ):
        if initials:
            text(slot, escape(initials), anchor="left")
    if sheet.bankrupt:
        bankrupt_row = format_html(
            '<table class="totals"><tbody><tr><th>{}</th><td class="num">{}</td></tr>'
            "</tbody></table>",
            _("Bankrupt"),
            _("yes"),
        )
        stamp = Stamp(bankrupt_row, layout.classes["totals"], anchor="box")
        placed.append((stamp, layout.target("totals")))
    if sheet.extras.get("approved"):
        when = date_format(timezone.localtime(sheet.extras["approved"]), "DATETIME_FORMAT")
        note = _("Approved by %(name)s on %(when)s.") % {
            "name": sheet.extras["approved_by"],
            "when": when,
        }
        text("approval", escape(note), anchor="left", line=False)  # may wrap
    return placed
