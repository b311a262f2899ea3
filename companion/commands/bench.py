"""``companion bench AREA``: reproducible benchmarks, one per layer.

Each area lives next to the code it measures, as ``companion.<area>.bench`` with
``add_arguments(parser)`` and ``run(args) -> int``; it prints its figures as JSON.
"""

from __future__ import annotations

import argparse
import importlib

AREAS = {
    "referee": ("companion.referee.bench", "replay random legal games through the referee"),
    "vision": ("companion.vision.bench", "locate/read speed against one BGR->Lab conversion"),
    "replay": ("companion.tracking.bench", "live-game replay throughput, latency and memory"),
    "web": ("companion.web.bench", "many viewers against the real server"),
    "render": ("companion.render.bench", "renderer: fixed-camera video frames and fresh frames"),
}


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("bench", help="run a benchmark and print its figures as JSON")
    areas = parser.add_subparsers(dest="area", metavar="AREA")
    for area, (module_name, help_text) in AREAS.items():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name and module_name.startswith(exc.name):
                continue
            raise
        area_parser = areas.add_parser(area, help=help_text)
        module.add_arguments(area_parser)
        area_parser.set_defaults(func=module.run)
    parser.set_defaults(func=lambda args: parser.print_help() or 2)
