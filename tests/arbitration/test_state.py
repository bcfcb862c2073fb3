"""The typed pending state (arbitration.state): JSON round trip, the constraints on real positions,
the blocks on play, the 40-move count. Pure: no database."""

from __future__ import annotations

import copy
from dataclasses import FrozenInstanceError

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arbitration.state import (
    FORTY_MOVE_LIMIT,
    Appeal,
    CompelledCapture,
    FortyCount,
    HuffChoice,
    Offences,
    OverTheAngle,
    OwnPieceChoice,
    PendingState,
    Progress,
    allowed_moves,
    constraint_violation,
    over_the_angle_moves,
    play_blocked,
)
from games.rules import Position, RuleSet

INITIAL_FEN = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
# White to move: 18x9 (over 14), 18x11 (over 15), 26x17x10 (over 22 and 14); customary also 26x17, 26-23, 30-25
CAPTURES_FEN = "W:W18,26,30:B14,15,22"

# What a new game starts with (game_create saves it as the first cache)
NEW_GAME = {
    "open_choices": [],
    "constraints": [],
    "forty": {"active": False, "start_ply": None, "stronger_side": None, "count": 0, "awaiting_ruling": False},
    "progress": {"ply": 0, "fen": INITIAL_FEN},
    "offences": {"touch_offence": {"black": 0, "white": 0}, "conduct": {"black": 0, "white": 0},
                 "left_room": {"black": 0, "white": 0}},
    "appeals": [],
}

# Shapes as the move and ruling services write them
HUFF = {"kind": "huff", "law": "16", "chooser": "white", "offender": "black", "move": "9-13", "pieces": [10, 11],
        "ply": 7}
OWN_PIECE = {"kind": "own_piece_removed", "law": "12", "chooser": "black", "offender": "white", "square": 18}
OVER_THE_ANGLE = {"kind": "over_the_angle", "law": "20", "side": "black", "square": 9, "toward": 14}
COMPELLED = {"kind": "compelled_capture", "law": "17", "side": "white"}
FORTY_ON_NOTICE = {"active": True, "start_ply": 31, "stronger_side": "white", "count": 12, "awaiting_ruling": False,
                   "notice_seq": 40}
APPEALS = [
    {"seq": 12, "entry": 11, "arbiter": "arb", "side": "black", "status": "open"},
    {"seq": 15, "entry": 14, "arbiter": "dir", "side": "", "status": "upheld"},
    {"seq": 19, "entry": 17, "arbiter": "arb", "side": "white", "status": "overturned"},
    {"seq": 22, "entry": 20, "arbiter": "arb", "side": "white", "status": "withdrawn"},
]

MID_GAME = {
    "open_choices": [HUFF, OWN_PIECE],
    "constraints": [OVER_THE_ANGLE, COMPELLED],
    "forty": FORTY_ON_NOTICE,
    "progress": {"ply": 30, "fen": "W:W18,26,30:B14,15,22"},
    "offences": {"touch_offence": {"black": 1, "white": 0}, "conduct": {"black": 0, "white": 1},
                 "left_room": {"black": 0, "white": 0}},
    "appeals": APPEALS,
}


def state_of(data: dict | None = None) -> PendingState:
    return PendingState.from_json(data, INITIAL_FEN)


# --- JSON ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("data", [
    NEW_GAME,
    MID_GAME,
    {**NEW_GAME, "open_choices": [HUFF]},
    {**NEW_GAME, "constraints": [COMPELLED]},
    # a 40-move count after a ruling, and after a ruling undone ({**inactive, **forty_before})
    {**NEW_GAME, "forty": {"active": False, "start_ply": None, "stronger_side": None, "count": 0,
                           "awaiting_ruling": False}},
    {**NEW_GAME, "forty": {**FORTY_ON_NOTICE, "count": 40, "awaiting_ruling": True}},
], ids=["new", "mid", "huff", "compelled", "forty-off", "forty-due"])
def test_the_json_written_by_the_services_comes_back_the_same_keys_and_order(data):
    saved = copy.deepcopy(data)
    out = state_of(data).to_json()
    assert out == saved
    assert data == saved  # not touched
    assert list(out) == list(saved)
    for name in ("forty", "progress", "offences"):
        assert list(out[name]) == list(saved[name])
    for name in ("open_choices", "constraints", "appeals"):
        assert [list(item) for item in out[name]] == [list(item) for item in saved[name]]


