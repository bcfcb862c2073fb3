"""The bridge to the pure algorithms: pairing, lots, ballots, scoring and ratings.

The services call only the functions here, with plain values. Each one uses the project's
pure package (``tournaments.pairing``, ``tournaments.scoring``, ``tournaments.lots``,
``tournaments.ballots``, ``tournaments.ratings``) and keeps the data shapes the services use.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from tournaments.ballots import BASE_DECKS, Deck, DeckError, deck_of, draw_openings
from tournaments.lots import cast_lots, new_seed
from tournaments.pairing.colours import (
    initial_colour_from_round_one,
    initial_colour_lots,
    swiss_single_game_colours,
)
from tournaments.pairing.dutch import baku_virtual_points, explain_pair, pair_round, round_of, sort_pairs
from tournaments.pairing.knockout import (
    Seeded,
    TieBreak,
    decide_knockout_match,
    knockout_first_round,
    knockout_next_round,
)
from tournaments.pairing.roundrobin import round_robin
from tournaments.pairing.swiss import SwissPlayer, pair_swiss
from tournaments.pairing.trf import PointSystem, TrfPlayer, TrfRound, TrfTournament, write_trf
from tournaments.pairing.types import PairingError
from tournaments.ratings import GameScore, Glicko, glicko2_update
from tournaments.scoring import MatchResult, Scoring
from tournaments.scoring import crosstable as scoring_crosstable
from tournaments.scoring import standings as scoring_standings

__all__ = ["BASE_DECKS", "Deck", "DeckError", "MatchResult", "PairingError", "Scoring", "SwissPlayer"]

# --- plain shapes -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Pairing:
    """One pairing of a round: ``two`` is None for a bye."""

    one: int
    two: int | None
    explanation: str = ""


@dataclass
class StandingRow:
    player: int
    points: float
    tiebreaks: dict[str, float] = field(default_factory=dict)
    game_points: float = 0.0
    wins: int = 0
    played: int = 0
    rank: int = 0


# --- pairing (tournaments.pairing) ---------------------------------------------------------


def _plain(pairings: list[Any]) -> list[Pairing]:
    return [Pairing(p.black, p.white, p.reason) for p in pairings]


def berger_rounds(players: list[int], *, double: bool = False) -> list[list[Pairing]]:
    """Returns every round of a (double) round robin for the players in seed order (Berger tables)."""
    return [_plain(row) for row in round_robin(players, double=double)]


def round_robin_round_count(n: int, *, double: bool = False) -> int:
    """Returns how many rounds a round robin of n players has."""
    base = n - 1 if n % 2 == 0 else n
    return base * (2 if double else 1)


def swiss_pairings(players: list[SwissPlayer]) -> list[Pairing]:
    """Pairs a Swiss round (no rematch, score groups, floaters, the bye): each pairing says why.

    Raises ``PairingError`` when no pairing exists.
    """
    return _plain(pair_swiss(players))


def single_game_colours(pairings: list[Pairing], *, ranks: dict[int, int], scores: dict[int, float],
                        history: dict[int, list[str]], initial: str) -> list[Pairing]:
    """Returns a Swiss round of single games with each pairing as (Black, White) by the Dutch colour rules."""
    games = [(p.one, p.two) for p in pairings if p.two is not None]
    ordered = iter(swiss_single_game_colours(games, ranks=ranks, scores=scores, history=history, initial=initial))
    out = []
    for p in pairings:
        if p.two is None:
            out.append(p)
        else:
            black, white = next(ordered)
            out.append(Pairing(black, white, p.explanation))
    return out


def initial_colour_cast(seed: int) -> str:
    """Casts lots for the top seed's colour in round 1 of a Swiss of single games (``"B"`` or ``"W"``)."""
    return initial_colour_lots(seed)


#: How round 1's note of a Swiss of single games names the lots for the top seed's colour (``(lots, seed N)``).
COLOUR_LOTS = re.compile(r"\(lots, seed (\d+)\)")


def colour_lots_seed(notes: list[str]) -> int | None:
    """The seed of the lots for the top seed's colour that a round's notes name (``(lots, seed N)``), or None."""
    return next((int(m.group(1)) for note in notes if (m := COLOUR_LOTS.search(note))), None)


def initial_colour_of_notes(notes: list[str]) -> str | None:
    """The top seed's round-1 colour (``"B"`` or ``"W"``) that the lots named in round 1's notes gave, or None."""
    seed = colour_lots_seed(notes)
    return None if seed is None else initial_colour_cast(seed)


