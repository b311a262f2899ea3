"""``companion render OUT_DIR``: write synthetic frames with exact ground truth.

Each frame ``frame_NNNN.jpg`` (or ``.png``) gets a sidecar ``frame_NNNN.json`` (see
``companion.render.truth``), and ``summary.json`` lists what was made. Frame ``i`` of seed ``S``
depends only on ``(S, i)``, so any single frame can be rendered again.

Exit codes: 0 written; 2 bad arguments; 1 the output folder or a file could not be written.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from companion.render.randomize import LENS_SHARE
from companion.render.spec import ARTS

EXIT_OK, EXIT_IO, EXIT_USAGE = 0, 1, 2


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size; use WxH, e.g. 640x480") from None
    if not (64 <= w <= 8192 and 64 <= h <= 8192):
        raise argparse.ArgumentTypeError(f"size {w}x{h} is outside 64..8192 pixels")
    return (w, h)


def _probability(text: str) -> float:
    try:
        p = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a probability") from None
    if not 0 <= p <= 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a probability in 0..1")
    return p


def _range_of(cast, least, most, example: str):
    """An argparse type for a range ``LO-HI`` of ``cast`` values within ``least..most``."""

    def parse(text: str):
        lo, sep, hi = text.partition("-")
        try:
            low, high = cast(lo), cast(hi)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{text!r} is not a range LO-HI such as {example}"
            ) from None
        if not (sep and least <= low <= high <= most):
            raise argparse.ArgumentTypeError(
                f"{text!r}: need {least} <= LO <= HI <= {most}, e.g. {example}"
            )
        return low, high

    return parse


_share_range = _range_of(float, 0.01, 1, "0.3-0.95")
_chip_range = _range_of(int, 0, 96, "55-92")
_tilt_range = _range_of(float, 0, 60, "45-60")
_aspect_range = _range_of(float, 0.5, 2.5, "0.65-0.85")


def _whole_number(least: int, problem: str):
    """An argparse type for a whole number of at least ``least`` (``problem`` says why not)."""

    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if n < least:
            raise argparse.ArgumentTypeError(problem)
        return n

    return parse


_count = _whole_number(1, "--count must be at least 1")
_seed = _whole_number(0, "--seed must not be negative")
_palette = _whole_number(0, "--palette must not be negative")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "render",
        help="make synthetic frames with exact ground truth",
        description="Render random frames of a Sequence board (or of a bare table) with a JSON "
        "truth sidecar per image and a summary.json.",
    )
    p.add_argument("out_dir", metavar="OUT_DIR", help="folder to write into (created if needed)")
    p.add_argument("--count", type=_count, default=20, help="number of frames (default 20)")
    p.add_argument("--seed", type=_seed, default=0, help="dataset seed (default 0)")
    p.add_argument(
        "--art",
        choices=[*ARTS, "mixed"],
        default="mixed",
        help="board art (default mixed: text or cards; the held-out mat only when named)",
    )
    p.add_argument(
        "--hands",
        type=_probability,
        default=0.2,
        metavar="P",
        help="probability that a frame has a hand over the board (default 0.2)",
    )
    p.add_argument(
        "--no-board",
        type=_probability,
        default=0.05,
        metavar="P",
        help="probability that a frame shows no board at all (default 0.05)",
    )
    p.add_argument(
        "--other-games",
        type=_probability,
        default=0.5,
        metavar="P",
        help="share of board-free frames that show another game's board: draughts, chess, go "
        "or a hundred chart with counters (default 0.5)",
    )
    p.add_argument(
        "--board-share",
        type=_share_range,
        default=None,
        metavar="LO-HI",
        help="make the whole board cover a share of the frame drawn from LO..HI, e.g. 0.3-0.95 "
        "(the vision issue's range); default: the renderer's own spread, mostly smaller boards",
    )
    p.add_argument(
        "--chips",
        type=_chip_range,
        default=None,
        metavar="LO-HI",
        help="put LO..HI chips on each board (blue and green, or all three colours, half each), "
        "e.g. 55-92 for boards late in the game; default: the renderer's own 0..75",
    )
    p.add_argument(
        "--size",
        type=_size,
        default=None,
        metavar="WxH",
        help="frame size for every frame (default: random 640x480..1920x1080)",
    )
    p.add_argument(
        "--max-tilt",
        type=float,
        default=40.0,
        metavar="DEG",
        help="largest camera tilt in degrees (default 40)",
    )
    p.add_argument(
        "--tilt",
        type=_tilt_range,
        default=None,
        metavar="LO-HI",
        help="draw every camera's tilt from LO..HI degrees (up to 60), e.g. 45-60 for photos "
        "taken from a seat at the table; default: the renderer's own 0..40 (see --max-tilt)",
    )
    p.add_argument(
        "--palette",
        type=_palette,
        default=None,
        metavar="N",
        help="draw every board in palette (style) N of the --art named, held-out ones included "
        "(text 0-6: 6 prints one bold suit as wide as a chip per cell; cards 0-4; mat 0-3); "
        "default: a random one of those random frames use",
    )
    p.add_argument(
        "--cell-aspect",
        type=_aspect_range,
        default=None,
        metavar="LO-HI",
        help="draw every board's cell width/height from LO..HI (0.5-2.5), e.g. 0.65-0.85 for "
        "portrait cells (cards printed upright); default: the art's own range",
    )
    p.add_argument(
        "--lens",
        type=_probability,
        default=LENS_SHARE,
        metavar="P",
        help=f"share of cameras with barrel/pincushion lens distortion (default {LENS_SHARE}; "
        "0 switches it off)",
    )
    p.add_argument(
        "--fold",
        type=_probability,
        default=0.0,
        metavar="P",
        help="probability that the board's halves do not lie flat (a fold, a crease bump; "
        "default 0)",
    )
    p.add_argument(
        "--waves",
        type=_probability,
        default=0.0,
        metavar="P",
        help="probability that the board is a wrinkled soft mat (default 0)",
    )
    p.add_argument("--format", choices=["jpg", "png"], default="jpg", dest="fmt")
    p.add_argument("--prefix", default="frame", help="file name prefix (default 'frame')")
    p.add_argument(
        "--empty-refs",
        action="store_true",
        help="also write OUT_DIR/empty/NAME: the same camera with an empty board "
        "(a calibration reference) for every frame that has a board",
    )
    p.add_argument(
        "--annotate",
        action="store_true",
        help="also write OUT_DIR/annotated/NAME.jpg with the truth drawn on the frame",
    )
    p.add_argument(
        "--jobs",
        type=_count,
        default=1,
        metavar="N",
        help="render N frames in parallel processes (default 1); same files",
    )
    p.add_argument("--quiet", action="store_true", help="no progress line per frame")
    p.set_defaults(func=run)


def frame_spec(
    seed: int,
    index: int,
    *,
    art: str,
    hands: float,
    no_board: float,
    size: tuple[int, int] | None,
    max_tilt: float,
    lens: float = 0.0,
    fold: float = 0.0,
    waves: float = 0.0,
    other_games: float = 0.0,
    board_share: tuple[float, float] | None = None,
    chips: tuple[int, int] | None = None,
    tilt: tuple[float, float] | None = None,
    palette: int | None = None,
    cell_aspect: tuple[float, float] | None = None,
):
    """The spec of frame ``index`` of dataset ``seed`` (independent of the other frames)."""
    from companion.render import random_spec

    rng = np.random.default_rng([seed, index])
    bends = np.random.default_rng([seed, index, 29])  # own stream: older frames stay the same
    overrides: dict = {"art": art, "hand": bool(rng.random() < hands), "lens": lens}
    overrides["fold"] = bool(bends.random() < fold)
    overrides["waves"] = bool(bends.random() < waves)
    if rng.random() < no_board:
        overrides["board"] = False
        overrides["hand"] = bool(rng.random() < hands)
        games = np.random.default_rng([seed, index, 31])  # own stream, as for the bends
        if games.random() < other_games:
            from companion.render.spec import OTHER_GAMES

            overrides["other_game"] = OTHER_GAMES[int(games.integers(0, len(OTHER_GAMES)))]
    if size is not None:
        overrides["size"] = size
    spec = random_spec(rng, **overrides)
    if spec.tilt_deg > max_tilt:
        spec = replace(spec, tilt_deg=max_tilt)
    if tilt is not None and spec.board:
        steep = np.random.default_rng([seed, index, 88]).uniform(*tilt)  # own stream
        spec = replace(spec, tilt_deg=float(steep))
    if palette is not None and spec.board:
        spec = replace(spec, palette=palette)
    if cell_aspect is not None and spec.board:
        aspect = np.random.default_rng([seed, index, 99]).uniform(*cell_aspect)  # own stream
        # (in steps of 0.05, as random frames: frames of a dataset share cached textures)
        spec = replace(spec, cell_aspect=round(float(aspect) * 20) / 20)
    if board_share is not None and spec.board:
        from companion.render.scene import with_board_share

        share = np.random.default_rng([seed, index, 41]).uniform(*board_share)
        spec = with_board_share(spec, float(share))
    if chips is not None and spec.board:
        from companion.render.randomize import random_cells

        counts = np.random.default_rng([seed, index, 77])  # own stream, as for the bends
        count = int(counts.integers(chips[0], chips[1] + 1))
        colours = "BGR" if counts.random() < 0.5 else "BG"
        spec = replace(spec, cells=random_cells(counts, chips=count, colors=colours))
    return spec


def _write(image, truth, spec, path: Path, fmt: str) -> None:
    """Encode once at the spec's JPEG quality (PNG keeps the JPEG round trip) + the sidecar."""
    from companion.render import truth as truth_io

    if fmt == "jpg":
        params = [cv2.IMWRITE_JPEG_QUALITY, int(spec.jpeg or 95)]
    else:
        params = []
        if spec.jpeg is not None:
            ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, spec.jpeg])
            image = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    ok, buf = cv2.imencode(f".{fmt}", image, params)
    if not ok:
        raise OSError("image encoding failed")
    path.write_bytes(buf.tobytes())
    truth_io.save(truth, path)


