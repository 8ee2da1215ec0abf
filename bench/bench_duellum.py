"""Antike Duellum self-play benchmark: bots play N whole games (default 240), every turn checked.

The games cycle through both boards (the Rome/Carthage side, a reconstruction, and the
Aegean excerpt of tests/data/boards), both bot modes and both variants (none and
``special_units``). Every turn goes the way ``antike-ref process`` takes it: the bot's
orders, built from what its nation may see, are sent with the nation's password; the same
orders are played twice on the same game and must give the same bytes; the new game file
must match its schema and load back and write back byte for byte; and the conservation
laws must hold (``selfplay.check_invariants`` with the edition's ``conservation_problems``): 12 legions and 12
galleys a nation on the board, in its box and in its supply, at most 6 walls a nation,
12 temples, 21 personage cards, the bank's coins (30 unless ``--data`` says otherwise),
the city tokens of each type, every event card of the set-up's deck in exactly one place,
nothing below zero. Every tenth turn the bot must also give the same orders when the
cards it may not see (the other's hand, the deck) are different. Every finished game must
pass ``verify``. A game without a winner after STALEMATE_TURNS turns is a stalemate.

Prints a line per configuration (games, wins, stalemates, mean turns, turns per second),
wins per nation and how often the bots used what is Duellum's own.

    .venv/bin/python bench/bench_duellum.py --games 240 --jobs 2
    .venv/bin/python bench/bench_duellum.py --games 16 --data my-printed-values.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import traceback
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem.kernel.orders import canonical_orders  # noqa: E402
from pbem.play.bot import play_turn  # noqa: E402
from pbem import editions  # noqa: E402
from pbem.play.selfplay import STALEMATE_TURNS, check_invariants, start_game  # noqa: E402
from pbem.service import turns  # noqa: E402
from pbem.service.replay import verify  # noqa: E402
from pbem.service.schemas import problems  # noqa: E402
from pbem.service.store import HistoryText, game_from_data, game_text  # noqa: E402

AEGEAN = ROOT / "tests" / "data" / "boards" / "duellum-aegean-excerpt.json"
TABLES = [("duellum-rome-carthage", tuple(editions.get("duellum").selfplay_lineups[2])),
          ("aegean-excerpt", ("greeks", "persians"))]
MODES = ("greedy", "random")
VARIANTS = [(), ("special_units",)]
CONFIGS = [(board, lineup, mode, variants) for variants in VARIANTS for mode in MODES for board, lineup in TABLES]
"""Every combination; game ``i`` plays ``CONFIGS[i % len(CONFIGS)]``."""
HIDDEN_CHECK_EVERY = 10
"""Turns between two checks that the bot's orders do not depend on cards it may not see."""
COUNTED = {"wall": "walls built", "recruit": "recruitments", "card": "cards played", "draw": "cards drawn",
           "draw-missed": "draws missed (display empty)", "shuffle": "discards reshuffled",
           "battle": "battles", "conquer": "conquests", "found": "cities founded", "trade": "trades",
           "walls": "walls from the VP track", "standing": "standing orders changed"}


@dataclass
class Outcome:
    """One game: how it ended, how long it took and what the bots did."""

    index: int
    config: tuple
    turns: int = 0
    winner: str | None = None
    seconds: float = 0.0
    used: Counter = field(default_factory=Counter)
    failure: str = ""


def _board(name: str):
    if name == "aegean-excerpt":
        from pbem.service.boards import load_map_file

        return load_map_file(AEGEAN)
    return name


def hidden_swapped(game):
    """``game`` with what the active nation may not see changed: the other's hand and the
    deck hold other cards of the game (same sizes). The bot must not notice."""
    from pbem.editions.duellum import cards

    st = game.state.copy()
    nation = st.status.active
    other = next(n for n in st.table.seats if n != nation)
    pool = sorted(set(cards.catalogue(st.table.data)))
    hand = st.nations[other].extra["hand"]
    st.nation(other).extra["hand"] = [pool[(pool.index(c) + 1) % len(pool)] for c in hand]
    st.extra["deck"] = list(reversed(st.extra["deck"]))
    st.extra["secret"] = "another secret"
    changed = game.copy_with(st, list(game.history))
    changed.seed = "another seed"
    return changed


