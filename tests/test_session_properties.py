"""Property test of the session under a glare spot: cells that are never readable may hide
moves, but whatever the game, the session never rules a move the table did not play, nor out
of order, and never calls the board wrong; every move is ruled when none goes unseen; and a
crash at any turn changes no ruling."""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from companion.capture.frame import Frame
from companion.cells import CORNERS, parse_cell
from companion.render.game_video import PLACE, REMOVE, random_script
from companion.session import GameSession
from companion.store import Store
from companion.vision.reading import BoardReading

EMPTY = ["*........*"] + ["." * 10] * 8 + ["*........*"]
FPS = 10
NON_CORNER = [(r, c) for r in range(10) for c in range(10) if (r, c) not in CORNERS]
SYMBOL = {"blue": "B", "green": "G"}


class GlareReader:
    """Reads the table's board exactly, except the glare cells, '?' while the glare lasts."""

    def __init__(self, glare: set) -> None:
        self.glare = glare
        self.board = EMPTY
        self.glaring = True

    def read(self, image):
        rows = [list(r) for r in self.board]
        for r, c in self.glare if self.glaring else ():
            rows[r][c] = "?"
        corners = np.float32([[8, 4], [56, 4], [56, 44], [8, 44]])
        return BoardReading(True, 0, ["".join(r) for r in rows], np.ones((10, 10)), corners)

    def straighten(self, image):
        return image[:40, :40].copy()


def play(
    session: GameSession,
    reader: GlareReader,
    boards: list[list[str]],
    clear_at: int = 99,
    answers: bool = False,
    restart_at: int | None = None,
    answer_from: int = 0,
) -> GameSession:
    """Each board after a hand visit; from board ``clear_at`` on, the glare is gone (a lamp
    moved). With ``answers`` the table answers each question the page shows: it corrects the
    named cells whose chip differs from the game's board, from board ``answer_from`` on. With
    ``restart_at`` the companion
    crashes before that board's hand visit and starts again on the same database (the camera's
    clock goes on). Returns the session in use at the end."""
    rng = np.random.default_rng(0)
    index = 0
    still = np.full((48, 64, 3), 100, np.uint8)

    def frame(image) -> None:
        nonlocal index
        session.process_frame(Frame(image, index / FPS, index, "test"))
        index += 1

    def answer(k: int, board: list[str]) -> None:
        state = session.state()
        if not answers or k < answer_from or not state["status_message"].startswith("Cannot see"):
            return
        for name in state["mismatch"]:
            r, c = parse_cell(name)
            if board[r][c] != state["board"][r][c]:
                session.correct_cell(name, board[r][c])

    for k, board in enumerate(boards):
        if k == restart_at:
            session.store.close()
            session = GameSession(store=Store(session.store.path), reader=reader, evidence=False)
        if k:
            for _ in range(5):  # a hand
                frame(rng.integers(0, 255, still.shape, np.uint8))
        reader.board = board
        reader.glaring = k < clear_at
        for _ in range(12):
            frame(still)
            answer(k, board)
    return session


def boards_after_each_move(script) -> list[list[str]]:
    """The empty board, then the board after each step of ``script``."""
    boards, rows = [EMPTY], [list(r) for r in EMPTY]
    for step in script:
        r, c = parse_cell(step.cell)
        rows[r][c] = SYMBOL[step.color] if step.kind == PLACE else "."
        boards.append(["".join(row) for row in rows])
    return boards


def moves_of(script) -> list[dict]:
    """The record's moves of ``script``, as ``session.state()["moves"]`` lists them."""
    return [{"color": s.color, "place" if s.kind == PLACE else "remove": s.cell} for s in script]


