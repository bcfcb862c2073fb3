"""Small SVG drawings made on the server (no script, no build step): a rating chart and a board diagram."""

from __future__ import annotations

from html import escape

from games.rules import Position

CHART_WIDTH, CHART_HEIGHT, PAD = 480, 180, 36


def rating_chart_svg(points: list[tuple[str, int]], *, title: str = "Rating history") -> str:
    """Returns an SVG line chart of ratings: ``points`` are (label, rating) in time order, the first the start.

    Each point has a circle with a ``<title>`` (its label and rating), so the chart reads without a
    script; the axis shows the lowest and highest rating.
    """
    if not points:
        return ""
    ratings = [r for _label, r in points]
    low, high = min(ratings), max(ratings)
    if high - low < 40:
        low, high = low - 20, high + 20
    span_x = max(len(points) - 1, 1)

    def x(i: int) -> float:
        return PAD + (CHART_WIDTH - 2 * PAD) * (i / span_x if len(points) > 1 else 0.5)

    def y(r: int) -> float:
        return CHART_HEIGHT - PAD + (r - low) * -(CHART_HEIGHT - 2 * PAD) / (high - low)

    def anchor(i: int) -> str:  # the first and last texts stay inside the chart
        if len(points) == 1:
            return "middle"
        return "start" if i == 0 else "end" if i == len(points) - 1 else "middle"

    line = " ".join(f"{x(i):.1f},{y(r):.1f}" for i, (_l, r) in enumerate(points))
    dots = "".join(
        f'<circle cx="{x(i):.1f}" cy="{y(r):.1f}" r="4"><title>{escape(label)}: {r}</title></circle>'
        f'<text x="{x(i):.1f}" y="{y(r) - 8:.1f}" text-anchor="{anchor(i)}" class="value">{r}</text>'
        for i, (label, r) in enumerate(points))
    labels = "".join(f'<text x="{x(i):.1f}" y="{CHART_HEIGHT - 10}" text-anchor="{anchor(i)}" class="label">'
                     f'{escape(label[:18])}</text>' for i, (label, _r) in enumerate(points))
    return (
        f'<svg class="rating-chart" viewBox="0 0 {CHART_WIDTH} {CHART_HEIGHT}" role="img" '
        f'aria-label="{escape(title)}: {", ".join(f"{escape(label)} {r}" for label, r in points)}" '
        f'xmlns="http://www.w3.org/2000/svg" data-testid="rating-chart">'
        f'<line x1="{PAD}" y1="{CHART_HEIGHT - PAD}" x2="{CHART_WIDTH - PAD}" y2="{CHART_HEIGHT - PAD}" class="axis"/>'
        f'<text x="4" y="{y(high) + 4:.1f}" class="label">{high}</text>'
        f'<text x="4" y="{y(low) + 4:.1f}" class="label">{low}</text>'
        f'<polyline points="{line}" class="line" fill="none"/>{dots}{labels}</svg>'
    )


def position_svg(fen: str, *, size: int = 240) -> str:
    """Returns an SVG diagram of a position (Black at the top, as the board script draws it)."""
    position = Position.from_fen(fen)
    kings = set(position.squares("black", kings=True)) | set(position.squares("white", kings=True))
    black, white = set(position.squares("black")), set(position.squares("white"))
    cell = size / 8
    parts = []
    for square in range(1, 33):
        row = (square - 1) // 4
        col = 2 * ((square - 1) % 4) + (1 if row % 2 == 0 else 0)  # as static/js/board.js, Black at the top
        parts.append(f'<rect x="{col * cell:.1f}" y="{row * cell:.1f}" width="{cell:.1f}" height="{cell:.1f}" '
                     f'class="dark"/>')
        if square in black or square in white:
            colour = "black" if square in black else "white"
            cx, cy = col * cell + cell / 2, row * cell + cell / 2
            parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{cell * 0.38:.1f}" class="piece {colour}"/>')
            if square in kings:
                parts.append(f'<text x="{cx:.1f}" y="{cy + cell * 0.14:.1f}" text-anchor="middle" '
                             f'class="king {colour}">K</text>')
    side = position.side_to_move.value
    return (f'<svg class="position" viewBox="0 0 {size} {size}" width="{size}" height="{size}" role="img" '
            f'aria-label="The position, {side} to move: Black {", ".join(map(str, sorted(black)))}; White '
            f'{", ".join(map(str, sorted(white)))}{"; kings " + ", ".join(map(str, sorted(kings))) if kings else ""}" '
            f'xmlns="http://www.w3.org/2000/svg"><rect width="{size}" height="{size}" class="light"/>'
            f'{"".join(parts)}</svg>')
