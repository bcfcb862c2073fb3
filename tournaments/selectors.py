"""Reads of tournaments that are more than a one-line query.

Their query counts do not grow with the number of players or rounds; tests pin them.
"""

from __future__ import annotations

import hashlib
import io
import json
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import Count, Prefetch, Q, QuerySet

from arbitration.clocks import clock_view
from arbitration.confirmations import unconfirmed_results
from arbitration.pdn_export import game_pdn
from core.csvsafe import Computed, csv_writer
from games.models import Game
from players.models import Player, PlayerLog
from tournaments.models import (
    Entry,
    Match,
    MatchGame,
    PairingProhibition,
    RatingHistory,
    Round,
    RoundBye,
    Tournament,
    TournamentLog,
)
from tournaments.services import pure
from tournaments.services.hook import appeal_closed

# The match outcomes and plain standings live with the writes that need them (re-exported here).
from tournaments.services.outcomes import (  # noqa: F401
    MatchOutcome,
    match_outcomes,
    match_results,
    next_round_number,
    presence_of,
    published_byes,
    scoring_of,
    standings_rows,
    standings_scope,
    starting_list,
)


def tournament_list_for_home() -> QuerySet[Tournament]:
    """Returns the tournaments with their player counts and rounds, games and players prefetched."""
    games = Game.objects.select_related("black", "white").order_by("id")
    rounds = Round.objects.order_by("number").prefetch_related(Prefetch("games", queryset=games))
    return (
        Tournament.objects.annotate(player_count=Count("entries", distinct=True))
        .prefetch_related(Prefetch("rounds", queryset=rounds))
        .order_by("-start_date", "name")
    )


def tournament_list() -> QuerySet[Tournament]:
    """Returns the tournaments with their player counts, newest first."""
    return Tournament.objects.annotate(
        player_count=Count("entries", filter=Q(entries__status=Entry.Status.ACTIVE), distinct=True),
    ).order_by("-start_date", "-created_at", "name")


# --- standings (from the match outcomes, tournaments.services.outcomes) --------------------------


@dataclass
class StandingsRow:
    rank: int
    player: Player
    points: float
    tiebreaks: dict[str, float]
    game_points: float
    wins: int
    played: int
    withdrawn: bool


def standings(tournament: Tournament) -> list[StandingsRow]:
    """Returns the standings with the players: in order, with points, tiebreaks, game points, wins, rank.

    Three queries whatever the number of players: entries with players, matches, games (a Swiss: four, its byes).
    """
    entries = {e.player_id: e for e in Entry.objects.filter(tournament=tournament).select_related("player")}
    outcomes = match_outcomes(tournament)
    rows = pure.standings(list(entries), match_results(outcomes, published_byes(tournament)), tiebreaks=list(tournament.tiebreaks or []),
                          scoring=scoring_of(tournament), ratings={p: e.player.rating for p, e in entries.items()},
                          **standings_scope(outcomes))
    return [
        StandingsRow(rank=r.rank, player=entries[r.player].player, points=r.points, tiebreaks=r.tiebreaks,
                     game_points=r.game_points, wins=r.wins, played=r.played,
                     withdrawn=entries[r.player].status == Entry.Status.WITHDRAWN)
        for r in rows
    ]


@dataclass
class CrosstableCell:
    """One round of a player's line in the crosstable."""

    round: int
    opponent: int | None
    opponent_rank: int | None
    opponent_number: int | None
    game_points: float
    opponent_game_points: float
    match_points: float
    kind: str  # played, bye, forfeit

    @property
    def mark(self) -> str:
        """Returns the cell as shown: ``bye``, the opponent's starting number with ``+``/``-`` for a forfeit
        (``-`` for both when neither was awarded it), or his number and the game points (``3:2-0``).

        The starting number, as every crosstable names an opponent: unlike a rank, no two players share it.
        """
        if self.kind in ("bye", "full_bye"):
            return "bye"
        if self.kind == "half_bye":
            return "bye ½"
        if self.kind == "forfeit":
            return f"{self.opponent_number}{'+' if self.game_points > self.opponent_game_points else '-'}"
        return f"{self.opponent_number}:{_fmt(self.game_points)}-{_fmt(self.opponent_game_points)}"


