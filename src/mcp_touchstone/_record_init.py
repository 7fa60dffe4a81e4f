"""The ``__init__`` templates of :func:`mcp_touchstone._record.record`, one per field count.

``def __init__(self, __f0, ..., __fN): __set(self, "__f0", __f0); ...`` for 0 to 12 fields,
written out so that their code comes from this module's bytecode: ``_record`` renames a
template's placeholders (parameter names and the field-name constants) for each class.  They
used to be compiled from source at run time, once per field count; the first ``compile()`` of a
process alone costs about 10M instructions, more than defining every class it served.  A class
of more fields compiles its own template (``_record._template``).  Nothing here is called as is.
"""

from __future__ import annotations

__set = object.__setattr__


def _init_0(self: object) -> None:
    pass


def _init_1(self: object, __f0: object) -> None:
    __set(self, "__f0", __f0)


def _init_2(self: object, __f0: object, __f1: object) -> None:
    __set(self, "__f0", __f0)
    __set(self, "__f1", __f1)


def _init_3(self: object, __f0: object, __f1: object, __f2: object) -> None:
    __set(self, "__f0", __f0)
    __set(self, "__f1", __f1)
    __set(self, "__f2", __f2)


def _init_4(self: object, __f0: object, __f1: object, __f2: object, __f3: object) -> None:
    __set(self, "__f0", __f0)
    __set(self, "__f1", __f1)
    __set(self, "__f2", __f2)
    __set(self, "__f3", __f3)


def _init_5(
    self: object, __f0: object, __f1: object, __f2: object, __f3: object, __f4: object
) -> None:
    __set(self, "__f0", __f0)
    __set(self, "__f1", __f1)
    __set(self, "__f2", __f2)
    __set(self, "__f3", __f3)
    __set(self, "__f4", __f4)


def _init_6(
    self: object, __f0: object, __f1: object, __f2: object, __f3: object, __f4: object, __f5: object
) -> None:
    __set(self, "__f0", __f0)
    __set(self, "__f1", __f1)
    __set(self, "__f2", __f2)
    __set(self, "__f3", __f3)
    __set(self, "__f4", __f4)
    __set(self, "__f5", __f5)


def _init_7(
    self: object,
    __f0: object,
    __f1: object,
    __f2: object,
    __f3: object,
    __f4: object,
    __f5: object,
    __f6: object,
) -> None:
    __set(self, "__f0", __f0)
    __set(self, "__f1", __f1)
    __set(self, "__f2", __f2)
    __set(self, "__f3", __f3)
    __set(self, "__f4", __f4)
    __set(self, "__f5", __f5)
    __set(self, "__f6", __f6)


def _init_8(
    self: object,
    __f0: object,
    __f1: object,
    __f2: object,
    __f3: object,
    __f4: object,
    __f5: object,
    __f6: object,
    __f7: object,
) -> None:
    __set(self, "__f0", __f0)
    __set(self, "__f1", __f1)
    __set(self, "__f2", __f2)
    __set(self, "__f3", __f3)
    __set(self, "__f4", __f4)
    __set(self, "__f5", __f5)
    __set(self, "__f6", __f6)
    __set(self, "__f7", __f7)


def _init_9(
    self: object,
    __f0: object,
    __f1: object,
    __f2: object,
    __f3: object,
    __f4: object,
    __f5: object,
    __f6: object,
    __f7: object,
    __f8: object,
) -> None:
    __set(self, "__f0", __f0)
    __set(self, "__f1", __f1)
    __set(self, "__f2", __f2)
    __set(self, "__f3", __f3)
    __set(self, "__f4", __f4)
    __set(self, "__f5", __f5)
    __set(self, "__f6", __f6)
    __set(self, "__f7", __f7)
    __set(self, "__f8", __f8)


def _init_10(
    self: object,
    __f0: object,
    __f1: object,
    __f2: object,
    __f3: object,
    __f4: object,
    __f5: object,
    __f6: object,
    __f7: object,
    __f8: object,
    __f9: object,
) -> None:
    __set(self, "__f0", __f0)
    __set(self, "__f1", __f1)
    __set(self, "__f2", __f2)
    __set(self, "__f3", __f3)
    __set(self, "__f4", __f4)
    __set(self, "__f5", __f5)
    __set(self, "__f6", __f6)
    __set(self, "__f7", __f7)
    __set(self, "__f8", __f8)
    __set(self, "__f9", __f9)


def _init_11(
    self: object,
    __f0: object,
    __f1: object,
    __f2: object,
    __f3: object,
    __f4: object,
    __f5: object,
    __f6: object,
    __f7: object,
    __f8: object,
    __f9: object,
    __f10: object,
) -> None:
    __set(self, "__f0", __f0)
    __set(self, "__f1", __f1)
    __set(self, "__f2", __f2)
    __set(self, "__f3", __f3)
    __set(self, "__f4", __f4)
    __set(self, "__f5", __f5)
    __set(self, "__f6", __f6)
    __set(self, "__f7", __f7)
    __set(self, "__f8", __f8)
    __set(self, "__f9", __f9)
    __set(self, "__f10", __f10)


def _init_12(
    self: object,
    __f0: object,
    __f1: object,
    __f2: object,
    __f3: object,
    __f4: object,
    __f5: object,
    __f6: object,
    __f7: object,
    __f8: object,
    __f9: object,
    __f10: object,
    __f11: object,
) -> None:
    __set(self, "__f0", __f0)
    __set(self, "__f1", __f1)
    __set(self, "__f2", __f2)
    __set(self, "__f3", __f3)
    __set(self, "__f4", __f4)
    __set(self, "__f5", __f5)
    __set(self, "__f6", __f6)
    __set(self, "__f7", __f7)
    __set(self, "__f8", __f8)
    __set(self, "__f9", __f9)
    __set(self, "__f10", __f10)
    __set(self, "__f11", __f11)


TEMPLATES = (
    _init_0.__code__,
    _init_1.__code__,
    _init_2.__code__,
    _init_3.__code__,
    _init_4.__code__,
    _init_5.__code__,
    _init_6.__code__,
    _init_7.__code__,
    _init_8.__code__,
    _init_9.__code__,
    _init_10.__code__,
    _init_11.__code__,
    _init_12.__code__,
)
"""The template code by field count: ``TEMPLATES[n]`` takes ``n`` fields."""
