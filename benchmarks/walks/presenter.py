"""A walk through a page that ``benchmarks/bench_dashboard.py`` measures beyond its controls (one
module per walk in ``benchmarks/walks/``), each step's server CPU read by the benchmark's session
(``Session.step``: the rerun it caused, until the server is quiet).

* :func:`presenter_walk` — the lesson's presenter view at a projector's 1280×720, as a teacher
  moves: a key (→, or ← back from the last step) opens the next step, then Reveal shows its chart.
"""

from __future__ import annotations


def presenter_walk(s, path: str, steps: int, controls: dict[str, list[float]], notes: list[str]) -> None:
    """``steps`` steps of the presenter view in session ``s`` (closed at the end); the costs go into
    ``controls`` (name → seconds per step), what went wrong into ``notes``."""
    try:
        s.page.set_viewport_size({"width": 1280, "height": 720})
        s.open(f"{path}?step=1&present=1")
        controls.update(presenter_steps(s, steps))
    except Exception as exc:  # report it, go on with the other pages
        notes.append(f"presenter steps: stopped ({type(exc).__name__}: {str(exc).splitlines()[0][:160]})")
    finally:
        notes += [f"presenter steps: {e}" for e in dict.fromkeys(s.errors)]
        s.close()


def presenter_steps(s, steps: int) -> dict[str, list[float]]:
    """Server CPU of ``steps`` steps of the lesson's presenter view at 1280×720, as a teacher moves:
    a key (→, or ← back from the last step) opens the next step, then its Reveal button shows the
    chart. Every step after the first visit of each is a warm cache."""
    from dashboard.lesson.steps import STEPS

    page = s.page
    names = [f"presenter: {what}" for what in ("next step (→ / ←)", "reveal (answer and chart)",
                                                "one step (key + reveal)")]
    out: dict[str, list[float]] = {n: [] for n in names}
    step, direction = 1, 1
    for _ in range(steps):
        if not 1 <= step + direction <= len(STEPS):
            direction = -direction
        key = "ArrowRight" if direction > 0 else "ArrowLeft"
        moved = s.step(lambda: page.keyboard.press(key))
        if moved is None:
            continue
        step += direction
        button = page.locator(f".st-key-lesson_reveal_{STEPS[step - 1].key} button").first
        revealed = s.step(button.click) if button.count() else 0.0   # a step seen before stays revealed
        for name, cost in zip(names, (moved, revealed, moved + (revealed or 0.0))):
            out[name].append(cost)
    return out