@dataclass
class CrosstableRow:
    rank: int
    number: int | None  # the starting number (``Entry.seed``)
    player: Player
    points: float
    rounds: list[CrosstableCell]
    cells: list[str]  # round robin only: game points against each player, in the order of the rows
    by_round: list[CrosstableCell | None]  # one per round of the table (``crosstable_round_numbers``): None, not played


def crosstable(tournament: Tournament) -> tuple[list[StandingsRow], list[CrosstableRow]]:
    """Returns the standings and the crosstable, in standings order.

    Each row lists the player's rounds (opponent, his rank, the game points each, the match
    points). For a round robin it also has the square table's cells: per opponent the game
    points scored in their matches ("x" on the diagonal, "+"/"-" for a forfeit, one score per
    match in a double round robin). Three queries (a Swiss: four, its byes).
    """
    entries = {e.player_id: e for e in Entry.objects.filter(tournament=tournament).select_related("player")}
    outcomes = match_outcomes(tournament)
    results = match_results(outcomes, published_byes(tournament))
    scoring = scoring_of(tournament)
    plain = pure.standings(list(entries), results, tiebreaks=list(tournament.tiebreaks or []), scoring=scoring,
                           ratings={p: e.player.rating for p, e in entries.items()}, **standings_scope(outcomes))
    rows = [
        StandingsRow(rank=r.rank, player=entries[r.player].player, points=r.points, tiebreaks=r.tiebreaks,
                     game_points=r.game_points, wins=r.wins, played=r.played,
                     withdrawn=entries[r.player].status == Entry.Status.WITHDRAWN)
        for r in plain
    ]
    rank = {r.player.pk: r.rank for r in rows}
    number = {pk: e.seed for pk, e in entries.items()}
    lines = pure.crosstable_lines(results, list(entries), scoring)
    dense = tournament.format in (Tournament.Format.ROUND_ROBIN, Tournament.Format.DOUBLE_ROUND_ROBIN)
    scored: dict[tuple[int, int], list[str]] = {}
    if dense:
        for o in outcomes.values():
            if o.two is None or not o.complete:
                continue
            if o.kind == Match.Kind.FORFEIT:
                one, two = ("+", "-") if o.winner == o.one else ("-", "+") if o.winner == o.two else ("-", "-")
            else:
                one, two = _fmt(o.game_points_one), _fmt(o.game_points_two)
            scored.setdefault((o.one, o.two), []).append(one)
            scored.setdefault((o.two, o.one), []).append(two)
    order = [r.player.pk for r in rows]
    table = []
    for r in rows:
        cells = ["x" if other == r.player.pk else " ".join(scored.get((r.player.pk, other), []))
                 for other in order] if dense else []
        rounds = [CrosstableCell(round=e.round, opponent=e.opponent, opponent_rank=rank.get(e.opponent),
                                 opponent_number=number.get(e.opponent) if e.opponent is not None else None,
                                 game_points=float(e.game_points), opponent_game_points=float(e.opponent_game_points),
                                 match_points=float(e.match_points), kind=str(e.kind))
                  for e in lines.get(r.player.pk, [])]
        table.append(CrosstableRow(rank=r.rank, number=number.get(r.player.pk), player=r.player, points=r.points,
                                   rounds=rounds, cells=cells, by_round=[]))
    numbers = crosstable_round_numbers(table)
    for row in table:
        played = {c.round: c for c in row.rounds}
        row.by_round = [played.get(n) for n in numbers]
    return rows, table


def crosstable_round_numbers(table: list[CrosstableRow]) -> list[int]:
    """Returns the rounds a crosstable has columns for: every round somebody played, in order (a player who
    missed one, left out or entered late, has an empty cell there, not his next result)."""
    return sorted({c.round for row in table for c in row.rounds})


def _fmt(value: float | Decimal) -> str:
    return f"{float(value):g}"


# --- rounds -------------------------------------------------------------------------------------


def round_detail(tournament: Tournament, number: int) -> Round | None:
    """Returns the round with its matches, their players and games prefetched. Three queries."""
    games = MatchGame.objects.select_related("game").order_by("number")
    matches = (Match.objects.select_related("player_one", "player_two", "first_black", "forfeit_winner")
               .prefetch_related(Prefetch("match_games", queryset=games)).order_by("board"))
    return (Round.objects.filter(tournament=tournament, number=number)
            .prefetch_related(Prefetch("matches", queryset=matches)).first())


