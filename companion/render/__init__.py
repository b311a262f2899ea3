"""Synthetic camera frames of a Sequence board with exact ground truth.

```python
from companion.render import RenderSpec, render_frame, random_spec
spec = random_spec(rng, art="cards", hand=True)
image, truth = render_frame(spec)
```
See docs/ARCHITECTURE.md ("Renderer API") and the README's renderer section.
"""

from companion.render.randomize import random_cells, random_hand, random_spec
from companion.render.scene import render_frame
from companion.render.spec import HandSpec, RenderSpec, SpecError
from companion.render.truth import Truth, TruthError

__all__ = [
    "HandSpec",
    "RenderSpec",
    "SpecError",
    "Truth",
    "TruthError",
    "random_cells",
    "random_hand",
    "random_spec",
    "render_frame",
]
