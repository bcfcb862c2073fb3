"""A tournament's results as the rating officers take them: game by game with colours (CSV), FIDE's TRF adapted
to rounds of several games, and the ACF rating the event gives each player (CSV).

Reads only; each export is a few queries whatever the number of players (``docs/integrations.md``,
"Results for the rating bodies", says every field).
"""

from __future__ import annotations

import io
from collections import defaultdict
from dataclasses import dataclass

from core.csvsafe import Computed, csv_writer
from games.models import Game
from players.models import Player
from players.selectors import federation_rating
from tournaments import elo
from tournaments.models import Entry, Match, MatchGame, Round, Tournament
from tournaments.pairing.trf import PointSystem, TrfPlayer, TrfRound, TrfTournament, write_trf
from tournaments.services.outcomes import MatchOutcome, match_outcomes, standings_rows

RESULT_CSV_COLUMNS = (
    "round", "board", "game", "kind", "black_player_id", "black_name", "black_federation", "black_federation_id",
    "white_player_id", "white_name", "white_federation", "white_federation_id", "result", "black_points",
    "white_points", "rated", "ballot", "termination", "date",
)
ACF_CSV_COLUMNS = (
    "player_id", "name", "federation", "federation_id", "rating_before", "games_before", "opponents_average",
    "won", "drawn", "lost", "rounds", "games", "performance", "rating_after", "games_after", "change",
)


@dataclass(frozen=True)
class _Data:
    players: dict[int, Player]
    matches: list[Match]
    games: dict[int, list[MatchGame]]  # by match id, in game order
    outcomes: dict[int, MatchOutcome]


def _data(tournament: Tournament) -> _Data:
    """Four queries: the entries' players, the published rounds' matches, their games, the outcomes (two)."""
    players = {e.player_id: e.player for e in Entry.objects.filter(tournament=tournament).select_related("player")}
    matches = list(Match.objects.filter(round__tournament=tournament).exclude(round__status=Round.Status.PREVIEW)
                   .select_related("round").order_by("round__number", "board"))
    games: dict[int, list[MatchGame]] = defaultdict(list)
    for mg in (MatchGame.objects.filter(match__in=[m.pk for m in matches]).select_related("game")
               .order_by("match_id", "number")):
        games[mg.match_id].append(mg)
    return _Data(players, matches, dict(games), match_outcomes(tournament))


def _points(value: float) -> Computed:
    return Computed(f"{value:g}")


def _person(players: dict[int, Player], pk: int | None) -> list[object]:
    if pk is None:
        return ["", "", "", ""]
    p = players.get(pk) or Player.objects.get(pk=pk)
    return [pk, p.name, p.federation, p.federation_id]


def results_csv(tournament: Tournament) -> str:
    """Returns every game of the published rounds, one row a game, with both players' full names, federations and
    federation ids, its colours, result and points; a forfeited match and a bye one row each (not rated)."""
    data = _data(tournament)
    win, draw = float(tournament.game_points_win), float(tournament.game_points_draw)
    out = io.StringIO()
    writer = csv_writer(out)
    writer.writerow(RESULT_CSV_COLUMNS)
    for match in data.matches:
        number, board = match.round.number, match.board
        if match.kind == Match.Kind.BYE:
            writer.writerow([number, board, "", "bye", *_person(data.players, match.player_one_id),
                             *_person(data.players, None), "bye",
                             _points(match.games_planned * win), "", "no", "", "", ""])
            continue
        if match.kind == Match.Kind.FORFEIT:
            one_won = match.forfeit_winner_id == match.player_one_id
            two_won = match.forfeit_winner_id == match.player_two_id and match.player_two_id is not None
            writer.writerow([number, board, "", "forfeit", *_person(data.players, match.player_one_id),
                             *_person(data.players, match.player_two_id),
                             Computed(f"{'+' if one_won else '-'}:{'+' if two_won else '-'}"),
                             _points(match.games_planned * win if one_won else 0),
                             _points(match.games_planned * win if two_won else 0), "no", "", "", ""])
            continue
        for mg in data.games.get(match.pk, []):
            game = mg.game
            finished = game.status == Game.Status.FINISHED and game.result
            if finished:
                black, white = {Game.Result.BLACK_WINS: (win, 0.0), Game.Result.WHITE_WINS: (0.0, win)}.get(
                    game.result, (draw, draw))
            writer.writerow([
                number, board, mg.number, "game", *_person(data.players, game.black_id),
                *_person(data.players, game.white_id), game.result if finished else "*",
                _points(black) if finished else "", _points(white) if finished else "",
                "yes" if finished else "no", mg.ballot_number or "", game.termination or "",
                game.finished_at.date().isoformat() if finished and game.finished_at else "",
            ])
    return out.getvalue()