def _trf_first_colour(initial_colour: str) -> str:
    """The TRF's colour (``w``/``b``) of a draughts colour (``"B"``/``"W"``): the TRF's white is the side
    that moves first, Black."""
    return "w" if initial_colour == "B" else "b"


def initial_colour_read(round_one: list[str | None], paired: list[bool] | None = None) -> str | None:
    """Returns the top seed's round-1 colour as lots gave it, from the round-1 colours in seed order and
    whether each player was paired in round 1 (a game, a forfeit, the bye)."""
    return initial_colour_from_round_one(round_one, paired)


@dataclass(frozen=True)
class DutchEntrant:
    """A player as the Dutch pairing of a round takes him: id, name, and his record of the earlier rounds.

    ``rounds`` holds, for each round before the one to pair, (opponent's id or None, colour or None,
    TRF result): colour ``w`` if he moved first in a one-game match, ``b`` if second, None for a
    match of two games (both colours) or no game; result ``1`` ``=`` ``0`` a match played, ``+``
    ``-`` a forfeit, ``U`` the pairing-allocated bye, ``H`` ``F`` ``Z`` a half-, full- or zero-point
    bye (asked for, given to a late entry, absent, not paired). ``sits_out`` (``H`` or ``Z``) keeps
    him out of this round (a requested bye, an absence, a withdrawal).
    """

    id: int
    name: str
    rounds: tuple[tuple[int | None, str | None, str], ...] = ()
    sits_out: str = ""


def dutch_pairings(players: list[DutchEntrant], *, scoring: Scoring, rounds_total: int, two_games: bool,
                   prohibited: list[tuple[int, int, frozenset[int]]] = (), accelerated: bool = False,
                   starting: Collection[int] | None = None, initial_colour: str = "B") -> tuple[list[Pairing], str]:
    """Pairs a Swiss round by the FIDE Dutch system; each pairing says which rules made it.

    ``players`` in pairing-number order (the starting ranks); ``prohibited`` (first round, last
    round, player ids) keeps players apart (the absolute criterion C1); ``accelerated``: the Baku
    acceleration, its groups made from ``starting`` (the ids of the list the tournament started
    from; None: all of ``players``; late entries are not in it); ``initial_colour``: the colour of
    the top pairing number in round 1 (``"B"``, Black, who moves first, or ``"W"``), as lots gave
    it, which the colour rules fall back on.
    ``one`` of each pairing moves first (the colour allocation's choice; with
    ``two_games`` lots decide it at publication). Returns the pairings (higher scores first, the
    bye last) and a note on the round. Raises ``PairingError`` when no pairing exists.
    """
    system = PointSystem(win=round(scoring.win * 10), draw=round(scoring.draw * 10), loss=round(scoring.loss * 10),
                         zero_bye=0, forfeit_loss=round(scoring.loss * 10), bye=round(scoring.bye * 10))
    number = {p.id: i for i, p in enumerate(players, start=1)}
    by_number = {i: p for i, p in enumerate(players, start=1)}
    lines = []
    for p in players:
        rounds = [TrfRound(number.get(o) if o is not None else None, c, r) for o, c, r in p.rounds]
        if p.sits_out:
            rounds.append(TrfRound(None, None, p.sits_out))
        lines.append(TrfPlayer(number=number[p.id], name=p.name[:33]).with_rounds(tuple(rounds), system))
    forbidden = tuple((first, last, frozenset(number[i] for i in ids if i in number)) for first, last, ids in prohibited)
    first_mover = _trf_first_colour(initial_colour)
    trf = TrfTournament(players=tuple(lines), rounds_total=rounds_total, initial_colour=first_mover, points=system,
                        forbidden=forbidden)
    virtual = None
    if accelerated:
        first = None if starting is None else {number[i] for i in starting if i in number}
        virtual = baku_virtual_points(list(by_number), rounds_total, system, starting=first)
    rd = round_of(trf, rounds_total=rounds_total, initial_colour=first_mover, virtual_points=virtual)
    pairs = sort_pairs(pair_round(rd), rd.by_number)

    def words(text: str) -> str:
        for n, p in by_number.items():
            text = text.replace(f"{{{n}}}", p.name)
        return text

    out = [Pairing(by_number[pair.white].id, by_number[pair.black].id if pair.black is not None else None,
                   words(explain_pair(rd, pair, two_games=two_games))) for pair in pairs]
    note = (f"FIDE Dutch system (C.04.3): {len(rd.players)} players paired score group by score group from the top"
            + (", Baku acceleration (virtual points for the first half of the players in the early rounds)"
               if virtual and any(v for vs in virtual.values() for v in vs[rd.played_rounds:rd.played_rounds + 1])
               else "") + ".")
    return out, note


