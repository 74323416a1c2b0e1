"""An odds chart as SVG geometry: one bar per outcome, the succeeding ones marked.

Drawn on the server so it needs no script and prints; the template turns these numbers into
<rect> elements.
"""

from __future__ import annotations

from fractions import Fraction

from zenergate_site import numbers

WIDTH, HEIGHT, LABEL = 600, 160, 18


def distribution_chart(distribution, success) -> dict:
    """Return the bars (x, y, width, height, outcome, percent, success) and axis labels."""
    points = list(distribution)
    if not points:
        return {"bars": [], "labels": [], "width": WIDTH, "height": HEIGHT + LABEL}
    tallest = max(p for _, p in points) or Fraction(1)
    step = WIDTH / len(points)
    gap = 1 if step > 4 else 0
    bars, labels = [], []
    every = max(1, round(len(points) / 12))
    for n, (outcome, p) in enumerate(points):
        height = float(p / tallest) * (HEIGHT - 4)
        bars.append({"x": round(n * step, 2), "y": round(HEIGHT - height, 2), "w": round(max(step - gap, 0.5), 2),
                     "h": round(height, 2), "outcome": outcome, "percent": numbers.percent(p, decimals=2),
                     "success": outcome in success})
        if n % every == 0:
            labels.append({"x": round(n * step + step / 2, 2), "text": outcome})
    return {"bars": bars, "labels": labels, "width": WIDTH, "height": HEIGHT + LABEL, "base": HEIGHT}