def _trf_head(number: int, player: Player) -> str:
    """Returns columns 1-80 of a TRF ``001`` line: number, full name, rating (the federation's), federation,
    federation id."""
    rating = federation_rating(player)
    federation = (player.federation or "")[:3].upper()
    head = (f"001 {number:>4}      {player.name[:33]:<33} {rating or '':>4} {federation:<3} "
            f"{player.federation_id[:11]:>11}")
    return head.ljust(80)


def results_trf(tournament: Tournament) -> str:
    """Returns the tournament as FIDE's TRF-16 adapted to rounds of several games: each round of G games is G
    columns, one a game in its order, with that game's opponent, colour (``w``: Black, who moves first) and
    result; the points are game points. Only the rounds whose matches are all decided are written."""
    data = _data(tournament)
    entries = list(Entry.objects.filter(tournament=tournament).select_related("player")
                   .order_by("seed", "-player__rating", "player__name", "player_id"))
    number = {e.player_id: i for i, e in enumerate(entries, start=1)}
    by_round: dict[int, list[Match]] = defaultdict(list)
    for match in data.matches:
        by_round[match.round.number].append(match)
    complete = sorted(n for n, ms in by_round.items() if all(data.outcomes[m.pk].complete for m in ms))
    complete = [n for i, n in enumerate(complete, start=1) if n == i]
    columns: dict[int, list[TrfRound]] = {e.player_id: [] for e in entries}
    points: dict[int, float] = defaultdict(float)
    for n in complete:
        slots = max(max(m.games_planned, len(data.games.get(m.pk, []))) for m in by_round[n])
        seen: set[int] = set()
        for match in by_round[n]:
            one, two = match.player_one_id, match.player_two_id
            outcome = data.outcomes[match.pk]
            points[one] += outcome.game_points_one
            if two is not None:
                points[two] += outcome.game_points_two
            seen.update(p for p in (one, two) if p is not None)
            for slot in range(slots):
                if match.kind == Match.Kind.BYE:
                    columns[one].append(TrfRound(None, None, "U" if slot < match.games_planned else "Z"))
                    continue
                if match.kind == Match.Kind.FORFEIT:
                    for me, other in ((one, two), (two, one)):
                        won = match.forfeit_winner_id == me
                        columns[me].append(TrfRound(number[other], None, "+" if won else "-"))
                    continue
                played = data.games.get(match.pk, [])
                if slot >= len(played):
                    columns[one].append(TrfRound(None, None, "Z"))
                    columns[two].append(TrfRound(None, None, "Z"))
                    continue
                game = played[slot].game
                for me, other in ((one, two), (two, one)):
                    colour = "w" if game.black_id == me else "b"
                    if game.result == Game.Result.DRAW:
                        result = "="
                    else:
                        winner = game.black_id if game.result == Game.Result.BLACK_WINS else game.white_id
                        result = "1" if winner == me else "0"
                    columns[me].append(TrfRound(number[other], colour, result))
        for e in entries:
            if e.player_id not in seen:
                columns[e.player_id].extend([TrfRound(None, None, "Z")] * slots)
    rank = {r.player: r.rank for r in standings_rows(tournament)}
    players = tuple(
        TrfPlayer(number=number[e.player_id], name=e.player.name[:33], rating=federation_rating(e.player) or 0,
                  points=round(points[e.player_id] * 10), rank=rank.get(e.player_id, 0),
                  rounds=tuple(columns[e.player_id]), line=_trf_head(number[e.player_id], e.player))
        for e in entries)
    total = max((len(c) for c in columns.values()), default=0)
    win, draw = round(float(tournament.game_points_win) * 10), round(float(tournament.game_points_draw) * 10)
    trf = TrfTournament(players=players, rounds_total=total,
                        points=PointSystem(win=win, draw=draw, loss=0, bye=win),
                        other_lines=(f"012 {tournament.name}",))
    lines = write_trf(trf, line_end="\n").split("\n")
    header = [f"022 {tournament.venue}" if tournament.venue else "",
              f"042 {tournament.start_date.isoformat()}" if tournament.start_date else "",
              f"052 {tournament.end_date.isoformat()}" if tournament.end_date else "",
              f"062 {len(entries)}", f"XXG {tournament.games_per_match}",
              *[f"{code} {value / 10:>4.1f}" for code, value in (("BBW", win), ("BBD", draw), ("BBL", 0),
                                                                 ("BBU", win))]]
    return "\n".join([lines[0], *[h for h in header if h], *lines[1:]])