def rounds_with_matches(tournament: Tournament) -> list[Round]:
    """Returns every round with its matches and games (for the tournament page). Four queries.

    ``round.loose_games`` lists games of the round that belong to no match (made outside the
    tournament services, e.g. by the demo seed).
    """
    games = MatchGame.objects.select_related("game").order_by("number")
    matches = (Match.objects.select_related("player_one", "player_two", "first_black", "forfeit_winner")
               .prefetch_related(Prefetch("match_games", queryset=games)).order_by("board"))
    loose = Game.objects.filter(match_game__isnull=True).select_related("black", "white").order_by("id")
    return list(Round.objects.filter(tournament=tournament).order_by("number")
                .prefetch_related(Prefetch("matches", queryset=matches),
                                  Prefetch("games", queryset=loose, to_attr="loose_games")))


def match_scores_attach(tournament: Tournament, rounds: list[Round]) -> None:
    """Gives each match of the rounds its ``score``: the game points of its first player, then the second's
    (``1.5-0.5``), once every game is played; "" before (two queries)."""
    outcomes = match_outcomes(tournament)
    for round_ in rounds:
        for match in round_.matches.all():
            o = outcomes.get(match.pk)
            match.score = (f"{_fmt(o.game_points_one)}-{_fmt(o.game_points_two)}"
                           if o is not None and o.complete and o.two is not None else "")


def tournament_log(tournament: Tournament, *, public: bool = False) -> QuerySet[TournamentLog]:
    """Returns the tournament's log; ``public`` leaves out the pairing rows of a round still in preview."""
    rows = TournamentLog.objects.filter(tournament=tournament).select_related("actor").order_by("id")
    if public:
        previews = list(tournament.rounds.filter(status=Round.Status.PREVIEW).values_list("number", flat=True))
        if previews:
            rows = rows.exclude(kind__in=[TournamentLog.Kind.ROUND_PAIRED, TournamentLog.Kind.PAIRING_EDITED],
                                data__round__in=previews)
    return rows


# --- players ---------------------------------------------------------------------------------


@dataclass
class RecordLine:
    round: int
    board: int
    kind: str
    opponent: Player | None
    games: list[dict[str, Any]]
    game_points: float
    opponent_game_points: float
    outcome: str  # win, draw, loss, pending, bye, forfeit


def player_record(tournament: Tournament, player: Player) -> list[RecordLine]:
    """Returns the player's matches in the tournament, round by round, with their games."""
    matches = (Match.objects.filter(round__tournament=tournament).exclude(round__status=Round.Status.PREVIEW)
               .filter(Q(player_one=player) | Q(player_two=player))
               .select_related("round", "player_one", "player_two")
               .prefetch_related(Prefetch("match_games", queryset=MatchGame.objects.select_related("game")))
               .order_by("round__number"))
    outcomes = match_outcomes(tournament)
    lines = []
    for m in matches:
        o = outcomes.get(m.pk)
        mine_first = m.player_one_id == player.pk
        opponent = m.player_two if mine_first else m.player_one
        gp = (o.game_points_one if mine_first else o.game_points_two) if o else 0.0
        ogp = (o.game_points_two if mine_first else o.game_points_one) if o else 0.0
        if m.kind == Match.Kind.BYE:
            outcome = "bye"
        elif o is None or not o.complete:
            outcome = "pending"
        elif o.winner is None:
            outcome = "loss" if m.kind == Match.Kind.FORFEIT else "draw"
        else:
            outcome = "win" if o.winner == player.pk else "loss"
        if m.kind == Match.Kind.FORFEIT:
            outcome = f"forfeit {outcome}"
        games = []
        for mg in m.match_games.all():
            g = mg.game
            colour = "black" if g.black_id == player.pk else "white"
            games.append({"id": g.pk, "number": mg.number, "colour": colour, "result": g.result,
                          "status": g.status, "ballot": mg.ballot_number})
        lines.append(RecordLine(round=m.round.number, board=m.board, kind=m.kind, opponent=opponent, games=games,
                                game_points=gp, opponent_game_points=ogp, outcome=outcome))
    return lines