@pytest.mark.parametrize("empty", [None, {}])
def test_an_empty_cache_reads_as_a_new_game(empty):
    assert state_of(empty) == PendingState.initial(INITIAL_FEN)
    assert state_of(empty).to_json() == NEW_GAME


def test_missing_keys_get_the_defaults_the_others_are_kept():
    partial = {"forty": FORTY_ON_NOTICE, "offences": {"conduct": {"black": 1, "white": 0}}}
    out = state_of(partial).to_json()
    assert out["forty"] == FORTY_ON_NOTICE
    assert out["offences"]["conduct"] == {"black": 1, "white": 0}
    assert out["offences"]["touch_offence"] == {"black": 0, "white": 0}
    assert out["progress"] == {"ply": 0, "fen": INITIAL_FEN}
    assert out["open_choices"] == out["constraints"] == out["appeals"] == []


def test_the_types_read_from_the_json():
    state = state_of(MID_GAME)
    assert state.open_choices == (
        HuffChoice(chooser="white", offender="black", move="9-13", pieces=(10, 11), ply=7),
        OwnPieceChoice(chooser="black", offender="white", square=18),
    )
    assert state.constraints == (OverTheAngle(side="black", square=9, toward=14), CompelledCapture(side="white"))
    assert state.forty == FortyCount(active=True, start_ply=31, stronger_side="white", count=12, notice_seq=40)
    assert state.progress == Progress(ply=30, fen="W:W18,26,30:B14,15,22")
    assert state.offences.count("touch_offence", "black") == 1
    assert state.offences.count("conduct", "white") == 1
    assert [a.decided for a in state.appeals] == [False, True, True, False]


def test_an_unknown_kind_is_refused():
    with pytest.raises(ValueError, match="open choice"):
        state_of({"open_choices": [{"kind": "castle"}]})
    with pytest.raises(ValueError, match="constraint"):
        state_of({"constraints": [{"kind": "zugzwang", "side": "black"}]})


def test_the_values_are_frozen():
    state = state_of(MID_GAME)
    with pytest.raises(FrozenInstanceError):
        state.forty = FortyCount.inactive()  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        state.forty.count = 3  # type: ignore[misc]


SIDE = st.sampled_from(["black", "white"])
SQUARE = st.integers(1, 32)
SMALL = st.integers(0, 500)
huff_choices = st.builds(lambda offender, move, pieces, ply: HuffChoice.opened(
    offender=offender, move=move, pieces=sorted(pieces), ply=ply),
    SIDE, st.from_regex(r"\A[1-9]-[1-9]\Z"), st.sets(SQUARE, min_size=1, max_size=4), SMALL)
own_piece_choices = st.builds(lambda offender, square: OwnPieceChoice.opened(offender=offender, square=square),
                              SIDE, SQUARE)
constraints = st.one_of(st.builds(OverTheAngle, side=SIDE, square=SQUARE, toward=SQUARE),
                        st.builds(CompelledCapture, side=SIDE))
forty_counts = st.one_of(
    st.just(FortyCount.inactive()),
    st.builds(lambda ply, side, seq, count: FortyCount.on_notice(
        start_ply=ply, stronger_side=side, notice_seq=seq).recounted(ply, count),
        SMALL, SIDE, SMALL, st.integers(0, FORTY_MOVE_LIMIT)),
    st.builds(FortyCount, active=st.just(True), start_ply=SMALL, stronger_side=SIDE, count=SMALL,
              awaiting_ruling=st.booleans(), notice_seq=st.none()),
)
offence_counts = st.builds(
    lambda counts: Offences.from_json(counts),
    st.fixed_dictionaries({kind: st.fixed_dictionaries({"black": st.integers(0, 3), "white": st.integers(0, 3)})
                           for kind in ("touch_offence", "conduct", "left_room")}),
)
appeals = st.builds(Appeal, seq=SMALL, entry=SMALL, arbiter=st.text(min_size=1, max_size=10),
                    side=st.sampled_from(["black", "white", ""]),
                    status=st.sampled_from(["open", "upheld", "overturned", "withdrawn"]))
