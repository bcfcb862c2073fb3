"""FIDE Tournament Report File (TRF-16, with the codes of the 2025 revision): read and write.

A TRF file is a list of lines, each opened by a three-character code. The ``001`` lines are the
players: the pairing number in columns 5-8, the name in 15-47, the rating in 49-52, the points
in 81-84, the rank in 86-89, then one ten-column block a round from column 92 (``oooo c r``:
the opponent's pairing number, or ``0000`` for no opponent; the colour ``w``, ``b`` or ``-``;
the result). Results: ``1`` ``=`` ``0`` a game played, ``W`` ``D`` ``L`` played but not rated,
``+`` ``-`` a forfeit won or lost, ``H`` a half-point bye, ``F`` a full-point bye, ``U`` the
pairing-allocated bye, ``Z`` a zero-point bye, blank a round not paired. Other lines are kept
as they are; the reader understands ``XXR``/``142`` (the number of rounds), ``XXC``
(``white1``/``black1``, ``rank``), ``152`` (the first colour), ``162`` and ``BBW``...``BBU``
(the point system, in tenths), ``260``/``XXP`` (prohibited pairings) and ``240`` (byes
requested for the round to pair).

Points are kept in tenths of a point (10 a win) so that sums are exact. Colours are the
file's: ``w`` is the side that moves first in chess, which in draughts is Black.
Errors are ``TrfError`` (a ``ValueError``) naming the file, the line and the column.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

WHITE = "w"
BLACK = "b"

PLAYED_RESULTS = frozenset("10=WDL")
WIN_RESULTS = frozenset("1W+FU")
DRAW_RESULTS = frozenset("=DH")
BYE_RESULTS = frozenset("HFUZ")
RESULTS = frozenset("10=WDL+-HFUZ ")


class TrfError(ValueError):
    """A TRF file that cannot be read; says where (file, line, column) and what."""

    def __init__(self, message: str, *, filename: str = "<trf>", line: int = 0, column: int = 0):
        self.filename, self.line, self.column, self.reason = filename, line, column, message
        super().__init__(f"{filename}:{line}:{column}: {message}")


@dataclass(frozen=True, slots=True)
class TrfRound:
    """One round of a player's line: opponent (pairing number, None for none), colour, result."""

    opponent: int | None
    colour: str | None
    result: str

    @property
    def played(self) -> bool:
        """Says whether a game was played over the board (forfeits and byes were not)."""
        return self.opponent is not None and self.result in PLAYED_RESULTS

    @property
    def paired(self) -> bool:
        """Says whether the player took part in the round's pairing (a game, a forfeit, the U bye)."""
        return self.opponent is not None or self.result in ("U", "+")

    @property
    def is_pairing_bye(self) -> bool:
        return self.opponent is None and self.result in ("U", "+")

    def points(self, system: PointSystem) -> int:
        """Returns the points the round gave, in tenths."""
        r = self.result
        if r in WIN_RESULTS:
            return system.bye if self.is_pairing_bye else system.win
        if r in DRAW_RESULTS:
            return system.draw
        if self.paired:
            return system.loss if self.played else system.forfeit_loss
        return system.zero_bye

    def text(self) -> str:
        opp = "0000" if self.opponent is None else f"{self.opponent:>4}"
        return f"{opp} {self.colour or '-'} {self.result}"


@dataclass(frozen=True, slots=True)
class PointSystem:
    """Points in tenths: a win, a draw, a loss, a zero-point bye, a forfeit loss, the U bye."""

    win: int = 10
    draw: int = 5
    loss: int = 0
    zero_bye: int = 0
    forfeit_loss: int = 0
    bye: int = 10


@dataclass(frozen=True, slots=True)
class TrfPlayer:
    number: int
    name: str = ""
    rating: int = 0
    points: int = 0
    rank: int = 0
    rounds: tuple[TrfRound, ...] = ()
    line: str = ""

    def with_rounds(self, rounds: tuple[TrfRound, ...], system: PointSystem) -> TrfPlayer:
        return replace(self, rounds=rounds, points=sum(r.points(system) for r in rounds))