def player_tournaments(player: Player) -> QuerySet[Tournament]:
    return Tournament.objects.filter(entries__player=player).order_by("-start_date", "-created_at")


def player_rating_history(player: Player) -> QuerySet[RatingHistory]:
    return RatingHistory.objects.filter(player=player).select_related("tournament").order_by("created_at", "id")


def player_games_pending(player: Player) -> QuerySet[Game]:
    """Returns the player's games not finished yet, in published rounds (his next games first)."""
    return (Game.objects.filter(Q(black=player) | Q(white=player)).exclude(status=Game.Status.FINISHED)
            .select_related("black", "white", "round__tournament", "match_game__match").order_by("id"))


def player_games_finished(player: Player, limit: int = 50) -> QuerySet[Game]:
    return (Game.objects.filter(Q(black=player) | Q(white=player), status=Game.Status.FINISHED)
            .select_related("black", "white", "round__tournament").order_by("-finished_at", "-id")[:limit])


def tournament_games(tournament: Tournament) -> QuerySet[Game]:
    """Returns every game of the tournament in round and board order (for the PDN export)."""
    return (Game.objects.filter(round__tournament=tournament)
            .select_related("black", "white", "round", "round__tournament", "match_game__match")
            .order_by("round__number", "match_game__match__board", "match_game__number", "id"))


# --- exports -----------------------------------------------------------------------------------


def standings_csv(tournament: Tournament) -> str:
    """Returns the standings as CSV: rank, player, club, points, the tiebreaks, game points, wins.

    Each tiebreak's column is ``tiebreak_<name>`` (so ``tiebreak_wins`` and ``wins`` are two
    columns, and no name is repeated).

    Names and clubs are text (neutralised if they begin like a formula, ``core.csvsafe``); the
    figures are the code's own numbers, written unchanged (a negative tiebreak stays ``-1``).
    """
    rows = standings(tournament)
    names = list(tournament.tiebreaks or [])
    out = io.StringIO()
    writer = csv_writer(out)
    writer.writerow(["rank", "player_id", "player", "club", "points", *[f"tiebreak_{n}" for n in names],
                     "game_points", "wins", "played"])
    for r in rows:
        writer.writerow([r.rank, r.player.pk, r.player.name, r.player.club, Computed(_fmt(r.points)),
                         *[Computed(_fmt(r.tiebreaks.get(n, 0.0))) for n in names],
                         Computed(_fmt(r.game_points)), r.wins, r.played])
    return out.getvalue()


def round_broadcast_tag(tournament: Tournament, number: int) -> str:
    """Returns the entity tag of a round's live PDN: it changes with every entry on any of its games'
    logs (a move, a ruling, a clock entry, the end) and with the tournament's log (an edit, a
    correction). One query; nothing of the PDN is built."""
    rows = list(Game.objects.filter(round__tournament=tournament, round__number=number)
                .order_by("id").values_list("id", "log_seq", "status", "result"))
    digest = hashlib.sha256(json.dumps([tournament.pk, tournament.log_seq, rows]).encode()).hexdigest()
    return f'"{digest[:32]}"'


def round_pdn(tournament: Tournament, number: int) -> str:
    """Returns the games of one round as one PDN file, in board and game order, as far as they are played."""
    games = tournament_games(tournament).filter(round__number=number)
    return "\n".join(game_pdn(game).rstrip("\n") + "\n" for game in games)


def tournament_pdn(tournament: Tournament) -> str:
    """Returns every game of the tournament as one PDN file, in round, board and game order."""
    return "\n".join(game_pdn(game).rstrip("\n") + "\n" for game in tournament_games(tournament))


