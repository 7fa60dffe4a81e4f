"""PEP 316 contract wrappers checked by ``crosshair check`` (one style throughout).

Each wrapper builds a call of a real function from a few symbolic values (strings, ints, bools,
Enums), and states the property as ``post:`` lines; ``pre:`` lines bound the inputs.  Wrappers
carry no contracts on their callees, so CrossHair never short-circuits a real function.
"""
