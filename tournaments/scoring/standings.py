"""Standings with ordered, configurable tiebreaks, and the crosstable.

Conventions (documented choices):

- A match is won by the player with more game points; match points follow the ``Scoring``
  (default win 2, draw 1, loss 0). A bye scores ``Scoring.bye`` match points and
  ``bye_game_points`` game points; a forfeit (unplayed) scores as given but is not a played
  game: it counts for neither player's wins/draws/losses. A forfeit in which nobody is awarded
  the match (both absent, equal points) is a lost match for both.
- Every round up to the last one played is a round of every player's record: a round he was
  not paired in (absent, left out after check-in, entered late, withdrawn) is a voluntarily
  unplayed round with no points. A round whose match is still being played is left out.
- Scored per game (``Scoring.per_game``), a played match gives each player points for each of
  its games (2 a win, 1 a draw by default); the match is still won, drawn or lost on game points
  (wins, SB, DE read that).
- The tiebreaks are the FIDE catalogue (``tiebreaks.CATALOGUE``: BH with its cuts, SB, PS, DE,
  WIN, WON, BPG, BWG, ARO, TPR, AOB, KS) with the regulations' rules for unplayed rounds
  (``tiebreaks.py`` says them), and the draughts ones: ``wins`` (matches won over the board),
  ``game_points`` and HP (honour points, weighted game by game). The older names ``buchholz``, ``median_buchholz``, ``sonneborn_berger`` and
  ``head_to_head`` are computed as BH, BH-M1, SB and DE.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from tournaments.scoring.tiebreaks import (
    CATALOGUE,
    Context,
    Round,
    canonical,
    direct_encounter,
    name_of,
    values,
)


class Kind(StrEnum):
    PLAYED = "played"
    FORFEIT = "forfeit"
    BYE = "bye"  # the pairing-allocated bye
    HALF_BYE = "half_bye"  # a half-point bye asked for, or given to a late entry: a drawn match's points
    FULL_BYE = "full_bye"  # a full-point bye given by the director (a late entry): a won match's points


@dataclass(frozen=True, slots=True)
class Scoring:
    """Match points for a win, a draw and a loss; a bye's match and game points.

    Scored per game (``per_game``), a played match gives each player ``game_win``,
    ``game_draw`` or ``game_loss`` for each of its games (draughts' 2 for a win, 1 for a draw);
    ``win``, ``draw`` and ``loss`` are then what a whole round is worth when it is not played
    game by game (a forfeit, a bye; an unplayed round counted as drawn): the points per game
    times the games of a round.
    """

    win: float = 2
    draw: float = 1
    loss: float = 0
    bye: float = 2
    bye_game_points: float = 2
    per_game: bool = False
    game_win: float = 2
    game_draw: float = 1
    game_loss: float = 0


@dataclass(frozen=True, slots=True)
class MatchResult:
    """One match of a round: ``a``'s and ``b``'s game points; ``b`` is ``None`` for a bye.

    ``kind`` is ``played``, ``forfeit`` (unplayed; the points are those awarded) or ``bye``.
    ``a_games`` holds ``a``'s result in each game played over the board, in order (1 won, 1/2
    drawn, 0 lost): per-game scoring and honour points read it.
    """

    round: int
    a: int
    b: int | None
    a_points: float = 0
    b_points: float = 0
    kind: str = Kind.PLAYED
    a_black_games: int = 0
    a_black_wins: int = 0
    b_black_games: int = 0
    b_black_wins: int = 0
    a_games: tuple[float, ...] = ()


def _game_score(result: float, scoring: Scoring) -> float:
    return scoring.game_win if result == 1 else scoring.game_draw if result == 0.5 else scoring.game_loss


def match_points(result: MatchResult, player: int, scoring: Scoring) -> float:
    """Returns the points ``player`` scored in ``result``: for the match, or (``per_game``) for each game."""
    if result.b is None:
        return scoring.bye
    if scoring.per_game and result.kind == Kind.PLAYED:
        mine = result.a_games if player == result.a else tuple(1 - g for g in result.a_games)
        return math.fsum(_game_score(g, scoring) for g in mine)
    mine, theirs = (
        (result.a_points, result.b_points) if player == result.a else (result.b_points, result.a_points)
    )
    if mine > theirs:
        return scoring.win
    if mine < theirs or result.kind == Kind.FORFEIT:  # a double forfeit: both lose
        return scoring.loss
    return scoring.draw


TIEBREAKS = (
    "sonneborn_berger",
    "buchholz",
    "median_buchholz",
    "head_to_head",
    "wins",
    "game_points",
    *CATALOGUE,
)

#: Each tiebreak as a page names it.
#: Each tiebreak's name as people say it, for every name the system takes.
TIEBREAK_LABELS = {t: name_of(t) for t in TIEBREAKS}


@dataclass(frozen=True, slots=True)
class CrossEntry:
    """One round of a player's record."""

    round: int
    opponent: int | None
    game_points: float
    opponent_game_points: float
    match_points: float
    kind: str
    black_games: int = 0
    black_wins: int = 0
    games: tuple[float, ...] = ()