def one(i: int, data: dict | None = None, seed_prefix: str = "du-bench") -> Outcome:
    """Play game ``i`` of the cycle, every check after every turn, verify at the end."""
    board, lineup, mode, variants = CONFIGS[i % len(CONFIGS)]
    out = Outcome(i, (board, lineup, mode, variants))
    start = time.perf_counter()
    try:
        game, plain = start_game(f"du-{i}", list(lineup), f"{seed_prefix}-{i}", "duellum", _board(board),
                                 variants, data=data)
        text = game_text(game)
        while game.state.status.winner is None and out.turns < STALEMATE_TURNS:
            orders = play_turn(game, mode)
            if out.turns % HIDDEN_CHECK_EVERY == 0:
                assert play_turn(hidden_swapped(game), mode) == orders, "the bot read a card it may not see"
                out.used["orders checked against hidden cards"] += 1
            sent = canonical_orders({**orders, "password": plain[orders["nation"]]}, game.edition)
            new, _ = turns.play(game, sent)
            again, _ = turns.play(game, canonical_orders(json.loads(json.dumps(sent)), game.edition))
            new_text = game_text(new)
            assert game_text(again) == new_text, "the same orders gave two different files"
            assert game_text(game) == text, "playing the orders changed the game they were played on"
            raw = json.loads(new_text)
            found = problems("game", raw, game.edition)
            assert not found, f"schema: {found[:3]}"
            game = game_from_data(raw, "bench")
            game.origin = HistoryText.of(new_text, game.history)  # as a file loaded by process
            assert game_text(game) == new_text, "the file does not write back byte for byte"
            text = new_text
            check_invariants(game)
            out.turns += 1
            for event in game.history[-1]["events"]:
                kind = event.get("type")
                if kind in COUNTED:
                    out.used[COUNTED[kind]] += 1
                if kind == "fortress":
                    out.used["FORTRESS held a city" if event.get("held") else "FORTRESS cost a unit"] += 1
                elif kind == "conquer" and event.get("temple_destroyed"):
                    out.used["temples destroyed"] += 1
                elif kind == "conquer" and event.get("wall_destroyed"):
                    out.used["walls destroyed in conquests"] += 1
                elif kind == "card":
                    out.used[f"card {event['card']}"] += 1
                if kind in ("arm", "move") and event.get("unit") in ("admiral", "commander"):
                    out.used[f"special unit {'armed' if kind == 'arm' else 'moved'}"] += 1
                elif kind == "battle" and event.get("special"):
                    out.used["special unit lost in a battle"] += 1
                elif kind == "standing" and "fortress" in event.get("standing", {}):
                    out.used["standing FORTRESS set"] += 1
        verify(game, json.loads(text))
        coins = game.state.bank.coins + sum(ns.coins for ns in game.state.nations.values())
        assert coins == (data or {}).get("bank_coins", 30), f"{coins} coins in play"
    except Exception:  # noqa: BLE001 - any failure is reported with its game
        out.failure = traceback.format_exc(limit=-3)
    out.seconds = time.perf_counter() - start
    if not out.failure:
        out.winner = game.state.status.winner
    return out


def _run(args) -> Outcome:
    return one(*args)


