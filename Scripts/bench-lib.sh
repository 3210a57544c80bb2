# Helpers the Scripts/bench-* scripts share; source it: `source "$(dirname "$0")/bench-lib.sh"`.
#
#   bench_free_port                 a TCP port free on 127.0.0.1 now (the kernel's pick)
#   bench_time FILE CMD...          runs CMD under GNU time; FILE gets "WALL USER SYS RSS_KB" (s, s, s, KB);
#                                   returns CMD's status (its output goes where the caller sends it)
#   bench_wall FILE / bench_cpu FILE / bench_rss_kb FILE / bench_rss_mb FILE
#                                   one figure of such a FILE (cpu = user + system, with children)
#   bench_cpu_of CMD...             user + system seconds of CMD (its output discarded)
#   bench_best ROUNDS CMD...        over ROUNDS runs: "BEST_WALL RSS_KB_OF_THAT_RUN LEAST_CPU"; a failing run
#                                   prints its last lines and exits 1. On a shared machine the wall time
#                                   swings with other work; CPU time far less. With BENCH_FRESH=DIR, DIR is
#                                   made empty before each run (an output folder).
#   bench_ratio A B                 B / A with two decimals
#   bench_release_binary PRODUCT [PATH]   PATH when given, else PRODUCT built in release mode (its path)
[[ -x /usr/bin/time ]] || { echo "bench-lib: GNU time (/usr/bin/time) is missing: Scripts/bootstrap --bench installs it" >&2; exit 1; }

bench_free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

bench_time() {  # FILE CMD...
  local file=$1; shift
  /usr/bin/time -f "%e %U %S %M" -o "$file" "$@"
}

# The figures are on the file's last line: GNU time puts "Command exited with non-zero status N" above them.
bench_wall() { tail -n 1 "$1" | awk '{printf "%.2f", $1}'; }
bench_cpu() { tail -n 1 "$1" | awk '{printf "%.4f", $2 + $3}'; }
bench_rss_kb() { tail -n 1 "$1" | awk '{print $4}'; }
bench_rss_mb() { tail -n 1 "$1" | awk '{printf "%.1f", $4 / 1024}'; }

bench_cpu_of() {  # CMD...
  local file
  file=$(mktemp)
  bench_time "$file" "$@" >/dev/null 2>&1 || true
  bench_cpu "$file"
  rm -f "$file"
}

bench_best() {  # ROUNDS CMD...
  local rounds=$1; shift
  local file err best="" rss="" cpu="" w m c
  file=$(mktemp); err=$(mktemp)
  for _ in $(seq "$rounds"); do
    if [[ -n "${BENCH_FRESH:-}" ]]; then rm -rf "$BENCH_FRESH"; mkdir -p "$BENCH_FRESH"; fi
    bench_time "$file" "$@" >/dev/null 2>"$err" || { echo "failed: $*" >&2; tail -3 "$err" >&2; rm -f "$file" "$err"; exit 1; }
    w=$(tail -n 1 "$file" | awk '{print $1}'); m=$(bench_rss_kb "$file"); c=$(tail -n 1 "$file" | awk '{printf "%.2f", $2 + $3}')
    if [[ -z "$best" ]] || awk "BEGIN{exit !($w < $best)}"; then best=$w; rss=$m; fi
    if [[ -z "$cpu" ]] || awk "BEGIN{exit !($c < $cpu)}"; then cpu=$c; fi
  done
  rm -f "$file" "$err"
  echo "$best $rss $cpu"
}

bench_ratio() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.2f", b / a}'; }

bench_release_binary() {  # PRODUCT [PATH]: PATH when given, else the release build of PRODUCT (built now, output on stderr)
  if [[ -n "${2:-}" ]]; then echo "$2"; return; fi
  "$(dirname "${BASH_SOURCE[0]}")/release-build" "$1"
}