@dataclass(slots=True)
class StandingRow:
    rank: int
    player: int
    points: float
    tiebreaks: dict[str, float] = field(default_factory=dict)
    game_points: float = 0.0
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    forfeits: int = 0


_KIND_OF = {kind.value: kind for kind in Kind}  # a dict look-up: calling Kind() costs ~9 µs a match


def _records(results: Iterable[MatchResult], scoring: Scoring) -> dict[int, list[CrossEntry]]:
    records: dict[int, list[CrossEntry]] = defaultdict(list)
    for r in results:
        if r.b is None:
            if r.kind == Kind.HALF_BYE:
                records[r.a].append(CrossEntry(r.round, None, scoring.bye_game_points / 2, 0, scoring.draw,
                                               Kind.HALF_BYE))
            elif r.kind == Kind.FULL_BYE:
                records[r.a].append(CrossEntry(r.round, None, scoring.bye_game_points, 0, scoring.win, Kind.FULL_BYE))
            else:
                records[r.a].append(CrossEntry(r.round, None, scoring.bye_game_points, 0, scoring.bye, Kind.BYE))
            continue
        kind = _KIND_OF.get(r.kind)
        if kind is None:
            raise ValueError(f"{r.kind!r} is not a kind of match ({', '.join(_KIND_OF)})")
        if kind is Kind.BYE:
            raise ValueError("a bye has no opponent")
        records[r.a].append(
            CrossEntry(r.round, r.b, r.a_points, r.b_points, match_points(r, r.a, scoring), kind,
                       r.a_black_games, r.a_black_wins, tuple(r.a_games))
        )
        records[r.b].append(
            CrossEntry(r.round, r.a, r.b_points, r.a_points, match_points(r, r.b, scoring), kind,
                       r.b_black_games, r.b_black_wins, tuple(1 - g for g in r.a_games))
        )
    for entries in records.values():
        entries.sort(key=lambda e: e.round)
    return records


def crosstable(
    results: Iterable[MatchResult], players: Sequence[int] = (), scoring: Scoring | None = None
) -> dict[int, list[CrossEntry]]:
    """Returns each player's record, round by round (the rows of the crosstable)."""
    records = _records(results, scoring or Scoring())
    return {p: records.get(p, []) for p in (players or sorted(records))} | {
        p: e for p, e in records.items() if p not in players
    }


def _fraction(match_points: float, scoring: Scoring) -> float:
    """Returns the result a number of match points stands for: won 1, drawn 1/2, lost 0."""
    if match_points == scoring.win:
        return 1.0
    if match_points == scoring.draw:
        return 0.5
    return 0.0


def _entry_fraction(e: CrossEntry, scoring: Scoring) -> float:
    """Returns the match's result for the player: won 1, drawn 1/2, lost 0.

    Scored per game, the points do not say it; the game points do (a double forfeit is lost).
    """
    if not scoring.per_game or e.kind == Kind.BYE:
        return _fraction(e.match_points, scoring)
    if e.game_points != e.opponent_game_points:
        return 1.0 if e.game_points > e.opponent_game_points else 0.0
    return 0.0 if e.kind == Kind.FORFEIT else 0.5


def _rounds_of(entries: list[CrossEntry], last: int, pending: set[int], scoring: Scoring) -> list[Round]:
    """Returns a player's record for the tiebreaks: every round to ``last`` but those still played."""
    by_round = {e.round: e for e in entries}
    out = []
    for number in range(1, max(last, max(by_round, default=0)) + 1):
        e = by_round.get(number)
        if e is None:
            if number not in pending:  # not paired in this round: voluntarily unplayed, no points
                out.append(Round(number, 0.0, None, played=False, voluntary=True, fraction=0.0))
            continue
        fraction = _entry_fraction(e, scoring)
        played = e.kind == Kind.PLAYED
        voluntary = ((e.kind == Kind.FORFEIT and e.game_points <= e.opponent_game_points)  # a forfeit lost
                     or e.kind == Kind.HALF_BYE)  # a bye asked for
        out.append(Round(number, e.match_points, e.opponent, played=played, voluntary=voluntary,
                         fraction=fraction, black_games=e.black_games, black_wins=e.black_wins,
                         games=e.games if played else ()))
    return out


