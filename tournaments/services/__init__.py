"""Tournament writes (services): every change of a tournament, its entries, rounds and results."""

from tournaments.services.errors import (
    EntryConflict,
    InvalidInput,
    NotDirector,
    PairingUnavailable,
    RoundConflict,
    RoundNotFound,
    StatusTransitionRefused,
    TournamentNotFound,
    WrongTournamentStatus,
)
from tournaments.services.ratings import ratings_update
from tournaments.services.results import game_result_set, knockout_extend_tied, match_game_finished
from tournaments.services.rounds import (
    match_forfeit_set,
    round_discard,
    round_pair,
    round_pairings_edit,
    round_publish,
)
from tournaments.services.tournaments import (
    ALLOWED_TRANSITIONS,
    authorise_director,
    entries_add,
    entry_add,
    entry_withdraw,
    is_director_of,
    player_create,
    player_update,
    tournament_create,
    tournament_referees_set,
    tournament_status_set,
    tournament_update,
)

__all__ = [
    "ALLOWED_TRANSITIONS", "EntryConflict", "InvalidInput", "NotDirector", "PairingUnavailable", "RoundConflict",
    "RoundNotFound", "StatusTransitionRefused", "TournamentNotFound", "WrongTournamentStatus", "authorise_director",
    "entries_add", "entry_add", "entry_withdraw", "game_result_set", "is_director_of", "knockout_extend_tied", "match_forfeit_set",
    "match_game_finished", "player_create", "player_update",
    "ratings_update", "round_discard", "round_pair", "round_pairings_edit", "round_publish", "tournament_create",
    "tournament_referees_set", "tournament_status_set", "tournament_update",
]
