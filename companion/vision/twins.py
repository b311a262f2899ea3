"""Twin cards: every card but the jacks is printed twice on the classic board, so an empty cell
looks like its twin (and, on many arts, like the other empty cards of its suit).

The reading's doubts (a line faded by glare, a hand on the next cell, a big printed heart that
might be a washed-out red chip) leave a cell unknown. Where its twin reads empty and the cell's
inside shows the same picture as the twin's (normalised cross-correlation: glare's added light
and a colder or warmer lamp change the level and contrast, not the picture), nothing lies on
it: a chip, a hand or a card over the printing breaks the likeness (a chip on a cell whose twin
is empty correlates at most 0.72 with it on 1,100 rendered frames, empty twins at 0.99 as a
rule). This is the empty-board reference a calibration gives, taken from the board itself.

Where the twin holds a chip, the other cards of the same rank or suit read empty stand in for
it: a cards art lays out the pips of a rank alike in every suit, a mat prints the same big heart
on every heart card, a text board the same rank or suit symbol. Each look costs a template
match (~25-40 us), so these cousins are looked at only when a few cells are unknown: more are a
hand over the board, which the next frames read.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import cv2
import numpy as np

from companion.classic import CLASSIC_LAYOUT
from companion.vision.geometry import to_screen_grid
from companion.vision.stats import median

# an unknown cell this alike its empty twin is empty (0.85 until this round: on 1,100 seen
# frames the 19,221 chips whose twin reads empty correlate with it at most 0.72, 99 % of them
# below 0.57; empty cells read `?` at 0.80-0.85 were left unknown; A/B on 42 seen sets:
# hand-free boards exact +5, no cell read wrong)
TWIN_MATCH = 0.8
INNER = 0.12  # of a cell's width and height left out on each side: its border and lines
SLACK = 0.06  # ... and a little more of the twin's, so that a grid a pixel or two off still
# lines the two pictures up
# a cell doubted only for lying beside a cover, read empty before that, reads empty at this
# likeness to an empty cousin: on 2,151 independent boards without hands, 465 under an arm and
# 605 of our renderer's (hands and loose cards on 230), such cells left `?` with a cousin
# 0.75-0.8 alike were all empty (20 visible, 12 under a hand); chips doubted so: at most 0.7
ASIDE_MATCH = 0.75
# unknown cells compared with their rank's and suit's other cards, at most (4 until this round:
# a felt board's faint lines left 5 empty cards unknown on one frame; A/B at 6 on the 14
# independent board sets, the arm sets and our 46 sets: no cell read wrong, `?` down on 24 sets)
COUSIN_CELLS_MAX = 6
COUSIN_LOOKS_MAX = 24  # ... and cells compared at most, those set aside included (the cost;
# at 12, a few frames of small chips beside many covers kept cells `?` that 24 reads)


@functools.cache
def _canonical_twins() -> np.ndarray:
    """10x10 int: for each canonical cell, the flat index (row * 10 + col) of the other cell
    printing its card; -1 on the free corners."""
    codes = [code for row in CLASSIC_LAYOUT for code in row]
    twins = np.full(100, -1, np.int64)
    for i, code in enumerate(codes):
        others = [j for j, other in enumerate(codes) if other == code and j != i]
        if code != "W" and len(others) == 1:
            twins[i] = others[0]
    return twins.reshape(10, 10)


@functools.cache
def card_cells(orientation: int) -> tuple[np.ndarray, np.ndarray]:
    """Two 10x10 str arrays in screen order for a board turned ``orientation`` degrees
    clockwise: each cell's rank (``A``, ``2``..``9``, ``T``, ``Q``, ``K``) and suit letter
    (``S``, ``C``, ``H``, ``D``); ``W`` for both on the free corners."""
    ranks = np.array([[code[0] for code in row] for row in CLASSIC_LAYOUT])
    suits = np.array([[code[-1] for code in row] for row in CLASSIC_LAYOUT])
    return to_screen_grid(ranks, orientation), to_screen_grid(suits, orientation)


@functools.cache
def _flat_cards(orientation: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`card_cells` flattened (screen flat index), and which cells print a red suit."""
    ranks, suits = (cells.ravel() for cells in card_cells(orientation))
    return ranks, suits, np.isin(suits, ("H", "D"))


