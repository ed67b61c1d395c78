#!/bin/sh
# Strength of the Monte-Carlo player against GNU Go 3.8, as issue 4 asks:
# 9x9 komi 7 at 1 s per move on 2 threads against level 10 (target: at
# least 90% of at least 100 games), and 19x19 at 5 s per move (target: at
# least 50% of at least 20 games). Not a CI test: it takes hours.
#
#   crates/tengen-mcts/scripts/strength.sh [GAMES_9x9] [GAMES_19x19]
#
# Needs /usr/games/gnugo and a release build (`cargo build --release`).
set -eu
cd "$(dirname "$0")/../../.."
games9=${1:-100}
games19=${2:-20}
tengen=./target/release/tengen
gnugo="/usr/games/gnugo --mode gtp --level 10 --chinese-rules"
out=${SGF_DIR:-target/strength}
mkdir -p "$out/9" "$out/19"

"$tengen" match --black "$tengen gtp --threads 2 --time 1" --white "$gnugo" \
    --games "$games9" --size 9 --rules chinese --komi 7 --sgf-dir "$out/9"
"$tengen" match --black "$tengen gtp --threads 2 --time 5" --white "$gnugo" \
    --games "$games19" --size 19 --rules chinese --komi 7.5 --sgf-dir "$out/19"