def knockout_first(players: list[tuple[int, int]]) -> list[Pairing]:
    """Pairs round 1 of a knockout from (id, rating), seeded by rating, in bracket order."""
    return _plain(knockout_first_round([Seeded(pid, rating) for pid, rating in players]))


def knockout_next(winners: list[int]) -> list[Pairing]:
    """Pairs the next knockout round from the winners of the previous one, in bracket order."""
    return _plain(knockout_next_round(winners))


def knockout_decide(a: int, b: int, games: list[float], *, games_per_match: int, max_blocks: int | None,
                    seed: int | None) -> Any:
    """Decides a knockout match from a's points per game: a winner, or another 2-game block."""
    rule = TieBreak.BLOCKS if max_blocks is None else TieBreak.BLOCKS_THEN_LOTS
    return decide_knockout_match(a, b, games, games_per_match=games_per_match, tie_break=rule,
                                 max_blocks=max_blocks or 0, seed=seed)


# --- lots and ballots (tournaments.lots, tournaments.ballots) --------------------------------


def seed_new() -> int:
    """Returns a fresh seed to record before lots are cast or ballots drawn."""
    return new_seed()


def lots_cast(seed: int, one: int, two: int) -> int:
    """Casts lots for colour (Law 6) from the seed; returns who has Black in the first game."""
    return cast_lots(one, two, seed).black_first


#: The opening each ballot draws from when the tournament names no deck; the decks each allows.
DECK_OF_OPENING = {"three-move-ballot": "acf", "two-move-ballot": "two-move", "eleven-man-ballot": "eleven-man"}
DECKS_OF_OPENING = {"three-move-ballot": ("acf", "acf-144", "computer-tough"), "two-move-ballot": ("two-move",),
                    "eleven-man-ballot": ("eleven-man",)}


def deck_for(opening: str, deck: str, barred: list[int], added: list[int]) -> Deck | None:
    """Returns the deck a tournament's ballots are drawn from (None: go as you please).

    Raises ``DeckError`` for a deck its opening does not use, or one ``deck_of`` refuses.
    """
    if opening not in DECK_OF_OPENING:
        if deck or barred or added:
            raise DeckError("go as you please draws no opening: it takes no deck")
        return None
    base = deck or DECK_OF_OPENING[opening]
    if base not in DECKS_OF_OPENING[opening]:
        raise DeckError(f"the {opening} draws from {' or '.join(DECKS_OF_OPENING[opening])}, not {base!r}")
    return deck_of(base, barred, added)


def openings_draw(deck: Deck, used: list[int], seed: int, count: int) -> list[dict[str, Any]]:
    """Draws ``count`` openings from the deck, none drawn since it was last exhausted (``used``, in order).

    Each comes as the record keeps it: its kind, the deck's signature, number, moves, the
    position the game starts from, its name and (11-man) the two men removed.
    """
    return [{"kind": b.kind, "deck": deck.signature, "number": b.number, "moves": b.pdn, "fen": b.fen,
             "name": b.name, "label": b.label,
             "removed": list(b.removed)}
            for b in draw_openings(deck.openings, used, seed, count)]


# --- standings (tournaments.scoring) and ratings (tournaments.ratings) -------------------------


def standings(players: list[int], results: list[MatchResult], *, tiebreaks: list[str],
              scoring: Scoring, rounds: int | None = None, in_progress: list[tuple[int, int]] | None = None,
              ratings: dict[int, int | None] | None = None) -> list[StandingRow]:
    """Ranks the players by match points and then the tiebreaks in order; adds game points and wins.

    ``rounds``, ``in_progress`` and ``ratings`` are the scoring package's (unplayed rounds, ARO, TPR).
    """
    game_points = dict.fromkeys(players, 0.0)
    for r in results:
        if r.b is None:
            game_points[r.a] = game_points.get(r.a, 0.0) + scoring.bye_game_points
        else:
            game_points[r.a] = game_points.get(r.a, 0.0) + r.a_points
            game_points[r.b] = game_points.get(r.b, 0.0) + r.b_points
    rows = scoring_standings(results, players, scoring=scoring, tiebreaks=tiebreaks, rounds=rounds,
                             in_progress=in_progress or (), ratings=ratings)
    return [StandingRow(player=r.player, points=r.points, tiebreaks=dict(r.tiebreaks),
                        game_points=game_points.get(r.player, 0.0), wins=r.wins, played=r.played, rank=r.rank)
            for r in rows]