def _command(args: argparse.Namespace) -> str:
    parts = [
        "companion render",
        args.out_dir,
        f"--count {args.count}",
        f"--seed {args.seed}",
        f"--art {args.art}",
        f"--hands {args.hands}",
        f"--no-board {args.no_board}",
        f"--other-games {args.other_games}",
    ]
    if args.board_share:
        parts.append(f"--board-share {args.board_share[0]}-{args.board_share[1]}")
    if args.chips:
        parts.append(f"--chips {args.chips[0]}-{args.chips[1]}")
    if args.size:
        parts.append(f"--size {args.size[0]}x{args.size[1]}")
    if args.max_tilt != 40.0:
        parts.append(f"--max-tilt {args.max_tilt}")
    if args.tilt:
        parts.append(f"--tilt {args.tilt[0]}-{args.tilt[1]}")
    if args.palette is not None:
        parts.append(f"--palette {args.palette}")
    if args.cell_aspect:
        parts.append(f"--cell-aspect {args.cell_aspect[0]}-{args.cell_aspect[1]}")
    parts.append(f"--lens {args.lens}")
    if args.fold:
        parts.append(f"--fold {args.fold}")
    if args.waves:
        parts.append(f"--waves {args.waves}")
    if args.fmt != "jpg":
        parts.append(f"--format {args.fmt}")
    if args.prefix != "frame":
        parts.append(f"--prefix {args.prefix}")
    if args.empty_refs:
        parts.append("--empty-refs")
    if args.annotate:
        parts.append("--annotate")
    return " ".join(parts)


