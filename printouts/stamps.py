"""PDF pages composed from WeasyPrint drawings: a body drawn once, and stamps.

WeasyPrint spends its time per box and per line, not per page of output. A batch of score
sheets repeats the same grid on every page, and the few things that differ (a header, a
footer, marks and amounts) repeat a lot too. So each distinct piece is laid out and drawn by
WeasyPrint once, and every page is assembled from those drawings:

- the *body*, a page of its own, whose content stream every composed page shares;
- *stamps*: small elements laid out together on *palette* pages (same page size and
  fonts), each drawn in its own stacking context so its drawing is one self-contained
  ``q ... Q`` group in the palette's content stream. A stamp is placed on a page by
  translating that group so its anchor (a line's baseline at its right or left edge, or its
  box's top-left corner) lands on the target measured in the body. One-line stamps of plain
  text (amounts, counts, footers) share an element with others of their style, one a line,
  which WeasyPrint lays out for a fraction of an element's cost; their group is then cut
  into its lines, each drawn as ``BT``, its ``Tm`` and the glyphs of that line, ``ET``.

Nothing is drawn by hand: every glyph, rule and fill comes from WeasyPrint's own drawing of
the same CSS, so a composed page is the page one layout would have printed. Palette pages
and the body page are painted (which embeds their fonts in the document's shared
resources) and then left out of the page tree.

This reads WeasyPrint's laid-out boxes and its drawing operators, which are not public API;
``weasyprint`` is pinned to the tested major version and tests/printouts/test_pdfs.py checks the
result page by page.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import pydyf
from django.template.loader import render_to_string
from weasyprint.formatting_structure import boxes

from printouts.pdf import Renderer

Point = tuple[float, float]


class LayoutError(RuntimeError):
    """A body or palette did not lay out as composition needs."""


@dataclass(frozen=True)
class Stamp:
    """A piece of HTML drawn once per PDF and placed on any number of pages.

    ``anchor``: "right" or "left" (that edge of the element's content box, at the baseline
    of its first line, or its last with ``last_line``), or "box" (its border box's top-left).
    """

    html: str
    style: str
    anchor: str = "right"
    last_line: bool = False
    line: bool = False  # one line of plain text, laid out with others of its style


@dataclass
class Entry:
    """One element of a palette: a stamp, or one-line stamps of one style, one a line."""

    ids: list[int]
    style: str
    lines: bool = False


LINES_PER_ENTRY = 30  # an entry stays on one palette page (break-inside: avoid)
# One-line stamps share an element only if every character is one a text font draws (none
# of the emoji a colour font paints as an image, which is not text to cut into lines).
PLAIN_BELOW = 0x2500


def _plain(html: str) -> bool:
    return "<" not in html and all(ord(char) < PLAIN_BELOW for char in html)


@dataclass
class Composed:
    """One page of the PDF: its base (the shared body, or a page of its own) and stamps."""

    stamps: list[tuple[int, Point]] = field(default_factory=list)
    page: object | None = None  # a weasyprint Page drawn under the stamps; None: the body


# --- measuring laid-out boxes --------------------------------------------------------------


def element_boxes(page, attribute: str) -> dict[str, boxes.Box]:
    """The first box of each element carrying ``attribute``, by its value."""
    found: dict[str, boxes.Box] = {}
    for box in page._page_box.descendants():
        element = getattr(box, "element", None)
        value = element.get(attribute) if element is not None else None
        if value and not getattr(box, "is_table_wrapper", False) and value not in found:
            found[value] = box
    return found


def anchor_point(box, anchor: str, *, last_line: bool = False, edges=None) -> Point:
    """Where ``box`` puts its anchor: see Stamp. ``edges``: the box whose content edge
    counts, when ``box`` is one line of it."""
    if anchor == "box":
        return box.border_box_x(), box.border_box_y()
    texts = [b for b in box.descendants() if isinstance(b, boxes.TextBox)]
    if not texts:
        raise LayoutError(f"{box!r} has no line to anchor on")
    text = texts[-1] if last_line else texts[0]
    edges = edges or box
    x = edges.content_box_x() + (edges.width if anchor == "right" else 0)
    return x, text.position_y + text.baseline


# --- the palette -----------------------------------------------------------------------------


class Palette:
    """The stamps of one PDF: added while pages are planned, then laid out in batches."""

    def __init__(self, renderer: Renderer, *, styles: str = "") -> None:
        self.renderer = renderer
        # The stamps' own classes (sizes and fonts measured in the body), parsed once.
        self.stylesheets = (renderer.css(styles),) if styles else ()
        self.stamps: list[Stamp] = []
        self._ids: dict[Stamp, int] = {}
        self.anchors: dict[int, Point] = {}
        self.documents: list = []
        self.page_entries: list[list[Entry]] = []  # per palette page, its elements in order
        self._laid_out = 0

    def add(self, stamp: Stamp) -> int:
        if stamp not in self._ids:
            self._ids[stamp] = len(self.stamps)
            self.stamps.append(stamp)
        return self._ids[stamp]

    def _entries(self, new: range) -> list[Entry]:
        entries: list[Entry] = []
        lines: dict[str, Entry] = {}
        for index in new:
            stamp = self.stamps[index]
            if not (stamp.line and _plain(stamp.html)):
                entries.append(Entry([index], stamp.style))
                continue
            entry = lines.get(stamp.style)
            if entry is None or len(entry.ids) == LINES_PER_ENTRY:
                entry = lines[stamp.style] = Entry([], stamp.style, lines=True)
                entries.append(entry)
            entry.ids.append(index)
        return entries

    def lay_out(self) -> None:
        """Lay out the stamps added since the last call, as one more document."""
        new = range(self._laid_out, len(self.stamps))
        if not new:
            return
        self._laid_out = len(self.stamps)
        entries = self._entries(new)
        html = render_to_string(
            "printouts/palette.html",
            {
                "entries": [
                    (number, entry, [self.stamps[index].html for index in entry.ids])
                    for number, entry in enumerate(entries)
                ],
                "page_size": self.renderer.size,
            },
        )
        document = self.renderer.document(html, footer=None, stylesheets=self.stylesheets)
        placed = 0
        for page in document.pages:
            found = element_boxes(page, "data-entry")
            numbers = sorted(int(value) for value in found)
            for number in numbers:
                self._measure(entries[number], found[str(number)])
            self.page_entries.append([entries[number] for number in numbers])
            placed += len(numbers)
        if placed != len(entries):
            raise LayoutError(f"{len(entries) - placed} palette elements were not laid out")
        self.documents.append(document)

    def _measure(self, entry: Entry, box) -> None:
        if not entry.lines:
            stamp = self.stamps[entry.ids[0]]
            self.anchors[entry.ids[0]] = anchor_point(box, stamp.anchor, last_line=stamp.last_line)
            return
        lines = [b for b in box.descendants() if isinstance(b, boxes.LineBox)]
        if len(lines) != len(entry.ids):
            raise LayoutError(f"{len(entry.ids)} one-line stamps took {len(lines)} lines")
        for index, line in zip(entry.ids, lines, strict=True):
            self.anchors[index] = anchor_point(line, self.stamps[index].anchor, edges=box)

    @property
    def pages(self) -> list:
        return [page for document in self.documents for page in document.pages]


# --- drawing operators -------------------------------------------------------------------------


def _tree(ops: Iterable[bytes]) -> list:
    """Operators nested by their q ... Q groups."""
    root: list = []
    stack = [root]
    for op in ops:
        if op == b"q":
            group: list = []
            stack[-1].append(group)
            stack.append(group)
        elif op == b"Q":
            stack.pop()
        else:
            stack[-1].append(op)
    return root


def _flat(node: list) -> list[bytes]:
    ops = []
    for item in node:
        if isinstance(item, list):
            ops += [b"q", *_flat(item), b"Q"]
        else:
            ops.append(item)
    return ops


def stamp_groups(ops: list[bytes], count: int) -> tuple[list[bytes], list[list[bytes]]]:
    """A palette page's drawing split into its ``count`` stamps, and the page transform
    (the ``cm`` operators every stamp is drawn under)."""
    if not count:
        return [], []
    node = _tree(ops)
    prefix: list[bytes] = []
    while True:
        groups = [item for item in node if isinstance(item, list)]
        loose = [item for item in node if not isinstance(item, list)]
        if not loose and len(groups) == count:
            return prefix, [_flat(group) for group in groups]
        if len(groups) != 1 or any(not op.endswith(b" cm") for op in loose):
            raise LayoutError(f"a palette page does not draw {count} separate stamps")
        prefix += loose
        node = groups[0]


def line_segments(ops: list[bytes], count: int) -> list[list[bytes]]:
    """An entry of one-line stamps cut into its lines, each a text object of its own.

    WeasyPrint draws plain lines of one style as one text object: the colour and alpha, then
    ``BT``, for each line its ``Tm`` and glyphs (``Tf`` when the font changes), ``ET``. Each
    line keeps the colour and the font in force where it starts.
    """
    state: list[bytes] = []
    segments: list[list[bytes]] = []
    font, inside = None, False
    for op in ops:
        if op in (b"q", b"Q"):
            continue
        if op in (b"BT", b"ET"):
            inside = op == b"BT"
        elif not inside and not segments and op.endswith((b" gs", b" rg", b" g")):
            state.append(op)
        elif inside and op.endswith(b" Tm"):
            segments.append([font] if font else [])
            segments[-1].append(op)
        elif inside and segments and op.endswith((b" Tf", b" TJ", b" Tj")):
            font = op if op.endswith(b" Tf") else font
            segments[-1].append(op)
        else:
            raise LayoutError(f"unexpected {op[:40]!r} among one-line stamps")
    if len(segments) != count:
        raise LayoutError(f"{count} one-line stamps drew {len(segments)} lines")
    return [[*state, b"BT", *segment, b"ET"] for segment in segments]


def _contents(pdf: pydyf.PDF, page: pydyf.Dictionary) -> pydyf.Stream:
    return pdf.objects[int(page["Contents"].split()[0])]


def _operators(stream: pydyf.Stream) -> list[bytes]:
    return [op if isinstance(op, bytes) else str(op).encode() for op in stream.stream]


def compose(*, body, pages: list[Composed], palette: Palette) -> bytes:
    """The PDF of ``pages``, each its base and its stamps.

    On the body the stamps are drawn first, so a marked cell's fill lies under the body's
    rules and printed amounts; on a page of its own they go on top.
    """
    if not palette.documents:
        raise LayoutError("a composed PDF needs its stamps laid out first")
    own = [page.page for page in pages if page.page is not None]
    drawn = ([body] if body is not None else []) + own + palette.pages
    combined = palette.documents[0].copy(drawn)

    def finish(_document, pdf: pydyf.PDF) -> None:
        kids = pdf.pages["Kids"]
        dicts = [pdf.objects[number] for number in kids[::3]]
        body_dict = dicts.pop(0) if body is not None else None
        own_dicts = dicts[: len(own)]
        drawings: dict[int, list[bytes]] = {}
        prefix: list[bytes] = []
        for page_dict, entries in zip(dicts[len(own) :], palette.page_entries, strict=True):
            stream = _contents(pdf, page_dict)
            transform, groups = stamp_groups(_operators(stream), len(entries))
            prefix = transform or prefix  # the same on every palette page: the page's size
            for entry, group in zip(entries, groups, strict=True):
                if entry.lines:
                    lines = line_segments(group, len(entry.ids))
                    drawings.update(zip(entry.ids, lines, strict=True))
                else:
                    drawings[entry.ids[0]] = group
            stream.stream = []  # the palette page itself is not printed
        # A page of its own leaves its coordinate flip in force: q ... Q contains it.
        save, restore = pydyf.Stream([b"q"]), pydyf.Stream([b"Q"])
        pdf.add_object(save)
        pdf.add_object(restore)
        del kids[:]
        own_iter = iter(own_dicts)
        for page in pages:
            layer = pydyf.Stream(_layer(prefix, page.stamps, palette, drawings), compress=True)
            pdf.add_object(layer)
            if page.page is not None:
                base = next(own_iter)
                contents = [save.reference, base["Contents"], restore.reference, layer.reference]
                base["Contents"] = pydyf.Array(contents)
                kids.extend([base.number, 0, "R"])
                continue
            # A page without a base of its own is drawn on the body.
            assert body_dict is not None
            new = pydyf.Dictionary(
                {key: value for key, value in body_dict.items() if key != "Contents"}
            )
            new["Contents"] = pydyf.Array([layer.reference, body_dict["Contents"]])
            pdf.add_object(new)
            kids.extend([new.number, 0, "R"])
        pdf.pages["Count"] = len(pages)

    return combined.write_pdf(finisher=finish)


def _layer(prefix, placed, palette: Palette, drawings) -> list[bytes]:
    """One page's stamps: each group moved from its palette anchor to its target."""
    ops = [b"q", *prefix]
    for index, (x, y) in placed:
        anchor_x, anchor_y = palette.anchors[index]
        ops += [b"q", f"1 0 0 1 {x - anchor_x:.4f} {y - anchor_y:.4f} cm".encode()]
        ops += drawings[index]
        ops.append(b"Q")
    ops.append(b"Q")
    return ops
