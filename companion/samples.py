"""Where the bundled samples are, in a source checkout and in an installed wheel alike."""

from __future__ import annotations

from pathlib import Path

VIDEO_SUFFIXES = {".mp4", ".avi", ".mkv", ".mov", ".webm"}


def demo_game_dirs() -> list[Path]:
    """Candidate folders of the recorded demo game, most specific first.

    A wheel carries it as ``companion.demo_game`` package data (pyproject maps
    ``sample_images/demo_game`` there); a source checkout or an editable install has it in
    ``sample_images/demo_game`` beside the package; the current folder is tried last.
    """
    package = Path(__file__).resolve().parent
    candidates = [
        package / "demo_game",
        package.parent / "sample_images" / "demo_game",
        Path.cwd() / "sample_images" / "demo_game",
    ]
    return list(dict.fromkeys(candidates))


def demo_game_dir() -> Path | None:
    """The first candidate folder that holds the demo video, or None."""
    for folder in demo_game_dirs():
        if folder.is_dir() and any(p.suffix.lower() in VIDEO_SUFFIXES for p in folder.iterdir()):
            return folder
    return None