def tournament_trf(tournament: Tournament) -> str:
    """Returns the tournament as FIDE's TRF (the layout the Dutch system's checkers read).

    Pairing numbers are the starting ranks; one round is one match: the opponent, the colour of
    the match's first game (``w``, the side that moves first: Black; ``-`` for a forfeit), the match's result (``1``
    ``=`` ``0``, ``+``/``-`` a forfeit, ``U`` the bye, ``Z`` a round the player was not paired
    in); the points are the tournament's match points (``BBW``...). Only the rounds whose matches
    are all decided are written; players kept apart are ``260`` lines (a Swiss), the Baku acceleration's
    virtual points ``XXA`` lines; a Swiss of one-game rounds says the colour the lots gave its top seed in
    round 1 (``XXC``). Four queries (a Swiss: eight).
    """
    entries = list(Entry.objects.filter(tournament=tournament).select_related("player")
                   .order_by("seed", "-player__rating", "player__name", "player_id"))
    number = {e.player_id: i for i, e in enumerate(entries, start=1)}
    outcomes = match_outcomes(tournament)
    by_round: dict[int, list[MatchOutcome]] = {}
    for o in outcomes.values():
        by_round.setdefault(o.round, []).append(o)
    complete = sorted(n for n, matches in by_round.items() if all(o.complete for o in matches))
    complete = [n for i, n in enumerate(complete, start=1) if n == i]  # the finished rounds from round 1 on
    rank = {r.player: r.rank for r in standings_rows(tournament)}
    lines = {e.player_id: [(None, None, "Z")] * len(complete) for e in entries}
    for index, n in enumerate(complete):
        for o in by_round[n]:
            if o.two is None:
                lines[o.one][index] = (None, None, "U")
                continue
            for me, other in ((o.one, o.two), (o.two, o.one)):
                colour = "-" if o.first_black is None else "w" if o.first_black == me else "b"
                if o.kind == Match.Kind.FORFEIT:
                    result = "+" if o.winner == me else "-"
                else:
                    result = "=" if o.winner is None else "1" if o.winner == me else "0"
                lines[me][index] = (number[other], colour, result)
    at = {n: i for i, n in enumerate(complete)}
    for n, player, kind in published_byes(tournament):
        if n in at and player in lines:
            lines[player][at[n]] = (None, None, {"half": "H", "full": "F"}.get(kind, "Z"))
    players = [pure.TrfEntry(number=number[e.player_id], name=e.player.name, rating=e.player.rating,
                             rank=rank.get(e.player_id, 0), rounds=lines[e.player_id]) for e in entries]
    last = tournament.round_count or 999
    forbidden = tuple((1, row["until_round"] or last, frozenset(number[p] for p in row["players"] if p in number))
                      for row in prohibitions_data(tournament)) if tournament.format == Tournament.Format.SWISS else ()
    initial = None
    if tournament.format == Tournament.Format.SWISS and tournament.games_per_match % 2:
        notes = Round.objects.filter(tournament=tournament, number=1).values_list("explanation", flat=True).first()
        initial = pure.initial_colour_of_notes(notes or [])
    return pure.trf_text(name=tournament.name, players=players, rounds_total=tournament.round_count or None,
                         scoring=scoring_of(tournament), forbidden=forbidden,
                         accelerated=tournament.acceleration == Tournament.Acceleration.BAKU,
                         starting=[number[p] for p in starting_list(entries)], initial_colour=initial)


def crosstable_csv(tournament: Tournament) -> str:
    """Returns the crosstable as CSV: rank, player, points, then per opponent (round robin) or per round,
    then the player's starting number.

    A round's cell is ``CrosstableCell.mark``: the opponent's starting number and the game points
    each (``3:2-0``), ``bye``, or the opponent's number with ``+``/``-`` for a forfeit (``-`` for
    both players of a double forfeit), empty for a round the player did not play. Those marks and the points are the code's own (written as
    they are); the player's name is text, neutralised if it begins like a formula.
    """
    _rows, table = crosstable(tournament)
    out = io.StringIO()
    writer = csv_writer(out)
    dense = bool(table and table[0].cells)
    rounds = crosstable_round_numbers(table)
    columns = [str(i) for i in range(1, len(table) + 1)] if dense else [f"R{n}" for n in rounds]
    writer.writerow(["rank", "player", "points", *columns, "number"])
    for row in table:
        cells = row.cells if dense else [c.mark if c is not None else "" for c in row.by_round]
        writer.writerow([row.rank, row.player.name, Computed(_fmt(row.points)), *map(Computed, cells),
                         row.number if row.number is not None else ""])
    return out.getvalue()


