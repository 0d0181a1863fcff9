"""The HTML reports' building blocks: inline SVG charts drawn in Python (no chart library, no
network), and the page they sit in (styles, a Content-Security-Policy, escaping, atomic writes).

Every label passes through ``esc`` here, so callers may hand over a run's untrusted text (a
tag, a route). Each chart carries an accessible title and writes its numbers out as text: a
reader never has to guess a value from a bar's length.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import math
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ragspine.evals.report.wording import clean

INK, MUTED, GRID, TRACK = "#1f2933", "#52606d", "#d9dee3", "#e8ecf0"
BLUE, GREY, ORANGE = "#4e79a7", "#9aa5b1", "#f28e2b"
GREEN, RED = "#2e7d32", "#c62828"
PREVIEW = 160  # characters of a long text shown before "more"
LABEL_W, PLOT_W, TEXT_W, ROW_H, TOP = 190, 380, 230, 20, 22

CSS = """\
:root{color-scheme:light}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,
"Noto Sans","Noto Sans CJK SC","PingFang SC","Microsoft YaHei",sans-serif;color:#1f2933;
background:#fff;margin:0 auto;max-width:1240px;padding:20px 24px}
h1{font-size:22px;margin:0 0 10px}
h2{font-size:17px;margin:30px 0 8px;border-bottom:1px solid #d9dee3;padding-bottom:4px}
h3{font-size:15px;margin:18px 0 6px}
table{border-collapse:collapse;width:100%}table.narrow{width:auto}
th,td{border-bottom:1px solid #e6e9ed;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f5f7f9;font-weight:600}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.nw{white-space:nowrap}
.meta{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:0}
.meta dt{color:#52606d}.meta dd{margin:0;overflow-wrap:anywhere}
.cards{display:flex;gap:12px;flex-wrap:wrap;margin:14px 0}
.card{border:1px solid #d9dee3;border-radius:6px;padding:6px 14px;min-width:110px}
.card b{display:block;font-size:20px}
.badge{display:inline-block;padding:0 8px;border-radius:10px;font-size:12px;font-weight:600;
white-space:nowrap}
.pass,.better{background:#e3f4e5;color:#1b5e20}.fail,.worse{background:#fde4e4;color:#b71c1c}
.error{background:#fff1d6;color:#8a5300}.same{background:#eef1f4;color:#3e4c59}
figure{margin:8px 0}figcaption,.note{color:#52606d;font-size:13px}
svg{font:12px system-ui,sans-serif;display:block;max-width:100%;height:auto}
td svg{display:inline-block;vertical-align:middle}.figs td svg{max-width:none}
.filters{display:flex;gap:16px;align-items:center;flex-wrap:wrap;padding:8px 0;
position:sticky;top:0;background:#fff;border-bottom:1px solid #d9dee3}
#count{font-weight:600}select{max-width:16em}
#cases{table-layout:fixed}#cases td{font-size:13px;overflow-wrap:anywhere}
#cases th:nth-child(1){width:12%}#cases th:nth-child(2){width:10%}
#cases th:nth-child(3),#cases th:nth-child(4){width:7%}#cases th:nth-child(5){width:14%}
#cases th:nth-child(6){width:24%}#cases th:nth-child(7){width:14%}
.q,.ans{white-space:pre-wrap;overflow-wrap:anywhere}
.tag{display:inline-block;background:#eef1f4;border-radius:4px;padding:0 5px;margin:1px;
font-size:11px}
summary{cursor:pointer}
ul.checks{margin:0;padding-left:16px}
"""


def _sha(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def page(title: str, body: str, script: str = "") -> str:
    """The whole document: only this page's own style and script may run, nothing may load."""
    csp = f"default-src 'none'; style-src {_sha(CSS)}"
    csp += f"; script-src {_sha(script)}" if script else ""
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{csp}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{esc(title)}</title>\n<style>{CSS}</style></head>\n<body>\n{body}\n"
        + (f"<script>{script}</script>\n" if script else "")
        + "</body></html>\n"
    )


def json_block(element_id: str, data: Any) -> str:
    """Data for the script; ``<``, ``>`` and ``&`` as \\u escapes, so it cannot close its tag."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    for char in "<>&\u2028\u2029":
        text = text.replace(char, f"\\u{ord(char):04x}")
    return f'<script type="application/json" id="{element_id}">{text}</script>'


def section(title: str, *parts: str) -> str:
    return f"<section><h2>{esc(title)}</h2>\n" + "\n".join(parts) + "</section>\n"


def table(headers: list[str], rows: list[str], attrs: str = "") -> str:
    head = "".join(f"<th>{h}</th>" for h in headers)
    return f"<table{attrs}><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def meta(items: list[tuple[str, str]]) -> str:
    return '<dl class="meta">' + "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in items) + "</dl>"


def trimmed(text: str, css: str) -> str:
    """Long text as its first lines, the rest a click away."""
    if len(text) <= PREVIEW:
        return f'<div class="{css}">{esc(text)}</div>'
    return (
        f"<details><summary>{esc(text[:PREVIEW])}…</summary>"
        f'<div class="{css}">{esc(text)}</div></details>'
    )


def write_atomic(path: Path, text: str) -> Path:
    """``text`` to ``path`` through a .tmp and a rename: a reader never sees half a page."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8", errors="replace")
    tmp.replace(path)
    return path


def esc(value: object) -> str:
    """Untrusted text as HTML text or attribute: escaped, forbidden characters shown as \\xNN."""
    return html.escape(clean(str(value)), quote=True)


def fmt(value: float | None, digits: int = 3) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def short(value: float) -> str:
    """A tick label: 0.411, 12, 1.16k."""
    if abs(value) >= 1000:
        return f"{value / 1000:.3g}k"
    return f"{value:.3g}"


def clip(text: str, limit: int) -> str:
    """At most ``limit`` columns, a wide (CJK) character counting two, so a label fits its room."""
    used = 0
    for i, char in enumerate(text):
        used += 2 if unicodedata.east_asian_width(char) in "WF" else 1
        if used > limit:
            return text[: max(i - 1, 0)] + "…"
    return text


def svg(width: float, height: float, title: str, body: str) -> str:
    t = esc(title)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {height:g}" '
        f'width="{width:g}" height="{height:g}" role="img" aria-label="{t}">'
        f"<title>{t}</title>{body}</svg>"
    )


def figure(chart: str, body: str, caption: str) -> str:
    """A chart's container: ``data-chart`` is the stable handle tests and readers find it by."""
    return (
        f'<figure class="chart" data-chart="{esc(chart)}">{body}'
        f"<figcaption>{esc(caption)}</figcaption></figure>"
    )


def _text(x: float, y: float, text: str, *, anchor: str = "start", fill: str = INK) -> str:
    return f'<text x="{x:g}" y="{y:g}" text-anchor="{anchor}" fill="{fill}">{esc(text)}</text>'


def _rect(x: float, y: float, w: float, h: float, fill: str, extra: str = "") -> str:
    size = f'width="{max(w, 0):g}" height="{max(h, 0):g}"'
    return f'<rect x="{x:g}" y="{y:g}" {size} fill="{fill}"{extra}/>'


def _line(x1: float, y1: float, x2: float, y2: float, stroke: str, extra: str = "") -> str:
    return f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="{stroke}"{extra}/>'


def nice_scale(top: float) -> tuple[float, list[float]]:
    """A count axis: an end at or above ``top``, about four whole round ticks (1, 2, 5 × 10^k)."""
    if top <= 0:
        return 1.0, [0.0, 1.0]
    raw = top / 4
    mag = 10 ** math.floor(math.log10(raw))
    step = max(1, next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw))
    end = step * math.ceil(top / step - 1e-9)
    return end, [i * step for i in range(round(end / step) + 1)]


def interval(
    value: float | None,
    low: float | None,
    high: float | None,
    *,
    title: str,
    lo: float = 0.0,
    hi: float = 1.0,
    width: float = 180,
    color: str = BLUE,
) -> str:
    """A point and its 95% interval on a track from ``lo`` to ``hi`` (0 marked when inside)."""
    height = 18

    def x(v: float) -> float:
        return round(4 + (min(max(v, lo), hi) - lo) / (hi - lo) * (width - 8), 2)

    parts = [_rect(x(lo), 7, x(hi) - x(lo), 4, TRACK, ' rx="2"')]
    if lo < 0 < hi:
        parts.append(_line(x(0), 1, x(0), 17, MUTED, ' stroke-dasharray="2 2"'))
    if low is not None and high is not None:
        band = ' fill-opacity="0.35" rx="2"'
        parts.append(_rect(x(low), 4, max(x(high) - x(low), 1.5), 10, color, band))
    if value is not None:
        parts.append(_rect(x(value) - 1.5, 2, 3, 14, color))
    return svg(width, height, title, "".join(parts))


@dataclass(frozen=True)
class Bar:
    label: str
    value: float | None
    text: str  # the number written beside the bar
    low: float | None = None  # a whisker, when the value has an interval
    high: float | None = None
    color: str = BLUE


def hbars(chart: str, title: str, bars: Sequence[Bar], *, scale: float | None = 1.0) -> str:
    """Horizontal bars, one a row, with whiskers for intervals; ``scale`` None: round up the max."""
    top = max([b.high or 0 for b in bars] + [b.value or 0 for b in bars] + [0])
    end, ticks = nice_scale(top) if scale is None else (scale, [scale * i / 4 for i in range(5)])
    width, height = LABEL_W + PLOT_W + TEXT_W, TOP + ROW_H * len(bars) + 4

    def x(v: float) -> float:
        return round(LABEL_W + min(max(v, 0), end) / end * PLOT_W, 2)

    parts = []
    for t in ticks:
        parts.append(_line(x(t), TOP - 4, x(t), height - 2, GRID))
        parts.append(_text(x(t), TOP - 8, short(t), anchor="middle", fill=MUTED))
    for i, b in enumerate(bars):
        y = TOP + i * ROW_H
        name = clip(b.label, 26)
        full = f"<title>{esc(b.label)}</title>" if name != b.label else ""
        parts.append(
            f'<text x="{LABEL_W - 8}" y="{y + 14}" text-anchor="end" fill="{INK}">'
            f"{full}{esc(name)}</text>"
        )
        if b.value is not None:
            parts.append(_rect(LABEL_W, y + 4, x(b.value) - LABEL_W, 12, b.color))
        if b.low is not None and b.high is not None:
            lx, hx, my = x(b.low), x(b.high), y + 10
            parts.append(_line(lx, my, hx, my, INK, ' stroke-width="1.5"'))
            parts += [_line(lx, my - 5, lx, my + 5, INK), _line(hx, my - 5, hx, my + 5, INK)]
        parts.append(_text(LABEL_W + PLOT_W + 8, y + 14, b.text))
    return svg(width, height, title, "".join(parts))


def columns(
    chart: str, title: str, groups: Sequence[tuple[str, Sequence[float]]], series: Sequence[str]
) -> str:
    """Grouped vertical bars: a group per category, a bar per series, each with its number."""
    colors = (BLUE, ORANGE, GREY, GREEN)
    plot_h, bar_w, gap = 150, 34, 26
    group_w = bar_w * len(series) + gap
    width = max(60 + group_w * len(groups), 60 + 170 * len(series))
    top = max([v for _, values in groups for v in values] + [0])
    end, ticks = nice_scale(top)
    y0, height = 34 + plot_h, 34 + plot_h + 40

    def y(v: float) -> float:
        return round(y0 - v / end * plot_h, 2)

    parts = []
    for i, name in enumerate(series):  # the legend
        lx = 50 + 170 * i
        parts += [_rect(lx, 6, 12, 12, colors[i]), _text(lx + 18, 16, name)]
    for t in ticks:
        parts.append(_line(44, y(t), width - 6, y(t), GRID))
        parts.append(_text(40, y(t) + 4, short(t), anchor="end", fill=MUTED))
    for g, (name, values) in enumerate(groups):
        gx = 56 + g * group_w
        for s, v in enumerate(values):
            bx = gx + s * bar_w
            parts.append(_rect(bx, y(v), bar_w - 4, y0 - y(v), colors[s]))
            parts.append(_text(bx + (bar_w - 4) / 2, y(v) - 4, short(v), anchor="middle"))
        center = gx + (bar_w * len(values) - 4) / 2
        parts.append(_text(center, y0 + 18, clip(name, 18), anchor="middle"))
    parts.append(_line(44, y0, width - 6, y0, MUTED))
    return svg(width, height, title, "".join(parts))


def _bins(values: Sequence[float], count: int) -> tuple[list[float], bool]:
    """Bin edges: log-spaced when the values span more than 30×, as latencies do."""
    lo, hi = min(values), max(values)
    positive = [v for v in values if v > 0]
    if positive and hi / min(positive) > 30:
        a, b = math.log10(min(positive)), math.log10(hi)
        return [10 ** (a + (b - a) * i / count) for i in range(count + 1)], True
    if hi == lo:
        return [lo, lo + 1], False
    return [lo + (hi - lo) * i / count for i in range(count + 1)], False


def histogram(
    chart: str, title: str, values: Sequence[float], markers: Sequence[tuple[str, float]], unit: str
) -> str:
    """How values spread: counts per bin, with markers (p50, p95) drawn as dashed lines."""
    count = max(1, min(12, math.ceil(math.sqrt(len(values)))))
    edges, log = _bins(values, count)
    counts = [0] * (len(edges) - 1)
    for v in values:
        i = next((i for i in range(len(counts)) if v <= edges[i + 1]), len(counts) - 1)
        counts[i] += 1
    plot_w, plot_h, left, top = 720, 160, 44, 40
    width, height = left + plot_w + 20, top + plot_h + 48
    end, ticks = nice_scale(max(counts))
    bw = plot_w / len(counts)

    def px(v: float) -> float:
        if log:
            lo, hi = math.log10(edges[0]), math.log10(edges[-1])
            return left + (math.log10(max(v, edges[0])) - lo) / (hi - lo) * plot_w
        return left + (v - edges[0]) / (edges[-1] - edges[0]) * plot_w

    def py(n: float) -> float:
        return round(top + plot_h - n / end * plot_h, 2)

    parts = []
    for t in ticks:
        parts.append(_line(left - 4, py(t), left + plot_w, py(t), GRID))
        parts.append(_text(left - 8, py(t) + 4, short(t), anchor="end", fill=MUTED))
    for i, n in enumerate(counts):
        bx = round(left + i * bw, 2)
        parts.append(_rect(bx + 1, py(n), bw - 2, top + plot_h - py(n), BLUE))
        if n:
            parts.append(_text(bx + bw / 2, py(n) - 4, str(n), anchor="middle"))
    for i, edge in enumerate(edges):
        if len(edges) <= 8 or i % 2 == 0 or i == len(edges) - 1:
            ex = round(left + i * bw, 2)
            parts.append(_text(ex, top + plot_h + 16, short(edge), anchor="middle", fill=MUTED))
    for j, (name, v) in enumerate(markers):
        mx = round(px(v), 2)
        parts.append(_line(mx, top - 4, mx, top + plot_h, RED, ' stroke-dasharray="4 3"'))
        label = f"{name} {short(v)} {unit}"
        parts.append(_text(mx + 4, 12 + 14 * j, label, fill=RED))
    axis = f"{unit}{', log scale' if log else ''} ({len(values)} results)"
    parts.append(_line(left, top + plot_h, left + plot_w, top + plot_h, MUTED))
    parts.append(_text(left + plot_w / 2, height - 6, axis, anchor="middle", fill=MUTED))
    return svg(width, height, title, "".join(parts))


def _mix(color: str, t: float) -> str:
    """``color`` at strength ``t`` over white."""
    rgb = [int(color[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(255 - (255 - c) * t):02x}" for c in rgb)


def heat_grid(title: str, cells: dict[str, int]) -> str:
    """The guard's 2×2: rows what the golden expects, columns what the guard did."""
    cw, ch, left, top = 150, 64, 140, 26
    peak = max([*cells.values(), 1])
    layout = [("tp", 0, 0, True), ("fn", 0, 1, False), ("fp", 1, 0, False), ("tn", 1, 1, True)]
    parts = [
        _text(left + cw / 2, 16, "guard fired", anchor="middle", fill=MUTED),
        _text(left + cw * 1.5, 16, "guard quiet", anchor="middle", fill=MUTED),
        _text(left - 10, top + ch / 2 + 4, "expected to fire", anchor="end", fill=MUTED),
        _text(left - 10, top + ch * 1.5 + 4, "expected quiet", anchor="end", fill=MUTED),
    ]
    for key, row, col, right in layout:
        n = cells.get(key, 0)
        t = 0.08 + 0.82 * n / peak if n else 0.04
        fill = _mix(GREEN if right else RED, t)
        ink = "#ffffff" if t > 0.55 else INK
        x, y = left + col * cw, top + row * ch
        parts.append(_rect(x, y, cw - 2, ch - 2, fill, f' stroke="{GRID}"'))
        parts.append(
            _text(x + cw / 2, y + ch / 2 + 4, f"{key.upper()} {n}", anchor="middle", fill=ink)
        )
    return svg(left + cw * 2 + 10, top + ch * 2 + 6, title, "".join(parts))


def paired(a: float | None, b: float | None, *, title: str, end: float = 1.0) -> str:
    """A and B side by side, one bar each, the value written after it."""
    width, plot = 200, 140
    parts = []
    for i, (name, v, color) in enumerate((("A", a, GREY), ("B", b, BLUE))):
        y = 2 + i * 15
        parts.append(_text(0, y + 10, name, fill=MUTED))
        parts.append(_rect(12, y + 1, plot, 11, TRACK))
        if v is not None:
            parts.append(_rect(12, y + 1, min(v / end, 1) * plot, 11, color))
        parts.append(_text(12 + plot + 6, y + 10, fmt(v)))
    return svg(width, 32, title, "".join(parts))