def acf_rounds(tournament: Tournament, *, by_game: bool = False) -> list[elo.AcfRound]:
    """Returns the tournament's rounds as the ACF counts them: each decided match played over the board one round
    of its games (by round), or each finished game one round of one game (by game). Forfeits and byes are not."""
    data = _data(tournament)
    rounds: list[elo.AcfRound] = []
    for match in data.matches:
        if match.kind != Match.Kind.PLAYED or match.player_two_id is None:
            continue
        played = [mg.game for mg in data.games.get(match.pk, [])
                  if mg.game.status == Game.Status.FINISHED and mg.game.result]
        if by_game:
            for game in played:
                score = {Game.Result.BLACK_WINS: 1.0, Game.Result.WHITE_WINS: 0.0}.get(game.result, 0.5)
                rounds.append(elo.AcfRound(game.black_id, game.white_id, score, 1))
            continue
        outcome = data.outcomes[match.pk]
        if not outcome.complete or not played:
            continue
        score = 1.0 if outcome.winner == match.player_one_id else 0.0 if outcome.winner == match.player_two_id \
            else 0.5
        rounds.append(elo.AcfRound(match.player_one_id, match.player_two_id, score, len(played)))
    return rounds


def acf_ratings(tournament: Tournament, *, by_game: bool = False) -> dict[int, elo.AcfChange]:
    """Returns each entered player's ACF rating change for the tournament, from the federation's list as imported
    (``federation_rating``, ``federation_games``)."""
    entries = Entry.objects.filter(tournament=tournament).select_related("player")
    before = {e.player_id: elo.AcfStanding(federation_rating(e.player), e.player.federation_games) for e in entries}
    window = elo.WINDOW_BY_GAME if by_game else elo.WINDOW_BY_ROUND
    return elo.acf_ratings(before, acf_rounds(tournament, by_game=by_game), window=window)


def acf_ratings_csv(tournament: Tournament, *, by_game: bool = False) -> str:
    """Returns the ACF rating report: one row a player, by name."""
    changes = acf_ratings(tournament, by_game=by_game)
    players = {e.player_id: e.player for e in Entry.objects.filter(tournament=tournament).select_related("player")}
    out = io.StringIO()
    writer = csv_writer(out)
    writer.writerow(ACF_CSV_COLUMNS)

    def fmt(value: float | int | None, digits: int = 1) -> object:
        return "" if value is None else Computed(f"{value:.{digits}f}" if isinstance(value, float) else str(value))

    for pk, player in sorted(players.items(), key=lambda item: (item[1].name, item[0])):
        c = changes[pk]
        change = (c.rating_after - c.rating_before) if c.rating_before is not None and c.rating_after is not None \
            else None
        writer.writerow([pk, player.name, player.federation, player.federation_id, fmt(c.rating_before),
                         fmt(c.games_before), fmt(c.opponents_average), c.won, c.rounds - c.won - c.lost if c.rounds
                         else 0, c.lost, c.rounds, c.games, fmt(c.performance), fmt(c.rating_after),
                         fmt(c.games_after), fmt(change)])
    return out.getvalue()