# issue 4: glare over row 1 and G7 hides green's G7; blue then takes green's C8 off, green
# places G2 and blue puts a chip back on C8. C8 reading blue was once taken as a misread colour,
# and "green placed G2" was ruled as move 6.
ISSUE_4_GLARE = {(0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (0, 6), (6, 6)}


def test_a_chip_taken_off_and_replaced_next_to_a_hidden_move_is_asked_not_ruled():
    script = [s for s in random_script(np.random.default_rng(1129), 9) if s.kind in (PLACE, REMOVE)]
    assert [(s.kind, s.color, s.cell) for s in script[4:]] == [
        (PLACE, "blue", "J7"),
        (PLACE, "green", "G7"),  # under the glare: never seen
        (REMOVE, "blue", "C8"),
        (PLACE, "green", "G2"),
        (PLACE, "blue", "C8"),
    ]
    reader = GlareReader(ISSUE_4_GLARE)
    session = GameSession(store=Store(), reader=reader, evidence=False)
    play(session, reader, boards_after_each_move(script))
    state = session.state()
    assert state["moves"] == moves_of(script)[:5]  # nothing ruled after blue's J7
    assert state["status_message"].startswith("Cannot see B1, C1, D1, E1, F1, G1, G7:")
    assert (
        "the green chip on C8 was taken off and a blue chip put there" in (state["status_message"])
    )


# a random game under a random glare spot, which may clear (a lamp moved) from board clear_at on
GLARE_GAMES = dict(
    seed=st.integers(0, 10_000),
    moves=st.integers(2, 9),
    glare=st.sets(st.sampled_from(NON_CORNER), max_size=12),
    clear_at=st.one_of(st.just(99), st.integers(1, 10)),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**GLARE_GAMES)
@example(seed=1129, moves=9, glare=ISSUE_4_GLARE, clear_at=99)
def test_a_glare_spot_never_makes_the_session_rule_wrongly(seed, moves, glare, clear_at):
    script = [
        s for s in random_script(np.random.default_rng(seed), moves) if s.kind in (PLACE, REMOVE)
    ]
    # move i shows on board i + 1: unseen when it lies under the glare before it clears
    unseen = [parse_cell(s.cell) in glare and i + 1 < clear_at for i, s in enumerate(script)]
    # a whole round of the table going unseen cannot be told from no move at all, and while
    # the table is asked about an unseen move, a chip placed and taken straight off again
    # looks like the table putting the board back
    assume(not any(a and b for a, b in zip(unseen, unseen[1:], strict=False)))
    assume(not any(a.cell == b.cell for a, b in zip(script, script[1:], strict=False)))
    boards = boards_after_each_move(script)
    reader = GlareReader(glare)
    session = GameSession(store=Store(), reader=reader, evidence=False)
    play(session, reader, boards, clear_at)

    truth = moves_of(script)
    state = session.state()
    ruled = state["moves"]
    assert ruled == truth[: len(ruled)]  # a prefix of the real game: nothing made up
    assert all(r["code"] == "ok" for r in state["rulings"])  # no mismatch, no illegal ruling
    if not any(unseen):
        assert ruled == truth
    else:
        assert len(ruled) >= unseen.index(True)  # every move before the first unseen is ruled


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    moves=st.integers(2, 9),
    glare=st.sets(st.sampled_from(NON_CORNER), max_size=12),
)
# found by this test: green's H6 unseen under the glare, then blue placing on G2, the cell blue
# had just cleared of green's chip, was taken for the table putting green's chip back
@example(seed=1222, moves=7, glare={(0, 1), (0, 2), (5, 7)})
def test_a_table_that_answers_the_questions_gets_every_move_ruled(seed, moves, glare):
    script = [
        s for s in random_script(np.random.default_rng(seed), moves) if s.kind in (PLACE, REMOVE)
    ]
    unseen = [parse_cell(s.cell) in glare for s in script]
    assume(not any(a and b for a, b in zip(unseen, unseen[1:], strict=False)))
    boards = boards_after_each_move(script)
    reader = GlareReader(glare)
    session = GameSession(store=Store(), reader=reader, evidence=False)
    play(session, reader, boards, answers=True)
    truth = moves_of(script)
    if unseen and unseen[-1]:  # a last move under the glare leaves nothing to ask about
        truth = truth[:-1]
    state = session.state()
    assert state["moves"] == truth
    assert all(r["code"] == "ok" for r in state["rulings"])


