#!/usr/bin/env bash
# Incremental-build figures for `make bench`: a generated site (default 10,000 entries and
# 50,000 messages; override with BENCH_ENTRIES and BENCH_MESSAGES), then a clean build, a
# no-op rebuild, one entry edited, one message appended, one entry added and one cell
# template edited.
# Prints wall time, pages written and peak memory for each; the no-op and each edit are
# built BENCH_EDIT_RUNS times (default 7, a pause between builds as between a person's
# saves). Figures, not assertions.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/site-edits.sh
entries=${BENCH_ENTRIES:-10000}
messages=${BENCH_MESSAGES:-50000}
site=${BENCH_DIR:-$([ -d /dev/shm ] && echo /dev/shm/marsgen-bench || echo .build/bench)}/incremental
marsgen=.build/release/marsgen
rm -rf "$site"
.build/release/SiteGenerator "$site" --entries "$entries" --messages "$messages"
# Files modified within 2 s of a build's start are hashed again by the next build (a coarse
# clock could hide an edit); wait so the no-op figure is the usual case, not that one.
sleep 2

runs=${BENCH_EDIT_RUNS:-7}
newest_sol=$(newest_sol_of "$entries")

# Each timed build runs with --verbose; its steps' times go to "$steps" (tab-separated step
# and milliseconds), one file per scenario (`steps_file LABEL`), for the breakdown below.
steps_dir=$(mktemp -d)
steps=/dev/null
steps_file() { echo "$steps_dir/$(tr -c 'a-z0-9\n' '-' <<<"$1")"; }
measure() { # the marsgen arguments; prints "build-ms whole-ms written rss-MB"
  local log; log=$(mktemp)
  local started; started=$(date +%s%N)
  /usr/bin/time -v "$marsgen" build --verbose --source "$site" "$@" >"$log.out" 2>"$log"
  local process_ms=$((($(date +%s%N) - started) / 1000000))
  local summary; summary=$(tail -n 1 "$log.out")
  sed -nE 's/^\[[0-9]+\/[0-9]+\] (.*) \(([0-9.]+) ms\)$/\1\t\2/p' "$log.out" >>"$steps"
  local ms; ms=$(sed -E 's/.* in ([0-9]+) ms.*/\1/' <<<"$summary")
  local written; written=$(sed -E 's/.*→ ([0-9]+) pages? written.*/\1/' <<<"$summary")
  local rss; rss=$(awk -F': ' '/Maximum resident/{printf "%.0f", $2/1024}' "$log")
  printf 'process: start and exit\t%s\n' "$((process_ms - ms))" >>"$steps"
  echo "$ms $process_ms $written $rss"
  rm -f "$log" "$log.out"
}

span() { sort -n | awk 'NR == 1 {low = $1} {high = $1} END {print (low == high ? low : low "–" high)}'; }

# label, how many runs, a command that makes the edit of run i (given i), then the marsgen
# arguments. One run prints its figures; several print the median times (the build's with
# its range), the fewest and most pages written, and the highest peak memory.
run() {
  local label=$1 count=$2 edit=$3; shift 3
  local figures=""
  steps=$(steps_file "$label")
  for i in $(seq "$count"); do
    $edit "$i"
    figures+="$(measure "$@")"$'\n'
    # A file edited within 2 s of a build's start is hashed again by the next build.
    [ "$i" -eq "$count" ] || sleep 2.1
  done
  figures=${figures%$'\n'}
  local build whole written rss
  build=$(cut -d' ' -f1 <<<"$figures" | median); whole=$(cut -d' ' -f2 <<<"$figures" | median)
  written=$(cut -d' ' -f3 <<<"$figures" | span); rss=$(cut -d' ' -f4 <<<"$figures" | sort -n | tail -n 1)
  build="$build ms"
  local range; range=$(cut -d' ' -f1 <<<"$figures" | span)
  [ "$range" = "${build% ms}" ] || build+=" ($range)"
  printf '| %s | %s | %s ms | %s | %s MB |\n' "$label" "$build" "$whole" "$written" "$rss"
}

nothing() { :; }
edit_entry() { # a different entry each run, from the middle of the journal
  entry=$(find "$site/content/journal" -name '*.md' | sort | sed -n "$((entries / 2 + $1 - 1))p")
  sed -i 's/^\(A note\|- \)/\1edited /' "$entry"; echo "One more sentence." >>"$entry"
}
append_message() { # to the generator's newest log, six sols before the newest objects
  log=$(find "$site/content/messages" -name '*.md' | sort | tail -n 1)
  printf '## 23:59 vega\nOne more message %s.\n' "$1" >>"$log"
}
# Today's log: a log on the newest sol, as a crew keeps one, made (and built) before the
# first timed append; each append then adds the newest object of the site.
today_log="$site/content/messages/today.md"
start_todays_log() {
  write_todays_log "$today_log" "$newest_sol"
  "$marsgen" build --quiet --source "$site"
  sleep 2.1
}
append_today() {
  [ -f "$today_log" ] || start_todays_log
  append_to_todays_log "$today_log" "$1"
}
add_entry() { # a new entry, the newest object: a new page, so the sitemap and the sol index change too
  printf -- '---\ntitle: "Entry added %s"\nauthor: vega\nsol: %s\ntime: "23:59"\n---\nA new entry.\n' "$1" "$newest_sol" \
    >"$site/content/journal/added-$1.md"
}
edit_template() {
  mkdir -p "$site/templates"
  sed 's/<div class="prose">/<div class="prose" data-edited>/' Sources/Rendering/Theme/cell-message.mustache >"$site/templates/cell-message.mustache"
}