def standings(
    results: Iterable[MatchResult],
    players: Sequence[int] = (),
    *,
    scoring: Scoring | None = None,
    tiebreaks: Sequence[str] = ("sonneborn_berger", "buchholz", "wins", "game_points"),
    rounds: int | None = None,
    in_progress: Collection[tuple[int, int]] = (),
    ratings: Mapping[int, int | None] | None = None,
) -> list[StandingRow]:
    """Returns the standings: by match points, then ``tiebreaks`` in order; equal rows share a rank.

    ``players`` lists everybody (so a player with no result still appears); the rest come from
    ``results``. ``rounds`` is the number of rounds played so far (default: the last round of
    the results); ``in_progress`` the (round, player) pairs of matches still being played,
    left out rather than counted unplayed; ``ratings`` the players' ratings (for ARO, TPR).
    Ties left after every tiebreak are listed by player id.
    """
    scoring = scoring or Scoring()
    for t in tiebreaks:
        if t not in TIEBREAKS:
            raise ValueError(f"unknown tiebreak {t!r}; choose from {', '.join(TIEBREAKS)}")
    records = _records(list(results), scoring)
    everyone = sorted(set(players) | set(records))
    last = rounds if rounds is not None else max((e.round for es in records.values() for e in es), default=0)
    pending: dict[int, set[int]] = defaultdict(set)
    for number, player in in_progress:
        pending[player].add(number)
    points = {p: math.fsum(e.match_points for e in records.get(p, [])) for p in everyone}  # correctly rounded
    context = Context(
        rounds={p: _rounds_of(records.get(p, []), last, pending[p], scoring) for p in everyone},
        score=points, ratings={p: r for p, r in (ratings or {}).items() if r is not None},
        win=scoring.win, draw=scoring.draw, round_count=last,
    )
    computed = values([t for t in tiebreaks if t not in ("wins", "game_points")], context)

    rows: dict[int, StandingRow] = {}
    for p in everyone:
        entries = records.get(p, [])
        row = StandingRow(0, p, points[p])
        for e in entries:
            if e.kind in (Kind.BYE, Kind.HALF_BYE, Kind.FULL_BYE):
                row.byes += 1
            elif e.kind == Kind.FORFEIT:
                row.forfeits += 1
            else:
                row.played += 1
                fraction = _entry_fraction(e, scoring)
                if fraction == 1:
                    row.wins += 1
                elif fraction == 0.5:
                    row.draws += 1
                else:
                    row.losses += 1
        row.game_points = float(sum(e.game_points for e in entries))
        own = {"wins": float(row.wins), "game_points": row.game_points}
        row.tiebreaks = {t: own[t] if t in own else computed[t][p] for t in tiebreaks if canonical(t) != "DE"}
        rows[p] = row

    # Sort group by group, so that direct encounter is decided among the players still tied.
    def split(group: list[int], level: int) -> list[list[int]]:
        if len(group) == 1 or level == len(tiebreaks):
            return [sorted(group)]
        name = tiebreaks[level]
        keys: dict[int, float]
        if canonical(name) == "DE":
            shown, place = direct_encounter(group, context)
            for p in group:
                rows[p].tiebreaks[name] = shown[p]
            keys = {p: -place[p] for p in group}
        else:
            keys = {p: rows[p].tiebreaks[name] for p in group}
        buckets: dict[float, list[int]] = defaultdict(list)
        for p in group:
            buckets[keys[p]].append(p)
        out: list[list[int]] = []
        for value in sorted(buckets, reverse=True):
            out.extend(split(buckets[value], level + 1))
        return out

    by_points: dict[float, list[int]] = defaultdict(list)
    for p in everyone:
        by_points[points[p]].append(p)
    direct = [t for t in tiebreaks if canonical(t) == "DE"]
    ordered: list[StandingRow] = []
    for value in sorted(by_points, reverse=True):
        for name in direct:  # the value shown when an earlier tiebreak decides: among all on these points
            shown, _place = direct_encounter(by_points[value], context)
            for p in by_points[value]:
                rows[p].tiebreaks[name] = shown[p]
        for tied in split(by_points[value], 0):
            rank = len(ordered) + 1
            for p in tied:
                rows[p].rank = rank
                ordered.append(rows[p])
    for row in ordered:
        row.tiebreaks = {t: row.tiebreaks.get(t, 0.0) for t in tiebreaks}
    return ordered