def byes_data(tournament: Tournament) -> list[dict[str, Any]]:
    """Returns the byes known before their rounds, by round then name: player, name, round, kind, reason."""
    return [{"player": b.player_id, "name": b.player.name, "round": b.round_number, "kind": b.kind, "reason": b.reason}
            for b in RoundBye.objects.filter(tournament=tournament).select_related("player")
            .order_by("round_number", "player__name")]


def prohibition_data(row: PairingProhibition) -> dict[str, Any]:
    return {"id": row.pk, "players": sorted(p.pk for p in row.players.all()), "until_round": row.until_round,
            "label": row.label}


def prohibitions_data(tournament: Tournament) -> list[dict[str, Any]]:
    """Returns the players kept apart (two queries)."""
    return [prohibition_data(row) for row in PairingProhibition.objects.filter(tournament=tournament)
            .prefetch_related("players")]


def presence_data(tournament: Tournament) -> dict[str, Any]:
    """Returns the check-in for the next round: each active entry with present true, false or null (not marked)."""
    number = next_round_number(tournament)
    marks = presence_of(tournament, number)
    entries = (Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).select_related("player")
               .order_by("seed", "player__name"))
    return {"round": number, "players": [{"player": e.player_id, "name": e.player.name,
                                          "present": marks.get(e.player_id)} for e in entries]}


def results_unconfirmed(tournament: Tournament) -> list[tuple[Game, list[str]]]:
    """Returns the tournament's finished games whose result a player has not confirmed yet, with the sides
    missing, in round and game order (two queries)."""
    games = list(Game.objects.filter(round__tournament=tournament, status=Game.Status.FINISHED)
                 .select_related("black", "white", "round").order_by("round__number", "id"))
    return unconfirmed_results(games)


def games_needing_referee(tournament: Tournament) -> list[Game]:
    """Returns the tournament's unfinished games that have no referee (e.g. after one was removed)."""
    return list(Game.objects.filter(round__tournament=tournament, referees__isnull=True)
                .exclude(status=Game.Status.FINISHED).select_related("black", "white").order_by("id"))


ACCOUNT_KINDS = (PlayerLog.Kind.CLAIMED, PlayerLog.Kind.CLAIM_REFUSED, PlayerLog.Kind.CLAIM_WITHDRAWN,
                 PlayerLog.Kind.LINKED, PlayerLog.Kind.UNLINKED)


def account_links(user: Any) -> list[PlayerLog]:
    """Returns the registry's rows about the user's account, newest first: his claims, their decisions, each link
    and unlink (by account; rows written before accounts were recorded by id, by username)."""
    return list(PlayerLog.objects.filter(
        Q(account=user, kind__in=ACCOUNT_KINDS)
        | Q(account__isnull=True, kind=PlayerLog.Kind.CHANGED, changes__user__after=user.username)
        | Q(account__isnull=True, kind=PlayerLog.Kind.CHANGED, changes__user__before=user.username))
        .select_related("player", "actor").order_by("-id"))


def player_account_record(player: Player) -> list[PlayerLog]:
    """Returns the registry's rows about the player's account, newest first: claims, decisions, links, unlinks."""
    return list(PlayerLog.objects.filter(Q(player=player, kind__in=ACCOUNT_KINDS)
                                         | Q(player=player, kind=PlayerLog.Kind.CHANGED, changes__has_key="user"))
                .select_related("actor", "account").order_by("-id"))


# --- the ways in: the home page, a player's games, a referee's boards; the printed sheets ---------


@dataclass
class GameCard:
    """A game as the ways-in pages and the printed sheets show it: where, who, which colour, which opening."""

    game: Game
    tournament: Tournament | None
    round_number: int | None
    board: int | None
    number: int | None
    ballot: dict[str, Any] | None
    colour: str = ""  # the player's colour, on his own page
    opponent: Player | None = None
    clock: dict[str, Any] | None = None
    score: str = ""  # the match's game points so far, Black's then White's of this game ("1.5–0.5"); "" outside a match


def _ballot_of(game: Game) -> dict[str, Any] | None:
    match_game = getattr(game, "match_game", None)
    if match_game is None or match_game.ballot_number is None:
        return None
    return next((b for b in match_game.match.ballots if b.get("number") == match_game.ballot_number), None)


