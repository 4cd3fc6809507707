"""The Lesson: its steps (narrative, the one chart, "explore this" links: ``steps``), the figures only
it draws at projector sizes (``charts``), and the guided scenarios Home offers in the lesson's order,
each naming its step (``scenarios``)."""