states = st.builds(
    PendingState,
    progress=st.builds(Progress, ply=SMALL, fen=st.sampled_from([INITIAL_FEN, CAPTURES_FEN])),
    open_choices=st.lists(st.one_of(huff_choices, own_piece_choices), max_size=3).map(tuple),
    constraints=st.lists(constraints, max_size=3).map(tuple),
    forty=forty_counts,
    offences=offence_counts,
    appeals=st.lists(appeals, max_size=4).map(tuple),
)


@given(states)
def test_every_state_comes_back_from_its_json(state):
    data = state.to_json()
    again = PendingState.from_json(copy.deepcopy(data), "unused: progress is in the JSON")
    assert again == state
    assert again.to_json() == data


# --- the constraints (Laws 17, 20) on real positions ----------------------------------------------------


def pdn(moves) -> list[str]:
    return [m.pdn() for m in moves]


def test_over_the_angle_keeps_the_moves_of_the_piece_that_way():
    start = Position.from_fen(INITIAL_FEN)
    assert pdn(over_the_angle_moves(start, RuleSet.STANDARD, 9, 14)) == ["9-14"]
    assert pdn(over_the_angle_moves(start, RuleSet.STANDARD, 9, 13)) == ["9-13"]
    assert over_the_angle_moves(start, RuleSet.STANDARD, 9, 5) == []
    assert over_the_angle_moves(start, RuleSet.STANDARD, 1, 5) == []  # a piece with no move


def test_over_the_angle_of_a_capture_is_toward_the_piece_jumped():
    captures = Position.from_fen(CAPTURES_FEN)
    assert pdn(over_the_angle_moves(captures, RuleSet.STANDARD, 18, 14)) == ["18x9"]
    assert pdn(over_the_angle_moves(captures, RuleSet.STANDARD, 18, 15)) == ["18x11"]
    assert pdn(over_the_angle_moves(captures, RuleSet.STANDARD, 26, 22)) == ["26x17x10"]
    assert pdn(over_the_angle_moves(captures, RuleSet.CUSTOMARY, 26, 22)) == ["26x17", "26x17x10"]
    assert pdn(over_the_angle_moves(captures, RuleSet.CUSTOMARY, 26, 23)) == ["26-23"]
    # the first landing square names the direction as well as the piece jumped
    assert pdn(over_the_angle_moves(captures, RuleSet.CUSTOMARY, 26, 17)) == ["26x17", "26x17x10"]
    assert pdn(over_the_angle_moves(captures, RuleSet.CUSTOMARY, 26, 31)) == []


def test_allowed_moves_are_the_legal_moves_under_the_constraints_on_the_side():
    start = Position.from_fen(INITIAL_FEN)
    legal = pdn(start.legal_moves(RuleSet.STANDARD))
    assert pdn(allowed_moves((), "black", start, RuleSet.STANDARD)) == legal
    on_black = (OverTheAngle(side="black", square=10, toward=15),)
    assert pdn(allowed_moves(on_black, "black", start, RuleSet.STANDARD)) == ["10-15"]
    assert pdn(allowed_moves(on_black, "white", start, RuleSet.STANDARD)) == legal  # not white's constraint
    captures = Position.from_fen(CAPTURES_FEN)
    compelled = (CompelledCapture(side="white"),)
    assert pdn(allowed_moves(compelled, "white", captures, RuleSet.CUSTOMARY)) == ["18x9", "18x11", "26x17",
                                                                                   "26x17x10"]
    both = (*compelled, OverTheAngle(side="white", square=26, toward=22))
    assert pdn(allowed_moves(both, "white", captures, RuleSet.CUSTOMARY)) == ["26x17", "26x17x10"]


def test_a_move_that_breaks_the_over_the_angle_constraint_is_refused_under_law_20():
    start = Position.from_fen(INITIAL_FEN)
    rules = RuleSet.STANDARD
    constraints = (OverTheAngle(side="black", square=9, toward=14),)
    assert constraint_violation(constraints, "black", start.parse_move("9-14", rules), start, rules) is None
    violation = constraint_violation(constraints, "black", start.parse_move("9-13", rules), start, rules)
    assert violation is not None
    assert violation.law == "20"
    assert violation.allowed == ("9-14",)
    assert violation.details() == {"move": "9-13", "legal_moves": ["9-14"], "law": "20"}
    assert violation.message() == ("the piece on 9 was moved over the angle toward 14: the move must be completed "
                                   "that way (Law 20): 9-14")
    assert constraint_violation(constraints, "white", start.parse_move("9-13", rules), start, rules) is None
    no_way = OverTheAngle(side="black", square=9, toward=5)
    violation = constraint_violation((no_way,), "black", start.parse_move("9-13", rules), start, rules)
    assert violation is not None and violation.message().endswith("(Law 20): no such move")


