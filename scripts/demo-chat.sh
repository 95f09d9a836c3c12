#!/usr/bin/env bash
# make demo-chat: serves a copy of the demo site and appends a countdown to its habitat
# message log, one message every 1.5 s, so a newcomer can watch messages arrive live.
# The repository's own content/ is never touched. Ctrl-C stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${MARSGEN_BIN:-.build/release/marsgen}
PORT=${PORT:-8080}
SITE=$(mktemp -d "${TMPDIR:-/tmp}/marsgen-demo-chat.XXXXXX")
trap 'kill "$SERVER" 2>/dev/null; wait "$SERVER" 2>/dev/null; rm -rf "$SITE"' EXIT
cp -R marsgen.yml content templates static "$SITE"/

"$BIN" serve --source "$SITE" --port "$PORT" &
SERVER=$!
sleep 2
echo "Open http://127.0.0.1:$PORT/ now: the countdown starts in 5 seconds."
sleep 5

LOG="$SITE/content/messages/habitat.md"
minute=30
for line in "Ascent vehicle fuelled. Liftoff in 3..." "2..." "1..." "Liftoff! Kasei Station, we are on our way home."; do
    printf '\n## Sol 14 21:%02d arden\n%s\n' "$minute" "$line" >> "$LOG"
    echo "appended: $line"
    minute=$((minute + 1))
    sleep 1.5
done
echo "Countdown done; still serving (Ctrl-C to stop). Edit $SITE/content to keep going."
wait "$SERVER"
