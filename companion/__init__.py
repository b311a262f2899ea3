"""Sequence companion: a camera referee for the tabletop game Sequence.

Data flows through the subpackages in this order:
capture -> vision -> tracking -> referee -> store -> web.
"""

__version__ = "0.1.0"
