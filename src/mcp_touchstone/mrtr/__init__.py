"""neva multi round-trip requests and the sealed ``requestState`` (``spec/mrtr.md``)."""

__all__: list[str] = []
