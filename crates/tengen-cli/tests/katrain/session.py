"""KaTrain's own engine code (the `katrain` wheel) driving `tengen analysis`.

KaTrain starts its engine as `<katago> analysis -model M -config C
-override-config homeDataDir=...` with the network and configuration files
its wheel ships; here `<katago>` is tengen. A real record is loaded into a
KaTrain game, which asks for the analysis of every position; then KaTrain
looks for alternatives (avoidMoves), its default AI chooses a move from
tengen's analysis and plays it, and a new game terminates what is left.

Usage: python3 session.py TENGEN RECORD.sgf
Prints `ok   <step>` for each step passed; exits 1 at the first failure.
"""

import math
import os
import sys
import tempfile
import time

home = tempfile.mkdtemp(prefix="tengen-katrain-")
os.environ["HOME"] = home
os.environ["KIVY_HOME"] = os.path.join(home, ".kivy")
os.environ["KIVY_NO_ARGS"] = "1"
os.environ["KIVY_NO_CONSOLELOG"] = "1"

from katrain.core.base_katrain import KaTrainBase  # noqa: E402
from katrain.core.constants import AI_DEFAULT, OUTPUT_ERROR  # noqa: E402
from katrain.core.engine import KataGoEngine  # noqa: E402
from katrain.core.game import Game, KaTrainSGF  # noqa: E402
from katrain.core.ai import generate_ai_move  # noqa: E402

tengen, record = sys.argv[1], sys.argv[2]
errors = []


class Host(KaTrainBase):
    """KaTrain without its window: logs kept, errors collected."""

    def log(self, message, level=0):
        if level == OUTPUT_ERROR:
            errors.append(str(message))

    def __call__(self, *args, **kwargs):  # popups and GUI messages
        errors.append(f"KaTrain asked its GUI: {args}")

    def update_state(self, *args, **kwargs):
        pass


def check(cond, what):
    if not cond:
        print(f"FAIL {what}; errors: {errors}", flush=True)
        sys.exit(1)


def wait_for(cond, seconds):
    """KaTrain sends its queries from a thread: wait for what they bring."""
    end = time.time() + seconds
    while not cond() and time.time() < end:
        time.sleep(0.1)
    return cond()


katrain = Host(force_package_config=True, debug_level=0)
config = dict(katrain.config("engine"))
config["katago"] = tengen
config["max_visits"] = 60
config["fast_visits"] = 24
config["max_time"] = 20.0
engine = KataGoEngine(katrain, config)
check(engine.katago_process is not None, "KaTrain started tengen")
check(engine.command[1:3] == ["analysis", "-model"], f"KataGo's command line: {engine.command}")
print("ok   start", flush=True)

root = KaTrainSGF.parse_file(record)
game = Game(katrain, engine, move_tree=root, analyze_fast=True)
nodes = list(root.nodes_in_tree)
check(len(nodes) > 50, f"the record has its moves ({len(nodes)})")
check(
    wait_for(lambda: all(n.analysis_complete for n in nodes), 600),
    f"every position answered ({sum(not n.analysis_complete for n in nodes)} left)",
)
check(not errors, "no error while analysing")
size = root.board_size[0] * root.board_size[1]
for node in nodes:
    a = node.analysis
    check(node.analysis_complete, f"position {node.depth} analysed")
    check(0.0 <= node.winrate <= 1.0, f"position {node.depth}: win rate {node.winrate}")
    check(math.isfinite(node.score), f"position {node.depth}: score {node.score}")
    check(a["root"]["visits"] >= 1, f"position {node.depth}: visits")
    check(len(a["ownership"]) == size, f"position {node.depth}: ownership of {len(a['ownership'])} points")
    check(len(a["policy"]) == size + 1, f"position {node.depth}: policy of {len(a['policy'])} moves")
    check(abs(sum(p for p in a["policy"] if p > 0) - 1.0) < 0.02, f"position {node.depth}: policy sums to 1")
    cands = node.candidate_moves
    check(cands and cands[0]["order"] == 0, f"position {node.depth}: candidates")
    for c in cands:
        check(math.isfinite(c["pointsLost"]), f"position {node.depth}: points lost of {c['move']}")
visits = sum(n.root_visits for n in nodes)
print(f"ok   game analysis ({len(nodes)} positions, {visits} visits)", flush=True)

moved = [n for n in nodes if n.move and n.parent]
lost = [n.points_lost for n in moved]
check(all(x is not None and math.isfinite(x) for x in lost), f"points lost for every move ({lost})")
print("ok   points lost", flush=True)

# Occupied points carry -1 in the policy, as KataGo writes it.
last = nodes[-1]
occupied = sum(1 for p in last.policy[:-1] if p < 0)
check(occupied >= len([m for n in nodes for m in n.moves]) // 2, f"illegal points marked ({occupied})")
print("ok   policy", flush=True)

# "Find alternatives": KaTrain avoids the moves already shown.
node = nodes[len(nodes) // 2]
shown = set(node.analysis["moves"])
node.analyze(engine, find_alternatives=True)


def alternatives():
    return [m for m in node.analysis["moves"] if m not in shown]


check(wait_for(alternatives, 120), "alternatives are new moves")
print("ok   alternatives", flush=True)

# KaTrain's default AI plays from tengen's analysis.
game.set_current_node(nodes[-1])
before = game.current_node
move, played = generate_ai_move(game, AI_DEFAULT, katrain.config(f"ai/{AI_DEFAULT}") or {})
check(move is not None and played is not None and played.parent is before, f"the AI played {move}")
print(f"ok   ai move {move.gtp()}", flush=True)

# Endless analyses on every search tengen runs at once, then a new game:
# KaTrain terminates its queries, and a new one is answered at once.
for n in nodes[1 : 1 + (os.cpu_count() or 1)]:
    n.analyze(engine, visits=10_000_000, time_limit=False)
time.sleep(1.0)
engine.on_new_game()
fresh = nodes[3]
fresh.clear_analysis()
fresh.analyze(engine, visits=24)
check(wait_for(lambda: fresh.analysis_complete, 30), "a query after the terminated ones is answered")
check(engine.check_alive(), "tengen still running")
print("ok   terminate", flush=True)

engine.shutdown(finish=False)
check(not errors, "no error at all")
print("ok   shutdown", flush=True)
