"""The demo's transcript as one page, drawn as Discord's dark theme draws a channel: the
bot's name over each message, a card as a rounded box edged in its accent, text in
Discord's markdown, images at the card's width, buttons and menus under it.

It draws what :class:`bot.sandbox.demo.Transcript` read (the same words as the text
transcript); everything a member or the bot wrote is escaped.
"""

from __future__ import annotations

import os
import re
from html import escape
from pathlib import Path

from .seen import Container, Control, Embed, Part, Picture, Rule, Seen, Text

STYLES = {1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "secondary"}
"""A button's style by its number (5, a link, is grey as a secondary)."""
CSS = """
:root { color-scheme: dark; }
body { margin: 0; background: #313338; color: #dbdee1;
  font: 16px/1.375 "gg sans", "Noto Sans", "Helvetica Neue", Helvetica, Arial, sans-serif; }
main { max-width: 720px; margin: 0 auto; padding: 8px 0 24px; }
.said { margin: 10px 12px 0 56px; color: #949ba4; font-size: 14px; font-style: italic; }
.heading { display: flex; align-items: center; gap: 8px; margin: 24px 12px 8px;
  color: #949ba4; font-size: 12px; font-weight: 600; }
.heading::before, .heading::after { content: ""; flex: 1; border-top: 1px solid #3f4147; }
.message { display: grid; grid-template-columns: 40px minmax(0, 1fr); column-gap: 12px;
  padding: 6px 12px 4px; margin-top: 10px; }
.message.ephemeral { background: rgba(88, 101, 242, .06); }
.used { grid-column: 2; color: #949ba4; font-size: 13px; margin-bottom: 2px; }
.avatar { grid-column: 1; width: 40px; height: 40px; border-radius: 50%; background: #5865f2;
  color: #fff; display: flex; align-items: center; justify-content: center; font-weight: 600; }
.content { grid-column: 2; min-width: 0; }
.author { color: #f2f3f5; font-weight: 600; }
.tag { background: #5865f2; color: #fff; font-size: 10px; font-weight: 600; border-radius: 3px;
  padding: 1px 4px; margin-left: 4px; vertical-align: 2px; }
.meta { color: #949ba4; font-size: 12px; margin-left: 6px; }
.text { overflow-wrap: anywhere; }
.card { background: #2b2d31; border: 1px solid #3f4147; border-radius: 8px;
  border-left: 4px solid var(--accent, #3f4147); padding: 12px; margin-top: 4px; }
.card > * + * { margin-top: 8px; }
.card .text + .text { margin-top: 8px; }
.embed { background: #2b2d31; border-radius: 4px; border-left: 4px solid var(--accent, #1e1f22);
  padding: 8px 12px; margin-top: 4px; }
hr { border: 0; border-top: 1px solid #3f4147; margin: 8px 0; }
.picture { display: block; margin: 8px 0 0; }
.picture img { display: block; width: 100%; height: auto; border-radius: 8px; }
.file { display: block; margin: 4px 0 0; max-width: 100%; }
.file img { max-width: 100%; height: auto; border-radius: 8px; }
strong { color: #f2f3f5; }
code { background: #1e1f22; border-radius: 4px; padding: 0 3px; font-size: 85%;
  font-family: Consolas, "Andale Mono", monospace; }
blockquote { margin: 0; padding-left: 12px; border-left: 4px solid #4e5058; }
.small { color: #949ba4; font-size: 13px; }
h1, h2, h3 { margin: 4px 0; color: #f2f3f5; line-height: 1.25; }
h1 { font-size: 24px; } h2 { font-size: 20px; } h3 { font-size: 16px; }
img.emoji { width: 22px; height: 22px; vertical-align: -6px; object-fit: contain; }
.edited { color: #949ba4; font-size: 10px; margin-left: 2px; }
.row { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 8px; }
button { font: inherit; font-size: 14px; font-weight: 500; color: #fff; border: 0;
  border-radius: 8px; min-height: 32px; padding: 2px 16px; }
button.primary { background: #5865f2; } button.secondary { background: #4e5058; }
button.success { background: #248046; } button.danger { background: #da373c; }
button:disabled, .select.disabled { opacity: .5; cursor: not-allowed; }
.select { flex: 1 1 100%; background: #1e1f22; border: 1px solid #1e1f22; border-radius: 8px;
  color: #949ba4; padding: 8px 12px; display: flex; justify-content: space-between; }
.only { color: #949ba4; font-size: 12px; margin-top: 4px; }
"""
INLINE = re.compile(
    r"(?P<code>`+)(?P<coded>.+?)(?P=code)"
    r"|\*\*(?P<bold>.+?)\*\*"
    r"|__(?P<under>.+?)__"
    r"|~~(?P<struck>.+?)~~"
    r"|\*(?P<star>[^\s*](?:.*?[^\s*])?)\*"
    r"|\b_(?P<low>[^_]+?)_\b"
    r"|:(?P<emoji>\w+):"
)
"""Discord's inline markdown; a custom emoji's name (``:qx_red6_1a2b:``)."""
BLOCK = re.compile(r"(?P<mark>> |-# |#{1,3} )(?P<rest>.*)")
"""A line's block markdown: a quote, small text, a heading."""
TAGS = {"bold": "strong", "under": "u", "struck": "s", "star": "em", "low": "em"}


