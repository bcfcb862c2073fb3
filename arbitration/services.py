"""Every write to a game, as the edges (API, pages, tournaments) call it.

``game_create`` (``arbitration.creation``), ``game_move_record`` (``arbitration.moves``) and
``ruling_issue`` (``arbitration.rulings``) each run in one transaction with the game row locked,
ask ``arbitration.access`` who may write, and put their log entry on the game's hash chain.
"""

from arbitration.confirmations import result_confirm
from arbitration.creation import game_create
from arbitration.delay import clock_sweep
from arbitration.moves import MoveOutcome, game_move_record
from arbitration.rulings import RULING_KINDS, ruling_issue
from arbitration.staff import game_referee_remove, game_referees_set

__all__ = ["RULING_KINDS", "MoveOutcome", "clock_sweep", "game_create", "game_move_record",
           "game_referee_remove", "game_referees_set", "result_confirm", "ruling_issue"]