def render_one(job: tuple) -> dict:
    """Render and write frame ``index`` (a worker for ``--jobs``); errors come back as data."""
    from companion.render.scene import render_raw
    from companion.render.spec import EMPTY_BOARD, SpecError

    index, options = job
    out = Path(options["out_dir"])
    try:
        spec = frame_spec(
            options["seed"],
            index,
            art=options["art"],
            hands=options["hands"],
            no_board=options["no_board"],
            size=options["size"],
            max_tilt=options["max_tilt"],
            lens=options["lens"],
            fold=options["fold"],
            waves=options["waves"],
            other_games=options["other_games"],
            board_share=options["board_share"],
            chips=options["chips"],
            tilt=options["tilt"],
            palette=options["palette"],
            cell_aspect=options["cell_aspect"],
        )
        image, truth = render_raw(spec)
    except SpecError as exc:
        return {"error": str(exc), "code": EXIT_USAGE}
    name = out / f"{options['prefix']}_{index:04d}.{options['fmt']}"
    try:
        _write(image, truth, spec, name, options["fmt"])
        if options["annotate"]:
            from companion.render.truth import annotate

            (out / "annotated").mkdir(exist_ok=True)
            cv2.imwrite(str(out / "annotated" / f"{name.stem}.jpg"), annotate(image, truth))
        if options["empty_refs"] and spec.board:
            empty_spec = spec.with_frame(cells=EMPTY_BOARD, hands=(), seed=spec.seed + 1)
            (out / "empty").mkdir(exist_ok=True)
            _write(*render_raw(empty_spec), empty_spec, out / "empty" / name.name, options["fmt"])
    except OSError as exc:
        return {"error": f"cannot write {name}: {exc}", "code": EXIT_IO}
    return {
        "name": str(name),
        "board": spec.board,
        "art": spec.art,
        "hands": len(spec.hands),
        "size": spec.size,
        "orientation": truth.orientation,
        "lens": bool(spec.lens_k1 or spec.lens_k2),
        "fold": bool(spec.fold_deg or spec.fold_bump),
        "waves": bool(spec.waves),
        "other_game": spec.other_game,
    }


