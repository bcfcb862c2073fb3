"""Builds ``master_games.pdn``: for each opening of the 3-move ballot deck, up to two master games.

Run once from the project root (``python tournaments/demo_data/build_excerpt.py DATA_DIR``) with
``DATA_DIR`` the shared data folder holding ``pdn/tinsley.pdn`` and ``pdn/OCA_2.0.pdn``. A game is
taken when the project's rules engine replays all its moves and its first three plies are the
ballot's (the same position); Tinsley's games first, then the Open Checkers Archive's; games of
24 to 70 plies, decisive ones first. Each record is written by the project's PDN writer with a
``Source`` tag naming the file and the game's place in it (1-based).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.rules import Position  # noqa: E402
from games.rules.pdn import UnreadableGame, replay, scan_games, write_game  # noqa: E402
from tournaments.ballots import deck  # noqa: E402

PER_BALLOT = 2


def main(data_dir: Path) -> None:
    wanted = {Position.from_fen(b.fen).fen(): b for b in deck()}
    found: dict[int, list[tuple[tuple, str]]] = {b.number: [] for b in deck()}
    for name in ("tinsley.pdn", "OCA_2.0.pdn"):
        with (data_dir / "pdn" / name).open(encoding="utf-8", errors="replace") as stream:
            for index, game in enumerate(scan_games(stream), start=1):
                if isinstance(game, UnreadableGame):
                    continue
                if len(game.moves) < 24 or len(game.moves) > 70 or game.start_fen:
                    continue
                if game.result_tag not in ("1-0", "0-1", "1/2-1/2"):
                    continue
                done = replay(game)
                if not done.ok or done.state is None:
                    continue
                third = done.state.positions[3].fen()
                ballot = wanted.get(third)
                if ballot is None or len(found[ballot.number]) >= PER_BALLOT:
                    continue
                game.tags["Source"] = f"{name} #{index}"
                decisive = game.result_tag != "1/2-1/2"
                found[ballot.number].append(((not decisive, len(game.moves)), write_game(game)))
        if all(len(v) >= PER_BALLOT for v in found.values()):
            break
    out = Path(__file__).with_name("master_games.pdn")
    records = [text for number in sorted(found) for _key, text in sorted(found[number])]
    out.write_text("\n".join(records), encoding="utf-8")
    missing = [n for n, v in found.items() if not v]
    print(f"{len(records)} games for {sum(1 for v in found.values() if v)} ballots; none for {missing}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