@functools.cache
def twin_cells(orientation: int) -> np.ndarray:
    """10x10 int in screen order for a board turned ``orientation`` degrees clockwise: the
    screen flat index of each cell's twin, -1 where there is none."""
    screen_of_canon = np.empty(100, np.int64)
    screen_of_canon[to_screen_grid(np.arange(100).reshape(10, 10), orientation).ravel()] = (
        np.arange(100)
    )
    twins = to_screen_grid(_canonical_twins(), orientation)
    return np.where(twins >= 0, screen_of_canon[np.maximum(twins, 0)], -1)


def likeness(grid: np.ndarray, cell: int, twin: int) -> float:
    """Normalised cross-correlation of a cell's inside with its twin's (screen flat indices
    into the 10x10 ``grid`` image), the best over small shifts."""
    h, w = grid.shape[0] / 10, grid.shape[1] / 10
    (r, c), (tr, tc) = divmod(cell, 10), divmod(twin, 10)
    my, mx = INNER * h, INNER * w
    sy, sx = round(SLACK * h), round(SLACK * w)
    window = grid[int(r * h + my) : int((r + 1) * h - my), int(c * w + mx) : int((c + 1) * w - mx)]
    template = grid[
        int(tr * h + my) + sy : int((tr + 1) * h - my) - sy,
        int(tc * w + mx) + sx : int((tc + 1) * w - mx) - sx,
    ]
    if min(template.shape[:2]) < 4:
        return 0.0
    match = cv2.matchTemplate(window, template, cv2.TM_CCOEFF_NORMED)
    best = float(match.max())
    return best if np.isfinite(best) else 0.0


class Likenesses:
    """:func:`likeness` of pairs of cells of one grid image, each pair matched once. Kept with
    a located grid and renewed with each frame's grid (:meth:`renew`), a pair is matched again
    only where either cell's mean colour moved by more than ``SAME_MEAN`` (a fixed camera sees
    the same cards frame after frame)."""

    def __init__(self) -> None:
        self.grid: np.ndarray | None = None
        self._means: np.ndarray | None = None
        self._kept: dict[tuple[int, int], float] = {}
        self._answers: dict = {}  # (see :meth:`answer`)

    def renew(self, grid: np.ndarray) -> Likenesses:
        """This memo for ``grid`` (a new frame's picture of the same grid), ready to match."""
        self.grid = grid
        means = cell_means(grid)
        if self._means is None or self._means.shape != means.shape:
            self._means, self._kept, self._answers = means, {}, {}
            return self
        moved = np.abs(means - self._means).max(axis=1) > SAME_MEAN
        if moved.any():
            self._means[moved] = means[moved]
            self._kept = {k: v for k, v in self._kept.items() if not moved[list(k)].any()}
            self._answers = {}
        return self

    def answer(self, key, compute: Callable[[], object]):
        """``compute()``, kept under ``key`` (hashable: what the answer depends on besides the
        picture) until a frame in which some cell's mean colour moved."""
        if key not in self._answers:
            self._answers[key] = compute()
        return self._answers[key]

    def __call__(self, cell: int, other: int) -> float:
        key = (int(cell), int(other))
        if key not in self._kept:
            self._kept[key] = likeness(self.grid, *key)
        return self._kept[key]


SAME_MEAN = 2  # grey levels a cell's mean colour may move with its likenesses kept
SAMPLES = 4  # a cell's mean colour is taken over SAMPLES x SAMPLES pixels inside it


def cell_means(grid: np.ndarray) -> np.ndarray:
    """100 x channels float32: each cell's mean colour over a lattice of ``SAMPLES`` x
    ``SAMPLES`` pixels inside it (its border left out as in :func:`likeness`), row by row; a
    tenth of the cost of an area-averaged shrink, which counts on every frame."""
    h, w = grid.shape[:2]
    picture = np.ascontiguousarray(grid).reshape(h * w, -1)
    samples = np.take(picture, _lattice(h, w), axis=0).reshape(100, -1).astype(np.float32)
    return samples @ _averager(picture.shape[1])


@functools.lru_cache(maxsize=8)
def _lattice(h: int, w: int) -> np.ndarray:
    """The flat pixel indices of :func:`cell_means`'s samples, cell by cell."""
    spots = INNER + (1 - 2 * INNER) * (np.arange(SAMPLES) + 0.5) / SAMPLES
    ys = (np.arange(10)[:, None] + spots[None, :]) * (h / 10)
    xs = (np.arange(10)[:, None] + spots[None, :]) * (w / 10)
    y, x = np.broadcast_arrays(
        ys.astype(np.intp)[:, None, :, None], xs.astype(np.intp)[None, :, None, :]
    )
    return (y * w + x).ravel()


