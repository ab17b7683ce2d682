#!/bin/bash
# The CPU time of each thread of a command (Linux: /proc/<pid>/task/*/stat, utime + stime, read
# every 50 ms until it exits), most first: the main thread (its id is the pid, listed first in the
# summary), the benchmark's worker threads and V8's background threads (JIT compilers, GC helpers,
# wasm tier-up). On a machine shared with other jobs wall time says little; how the CPU splits
# over threads still shows what a second core can take over.
#   perf/thread-cpu.sh node dist/cli/t2m.js bench fixtures/upstream/benchmark/text2mem-bench-v2.en.jsonl --json
"$@" > /dev/null 2>&1 &
pid=$!
tick=$(getconf CLK_TCK)
declare -A last
while kill -0 "$pid" 2>/dev/null; do
  for t in /proc/"$pid"/task/*; do
    st=$(cat "$t/stat" 2>/dev/null) || continue
    rest=${st##*) }
    read -r -a f <<< "$rest"
    last[${t##*/}]=$(( f[11] + f[12] ))
  done
  sleep 0.05
done
main=${last[$pid]:-0}
others=$(for k in "${!last[@]}"; do [ "$k" != "$pid" ] && echo "${last[$k]}"; done | sort -n -r)
awk -v tick="$tick" -v main="$main" -v others="$(echo $others)" 'BEGIN {
  n = split(others, o, " "); total = main; line = "";
  for (i = 1; i <= n; i++) { total += o[i]; if (o[i] > 0) line = line sprintf(" %.2f", o[i] / tick) }
  printf "main thread %.2f s; other threads (most first):%s; total %.2f s CPU\n", main / tick, line, total / tick
}'