def game_card(game: Game, player: Player | None = None, *, now: Any = None) -> GameCard:
    """Returns the card of a game read with ``match_game__match``, ``round__tournament`` and the players."""
    try:
        match_game = game.match_game
    except MatchGame.DoesNotExist:
        match_game = None
    card = GameCard(game=game, tournament=game.round.tournament if game.round_id else None,
                    round_number=game.round.number if game.round_id else None,
                    board=match_game.match.board if match_game else None,
                    number=match_game.number if match_game else None, ballot=_ballot_of(game) if match_game else None)
    if player is not None:
        card.colour = "Black" if game.black_id == player.pk else "White"
        card.opponent = game.white if game.black_id == player.pk else game.black
    if now is not None and game.status != Game.Status.FINISHED:
        card.clock = clock_view(game, now)
    return card


def _cards_query() -> QuerySet[Game]:
    return Game.objects.select_related("black", "white", "round__tournament", "match_game__match", "clock")


def home_overview() -> dict[str, Any]:
    """Returns the running tournaments, each with its current round and the games being played now, and the others."""
    running = list(tournament_list().filter(status=Tournament.Status.RUNNING))
    rounds = {r.tournament_id: r for r in Round.objects.filter(tournament__in=running).exclude(
        status=Round.Status.PREVIEW).order_by("tournament_id", "number")}
    playing = list(_cards_query().filter(round__in=list(rounds.values()))
                   .exclude(status=Game.Status.FINISHED).order_by("match_game__match__board", "match_game__number"))
    for tournament in running:
        tournament.current_round = rounds.get(tournament.pk)
        tournament.live = [game_card(g) for g in playing if tournament.current_round
                           and g.round_id == tournament.current_round.pk and g.status == Game.Status.IN_PROGRESS
                           and g.ply > 0]
        tournament.waiting = sum(1 for g in playing if tournament.current_round
                                 and g.round_id == tournament.current_round.pk) - len(tournament.live)
    others = list(tournament_list().exclude(status=Tournament.Status.RUNNING))
    return {"running": running, "others": others}


def player_next_games(player: Player, now: Any) -> list[GameCard]:
    """Returns the player's unfinished games, next first, each with its board, colour, ballot and clock."""
    games = (_cards_query().filter(Q(black=player) | Q(white=player)).exclude(status=Game.Status.FINISHED)
             .order_by("round__tournament__start_date", "round__number", "match_game__number", "id"))
    return [game_card(g, player, now=now) for g in games]


def player_past_games(player: Player, limit: int = 50) -> list[GameCard]:
    """Returns the player's finished games, newest first, with his colour and his opponent."""
    games = (_cards_query().filter(Q(black=player) | Q(white=player), status=Game.Status.FINISHED)
             .order_by("-finished_at", "-id")[:limit])
    return [game_card(g, player) for g in games]


def unsigned_by(player: Player, cards: list[GameCard]) -> set[int]:
    """Returns the ids of the player's finished games (among ``cards``) whose result he has not confirmed yet."""
    colour_of = {card.game.pk: card.colour for card in cards}
    return {game.pk for game, sides in unconfirmed_results([card.game for card in cards])
            if colour_of.get(game.pk, "").lower() in sides}


def appeals_open(cards: list[GameCard], now: Any) -> set[int]:
    """Returns the ids of the cards' finished games on which an appeal may still be filed (Law 28): a
    tournament's game until its window closes (``hook.appeal_closed``) and never once the tournament is
    finished; a game outside a tournament always. One query, whatever the number of games."""
    tournaments = {card.tournament.pk for card in cards if card.tournament is not None}
    published: dict[int, list[int]] = {}
    for tid, number in (Round.objects.filter(tournament_id__in=tournaments).exclude(status=Round.Status.PREVIEW)
                        .values_list("tournament_id", "number") if tournaments else []):
        published.setdefault(tid, []).append(number)
    open_ = set()
    for card in cards:
        if not card.game.is_finished:
            continue
        tournament = card.tournament
        if tournament is None:
            open_.add(card.game.pk)
            continue
        if tournament.status == Tournament.Status.FINISHED or card.round_number is None:
            continue
        later = min((n for n in published.get(tournament.pk, []) if n > card.round_number), default=None)
        if not appeal_closed(minutes=tournament.appeal_window_minutes, finished_at=card.game.finished_at,
                             round_number=card.round_number, later_round=later, now=now):
            open_.add(card.game.pk)
    return open_


