#!/usr/bin/env bash
# How an edit built from the command line grows with the site, for `make bench`: generated
# sites of BENCH_SCALE entries (default 1,000, 2,500, 5,000 and 10,000), five messages per
# entry as in the main figures, each built clean, then one entry edited and one message
# appended to a log of the newest sol, BENCH_SCALE_RUNS times each (default 5, a pause
# between builds as between a person's saves). Prints the median build time (marsgen's
# summary line) and whole command (start to exit, as a shell prompt sees it) of each, so
# the size of site at which a command-line edit passes 50 ms can be read off.
# Figures, not assertions.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/site-edits.sh
sizes=${BENCH_SCALE:-1000 2500 5000 10000}
runs=${BENCH_SCALE_RUNS:-5}
base=${BENCH_DIR:-$([ -d /dev/shm ] && echo /dev/shm/marsgen-bench || echo .build/bench)}/scaling
marsgen=.build/release/marsgen

measure() { # the site; prints "build-ms whole-ms"
  local started summary
  started=$(date +%s%N)
  summary=$("$marsgen" build --source "$1" | tail -n 1)
  echo "$(sed -E 's/.* in ([0-9]+) ms.*/\1/' <<<"$summary") $((($(date +%s%N) - started) / 1000000))"
}
# A file edited within 2 s of a build's start is hashed again by the next build; the pause
# makes each build the usual case.
pause() { sleep 2.1; }
# "build / whole" medians of a column of "build whole" lines.
medians() { echo "$(cut -d' ' -f1 <<<"$1" | median) / $(cut -d' ' -f2 <<<"$1" | median) ms"; }

echo
echo "Edits from the command line by size of site ($(nproc) cores), median of $runs: build / whole command"
echo "| entries + messages | pages | one entry edited | one message appended (today's log) |"
echo "| --- | ---: | ---: | ---: |"
for entries in $sizes; do
  site=$base/$entries
  rm -rf "$site"
  .build/release/SiteGenerator "$site" --entries "$entries" --messages $((entries * 5)) >/dev/null
  # Today's log, on the newest sol, built with the site before the first timed append.
  log=$site/content/messages/today.md
  write_todays_log "$log" "$(newest_sol_of "$entries")"
  pages=$("$marsgen" build --clean --source "$site" | tail -n 1 | sed -E 's/.*→ ([0-9]+) pages? written.*/\1/')
  pause
  # The site was written just before that build started, so the next build reads its files
  # again to be sure of them (a file written within the build's first moments may have
  # changed unseen); an untimed no-op does that, as `incremental.sh`'s no-ops do, so the
  # edits below are each the usual case.
  "$marsgen" build --quiet --source "$site"
  pause
  edited="" appended=""
  for i in $(seq "$runs"); do
    entry=$(find "$site/content/journal" -name '*.md' | sort | sed -n "$((entries / 2 + i))p")
    echo "One more sentence." >>"$entry"
    edited+="$(measure "$site")"$'\n'
    pause
  done
  for i in $(seq "$runs"); do
    append_to_todays_log "$log" "$i"
    appended+="$(measure "$site")"$'\n'
    pause
  done
  printf '| %s + %s | %s | %s | %s |\n' "$entries" "$((entries * 5))" "$pages" "$(medians "${edited%$'\n'}")" \
    "$(medians "${appended%$'\n'}")"
  rm -rf "$site"
done