@functools.lru_cache(maxsize=4)
def _averager(channels: int) -> np.ndarray:
    """(SAMPLES^2 * channels) x channels: averages a cell's samples channel by channel."""
    return np.tile(np.eye(channels, dtype=np.float32), (SAMPLES * SAMPLES, 1)) / SAMPLES**2


def _matcher(grid: np.ndarray, match: Callable[[int, int], float] | None):
    """``match``, or :func:`likeness` on ``grid``."""
    return match if match is not None else functools.partial(likeness, grid)


def empty_like_twins(
    grid: np.ndarray,
    symbols: np.ndarray,
    orientation: int,
    printed: np.ndarray | None = None,
    match: Callable[[int, int], float] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The unknown cells (``symbols`` 10x10, screen order) that show what their empty twin
    shows: a 10x10 bool mask and each one's likeness (0 elsewhere).

    With ``printed`` (10x10 bool: cells read empty before their doubts that show their card's
    printing and no hand), twins both unknown and both ``printed`` that show the same picture
    are both empty: each shows its card (a chip, a hand or a card lying on either would break
    the likeness, and twins never lie side by side, so one cover cannot lie alike on both).
    ``match`` as in :func:`empty_pairs`."""
    like_of = _matcher(grid, match)
    twins = twin_cells(orientation).ravel()
    flat = symbols.ravel()
    shown = np.zeros(100, bool) if printed is None else np.asarray(printed).ravel()
    found = np.zeros(100, bool)
    alike = np.zeros(100, np.float32)
    for cell in np.flatnonzero(flat == "?"):
        twin = twins[cell]
        if twin < 0:
            continue
        if flat[twin] != "." and not (flat[twin] == "?" and shown[cell] and shown[twin]):
            continue
        alike[cell] = like_of(int(cell), int(twin))
        found[cell] = alike[cell] >= TWIN_MATCH
    return found.reshape(10, 10), alike.reshape(10, 10)


def empty_like_cousins(
    grid: np.ndarray,
    symbols: np.ndarray,
    orientation: int,
    sure: np.ndarray | None = None,
    aside: np.ndarray | None = None,
    match: Callable[[int, int], float] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The unknown cells (``symbols`` 10x10, screen order; at most ``COUSIN_CELLS_MAX`` of
    them, else none are looked at) that show what another empty card of their rank or suit
    shows (the twin left out: :func:`empty_like_twins` looked at it): a 10x10 bool mask and
    each one's likeness (0 elsewhere).

    With ``sure`` (10x10 bool: the cells read empty confidently, the reader passes those above
    a reading by shape alone), a card read empty but not surely stands in only with a second
    one alike: a red chip read as bold printing by its shape looks like the red chip on an
    unknown cousin (0.82-0.84 on an independently drawn board, as much as its empty cousins
    looked alike), while a bold-suit board's hearts, read empty by their shape, are many.

    With ``aside`` (10x10 bool), those unknown cells are compared but not counted against
    ``COUSIN_CELLS_MAX``: cells doubted only for lying beside a cover are no cover themselves
    (a felt board's faint line leaves a dozen of them around two cards). They read empty at
    ``ASIDE_MATCH``, a little below ``TWIN_MATCH``: they were read empty before their doubt, and
    the cover beside them may shade them or reach over their border. At most
    ``COUSIN_LOOKS_MAX`` cells are compared in all (each takes up to ~29 template matches).
    ``match`` (a :class:`Likenesses`): the likeness of two cells, kept."""
    like_of = _matcher(grid, match)
    flat = symbols.ravel()
    found = np.zeros(100, bool)
    alike = np.zeros(100, np.float32)
    ranks, suits, _ = _flat_cards(orientation)
    twins = twin_cells(orientation).ravel()
    unknown = (flat == "?") & (suits != "W")  # (a free corner holds nothing)
    aside_flat = np.zeros(100, bool) if aside is None else np.asarray(aside).ravel()
    counted = unknown & ~aside_flat
    unknown = np.flatnonzero(unknown)
    if np.count_nonzero(counted) > COUSIN_CELLS_MAX or len(unknown) > COUSIN_LOOKS_MAX:
        return found.reshape(10, 10), alike.reshape(10, 10)
    empty = flat == "."
    sure_flat = np.ones(100, bool) if sure is None else np.asarray(sure).ravel()
    for cell in unknown:
        least = ASIDE_MATCH if aside_flat[cell] else TWIN_MATCH
        others = empty & (np.arange(100) != twins[cell])
        # the same rank first (a few cards, whose pips lie alike), then the same suit
        same_rank = np.flatnonzero(others & (ranks == ranks[cell]))
        same_suit = np.flatnonzero(others & (suits == suits[cell]) & (ranks != ranks[cell]))
        unsure_alike = 0
        for other in np.concatenate([same_rank, same_suit]):
            like = like_of(int(cell), int(other))
            alike[cell] = max(alike[cell], like)
            if like >= least:
                unsure_alike += not sure_flat[other]
                if sure_flat[other] or unsure_alike >= 2:
                    found[cell] = True
                    break
    return found.reshape(10, 10), alike.reshape(10, 10)


TWIN_PAIRS_MIN = 4  # empty twin pairs needed to judge a grid by them (fewer: not judged)


def empty_twins_alike(
    grid: np.ndarray,
    symbols: np.ndarray,
    orientation: int,
    match: Callable[[int, int], float] | None = None,
) -> tuple[float | None, int]:
    """How alike the twin pairs both read empty look on a grid image (``symbols`` 10x10, screen
    order): the median :func:`likeness` of the pairs and their number (None with fewer than
    ``TWIN_PAIRS_MIN``).

    On a grid lying on the cards, an empty card and its empty twin show the same picture
    (0.92-0.99 in the median, as a rule); a grid bent off the cards (a tablecloth's checks or a
    board's faint gaps fooling the fit) cuts each cell from different cards, and its "empty
    twins" are unlike (0.16-0.18 on two independently drawn frames)."""
    return pairs_alike(*empty_pairs(grid, symbols, orientation, match))


def pairs_alike(cells: np.ndarray, alike: np.ndarray) -> tuple[float | None, int]:
    """:func:`empty_twins_alike` of the pairs :func:`empty_pairs` measured."""
    if len(cells) < TWIN_PAIRS_MIN:
        return None, int(len(cells))
    return median(alike), int(len(cells))


def empty_pairs(
    grid: np.ndarray,
    symbols: np.ndarray,
    orientation: int,
    match: Callable[[int, int], float] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The twin pairs both read empty (``symbols`` 10x10, screen order): the first cell of each
    (screen flat index; its twin is ``twin_cells``'s) and each pair's :func:`likeness`
    (``match``: a :class:`Likenesses`, kept with a located grid)."""
    flat = np.asarray(symbols).ravel()

    def measure() -> tuple[np.ndarray, np.ndarray]:
        like_of = _matcher(grid, match)
        twins = twin_cells(orientation).ravel()
        pairs = np.flatnonzero((twins > np.arange(100)) & (flat == "."))
        pairs = pairs[flat[twins[pairs]] == "."]
        return pairs, np.array([like_of(int(c), int(twins[c])) for c in pairs], np.float64)

    if isinstance(match, Likenesses):
        return match.answer(("empty_pairs", orientation, flat.tobytes()), measure)
    return measure()


# a card and its twin both read empty that look this unlike (:func:`likeness`) ...
PAIR_UNLIKE = 0.5
# ... and still this unlike looked at loosely (:func:`loose_likeness`), on a board whose empty
# twins look alike, hold something on one of them: a chip washed out by glare or of a hue no
# chip class takes (on 9 independent board sets, 3 such chips 0.32-0.61 alike with their twin;
# the empty pairs below PAIR_UNLIKE, 17 on three frames, 0.90 and more)
LOOSE_UNLIKE = 0.75
LOOSE_SLACK = 0.18  # of a cell's width and height: the twin's inside shifted this much more
LOOSE_BLUR = 1.0  # pixels (Gaussian sigma) both pictures are blurred by


def loose_likeness(grid: np.ndarray, cell: int, twin: int) -> float:
    """:func:`likeness` of a cell and its twin with both pictures blurred and the search
    ``LOOSE_SLACK`` wide, the better of the two ways round. A grid a part of a cell off in one
    part of the board (a lens, a bent board) shifts a card's pips against its twin's by more
    than ``SLACK``, and pips a few pixels apart stop correlating (empty twins alike to the eye
    measured 0.03-0.48 on three frames, 0.90-0.98 so); a chip or a cover changes the picture
    broadly and stays unlike."""
    h, w = grid.shape[0] / 10, grid.shape[1] / 10

    def inside(index: int, slack: float) -> np.ndarray:
        r, c = divmod(index, 10)
        y0, y1, x0, x1 = int(r * h), int((r + 1) * h), int(c * w), int((c + 1) * w)
        picture = cv2.GaussianBlur(grid[y0:y1, x0:x1], (0, 0), LOOSE_BLUR)
        my, mx = int(INNER * h + slack * h), int(INNER * w + slack * w)
        return picture[my : picture.shape[0] - my, mx : picture.shape[1] - mx]

    best = 0.0
    for one, other in ((cell, twin), (twin, cell)):
        window, template = inside(one, 0.0), inside(other, LOOSE_SLACK)
        if min(template.shape[:2]) < 4:
            return 1.0  # (too small to tell: no sign of anything)
        match = float(cv2.matchTemplate(window, template, cv2.TM_CCOEFF_NORMED).max())
        best = max(best, match if np.isfinite(match) else 0.0)
    return best


def unlike_pairs(
    grid: np.ndarray, cells: np.ndarray, alike: np.ndarray, orientation: int
) -> np.ndarray:
    """Both cards (10x10 bool, screen order) of each pair :func:`empty_pairs` measured that
    look less alike than ``PAIR_UNLIKE``, and than ``LOOSE_UNLIKE`` looked at loosely."""
    out = np.zeros(100, bool)
    twins = twin_cells(orientation).ravel()
    for cell in cells[alike < PAIR_UNLIKE]:
        if loose_likeness(grid, int(cell), int(twins[cell])) < LOOSE_UNLIKE:
            out[[cell, twins[cell]]] = True
    return out.reshape(10, 10)


# a red chip on a red ace, its empty twin ace beside the picture: one big red pip under a red
# disc of about its size, so the shape cannot tell them apart; the likeness can (on 240 seen
# jax-like frames, empty aces whose twin is empty 0.96 and more, 5th percentile, chips on
# them 0.63 at most)
ACE_UNLIKE = 0.7
# a twin read empty not surely (by its shape alone) stands in for the empty card where it shows
# this much less red (share of the inner cell) than the cell looked at
RED_MORE = 0.1


def unlike_empty_twins(
    grid: np.ndarray,
    look: np.ndarray,
    symbols: np.ndarray,
    sure: np.ndarray,
    orientation: int,
    match: Callable[[int, int], float] | None = None,
) -> np.ndarray:
    """Of the cells ``look`` marks (10x10 bool, screen order), those whose twin reads empty
    surely (``symbols`` ``.`` where ``sure``) and whose inside shows another picture than
    that twin's (likeness below ``ACE_UNLIKE``): something lies on them. ``match`` as in
    :func:`empty_pairs`."""
    like_of = _matcher(grid, match)
    twins = twin_cells(orientation).ravel()
    flat, surely = symbols.ravel(), np.asarray(sure).ravel()
    out = np.zeros(100, bool)
    for cell in np.flatnonzero(look):
        twin = twins[cell]
        if twin >= 0 and flat[twin] == "." and surely[twin]:
            out[cell] = like_of(int(cell), int(twin)) < ACE_UNLIKE
    return out.reshape(10, 10)


# a card printed red read empty by its shape, its twin holding a chip, that shows another
# picture than every card of its rank in a red suit read empty: on the 15 independent board sets
# (1,800 frames, boards whose empty twins look >= 0.9 alike), 641 empty cards looked >= 0.57 like
# such a cousin, the 4 red chips among them 0.13-0.27 (a heart's and a diamond's bold pips)
COUSIN_UNLIKE = 0.45


def unlike_red_cousins(
    grid: np.ndarray,
    look: np.ndarray,
    symbols: np.ndarray,
    red: np.ndarray,
    orientation: int,
    match: Callable[[int, int], float] | None = None,
) -> np.ndarray:
    """Of the cells ``look`` marks (10x10 bool, screen order) whose twin does not read empty,
    those that look unlike (below ``COUSIN_UNLIKE``) every card of their rank in a red suit
    (hearts, diamonds; the twin left out) read empty, the least red of which shows
    ``RED_MORE`` less red (``red``: 10x10 shares) than the cell: something red lies on them.
    ``match`` as in :func:`empty_pairs`."""
    like_of = _matcher(grid, match)
    twins = twin_cells(orientation).ravel()
    ranks, _, red_suit = _flat_cards(orientation)
    flat, share = symbols.ravel(), np.asarray(red).ravel()
    empty_red = (flat == ".") & red_suit
    out = np.zeros(100, bool)
    for cell in np.flatnonzero(look):
        twin = twins[cell]
        if twin < 0 or flat[twin] == ".":
            continue
        others = empty_red & (ranks == ranks[cell])
        others[[cell, twin]] = False
        others = np.flatnonzero(others)
        if len(others) == 0 or share[others].min() > share[cell] - RED_MORE:
            continue
        out[cell] = max(like_of(int(cell), int(other)) for other in others) < COUSIN_UNLIKE
    return out.reshape(10, 10)