echo
echo "Incremental builds: $entries entries + $messages messages ($(nproc) cores)"
# "build" is the time the build reports (its summary line); "whole command" is the
# process from start to exit, as a shell prompt sees it. Edits: the median of $runs runs.
echo "| scenario | build | whole command | pages written | peak memory |"
echo "| --- | ---: | ---: | ---: | ---: |"
run "clean build" 1 nothing --clean
run "no-op rebuild" "$runs" nothing
run "one entry edited" "$runs" edit_entry
run "one message appended (newest log, 6 sols back)" "$runs" append_message
run "one message appended (today's log)" "$runs" append_today
run "one entry added" "$runs" add_entry
run "cell template edited" 1 edit_template
steps=/dev/null

# Where those builds spend their time, from their --verbose lines: the median of each step
# over the runs of a scenario (steps under 0.5 ms in every column left out), and the
# process's own start and exit (whole command minus build).
breakdown() { # scenario labels
  local files=() label file fullest step line median shown
  for label in "$@"; do files+=("$(steps_file "$label")"); done
  echo
  echo "Where the time goes (median ms of each step, \`--verbose\`):"
  printf '| step |'; printf ' %s |' "$@"; echo
  printf '| --- |'; printf ' ---: |%.0s' "$@"; echo
  # The steps in the pipeline's order: as the scenario that runs the most of them lists them
  # (a build that finds nothing changed skips most).
  fullest=${files[0]}
  for file in "${files[@]}"; do
    [ "$(cut -f1 "$file" | sort -u | wc -l)" -le "$(cut -f1 "$fullest" | sort -u | wc -l)" ] || fullest=$file
  done
  while IFS= read -r step; do
    line="| $step |"; shown=0
    for file in "${files[@]}"; do
      median=$(awk -F'\t' -v step="$step" '$1 == step {print $2}' "$file" | median)
      if [ -z "$median" ]; then line+=" – |"; continue; fi
      line+=" $(printf '%.1f' "$median") |"
      awk -v m="$median" 'BEGIN {exit !(m >= 0.5)}' && shown=1
    done
    [ "$shown" -eq 0 ] || echo "$line"
  done < <(cut -f1 "$fullest" | awk '!seen[$0]++')
}
breakdown "no-op rebuild" "one entry edited" "one message appended (today's log)" "one entry added"
rm -rf "$steps_dir"

# The same edits under `marsgen watch`, which keeps the state in memory between builds and
# saves it in the background: what a person editing the site waits for. Each rebuild's
# time is from watch's own line (`… in N ms`); the median of BENCH_WATCH_EDITS per kind.
rm -rf "$site/templates"
"$marsgen" build --quiet --source "$site"
watch_log=$(mktemp)
"$marsgen" watch --source "$site" >"$watch_log" 2>&1 &
watch_pid=$!
trap 'kill $watch_pid 2>/dev/null || true' EXIT
sleep 3
edits=${BENCH_WATCH_EDITS:-9}
# The first rebuild is the one after watch's own first build, which prepared it; it is
# shown on its own line, not counted with the others.
echo "First edit." >>"$entry"; sleep 1.5
first=$(grep ' ms$' "$watch_log" | tail -n 1 | sed -E 's/.* in ([0-9]+) ms$/\1/')
lines_before=$(grep -c ' ms$' "$watch_log" || true)
for i in $(seq "$edits"); do
  other=$(find "$site/content/journal" -name '*.md' | sort | sed -n "$((entries / 3 + i))p")
  echo "Watched edit $i." >>"$other"; sleep 1.5
done
for i in $(seq "$edits"); do
  printf '## 23:59 vega\nWatched message %s.\n' "$i" >>"$log"; sleep 1.5
done
for i in $(seq "$edits"); do
  printf '## 23:%02d vega\nWatched, today %s.\n' "$((30 + i % 30))" "$i" >>"$today_log"; sleep 1.5
done
for i in $(seq "$edits"); do
  printf -- '---\ntitle: "Watched entry %s"\nauthor: vega\nsol: %s\ntime: "23:59"\n---\nA new entry.\n' "$i" "$newest_sol" \
    >"$site/content/journal/watched-$i.md"; sleep 1.5
done
kill -INT $watch_pid; wait $watch_pid 2>/dev/null || true
times=$(tail -n +"$((lines_before + 1))" "$watch_log" | grep ' ms$' | sed -E 's/.* in ([0-9]+) ms$/\1/')
echo
echo "Under marsgen watch (state in memory, saved in the background), median of $edits:"
echo "| scenario | rebuild time |"
echo "| --- | ---: |"
printf '| first entry edited after watch starts (one edit) | %s ms |\n' "$first"
printf '| one entry edited | %s ms |\n' "$(head -n "$edits" <<<"$times" | median)"
printf '| one message appended (newest log, 6 sols back) | %s ms |\n' "$(sed -n "$((edits + 1)),$((2 * edits))p" <<<"$times" | median)"
printf '| one message appended (today'"'"'s log) | %s ms |\n' "$(sed -n "$((2 * edits + 1)),$((3 * edits))p" <<<"$times" | median)"
printf '| one entry added | %s ms |\n' "$(tail -n "$edits" <<<"$times" | median)"
rm -f "$watch_log"
