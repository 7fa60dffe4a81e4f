"""turbomcp visibility / progressive disclosure (``spec/visibility.md``)."""

__all__: list[str] = []
