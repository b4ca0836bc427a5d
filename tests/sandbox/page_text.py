"""The demo's page read back into the text transcript's lines, with the standard library's
HTML parser: what a page says, to compare with what the text transcript says."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

MARKS = {"strong": "**", "code": "`", "em": "*", "u": "__", "s": "~~"}
"""Discord's markdown for what the page draws with these tags."""


class PageText(HTMLParser):
    """Reads a page written in ``folder``: :attr:`lines` are the text transcript's lines
    (its messages framed, members' actions, headings); :attr:`sources` every image's
    file; :attr:`buttons` each button's label and whether it is disabled."""

    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.folder = folder
        self.lines: list[str] = []
        self.sources: list[Path] = []
        self.buttons: list[tuple[str, bool]] = []
        self.stack: list[tuple[str, str]] = []
        """The open elements: tag and class."""
        self.message: dict[str, str] = {}
        self.body: list[str] = []
        self.rows: list[list[str]] = []
        self.text: list[str] = []
        self.edge = ""
        self.control: tuple[str, bool] | None = None

    def classes(self) -> list[str]:
        return [c for _, c in self.stack]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        got = {k: v or "" for k, v in attrs}
        kind = got.get("class", "")
        if tag not in ("br", "img", "hr"):
            self.stack.append((tag, kind))
        if tag == "article":
            self.message, self.body, self.rows = {}, [], []
        elif tag == "section" and kind == "card":
            accent = got.get("style", "").removeprefix("--accent:")
            self.body.append(f"╭─ card · {'accent ' + accent if accent else 'no accent'}")
            self.edge = "┃ "
        elif kind == "text":
            self.text = []
        elif tag == "hr":
            self.body.append(f"{self.edge}{'─' * 20}")
        elif tag == "br":
            self.text.append("\n")
        elif tag == "blockquote":
            self.text.append("> " if not self.text or self.text[-1].endswith("\n") else "\n> ")
        elif tag in MARKS and "text" in self.classes():
            self.text.append(MARKS[tag])
        elif tag == "img":
            self.image(got)
        elif kind == "row":
            self.rows.append([])
        elif tag == "button" or kind.startswith("select"):
            disabled = "disabled" in got or "disabled" in kind
            self.control = ("" if tag == "button" else "select", disabled)
            self.rows[-1].append("")

    def image(self, got: dict[str, str]) -> None:
        source = self.folder / got["src"]
        self.sources.append(source)
        if "emoji" in got.get("class", ""):
            self.text.append(got["alt"])
            return
        self.body.append(f"{self.edge}🖼 {got['data-name']} ({source})")
        if self.classes()[-1] == "picture":
            first, *rest = (got["alt"] or "no alt text").splitlines()
            self.body.append(f"{self.edge}   alt: {first}")
            self.body.extend(f"{self.edge}        {line}" for line in rest)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("br", "img", "hr"):
            return
        _, kind = self.stack.pop()
        if tag in MARKS and "text" in self.classes():
            self.text.append(MARKS[tag])
        elif tag == "blockquote":
            self.text.append("\n")
        elif kind == "text":
            written = "".join(self.text).rstrip("\n")
            self.body.extend(f"{self.edge}{line}" for line in written.splitlines())
            self.text = []
        elif tag == "section":
            self.body.append("╰─")
            self.edge = ""
        elif tag == "button" or kind.startswith("select"):
            self.control = None
        elif tag == "article":
            self.frame()

    def handle_data(self, data: str) -> None:
        classes = self.classes()
        if "text" in classes:
            self.text.append(data)
        elif self.control is not None:
            self.data_of_control(data)
        elif "said" in classes:
            self.lines.append(data)
        elif classes and classes[-1] == "heading":
            self.lines += ["", f"===== {data} ====="]
        elif classes and classes[-1] in ("author", "meta", "only", "edited", "used"):
            self.message[classes[-1]] = self.message.get(classes[-1], "") + data
        elif classes and classes[-1] == "" and "used" in classes:
            self.message["used"] = self.message.get("used", "") + data

    def data_of_control(self, data: str) -> None:
        assert self.control is not None
        kind, disabled = self.control
        if kind == "select" and data == "▾":
            return
        label = f"[{data}]" if kind == "" else f"[{data} ▾]"
        self.rows[-1][-1] = f"~~{label}~~" if disabled else label
        if kind == "":
            self.buttons.append((data, disabled))

    def frame(self) -> None:
        """The message read, as the text transcript frames it."""
        got = self.message
        meta = got.get("meta", "")
        parts = [got["author"] + (" · " + meta if meta.startswith("message") else "")]
        if meta and not meta.startswith("message"):
            parts.append(meta)
        if "edited" in got:
            parts.append("edited")
        if "used" in got:
            who, command = got["used"].removeprefix("↱ ").split(" used ")
            parts.append(f"answers {who}'s {command}")
        if "only" in got:
            parts.append(f"only {got['only'].rpartition(' · ')[2]} sees it")
        self.lines += ["", f"┌ {' · '.join(parts)}"]
        rows = ["  ".join(row) for row in self.rows]
        self.lines += [f"│ {line}".rstrip() for line in self.body + rows]


def page_text(page: Path) -> PageText:
    """The page at ``page``, read."""
    reader = PageText(page.parent)
    reader.feed(page.read_text(encoding="utf-8"))
    reader.close()
    return reader
