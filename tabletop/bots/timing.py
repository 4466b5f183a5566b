"""Move-time figures shared by the bots' benches."""

from __future__ import annotations

import statistics


def move_ms(times: list[float]) -> dict[str, float]:
    """Median, 90th percentile and worst of move times (seconds in, milliseconds out)."""
    if not times:
        return {"median": 0.0, "p90": 0.0, "max": 0.0}
    ordered = sorted(times)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return {
        "median": round(statistics.median(ordered) * 1000, 2),
        "p90": round(p90 * 1000, 2),
        "max": round(ordered[-1] * 1000, 2),
    }