def _results(args: argparse.Namespace):
    options = {
        "out_dir": args.out_dir,
        "seed": args.seed,
        "art": args.art,
        "hands": args.hands,
        "no_board": args.no_board,
        "size": args.size,
        "max_tilt": args.max_tilt,
        "lens": args.lens,
        "fold": args.fold,
        "waves": args.waves,
        "other_games": args.other_games,
        "board_share": args.board_share,
        "chips": args.chips,
        "tilt": args.tilt,
        "palette": args.palette,
        "cell_aspect": args.cell_aspect,
        "prefix": args.prefix,
        "fmt": args.fmt,
        "empty_refs": args.empty_refs,
        "annotate": args.annotate,
    }
    jobs = [(i, options) for i in range(args.count)]
    if args.jobs <= 1 or args.count == 1:
        yield from map(render_one, jobs)
        return
    import multiprocessing

    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        yield from pool.imap(render_one, jobs)


def run(args: argparse.Namespace) -> int:
    if not 0 <= args.max_tilt <= 60:
        print("companion render: --max-tilt must be within 0..60 degrees", file=sys.stderr)
        return EXIT_USAGE
    if args.palette is not None:
        from companion.render.art import style_count

        if args.art == "mixed":
            print(
                "companion render: --palette needs one --art (text, cards or mat)", file=sys.stderr
            )
            return EXIT_USAGE
        if args.palette >= style_count(args.art):
            print(
                f"companion render: the {args.art} art has palettes 0-{style_count(args.art) - 1}",
                file=sys.stderr,
            )
            return EXIT_USAGE
    out = Path(args.out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(f"companion render: cannot create {out}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_IO
    started = time.perf_counter()
    stats = {"frames": 0, "board": 0, "no_board": 0, "with_hands": 0}
    stats.update({art: 0 for art in ARTS})
    stats.update(with_lens=0, folded=0, wavy=0, other_games=0)
    for result in _results(args):
        if "error" in result:
            print(f"companion render: {result['error']}", file=sys.stderr)
            return result["code"]
        stats["frames"] += 1
        stats["board" if result["board"] else "no_board"] += 1
        stats["with_hands"] += bool(result["hands"])
        stats["with_lens"] += result["lens"]
        stats["folded"] += result["fold"]
        stats["wavy"] += result["waves"]
        stats["other_games"] += bool(result["other_game"])
        if result["board"]:
            stats[result["art"]] += 1
        if not args.quiet:
            w, h = result["size"]
            kind = result["art"] if result["board"] else result["other_game"] or "no board"
            print(
                f"{result['name']}  {kind:8s} {w}x{h}  orientation {result['orientation']}"
                f"  hands {result['hands']}",
                file=sys.stderr,
            )
    elapsed = time.perf_counter() - started
    summary = {
        "command": _command(args),
        "seed": args.seed,
        "art": args.art,
        "p_hands": args.hands,
        "p_no_board": args.no_board,
        "size": list(args.size) if args.size else None,
        "max_tilt": args.max_tilt,
        "p_lens": args.lens,
        "p_fold": args.fold,
        "p_waves": args.waves,
        "p_other_games": args.other_games,
        "board_share": list(args.board_share) if args.board_share else None,
        "chips": list(args.chips) if args.chips else None,
        "tilt": list(args.tilt) if args.tilt else None,
        "palette": args.palette,
        "cell_aspect": list(args.cell_aspect) if args.cell_aspect else None,
        "format": args.fmt,
        **stats,
        "seconds": round(elapsed, 2),
    }
    try:
        (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    except OSError as exc:
        print(f"companion render: cannot write summary: {exc}", file=sys.stderr)
        return EXIT_IO
    print(json.dumps(summary))
    return EXIT_OK