def test_a_move_that_does_not_capture_when_compelled_is_refused_under_law_17():
    captures = Position.from_fen(CAPTURES_FEN)
    rules = RuleSet.STANDARD_HUFF  # the non-capture is recordable: a huff, here taken back and compelled
    constraints = (CompelledCapture(side="white"),)
    violation = constraint_violation(constraints, "white", captures.parse_move("26-23", rules), captures, rules)
    assert violation is not None
    assert violation.details() == {"move": "26-23", "legal_moves": ["18x9", "18x11", "26x17x10"], "law": "17"}
    assert violation.message() == "the capture was compelled (Law 17): 18x9, 18x11, 26x17x10"
    assert constraint_violation(constraints, "white", captures.parse_move("18x9", rules), captures, rules) is None


def test_the_first_constraint_broken_is_the_one_refused():
    captures = Position.from_fen(CAPTURES_FEN)
    rules = RuleSet.CUSTOMARY
    constraints = (OverTheAngle(side="white", square=18, toward=14), CompelledCapture(side="white"))
    violation = constraint_violation(constraints, "white", captures.parse_move("30-25", rules), captures, rules)
    assert violation is not None and violation.law == "20" and violation.allowed == ("18x9",)
    violation = constraint_violation(constraints[::-1], "white", captures.parse_move("30-25", rules), captures,
                                     rules)
    assert violation is not None and violation.law == "17"


# --- updates ---------------------------------------------------------------------------------------------


def test_constraints_are_replaced_per_kind_and_side_and_end_with_the_move():
    state = state_of()
    state = state.with_constraint(OverTheAngle(side="black", square=9, toward=13))
    state = state.with_constraint(CompelledCapture(side="white"))
    state = state.with_constraint(OverTheAngle(side="black", square=10, toward=15))
    assert state.constraints == (CompelledCapture(side="white"), OverTheAngle(side="black", square=10, toward=15))
    assert state.constraints_on("black") == (OverTheAngle(side="black", square=10, toward=15),)
    assert state.without_constraints_on("black").constraints == (CompelledCapture(side="white"),)
    assert state.without_over_the_angle("black", 9).constraints == state.constraints
    assert state.without_over_the_angle("black", 10).constraints == (CompelledCapture(side="white"),)
    moved = state.after_move(side="black", ply=5, fen=CAPTURES_FEN, progress=False)
    assert moved.constraints == (CompelledCapture(side="white"),)
    assert moved.progress == state.progress
    assert state.after_move(side="black", ply=5, fen=CAPTURES_FEN, progress=True).progress == Progress(5, CAPTURES_FEN)


def test_choices_open_and_close():
    huff = HuffChoice.opened(offender="black", move="9-13", pieces=[10, 11], ply=7)
    assert huff.to_json() == HUFF
    own = OwnPieceChoice.opened(offender="white", square=18)
    assert own.to_json() == OWN_PIECE
    state = state_of().with_choice(huff).with_choice(own)
    assert state.huff_choice_of("white") == huff and state.huff_choice_of("black") is None
    assert state.own_piece_choice_of("white") == own and state.own_piece_choice_of("black") is None
    assert state.without_choice(huff).open_choices == (own,)
    assert state.without_huff_choices_of("white").open_choices == (own,)
    assert state.without_own_piece_choices().open_choices == (huff,)
    assert state.cleared().open_choices == () and state.cleared().constraints == ()
    put_back = state.with_constraint(OverTheAngle(side="black", square=9, toward=13)).put_back(
        Progress(0, INITIAL_FEN), [CompelledCapture(side="black")])
    assert put_back.open_choices == () and put_back.constraints == (CompelledCapture(side="black"),)