@dataclass(frozen=True, slots=True)
class TrfTournament:
    players: tuple[TrfPlayer, ...]
    rounds_total: int | None = None
    initial_colour: str | None = None
    points: PointSystem = PointSystem()
    use_rank: bool = False
    forbidden: tuple[tuple[int, int, frozenset[int]], ...] = ()  # (first round, last round, players)
    requested_byes: tuple[tuple[int, int], ...] = ()  # (round, player)
    # acceleration (XXA lines): by pairing number, the virtual points (tenths) before each round
    accelerations: tuple[tuple[int, tuple[int, ...]], ...] = ()
    system: str = ""
    other_lines: tuple[str, ...] = field(default=())

    @property
    def rounds_played(self) -> int:
        """Returns the number of rounds in the file (the longest player line)."""
        return max((len(p.rounds) for p in self.players), default=0)

    def player(self, number: int) -> TrfPlayer:
        for p in self.players:
            if p.number == number:
                return p
        raise KeyError(number)

    def cut(self, rounds: int, *, keep_absences: bool = True) -> TrfTournament:
        """Returns the tournament as it stood after ``rounds`` rounds.

        With ``keep_absences`` the next round's byes that were not pairing byes (``H``, ``F``,
        ``Z``: the player asked not to be paired, or was absent) are kept, because they are
        known before that round is paired.
        """
        players = []
        for p in self.players:
            kept = p.rounds[:rounds]
            if keep_absences and len(p.rounds) > rounds:
                nxt = p.rounds[rounds]
                if not nxt.paired and nxt.result != " ":
                    kept = (*kept, nxt)
            players.append(p.with_rounds(kept, self.points))
        return replace(self, players=tuple(players))


def _int(text: str, what: str, filename: str, lineno: int, col: int, *, blank: int | None = None) -> int:
    s = text.strip()
    if not s:
        if blank is not None:
            return blank
        raise TrfError(f"{what} is missing", filename=filename, line=lineno, column=col)
    if not s.isdigit():
        raise TrfError(f"{what} is not a number: {s!r}", filename=filename, line=lineno, column=col)
    return int(s)


def _tenths(text: str, what: str, filename: str, lineno: int, col: int) -> int:
    s = text.strip()
    try:
        whole, _, frac = s.partition(".")
        if not whole.isdigit() or (frac and not frac.isdigit()) or len(frac) > 1:
            raise ValueError
        return int(whole) * 10 + (int(frac) if frac else 0)
    except ValueError:
        raise TrfError(f"{what} is not a score: {s!r}", filename=filename, line=lineno, column=col) from None


def _player(line: str, filename: str, lineno: int) -> TrfPlayer:
    if len(line) < 84:
        line = line.ljust(84)
    number = _int(line[4:8], "pairing number", filename, lineno, 5)
    if number == 0:
        raise TrfError("pairing number 0", filename=filename, line=lineno, column=5)
    rating = _int(line[48:52], "rating", filename, lineno, 49, blank=0)
    points = _tenths(line[80:84], "points", filename, lineno, 81) if line[80:84].strip() else 0
    rank = _int(line[85:89], "rank", filename, lineno, 86, blank=0) if len(line) >= 89 else 0
    rounds: list[TrfRound] = []
    start = 91
    while start < len(line):
        block = line[start : start + 8].ljust(8)
        col = start + 1
        if line[start + 8 : start + 10].strip():
            raise TrfError(
                "round blocks are 10 columns apart", filename=filename, line=lineno, column=start + 9
            )
        opp_text, colour, result = block[0:4], block[5], block[7].upper()
        if block[4] != " " or block[6] != " ":
            raise TrfError(f"bad round block {block!r}", filename=filename, line=lineno, column=col)
        if opp_text.strip() in ("", "0000"):
            opponent = None
            if opp_text.strip() and not set(opp_text) <= {"0"}:
                raise TrfError(f"bad opponent {opp_text!r}", filename=filename, line=lineno, column=col)
        else:
            opponent = _int(opp_text, "opponent", filename, lineno, col)
            if opponent == number:
                raise TrfError("a player cannot meet himself", filename=filename, line=lineno, column=col)
        if colour not in "wb- ":
            raise TrfError(
                f"colour {colour!r} is not w, b or -", filename=filename, line=lineno, column=col + 5
            )
        if result not in RESULTS:
            raise TrfError(
                f"result {result!r} is not a TRF result", filename=filename, line=lineno, column=col + 7
            )
        if opponent is None and result not in BYE_RESULTS and result not in "+- ":
            raise TrfError(
                f"result {result!r} needs an opponent", filename=filename, line=lineno, column=col + 7
            )
        if opponent is not None and result in BYE_RESULTS:
            raise TrfError(f"bye {result!r} with an opponent", filename=filename, line=lineno, column=col + 7)
        if opponent is not None and result in PLAYED_RESULTS and colour not in "wb":
            raise TrfError("a game played needs a colour", filename=filename, line=lineno, column=col + 5)
        rounds.append(TrfRound(opponent, colour if colour in "wb" else None, result))
        start += 10
    while rounds and rounds[-1] == TrfRound(None, None, " "):
        rounds.pop()
    return TrfPlayer(number, line[14:47].strip(), rating, points, rank, tuple(rounds), line)


