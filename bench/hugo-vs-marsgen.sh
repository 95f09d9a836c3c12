#!/usr/bin/env bash
# Side-by-side clean builds, marsgen against Hugo, for `make bench`.
#
# The same generated journal entries (title, date, author, realistic Markdown) at 1,000 and
# 10,000 entries (and 100,000 with BENCH_LARGE=1), built by marsgen and by Hugo with the
# equivalent layouts in bench/hugo/ (a page per entry, a list of 20 per page with bodies,
# a feed). hyperfine times each (warm-up, then runs; the output folder removed before each
# run), GNU time gives peak memory, and both outputs' page counts are printed so a faster
# build that writes less cannot pass unnoticed. The Markdown floor is the cmark-gfm CLI
# over the same bodies, against marsgen's GFM module on one thread.
#
# Above 10,000 entries Hugo is run once, without a warm-up, under a time limit
# (BENCH_HUGO_TIMEOUT seconds, default 600): at 100,000 entries it may not finish, and the
# row then says so instead of the benchmark never ending.
#
# The table goes to the terminal and to bench/results.md. Work happens in BENCH_DIR
# (default /dev/shm, a RAM disk, when it exists): on this VM's disk, tens of thousands of
# files created and deleted in a row make ext4's inode allocation the bottleneck for both
# tools and the figures stop saying anything about the generators.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
work=${BENCH_DIR:-$([ -d /dev/shm ] && echo /dev/shm/marsgen-bench || echo "$root/.build/bench-hugo")}
runs=${BENCH_RUNS:-5}
hugo_timeout=${BENCH_HUGO_TIMEOUT:-600}
sizes=(1000 10000)
[ "${BENCH_LARGE:-0}" = 1 ] && sizes+=(100000)
marsgen=$root/.build/release/marsgen
results=$root/bench/results.md
rm -rf "$work" && mkdir -p "$work"

