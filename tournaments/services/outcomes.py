"""Match outcomes and standings computed from a tournament's games: the reads the writes need.

The services pair, extend and finish from these; ``tournaments.selectors`` builds its pages
and exports on them (and re-exports them). Reads only: nothing here writes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.models import Game
from tournaments.models import Entry, Match, MatchGame, Presence, Round, RoundBye, Tournament
from tournaments.services import pure


@dataclass
class MatchOutcome:
    """What a match came to: game points each, whether it is decided, the winner."""

    id: int
    round: int
    board: int
    kind: str
    one: int
    two: int | None
    games_planned: int
    first_black: int | None = None
    lots_seed: str = ""
    games_finished: int = 0
    games_total: int = 0
    game_points_one: float = 0.0
    game_points_two: float = 0.0
    wins_one: int = 0
    wins_two: int = 0
    complete: bool = False
    winner: int | None = None
    tied: bool = False
    results: list[tuple[int, int, int, str | None]] = field(default_factory=list)
    problem: str = ""  # a knockout match whose games cannot all have been played (left undecided)


def match_outcomes(tournament: Tournament, rounds: list[Round] | None = None) -> dict[int, MatchOutcome]:
    """Returns the outcome of every match of the published rounds (or of the given rounds), by id.

    Two queries, whatever the number of players and rounds.
    """
    matches = Match.objects.filter(round__tournament=tournament).exclude(round__status=Round.Status.PREVIEW)
    games = MatchGame.objects.filter(match__round__tournament=tournament)
    if rounds is not None:
        matches = matches.filter(round__in=rounds)
        games = games.filter(match__round__in=rounds)
    win = float(tournament.game_points_win)
    draw = float(tournament.game_points_draw)
    outcomes: dict[int, MatchOutcome] = {}
    for mid, number, board, kind, one, two, forfeit_winner, planned, first_black, lots_seed in matches.values_list(
        "id", "round__number", "board", "kind", "player_one_id", "player_two_id", "forfeit_winner_id", "games_planned",
        "first_black_id", "lots_seed",
    ):
        outcome = MatchOutcome(id=mid, round=number, board=board, kind=kind, one=one, two=two, games_planned=planned,
                               first_black=first_black, lots_seed=lots_seed)
        if kind == Match.Kind.BYE:
            outcome.complete, outcome.winner = True, one
            outcome.game_points_one = planned * win
        elif kind == Match.Kind.FORFEIT:
            outcome.complete, outcome.winner = True, forfeit_winner
            if forfeit_winner == one:
                outcome.game_points_one = planned * win
            elif forfeit_winner == two:
                outcome.game_points_two = planned * win
        outcomes[mid] = outcome
    for mid, _number, game_id, black, white, status, result in games.order_by("match_id", "number").values_list(
        "match_id", "number", "game_id", "game__black_id", "game__white_id", "game__status", "game__result"
    ):
        outcome = outcomes.get(mid)
        if outcome is None:
            continue
        outcome.games_total += 1
        outcome.results.append((game_id, black, white, result if status == Game.Status.FINISHED else None))
        if status != Game.Status.FINISHED or not result:
            continue
        outcome.games_finished += 1
        if result == Game.Result.DRAW:
            points = {black: draw, white: draw}
        else:
            winner = black if result == Game.Result.BLACK_WINS else white
            points = {winner: win, (white if winner == black else black): 0.0}
            if winner == outcome.one:
                outcome.wins_one += 1
            else:
                outcome.wins_two += 1
        outcome.game_points_one += points.get(outcome.one, 0.0)
        outcome.game_points_two += points.get(outcome.two, 0.0) if outcome.two else 0.0
    knockout = tournament.format == Tournament.Format.KNOCKOUT
    for outcome in outcomes.values():
        if outcome.kind != Match.Kind.PLAYED:
            continue
        done = outcome.games_total >= outcome.games_planned and outcome.games_finished == outcome.games_total
        if not done:
            continue
        if knockout:
            _knockout_decide(tournament, outcome)
            continue
        if outcome.game_points_one > outcome.game_points_two:
            outcome.winner = outcome.one
        elif outcome.game_points_two > outcome.game_points_one:
            outcome.winner = outcome.two
        else:
            outcome.tied = True
        outcome.complete = True
    return outcomes


def _knockout_decide(tournament: Tournament, outcome: MatchOutcome) -> None:
    """Decides a finished knockout match: a winner, or a tie that needs another 2-game block."""
    scores = []
    for _game_id, black, _white, result in outcome.results:
        if result == Game.Result.DRAW:
            scores.append(0.5)
        else:
            winner = black if result == Game.Result.BLACK_WINS else _white
            scores.append(1.0 if winner == outcome.one else 0.0)
    try:
        decision = pure.knockout_decide(
            outcome.one, outcome.two, scores, games_per_match=outcome.games_planned,  # type: ignore[arg-type]
            max_blocks=tournament.knockout_extra_blocks, seed=int(outcome.lots_seed) if outcome.lots_seed else 0,
        )
    except ValueError as error:  # e.g. tie-break games after a stage that (now) decided the match
        outcome.problem = str(error)
        return
    outcome.winner = decision.winner
    outcome.tied = decision.winner is None or outcome.game_points_one == outcome.game_points_two
    outcome.complete = decision.winner is not None


def scoring_of(tournament: Tournament) -> pure.Scoring:
    """Returns the tournament's scoring: match points, and a bye worth a won match.

    Scored per game (``score_by="game"``), each game of a played match scores the match points
    (win 2, draw 1, loss 0 by default), and a round not played game by game (a bye, a forfeit)
    is worth them times the games of a round.
    """
    win, draw, loss = (float(tournament.match_points_win), float(tournament.match_points_draw),
                       float(tournament.match_points_loss))
    games = tournament.games_per_match if tournament.score_by == Tournament.ScoreBy.GAME else 1
    return pure.Scoring(
        win=win * games, draw=draw * games, loss=loss * games, bye=win * games,
        bye_game_points=float(tournament.game_points_win) * tournament.games_per_match,
        per_game=tournament.score_by == Tournament.ScoreBy.GAME, game_win=win, game_draw=draw, game_loss=loss,
    )


#: The scoring kind of each bye that gives points (a zero-point bye is a round not paired: no result).
BYE_RESULT_KINDS = {RoundBye.Kind.HALF: "half_bye", RoundBye.Kind.FULL: "full_bye"}


def published_byes(tournament: Tournament) -> list[tuple[int, int, str]]:
    """Returns the byes known before their rounds (``RoundBye``) of the rounds published: (round, player, kind).

    One query, none but for a Swiss.
    """
    if tournament.format != Tournament.Format.SWISS:
        return []
    published = Round.objects.filter(tournament=tournament).exclude(status=Round.Status.PREVIEW).values("number")
    return list(RoundBye.objects.filter(tournament=tournament, round_number__in=published)
                .values_list("round_number", "player_id", "kind"))


def starting_list(entries: list[Entry]) -> list[int]:
    """Returns the player ids of the list a Swiss started from, in the order of ``entries``: every entry
    paired from round 1 on, but not one withdrawn before round 1 was published. The Baku acceleration's
    groups are made from it (FIDE C.04.5.1): a late entry is not in it, so he does not move its last
    GA player."""
    return [e.player_id for e in entries if e.first_round == 1 and e.withdrawn_after_round != 0]


def match_results(outcomes: dict[int, MatchOutcome],
                  byes: list[tuple[int, int, str]] = ()) -> list[pure.MatchResult]:  # type: ignore[assignment]
    """Returns the decided matches as the scoring functions take them (with the games each
    player played and won with Black), and the byes that give points (``published_byes``)."""
    results = [pure.MatchResult(round=number, a=player, b=None, kind=BYE_RESULT_KINDS[kind])
               for number, player, kind in byes if kind in BYE_RESULT_KINDS]
    for o in outcomes.values():
        if not o.complete:
            continue
        black = {o.one: [0, 0], o.two: [0, 0]}
        games: list[float] = []
        for _game_id, black_player, white_player, result in o.results:
            if result is None or black_player not in black:
                continue
            black[black_player][0] += 1
            black[black_player][1] += result == Game.Result.BLACK_WINS
            if result == Game.Result.DRAW:
                games.append(0.5)
            else:
                winner = black_player if result == Game.Result.BLACK_WINS else white_player
                games.append(1.0 if winner == o.one else 0.0)
        results.append(pure.MatchResult(round=o.round, a=o.one, b=o.two, a_points=o.game_points_one,
                                        b_points=o.game_points_two, kind=o.kind,
                                        a_black_games=black[o.one][0], a_black_wins=black[o.one][1],
                                        b_black_games=black[o.two][0] if o.two else 0,
                                        b_black_wins=black[o.two][1] if o.two else 0,
                                        a_games=tuple(games) if o.kind == Match.Kind.PLAYED else ()))
    return results


def standings_scope(outcomes: dict[int, MatchOutcome]) -> dict:
    """Returns what the tiebreaks need besides the results: the rounds played so far (a round
    not paired in counts as unplayed up to there) and the matches still being played (left out)."""
    return {
        "rounds": max((o.round for o in outcomes.values()), default=0),
        "in_progress": [(o.round, p) for o in outcomes.values() if not o.complete for p in (o.one, o.two) if p],
    }


def standings_rows(tournament: Tournament) -> list[pure.StandingRow]:
    """Returns the plain standings (player ids) of the tournament. Three queries."""
    ratings = dict(Entry.objects.filter(tournament=tournament).values_list("player_id", "player__rating"))
    outcomes = match_outcomes(tournament)
    return pure.standings(list(ratings), match_results(outcomes, published_byes(tournament)), tiebreaks=list(tournament.tiebreaks or []),
                          scoring=scoring_of(tournament), ratings=ratings, **standings_scope(outcomes))


def next_round_number(tournament: Tournament) -> int:
    """Returns the round a check-in is for: the open preview's, or the one after the last published."""
    last = tournament.rounds.order_by("-number").values_list("number", "status").first()
    if last is None:
        return 1
    return last[0] if last[1] == Round.Status.PREVIEW else last[0] + 1


def presence_of(tournament: Tournament, number: int) -> dict[int, bool]:
    """Returns the check-in marks for round ``number``: player id to present (True) or absent (False)."""
    return dict(Presence.objects.filter(tournament=tournament, round_number=number)
                .values_list("player_id", "present"))