def parse_trf(text: str, filename: str = "<trf>") -> TrfTournament:
    """Reads a TRF file's text (CR, LF or CRLF line ends); raises ``TrfError`` on bad input."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    players: list[TrfPlayer] = []
    rounds_total = None
    initial = None
    points = PointSystem()
    use_rank = False
    forbidden: list[tuple[int, int, frozenset[int]]] = []
    byes: list[tuple[int, int]] = []
    accelerations: dict[int, list[int]] = {}
    system = ""
    other: list[str] = []
    bye_set = False
    for lineno, line in enumerate(lines, start=1):
        if len(line.rstrip()) < 3:
            continue
        code = line[:3]
        if code == "001":
            players.append(_player(line, filename, lineno))
        elif code in ("013", "310"):
            raise TrfError("team tournaments are not supported", filename=filename, line=lineno, column=1)
        elif code in ("XXR", "142"):
            rounds_total = _int(line[3:], "number of rounds", filename, lineno, 4)
        elif code == "XXC":
            words = line[3:].split()
            use_rank = use_rank or "rank" in words
            initial = WHITE if "white1" in words else BLACK if "black1" in words else initial
        elif code == "152":
            c = line[4:5]
            if c not in ("W", "B"):
                raise TrfError("the first colour is W or B", filename=filename, line=lineno, column=5)
            initial = c.lower()
        elif code == "092":
            system = line[4:].strip()
        elif code == "162":
            values = {}
            for i in range(5, len(line.rstrip()), 9):
                symbol = line[i]
                values[symbol] = _tenths(line[i + 1 : i + 5], "points", filename, lineno, i + 2)
            w = values.get("W", points.win)
            bye_set = bye_set or "P" in values
            points = PointSystem(
                win=w,
                draw=values.get("D", points.draw),
                loss=values.get("L", points.loss),
                zero_bye=values.get("Z", points.zero_bye),
                forfeit_loss=values.get("Z", points.forfeit_loss),
                bye=values.get("P", points.bye if bye_set else w),
            )
        elif code in ("BBW", "BBD", "BBL", "BBZ", "BBF", "BBU"):
            value = _tenths(line[4:12], "points", filename, lineno, 5)
            name = {
                "BBW": "win",
                "BBD": "draw",
                "BBL": "loss",
                "BBZ": "zero_bye",
                "BBF": "forfeit_loss",
                "BBU": "bye",
            }[code]
            points = replace(points, **{name: value})
            if code == "BBW" and not bye_set:
                points = replace(points, bye=value)
            bye_set = bye_set or code == "BBU"
        elif code == "260":
            first = _int(line[4:7], "first round", filename, lineno, 5)
            last = _int(line[8:11], "last round", filename, lineno, 9)
            who = frozenset(
                _int(line[i : i + 4], "player", filename, lineno, i + 1)
                for i in range(12, len(line.rstrip()), 5)
            )
            forbidden.append((first, last, who))
        elif code == "XXP":
            who = frozenset(int(w) for w in line[3:].split() if w.isdigit())
            forbidden.append((1, 10**6, who))
        elif code == "XXA":  # a player's acceleration: his number, then each round's virtual points (4 wide)
            who = _int(line[4:8], "player", filename, lineno, 5)
            accelerations[who] = [
                _tenths(line[i : i + 4], "virtual points", filename, lineno, i + 1) if line[i : i + 4].strip() else 0
                for i in range(9, len(line.rstrip()), 5)
            ]
        elif code == "240":
            rnd = _int(line[6:9], "round", filename, lineno, 7)
            for i in range(10, len(line.rstrip()), 5):
                byes.append((rnd, _int(line[i : i + 4], "player", filename, lineno, i + 1)))
        else:
            other.append(line)
    seen: set[int] = set()
    for p in players:
        if p.number in seen:
            raise TrfError(f"pairing number {p.number} is repeated", filename=filename, line=0, column=5)
        seen.add(p.number)
    by_number = {p.number: p for p in players}
    for p in players:
        for k, r in enumerate(p.rounds):
            if r.opponent is None:
                continue
            o = by_number.get(r.opponent)
            other_round = o.rounds[k] if o is not None and k < len(o.rounds) else None
            if (
                other_round is None
                or other_round.opponent != p.number
                or (r.played and (other_round.colour == r.colour or not other_round.played))
            ):
                raise TrfError(
                    f"round {k + 1} of player {p.number} contradicts the line of player {r.opponent}",
                    filename=filename,
                    line=0,
                    column=92 + 10 * k,
                )
    return TrfTournament(
        players=tuple(sorted(players, key=lambda p: p.number)),
        rounds_total=rounds_total,
        initial_colour=initial,
        points=points,
        use_rank=use_rank,
        forbidden=tuple(forbidden),
        requested_byes=tuple(byes),
        accelerations=tuple((n, tuple(v)) for n, v in sorted(accelerations.items())),
        system=system,
        other_lines=tuple(other),
    )


def read_trf(path: str) -> TrfTournament:
    """Reads a TRF file from disk."""
    with open(path, encoding="utf-8", newline="") as f:
        return parse_trf(f.read(), str(path))


def _score_text(tenths: int) -> str:
    return f"{tenths // 10}.{tenths % 10}"


def write_trf(t: TrfTournament, *, line_end: str = "\r") -> str:
    """Writes the tournament as TRF text (CR line ends, as the reference writes them)."""
    out = list(t.other_lines[:1]) if t.other_lines and t.other_lines[0].startswith("012") else []
    if t.rounds_total is not None:
        out.append(f"XXR {t.rounds_total}")
    if t.initial_colour:
        out.append(f"XXC {'white1' if t.initial_colour == WHITE else 'black1'}")
    for p in t.players:
        # A line made here: the name in columns 15-47, column 48 blank, the rating (below) in 49-52.
        head = (p.line[:80] if p.line else f"001 {p.number:>4}      {p.name[:33]:<33}").ljust(80)
        head = (
            head[:4]
            + f"{p.number:>4}"
            + head[8:48]
            + (f"{p.rating:>4}" if p.rating else "    ")
            + head[52:80]
        )
        blocks = "".join("  " + r.text() for r in p.rounds)
        out.append(f"{head}{_score_text(p.points):>4} {p.rank or p.number:>4}{blocks}")
    out.append("")
    if t.system:
        out.append(f"092 {t.system}")
    for first, last, who in t.forbidden:
        out.append(f"260 {first:>3} {last:>3} " + " ".join(f"{n:>4}" for n in sorted(who)))
    for number, virtual in t.accelerations:
        out.append(f"XXA {number:>4} " + " ".join(f"{_score_text(v):>4}" for v in virtual))
    return line_end.join(out) + line_end