def _outcome(script, glare, clear_at, restart_at, answer_from) -> tuple[list, list]:
    """Moves and ruling codes of a game played on a database file, crashing or not."""
    reader = GlareReader(glare)
    with tempfile.TemporaryDirectory() as folder:
        session = GameSession(store=Store(Path(folder) / "games.db"), reader=reader, evidence=False)
        session = play(
            session, reader, boards_after_each_move(script), clear_at, answers=True,
            restart_at=restart_at, answer_from=answer_from,
        )  # fmt: skip
        state = session.state()
        session.store.close()
    return state["moves"], [r["code"] for r in state["rulings"]]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    **GLARE_GAMES,
    crash=st.floats(0, 1, exclude_max=True),
    late=st.booleans(),
)
# found by CI: blue's first move hidden, four moves seen while the table was asked; the table's
# answer ruled blue's move, then asked again instead of ruling the four seen ones in order
@example(seed=6, moves=6, glare={(0, 1), (0, 4), (0, 3), (5, 1), (0, 2)}, clear_at=99, crash=0.75,
         late=True)  # fmt: skip
# found by a local run: green's two moves hidden (E4 second, B1 sixth) and answered together
# after the crash; the order of the two cannot be known, the crash must still change nothing
@example(seed=6, moves=6, glare={(0, 1), (3, 4)}, clear_at=99, crash=0.875, late=True)
# found by a local run: green's F3 and blue's C7 hidden; while the table was asked (answering
# late), blue's C4 was seen placed and green took it off again, green's B9 and blue's G2 seen;
# the answer for C7 alone was ruled as blue's next move, before the moves seen earlier
@example(seed=503, moves=7, glare={(0, 1), (6, 2), (0, 4), (0, 3), (0, 2), (2, 5)}, clear_at=99,
         crash=0.75, late=True)  # fmt: skip
def test_a_crash_at_any_turn_changes_no_ruling(seed, moves, glare, clear_at, crash, late):
    """The companion crashes before some hand visit and starts again on its database: it
    rules exactly what it rules without the crash. The table answers the page's questions,
    ``late``: only after the crash, so questions are open across it. (Under a glare that stays
    put a question is worked out again the same way after a crash; what the stored wait adds
    is shown case by case in tests/test_session_restart.py.)"""
    script = [
        s for s in random_script(np.random.default_rng(seed), moves) if s.kind in (PLACE, REMOVE)
    ]
    restart_at = 1 + int(crash * len(script))  # before the hand visit of move restart_at
    answer_from = restart_at if late else 0
    crashed = _outcome(script, glare, clear_at, restart_at, answer_from)
    assert crashed == _outcome(script, glare, clear_at, None, answer_from)
    unseen = [parse_cell(s.cell) in glare and i + 1 < clear_at for i, s in enumerate(script)]
    # two moves of one colour never seen, whose questions the table answers together (the
    # later placed before the first is answered): the answers name two cells, and nothing
    # says which chip went down first
    unordered = any(
        unseen[i] and unseen[j] and script[i].color == script[j].color and answer_from > j
        for i in range(len(script))
        for j in range(i + 1, len(script))
    )
    if (
        not any(a and b for a, b in zip(unseen, unseen[1:], strict=False))
        and not any(a.cell == b.cell for a, b in zip(script, script[1:], strict=False))
        and not unordered
    ):  # none of the cases the camera cannot tell apart (see the first test)
        assert all(code == "ok" for code in crashed[1])
        assert crashed[0] == moves_of(script)[: len(crashed[0])]  # nothing made up
