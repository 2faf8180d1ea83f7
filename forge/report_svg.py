"""Bar charts as inline SVG text: the report opens offline, with no script and no CDN.

`bar_chart` draws horizontal bars, one row per category; several series are stacked (parts of one total)
or grouped (side by side). Values are labelled at the end of each bar, so the chart reads without hovering.
A value of None is *missing* (no data), drawn as a dashed outline labelled "no data", never as a 0 bar:
"0 %" and "nobody tried" must not look alike. `labels` replaces a value's label (e.g. "50% (3/6)").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

PALETTE = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f",
           "#bab0ac")
LABEL_W, BAR_AREA, ROW_H, PAD = 230, 420, 22, 10
ZERO_W = 3.0  # width of a bar whose value is 0


def _fmt(value: float, unit: str) -> str:
    if unit == "%":
        return f"{value:.0f}%"
    if unit == "$":
        return f"${value:.4f}" if value < 1 else f"${value:,.2f}"
    return f"{value:,.0f}" if value >= 100 or value == int(value) else f"{value:,.2f}"


def bar_chart(chart_id: str, title: str, categories: Sequence[str], series: Mapping[str, Sequence[float | None]], *,
              stacked: bool = False, unit: str = "", max_value: float | None = None,
              labels: Mapping[str, Sequence[str]] | None = None) -> str:
    """An <svg> bar chart; `series` maps a legend name to one value per category (same order; None = no data)."""
    names = list(series)
    bars_per_row = 1 if stacked or len(names) == 1 else len(names)
    row_h = ROW_H * bars_per_row + 6
    present = [[v for n in names if (v := series[n][i]) is not None] for i in range(len(categories))]
    totals = [sum(vals) if stacked else max(vals, default=0) for vals in present]
    top = max_value if max_value is not None else max(totals, default=0) or 1
    legend_h = 22 if len(names) > 1 else 0
    height = PAD * 2 + legend_h + row_h * len(categories) + 18
    width = LABEL_W + BAR_AREA + 90
    parts = [f'<svg id="{escape(chart_id)}" class="chart" role="img" '
             f'width="{width}" height="{height}" viewBox="0 0 {width} {height}">',
             f"<title>{escape(title)}</title>"]
    x = LABEL_W
    for i, name in enumerate(names if len(names) > 1 else []):
        parts.append(f'<rect x="{x}" y="{PAD}" width="12" height="12" fill="{PALETTE[i % len(PALETTE)]}"/>'
                     f'<text x="{x + 16}" y="{PAD + 10}" class="legend">{escape(name)}</text>')
        x += 24 + 7 * len(name)
    y = PAD + legend_h
    for i, category in enumerate(categories):
        parts.append(f'<text x="{LABEL_W - 8}" y="{y + row_h / 2 + 4:.1f}" text-anchor="end" class="label">'
                     f"{escape(category)}</text>")
        offset = 0.0
        for j, name in enumerate(names):
            raw = series[name][i]
            bar_y = y + 3 + (0 if stacked or bars_per_row == 1 else j * ROW_H)
            bar_x = LABEL_W + (offset if stacked else 0)
            if raw is None:  # missing: an outline, not a bar of 0
                parts.append(f'<rect class="missing" x="{bar_x:.1f}" y="{bar_y}" width="36" height="{ROW_H - 4}" '
                             f'fill="none" stroke="#999" stroke-dasharray="3,2">'
                             f"<title>{escape(category)} · {escape(name)}: no data</title></rect>"
                             f'<text x="{bar_x + 40:.1f}" y="{bar_y + ROW_H - 8}" class="value">no data</text>')
                continue
            value = float(raw)
            text = labels[name][i] if labels and name in labels else _fmt(value, unit)
            w = BAR_AREA * value / top
            # A 0 keeps its series' colour: a sliver (ZERO_W) where a 0-wide bar would draw nothing at all, so "0 %"
            # reads as a value of its series, unlike the dashed outline of "no data". Stacked parts of 0 add nothing.
            drawn = w if w > 0 or stacked else ZERO_W
            if drawn <= 0:
                continue
            parts.append(f'<rect class="bar" x="{bar_x:.1f}" y="{bar_y}" width="{drawn:.1f}" '
                         f'height="{ROW_H - 4}" fill="{PALETTE[j % len(PALETTE)]}">'
                         f"<title>{escape(category)} · {escape(name)}: {escape(text)}</title></rect>")
            if not stacked:
                parts.append(f'<text x="{bar_x + drawn + 4:.1f}" y="{bar_y + ROW_H - 8}" class="value">'
                             f"{escape(text)}</text>")
            offset += w
        if stacked:
            parts.append(f'<text x="{LABEL_W + offset + 4:.1f}" y="{y + ROW_H - 5}" class="value">'
                         f"{_fmt(totals[i], unit)}</text>")
        y += row_h
    parts.append(f'<line x1="{LABEL_W}" y1="{PAD + legend_h}" x2="{LABEL_W}" y2="{y}" class="axis"/>')
    parts.append("</svg>")
    return "".join(parts)
