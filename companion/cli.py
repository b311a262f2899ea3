"""The ``companion`` command line.

Each subcommand lives in its own module under ``companion.commands`` and exposes
``register(subparsers)``; the module sets ``func`` on its parser. A command returns an exit code.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from companion import __version__

COMMAND_MODULES = [
    "companion.commands.check",
    "companion.commands.analyze",
    "companion.commands.calibrate",
    "companion.commands.eval",
    "companion.commands.render",
    "companion.commands.replay",
    "companion.commands.serve",
    "companion.commands.bench",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="A camera companion that referees a real tabletop game of Sequence.",
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:  # a command not built yet
            if exc.name and name.startswith(exc.name):
                continue
            raise
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
