# What bench/incremental.sh and bench/edit-scaling.sh share, sourced by both: the median of
# a column of figures, where the generator's newest objects are, and the log of the day
# their appends go to.

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# The newest sol of a generated site of $1 entries: the generator writes three entries a sol.
newest_sol_of() { echo $(($1 / 3 > 0 ? $1 / 3 : 1)); }

# Starts the log of the day, on sol $2, at $1: as a crew keeps one, each message then the
# newest object of the site.
write_todays_log() {
  printf -- '---\nchannel: ops\nsol: %s\n---\n## 08:00 vega\nMorning check-in.\n' "$2" >"$1"
}

# Appends message $2 to the log of the day at $1, later in the day than the ones before.
append_to_todays_log() {
  printf '## 23:%02d vega\nToday, message %s.\n' "$((30 + $2 % 30))" "$2" >>"$1"
}