class TranscriptPage:
    """The transcript as a page: :class:`~bot.sandbox.demo.Transcript` tells it what it
    shows; :meth:`write` writes it, its images referred to relative to the page.

    ``emojis`` are the custom emojis' images by name, drawn where a text names one."""

    def __init__(self, title: str, emojis: dict[str, Path] | None = None) -> None:
        self.title = title
        self.emojis = {} if emojis is None else emojis
        self.items: list[str | tuple[str] | Seen] = []
        """A member's action (a line), a heading (a 1-tuple) or a message, in order."""

    def say(self, line: str) -> None:
        self.items.append(line)

    def heading(self, title: str) -> None:
        self.items.append((title,))

    def message(self, seen: Seen) -> None:
        self.items.append(seen)

    def write(self, path: Path) -> None:
        path.write_text(self.html(path.parent), encoding="utf-8")

    def html(self, folder: Path) -> str:
        """The whole page, its images named relative to ``folder`` (where it is written)."""
        drawn = [Drawer(folder, self.emojis).item(item) for item in self.items]
        return (
            '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{escape(self.title)}</title>\n<style>{CSS}</style>\n</head>\n"
            "<body>\n<main>\n" + "\n".join(drawn) + "\n</main>\n</body>\n</html>\n"
        )


class Drawer:
    """Draws the items of a page written in ``folder``."""

    def __init__(self, folder: Path, emojis: dict[str, Path]) -> None:
        self.folder, self.emojis = folder, emojis

    def src(self, file: Path) -> str:
        return escape(Path(os.path.relpath(file, self.folder)).as_posix())

    def item(self, item: str | tuple[str] | Seen) -> str:
        if isinstance(item, str):
            return f'<p class="said">» {escape(item)}</p>'
        if isinstance(item, tuple):
            return f'<h2 class="heading">{escape(item[0])}</h2>'
        return self.message(item)

    def message(self, seen: Seen) -> str:
        """A message as Discord draws it: who used which command, the bot's name, where
        it went, its parts, (edited), its controls, and whose eyes only."""
        meta = " · ".join(
            m
            for m in (
                seen.place,
                None if seen.number is None else f"message {seen.number}",
            )
            if m
        )
        used = (
            f'<div class="used">↱ {escape(seen.command[0])} used '
            f"<strong>/{escape(seen.command[1])}</strong></div>"
            if seen.command
            else ""
        )
        edited = '<span class="edited">(edited)</span>' if seen.edited else ""
        only = (
            f'<div class="only">👁 Only you can see this · {escape(seen.only)}</div>'
            if seen.only is not None
            else ""
        )
        kind = "message ephemeral" if seen.only is not None else "message"
        number = "" if seen.number is None else f' data-number="{seen.number}"'
        return (
            f'<article class="{kind}"{number}>{used}'
            f'<div class="avatar" aria-hidden="true">{escape(seen.author[:1])}</div>'
            f'<div class="content"><div><span class="author">{escape(seen.author)}</span>'
            f'<span class="tag">APP</span><span class="meta">{escape(meta)}</span></div>'
            + "".join(self.part(p) for p in seen.parts)
            + edited
            + "".join(self.row(r) for r in seen.rows)
            + only
            + "</div></article>"
        )

    def part(self, part: Part) -> str:
        if isinstance(part, Container):
            accent = "" if part.accent is None else f' style="--accent:#{part.accent:06x}"'
            inside = "".join(self.part(p) for p in part.parts)
            return f'<section class="card"{accent}>{inside}</section>'
        if isinstance(part, Text):
            return f'<div class="text">{self.markdown(part.text)}</div>'
        if isinstance(part, Embed):
            accent = "" if part.colour is None else f' style="--accent:#{part.colour:06x}"'
            text = self.markdown(part.text)
            return f'<div class="embed"{accent}><div class="text">{text}</div></div>'
        if isinstance(part, Rule):
            return "<hr>"
        return self.picture(part)

    def picture(self, picture: Picture) -> str:
        alt = escape(picture.alt or "")
        kind = "picture" if picture.in_gallery else "file"
        return (
            f'<figure class="{kind}"><img src="{self.src(picture.file)}" alt="{alt}" '
            f'title="{alt}" data-name="{escape(picture.name)}"></figure>'
        )

    def row(self, row: tuple[Control, ...]) -> str:
        return f'<div class="row">{"".join(map(control, row))}</div>'

    def markdown(self, text: str) -> str:
        """Discord's markdown as HTML: each line, quoted, small or a heading by its
        start (a quote or heading is a block: no line break around it); bold, italic,
        underlined, struck and code within it; custom emojis drawn."""
        shown, after_line = "", False
        for line in text.split("\n"):
            block = BLOCK.fullmatch(line)
            mark = block["mark"] if block else ""
            inner = self.inline(block["rest"] if block else line)
            if mark == "> ":
                shown, after_line = shown + f"<blockquote>{inner}</blockquote>", False
                continue
            if mark.startswith("#"):
                level = len(mark) - 1
                shown, after_line = shown + f"<h{level}>{inner}</h{level}>", False
                continue
            inner = f'<span class="small">{inner}</span>' if mark == "-# " else inner
            shown, after_line = shown + ("<br>" if after_line else "") + inner, True
        return shown

    def inline(self, text: str) -> str:
        shown, at = [], 0
        for found in INLINE.finditer(text):
            shown.append(escape(text[at : found.start()]))
            at = found.end()
            kind = found.lastgroup
            if found["coded"] is not None:
                shown.append(f"<code>{escape(found['coded'])}</code>")
            elif kind == "emoji":
                shown.append(self.emoji(found[0], found["emoji"]))
            else:
                tag = TAGS[str(kind)]
                shown.append(f"<{tag}>{self.inline(found[str(kind)])}</{tag}>")
        return "".join(shown) + escape(text[at:])

    def emoji(self, written: str, name: str) -> str:
        """A custom emoji as its image (its name as alt text); unknown, as written."""
        file = self.emojis.get(name)
        if file is None:
            return escape(written)
        name = escape(written)
        return f'<img class="emoji" src="{self.src(file)}" alt="{name}" title="{name}">'


def control(item: Control) -> str:
    """A button in its style, or a menu as a full-width box with its placeholder."""
    disabled = " disabled" if item.disabled else ""
    if item.select:
        return (
            f'<div class="select{disabled}" role="listbox" aria-disabled="{bool(disabled)}">'
            f"<span>{escape(item.label)}</span><span>▾</span></div>"
        )
    style = STYLES.get(item.style, "secondary")
    return f'<button class="{style}"{disabled}>{escape(item.label)}</button>'
