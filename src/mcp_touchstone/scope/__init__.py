"""Chio capability-grant scope matching (``spec/scope.md``)."""

__all__: list[str] = []