def match_score(card: GameCard) -> str:
    """Returns the game points each player of the card's game has in its match so far, Black's first ("1.5–0.5"),
    as the tournament counts them (its points for a win and a draw); "" for a game outside a match.

    Reads the match's games from ``match_game__match__match_games`` (prefetched by the callers).
    """
    match_game = getattr(card.game, "match_game", None) if card.number else None
    if match_game is None or card.tournament is None:
        return ""
    win, draw = float(card.tournament.game_points_win), float(card.tournament.game_points_draw)
    points = {card.game.black_id: 0.0, card.game.white_id: 0.0}
    for other in match_game.match.match_games.all():
        game = other.game
        if game.status != Game.Status.FINISHED or not game.result:
            continue
        if game.result == Game.Result.DRAW:
            scored = {game.black_id: draw, game.white_id: draw}
        else:
            scored = {game.black_id if game.result == Game.Result.BLACK_WINS else game.white_id: win}
        for player_id, value in scored.items():
            if player_id in points:
                points[player_id] += value
    return f"{_fmt(points[card.game.black_id])}–{_fmt(points[card.game.white_id])}"


def _started(card: GameCard) -> bool:
    return card.game.ply > 0 or bool(card.clock and card.clock["status"] != "not_started")


def games_in_play(now: Any) -> tuple[list[GameCard], list[GameCard]]:
    """Returns the games being played now, across the running tournaments and outside them, and those waiting.

    Being played: in progress and started (a move made, or the clock started), each with its clock and
    its match score; waiting: in progress, not started yet (the rest of a published round). By
    tournament, round, board and game of the match; the games outside tournaments last. Two
    queries, whatever the number of games.
    """
    games = (_cards_query()
             .filter(Q(round__isnull=True) | Q(round__tournament__status=Tournament.Status.RUNNING),
                     status=Game.Status.IN_PROGRESS)
             .exclude(round__status=Round.Status.PREVIEW)
             .prefetch_related(Prefetch("match_game__match__match_games",
                                        queryset=MatchGame.objects.select_related("game")))
             .order_by("round__tournament__name", "round__tournament_id", "round__number",
                       "match_game__match__board", "match_game__number", "id"))
    cards = [game_card(g, now=now) for g in games]
    for card in cards:
        card.score = match_score(card)
    cards.sort(key=lambda card: card.tournament is None)  # stable: the order above within each part
    return [c for c in cards if _started(c)], [c for c in cards if not _started(c)]


def games_finished() -> QuerySet[Game]:
    """Returns every finished game with what its card needs, newest first (``game_card`` of each)."""
    return _cards_query().filter(status=Game.Status.FINISHED).order_by("-finished_at", "-id")


def referee_boards(user: Any, now: Any) -> list[GameCard]:
    """Returns the unfinished games the referee is assigned to now, by tournament, round and board."""
    games = (_cards_query().filter(referees=user, round__isnull=False).exclude(status=Game.Status.FINISHED)
             .exclude(round__status=Round.Status.PREVIEW)
             .order_by("round__tournament__name", "round__number", "match_game__match__board", "match_game__number"))
    return [game_card(g, now=now) for g in games]


def players_list() -> QuerySet[Player]:
    """Returns every registered player with the number of tournaments entered, by name."""
    return Player.objects.annotate(tournament_count=Count("entries", distinct=True)).order_by("name")


def round_cards(tournament: Tournament, number: int) -> tuple[Round, list[GameCard]]:
    """Returns a published round and the cards of its games in board order (the pairing sheet, the scoresheets)."""
    round_ = Round.objects.filter(tournament=tournament, number=number).exclude(status=Round.Status.PREVIEW).first()
    if round_ is None:
        raise Round.DoesNotExist(f"round {number}")
    games = _cards_query().filter(round=round_).order_by("match_game__match__board", "match_game__number", "id")
    return round_, [game_card(g) for g in games]