def table(outcomes: list[Outcome], wall: float, jobs: int) -> list[str]:
    """The report: a line per configuration, wins per nation, what the bots did, speed."""
    done = [o for o in outcomes if not o.failure]
    lines = [f"Antike Duellum self-play: {len(outcomes)} games, {wall:.1f} s wall ({jobs} jobs); "
             f"stalemate = no winner after {STALEMATE_TURNS} turns", ""]
    head = f"{'board':<23}{'mode':<8}{'variant':<15}{'games':>6}{'wins':>6}{'stalem.':>8}" \
           f"{'mean turns':>11}{'max':>6}{'turns/s':>9}"
    lines += [head, "-" * len(head)]
    groups: dict[tuple, list[Outcome]] = defaultdict(list)
    for o in done:
        groups[o.config].append(o)
    for config in CONFIGS:
        got = groups.get(config)
        if not got:
            continue
        board, _, mode, variants = config
        turns_ = sum(o.turns for o in got)
        secs = sum(o.seconds for o in got)
        lines.append(f"{board:<23}{mode:<8}{(','.join(variants) or '-'):<15}{len(got):>6}"
                     f"{sum(1 for o in got if o.winner):>6}{sum(1 for o in got if not o.winner):>8}"
                     f"{turns_ / len(got):>11.0f}{max(o.turns for o in got):>6}{turns_ / secs:>9.0f}")
    turns_ = sum(o.turns for o in done)
    cpu = sum(o.seconds for o in done) or 1.0
    lines.append("-" * len(head))
    if done:
        lines.append(f"{'all':<23}{'':<8}{'':<15}{len(done):>6}{sum(1 for o in done if o.winner):>6}"
                     f"{sum(1 for o in done if not o.winner):>8}{turns_ / len(done):>11.0f}"
                     f"{max(o.turns for o in done):>6}{turns_ / cpu:>9.0f}")
    lines.append("")
    played = Counter(n for o in done for n in o.config[1])
    won = Counter(o.winner for o in done if o.winner)
    lines.append("wins per nation (wins / games played): " + ", ".join(
        f"{n} {won[n]}/{played[n]}" for n in sorted(played, key=lambda n: (-won[n] / played[n], n))))
    for mode in MODES:
        got = [o for o in done if o.config[2] == mode]
        if got:
            lines.append(f"{mode}: {len(got)} games, {sum(1 for o in got if o.winner)} won, "
                         f"mean {sum(o.turns for o in got) / len(got):.0f} turns")
    used = sum((o.used for o in done), Counter())
    lines.append("in all games: " + ", ".join(f"{k} {v}" for k, v in sorted(used.items())))
    stalled = [o for o in done if not o.winner]
    if stalled:
        lines.append("stalemates: " + ", ".join(f"game {o.index} ({o.config[0]}, {o.config[2]}"
                                                 f"{', ' + ','.join(o.config[3]) if o.config[3] else ''})"
                                                 for o in stalled[:12]))
    with_walls = sum(1 for o in done if o.used["walls built"])
    with_fortress = sum(1 for o in done if o.used["FORTRESS held a city"] + o.used["FORTRESS cost a unit"])
    lines.append(f"games with walls built {with_walls}/{len(done)}, with recruiting "
                 f"{sum(1 for o in done if o.used['recruitments'])}/{len(done)}, with cards played "
                 f"{sum(1 for o in done if o.used['cards played'])}/{len(done)}, with FORTRESS "
                 f"{with_fortress}/{len(done)}, with conquests {sum(1 for o in done if o.used['conquests'])}/"
                 f"{len(done)}, with battles {sum(1 for o in done if o.used['battles'])}/{len(done)}")
    lines.append(f"speed: {turns_} turns, {turns_ / wall:.0f} turns/s wall, {turns_ / cpu:.0f} turns/s per core "
                 "(bot + engine twice + schema + round trip + invariants after every turn + verify)")
    failed = [o for o in outcomes if o.failure]
    if failed:
        lines.append(f"FAILED: {len(failed)} games broke an invariant or did not verify:")
        for o in failed[:5]:
            lines.append(f"  game {o.index} {o.config}: {o.failure.strip().splitlines()[-1]}")
    else:
        lines.append("every turn accepted by check and played the same twice, every file valid and written back "
                     "byte for byte, invariants held after every turn, every game verified")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=240)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--data", type=Path, help="a new --data file (printed values) for every game")
    ap.add_argument("--seed", default="du-bench", help="prefix of the games' seeds")
    args = ap.parse_args(argv)
    data = json.loads(args.data.read_text(encoding="utf-8")) if args.data else None
    start = time.perf_counter()
    work = [(i, data, args.seed) for i in range(args.games)]
    if args.jobs > 1:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            outcomes = list(pool.map(_run, work, chunksize=2))
    else:
        outcomes = [_run(w) for w in work]
    wall = time.perf_counter() - start
    for line in table(outcomes, wall, args.jobs):
        print(line)
    return 1 if any(o.failure for o in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())