def test_offences_are_counted_per_kind_and_side():
    state = state_of().with_offence("conduct", "white").with_offence("conduct", "white")
    assert state.offences.count("conduct", "white") == 2
    assert state.offences.count("conduct", "black") == 0
    assert state.to_json()["offences"]["conduct"] == {"black": 0, "white": 2}
    assert state.offences.with_count("conduct", "white", 1).count("conduct", "white") == 1
    with pytest.raises(ValueError):
        state.offences.incremented("spitting", "white")


def test_appeals_are_found_and_decided():
    state = state_of({"appeals": APPEALS})
    assert state.appeal(12) == Appeal(seq=12, entry=11, arbiter="arb", side="black")
    assert state.appeal(11) is None
    assert state.appeal_on({11, 12}).seq == 12
    assert state.appeal_on({20}) is None  # withdrawn
    assert state.decided_appeal_on({14}, 99).seq == 15
    assert state.decided_appeal_on({99}, 19).seq == 19  # the appeal entry itself
    assert state.decided_appeal_on({11}, 99) is None  # open
    assert state.with_appeal_status(12, "upheld").appeal(12).status == "upheld"
    assert state.with_appeal_withdrawn(12).appeal(12).status == "withdrawn"
    assert state.with_appeal_withdrawn(15).appeal(15).status == "upheld"  # decided: stays
    filed = state.with_appeal(Appeal(seq=30, entry=29, arbiter="arb", side="white"))
    assert filed.to_json()["appeals"][-1] == {"seq": 30, "entry": 29, "arbiter": "arb", "side": "white",
                                              "status": "open"}


# --- the 40-move count (Law 22) and the blocks on play -------------------------------------------------


def test_the_stronger_sides_moves_count_to_forty_then_a_ruling_is_due():
    forty = FortyCount.on_notice(start_ply=20, stronger_side="white", notice_seq=33)
    assert forty.to_json() == {"active": True, "start_ply": 20, "stronger_side": "white", "count": 0,
                               "awaiting_ruling": False, "notice_seq": 33}
    for n in range(1, FORTY_MOVE_LIMIT + 1):
        forty = forty.counted("black")  # the weaker side's moves do not count
        assert forty.count == n - 1
        forty = forty.counted("white")
        assert forty.count == n
        assert forty.awaiting_ruling is (n == FORTY_MOVE_LIMIT)
    assert forty.start_ply == 20 and forty.notice_seq == 33
    assert FortyCount.inactive().counted("white") == FortyCount.inactive()


def test_the_forty_count_is_recounted_after_play_is_put_back_and_restored_after_a_ruling_is_undone():
    forty = FortyCount.on_notice(start_ply=20, stronger_side="white", notice_seq=33).recounted(20, 40)
    assert forty.awaiting_ruling
    assert forty.start_after_put_back(50) == 20 and forty.start_after_put_back(15) == 15
    back = forty.recounted(forty.start_after_put_back(60), 39)
    assert (back.count, back.awaiting_ruling, back.notice_seq) == (39, False, 33)
    before = forty.to_json()
    assert FortyCount.inactive().restored(before) == forty
    assert FortyCount.inactive().to_json() == NEW_GAME["forty"]


def test_play_is_blocked_while_a_forty_move_ruling_is_due():
    due = state_of({"forty": {**FORTY_ON_NOTICE, "count": 40, "awaiting_ruling": True}, "open_choices": [OWN_PIECE]})
    blocked = play_blocked(due)
    assert blocked is not None and blocked.ruling_required
    assert blocked.kind == "forty_move_ruling"
    assert blocked.details == {"kind": "forty_move_ruling"}
    assert blocked.message == ("The stronger side has made 40 moves since the 40-move notice: the referee must rule "
                               "advantage shown or draw (Law 22) before play goes on.")


def test_play_is_blocked_while_a_law_12_choice_is_open_not_a_huff():
    blocked = play_blocked(state_of({"open_choices": [HUFF, OWN_PIECE]}))
    assert blocked is not None and not blocked.ruling_required
    assert blocked.kind == "own_piece_removed"
    assert blocked.details == {"choice": OWN_PIECE}
    assert blocked.message == "Black must choose first: play on or have the piece on 18 put back (Law 12)."
    assert play_blocked(state_of({"open_choices": [HUFF], "forty": FORTY_ON_NOTICE})) is None
    assert play_blocked(state_of()) is None