mean_ms() { jq '.results[0].mean * 1000 | floor' "$1"; }
peak_mb() { /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Maximum resident/{printf "%.0f", $2/1024}'; }
pages() { find "$1" -type f \( -name '*.html' -o -name '*.xml' \) | wc -l; }
megabytes() { du -sm "$1" | cut -f1; }

rows=()
declare -A per_entry
for n in "${sizes[@]}"; do
  site=$work/site-$n
  "$root/.build/release/SiteGenerator" "$site" --entries "$n" --journal-only >/dev/null
  cp -r "$root/bench/hugo" "$work/hugo-$n"
  m_out=$work/marsgen-out-$n
  h_out=$work/hugo-out-$n
  m_cmd="$marsgen build --quiet --clean --source $site --output $m_out"
  h_cmd="hugo --quiet --buildFuture --source $work/hugo-$n --contentDir $site/content --cacheDir $work/hugo-cache --destination $h_out"
  hyperfine --style basic --warmup 1 --runs "$runs" --prepare "rm -rf $m_out" --export-json "$work/m-$n.json" "$m_cmd" >&2
  m_ms=$(mean_ms "$work/m-$n.json")
  rm -rf "$m_out"; m_rss=$(peak_mb $m_cmd)
  m_pages=$(pages "$m_out")
  per_entry[$n]=$(awk -v t="$m_ms" -v n="$n" 'BEGIN{printf "%.3f", t/n}')
  hugo_name="Hugo $(hugo version | awk '{print $2}' | cut -d+ -f1)"
  if [ "$n" -le 10000 ]; then
    hyperfine --style basic --warmup 1 --runs "$runs" --prepare "rm -rf $h_out" --export-json "$work/h-$n.json" "$h_cmd" >&2
    h_ms=$(mean_ms "$work/h-$n.json")
    rm -rf "$h_out"; h_rss=$(peak_mb $h_cmd)
  else
    # One run, timed and measured at once, under the time limit.
    rm -rf "$h_out"
    start=$(date +%s%N)
    if h_rss=$(peak_mb timeout "$hugo_timeout" $h_cmd) && [ -d "$h_out" ]; then
      h_ms=$(( ($(date +%s%N) - start) / 1000000 ))
    else
      h_ms=""
    fi
  fi
  if [ -n "$h_ms" ]; then
    h_pages=$(pages "$h_out")
    ratio=$(awk -v a="$m_ms" -v b="$h_ms" 'BEGIN{printf "%.2f", a/b}')
    rows+=("| $n entries | marsgen | $m_ms ms | $m_pages | $(megabytes "$m_out") MB | $m_rss MB | ${per_entry[$n]} ms | **$ratio × Hugo** |")
    rows+=("| $n entries | $hugo_name | $h_ms ms | $h_pages | $(megabytes "$h_out") MB | $h_rss MB | $(awk -v t="$h_ms" -v n="$n" 'BEGIN{printf "%.3f", t/n}') ms | |")
  else
    rows+=("| $n entries | marsgen | $m_ms ms | $m_pages | $(megabytes "$m_out") MB | $m_rss MB | ${per_entry[$n]} ms | (Hugo did not finish) |")
    rows+=("| $n entries | $hugo_name | not finished in $hugo_timeout s | | | | | |")
  fi
  if [ "$n" = 10000 ]; then
    md_ms=$("$root/.build/release/MarkdownBenchmark" "$site" "$work/bodies.md" | cut -d' ' -f1)
    hyperfine --style basic -N --warmup 3 --runs 20 --export-json "$work/cmark.json" \
      "cmark-gfm -e table -e strikethrough -e autolink -e tagfilter -e tasklist $work/bodies.md" >&2
    cm_ms=$(jq '.results[0].mean * 1000 * 10 | floor / 10' "$work/cmark.json")
  fi
done

# The whole marsgen site (entries, messages, weather) for scaling: built by marsgen alone.
full=$work/full-site
"$root/.build/release/SiteGenerator" "$full" --entries 10000 --messages 50000 >/dev/null
hyperfine --style basic --warmup 1 --runs 3 --prepare "rm -rf $full/public" --export-json "$work/full.json" \
  "$marsgen build --quiet --clean --source $full" >&2
full_ms=$(mean_ms "$work/full.json"); rm -rf "$full/public"; full_rss=$(peak_mb "$marsgen" build --quiet --clean --source "$full")
rows+=("| 10000 entries + 50000 messages | marsgen | $full_ms ms | $(pages "$full/public") | $(megabytes "$full/public") MB | $full_rss MB | | |")

largest=${sizes[-1]}
scaling=$(awk -v a="${per_entry[$largest]}" -v b="${per_entry[1000]}" 'BEGIN{printf "%.2f", a/b}')
md_ratio=$(awk -v a="$md_ms" -v b="$cm_ms" 'BEGIN{printf "%.2f", a/b}')
{
  echo "## marsgen vs Hugo: clean builds"
  echo
  echo "Machine: $(nproc) cores ($(awk -F': ' '/model name/{print $2; exit}' /proc/cpuinfo)), $(free -g | awk '/Mem:/{print $2}') GiB,"
  echo "$(uname -sr), $(swift --version 2>/dev/null | head -n 1 | sed 's/ (.*//'), output in $work."
  echo "Command: \`make bench\` (bench/hugo-vs-marsgen.sh; BENCH_LARGE=1 adds 100,000 entries). Mean of $runs runs after a warm-up."
  echo
  echo "| site | generator | wall time | pages | written | peak memory | per entry | ratio |"
  echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |"
  printf '%s\n' "${rows[@]}"
  echo
  echo "- Markdown stage, 10,000 bodies on one thread: marsgen's GFM module $md_ms ms, \`cmark-gfm\` CLI $cm_ms ms: **$md_ratio ×**."
  echo "- Cost per entry at $largest entries is **$scaling ×** the cost at 1,000."
  echo "- marsgen writes more pages than Hugo from the same entries: it adds a page per sol and per crew member."
} | tee "$results"
