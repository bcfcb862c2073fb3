"""Tournament writes (services): every change of a tournament, its entries, rounds and results.

The modules import one another in one direction only, lower first (no import inside a
function, no circle):

1. ``errors``: the errors the services raise.
2. ``pure``: the bridge to the pure algorithms (pairing, lots, ballots, scoring, ratings);
   imports no other module of the package.
3. ``access``: what every write shares: ``tournament_lock``, ``authorise_director``,
   ``log_write``; then ``hook``: what the tournament answers ``arbitration.access`` about its
   games (who directs and referees them, its arbiters, its log of result changes).
4. ``outcomes``: the reads the writes need (``match_outcomes``, ``standings_rows``);
   ``tournaments.selectors`` re-exports them and imports nothing else from here but ``pure``.
5. ``ratings``: the Glicko-2 update of a finished, rated tournament; ``presence``: check-in,
   who is present for the next round; ``byes``: byes asked for before a round, players kept apart.
6. ``rounds``: pairing, previews, publishing, games of matches, knockout tie-break blocks,
   and the round's status (``round_status_set``, the only place it changes; its steps are
   ``ROUND_TRANSITIONS``).
7. ``results``: a director's result for a game; ``match_game_finished``.
8. ``scoresheets``: a round's games entered from one PDN text of scoresheets.
9. ``tournaments``: creation, settings, entries, players, and the tournament's status
   (``ALLOWED_TRANSITIONS``; finishing finishes its rounds and updates its ratings).
10. ``players``: players' accounts: a user's claim of his record, its approval by a keeper of
    the player, unlinking.

A module imports only modules above it in this list; none imports ``tournaments.selectors``.
"""

from tournaments.services.access import authorise_director, is_director_of
from tournaments.services.byes import bye_cancel, bye_request, prohibition_remove, prohibition_set
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
from tournaments.services.outcomes import next_round_number, presence_of
from tournaments.services.players import (
    ClaimConflict,
    ClaimNotFound,
    claims_visible_to,
    player_claim,
    player_claim_decide,
    player_claim_withdraw,
    player_unlink,
)
from tournaments.services.presence import ABSENT_POLICIES, presence_set
from tournaments.services.ratings import ratings_update
from tournaments.services.results import game_result_set, game_result_undo, match_game_finished
from tournaments.services.rounds import (
    knockout_extend_tied,
    match_forfeit_set,
    round_discard,
    round_is_complete,
    round_open_games,
    round_pair,
    round_pairings_edit,
    round_publish,
    round_schedule_set,
    rounds_total,
)
from tournaments.services.scoresheets import round_scoresheets_enter
from tournaments.services.tournaments import (
    ALLOWED_TRANSITIONS,
    EntriesImport,
    entries_add,
    entries_import,
    entry_add,
    entry_withdraw,
    may_edit_player,
    player_create,
    player_registrar_id,
    player_update,
    tournament_arbiters_set,
    tournament_create,
    tournament_referees_set,
    tournament_status_set,
    tournament_update,
)

__all__ = [
    "bye_cancel", "bye_request", "prohibition_remove", "prohibition_set",
    "ClaimConflict", "ClaimNotFound", "claims_visible_to", "player_claim", "player_claim_decide",
    "player_claim_withdraw", "player_registrar_id", "player_unlink",
    "ABSENT_POLICIES", "ALLOWED_TRANSITIONS", "EntryConflict", "InvalidInput", "NotDirector", "PairingUnavailable", "RoundConflict",
    "RoundNotFound", "StatusTransitionRefused", "TournamentNotFound", "WrongTournamentStatus", "authorise_director",
    "EntriesImport", "entries_import", "game_result_undo", "round_open_games", "round_is_complete", "rounds_total",
    "entries_add", "entry_add", "entry_withdraw", "game_result_set", "is_director_of", "knockout_extend_tied", "match_forfeit_set",
    "match_game_finished", "may_edit_player", "next_round_number", "player_create", "player_update", "presence_of",
    "presence_set",
    "ratings_update", "round_discard", "round_pair", "round_pairings_edit", "round_publish", "round_schedule_set", "round_scoresheets_enter",
    "tournament_arbiters_set", "tournament_create",
    "tournament_referees_set", "tournament_status_set", "tournament_update",
]