def crosstable_lines(results: list[MatchResult], players: list[int], scoring: Scoring) -> dict[int, list[Any]]:
    """Returns each player's record round by round (opponent, game points each, match points, kind)."""
    return scoring_crosstable(results, players, scoring)


def glicko2_ratings(before: dict[int, tuple[float, float, float]],
                    games: list[tuple[int, int, float]]) -> dict[int, tuple[float, float, float]]:
    """Returns the Glicko-2 (rating, deviation, volatility) of every player after the games.

    ``before`` holds each player's (rating, deviation, volatility); ``games`` (black, white,
    Black's score: 1, 0.5 or 0) are one rating period. A player without a game keeps his values.
    """
    played = {p for b, w, _score in games for p in (b, w)}
    after = glicko2_update({p: Glicko(*before[p]) for p in played},
                           [GameScore(b, w, score) for b, w, score in games])
    return {p: ((after[p].rating, after[p].rd, after[p].vol) if p in after else values)
            for p, values in before.items()}


# --- TRF (tournaments.pairing.trf) ---------------------------------------------------------


@dataclass(frozen=True)
class TrfEntry:
    """A player's line of a TRF file: pairing number, name, rating, rank, and per round (opponent's
    pairing number or None, colour ``w``/``b`` (``w`` moves first: Black) or None, the TRF result)."""

    number: int
    name: str
    rating: int | None
    rank: int
    rounds: list[tuple[int | None, str | None, str]]


def trf_text(*, name: str, players: list[TrfEntry], rounds_total: int | None, scoring: Scoring,
             forbidden: tuple[tuple[int, int, frozenset[int]], ...] = (), accelerated: bool = False,
             starting: Collection[int] | None = None, initial_colour: str | None = None) -> str:
    """Returns the tournament as FIDE's TRF, one round a match, its points the tournament's (BBW, BBD,
    BBL, BBZ, BBF, BBU lines: a won match, a drawn one, a lost one, a round not paired in, a match lost
    by forfeit, the bye); ``forbidden`` (first round, last round, pairing numbers) are the players
    kept apart (``260`` lines); ``accelerated``: the Baku
    acceleration's virtual points, an ``XXA`` line for each player who has some, its groups made from
    ``starting`` (the pairing numbers of the list the tournament started from; None: every player);
    ``initial_colour``: the top seed's colour in round 1 of one-game rounds (``"B"`` or ``"W"``, as the lots gave
    it), an ``XXC`` line (``white1``: he moved first), so that the file pairs round 1 as the tournament did."""
    system = PointSystem(win=round(scoring.win * 10), draw=round(scoring.draw * 10), loss=round(scoring.loss * 10),
                         zero_bye=0, forfeit_loss=round(scoring.loss * 10), bye=round(scoring.bye * 10))
    accelerations = ()
    if accelerated and rounds_total:
        virtual = baku_virtual_points(sorted(p.number for p in players), rounds_total, system, starting=starting)
        accelerations = tuple(sorted(virtual.items()))
    trf = TrfTournament(
        players=tuple(
            TrfPlayer(number=p.number, name=p.name[:33], rating=p.rating or 0, rank=p.rank).with_rounds(
                tuple(TrfRound(opponent, colour, result) for opponent, colour, result in p.rounds), system)
            for p in players),
        rounds_total=rounds_total, points=system, other_lines=(f"012 {name}",), forbidden=forbidden,
        accelerations=accelerations,
        initial_colour=None if initial_colour is None else _trf_first_colour(initial_colour),
    )
    lines = write_trf(trf, line_end="\n").split("\n")
    points = [f"{code} {value / 10:>4.1f}" for code, value in
              (("BBW", system.win), ("BBD", system.draw), ("BBL", system.loss), ("BBZ", system.zero_bye),
               ("BBF", system.forfeit_loss), ("BBU", system.bye))]
    return "\n".join([lines[0], *points, *lines[1:]])
