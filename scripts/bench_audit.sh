#!/usr/bin/env bash
# Benchmarks `ccd_guard audit` on generated rosbag2 bags (MCAP, Jazzy layout) of MoveIt-like
# Panda plans (examples/panda_plans_bag.rs; needs .venv: bash scripts/setup_python.sh):
#   1. builds the release binary and the bag generator;
#   2. writes under target/bench_audit/: plans (PLANS plans in a changing 20-object scene, with
#      one `check`'s files per plan in plans_check/), plans_noplans (the same bag without its
#      plans), empty (no plans, no scene changes: startup), octomap (OCTOMAP_PLANS plans among
#      ~OCTOMAP_GB GB of 9.5 MB octomap diffs) and octomap_noplans (~4 GB of disk in all);
#   3. times (median of RUNS runs, wall clock) `audit --format json` with --jobs 1 (also under
#      `taskset -c 0`, one core) and --jobs 2, against one `ccd_guard check` per plan (one core,
#      sum of wall time), with peak RSS (/usr/bin/time's maximum resident set size);
#   4. splits where one core's time goes: startup, reading and replay, checking.
# Prints a table and writes target/bench_audit/results.json.
#
#   bash scripts/bench_audit.sh
#   RUNS=5 CHECK_RUNS=3 OCTOMAP_RUNS=1 PLANS=1000 OCTOMAP_GB=2 bash scripts/bench_audit.sh   # the defaults
#   OCTOMAP_GB=0 ... skips the octomap bag; KEEP_BAGS=1 ... reuses bags already written;
#   BENCH_AUDIT_DIR=DIR ... writes there instead of target/bench_audit;
#   SKIP_BUILD=1 ... measures the binaries already built
#
# Heavy work runs under `nice`; the numbers are only as quiet as the machine (nothing else
# should be running: a cargo build beside it slows both).
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO_ROOT"

RUNS="${RUNS:-5}"
CHECK_RUNS="${CHECK_RUNS:-3}"
OCTOMAP_RUNS="${OCTOMAP_RUNS:-1}"
PLANS="${PLANS:-1000}"
OCTOMAP_GB="${OCTOMAP_GB:-2}"
OCTOMAP_PLANS="${OCTOMAP_PLANS:-200}"
KEEP_BAGS="${KEEP_BAGS:-0}"
OUT="${BENCH_AUDIT_DIR:-${CARGO_TARGET_DIR:-$REPO_ROOT/target}/bench_audit}"
BIN_DIR="${CARGO_TARGET_DIR:-$REPO_ROOT/target}/release"
NICE=(nice -n 5)

section() {
    # The load average too: anything else running skews the numbers (2 cores here).
    printf '\n==================== %s (load %s) ====================\n' "$*" "$(cut -d' ' -f1-3 /proc/loadavg)" >&2
}

section "build (release)"
if [ "${SKIP_BUILD:-0}" != 1 ]; then
    "${NICE[@]}" cargo build --release --bin ccd_guard --example panda_plans_bag
fi
mkdir -p "$OUT/runs"
# Private copies: a rebuild during the runs must not change what is measured.
cp "$BIN_DIR/ccd_guard" "$OUT/ccd_guard"
cp "$BIN_DIR/examples/panda_plans_bag" "$OUT/panda_plans_bag"
CCD="$OUT/ccd_guard"
GEN="$OUT/panda_plans_bag"
"$CCD" audit --help >/dev/null

mapfile -t robot < <("$GEN" --robot)
URDF="${robot[0]}"
SRDF="${robot[1]}"
export AMENT_PREFIX_PATH="${robot[2]}${AMENT_PREFIX_PATH:+:$AMENT_PREFIX_PATH}"

section "bags"
generate() { # NAME ARGS...: the bag $OUT/NAME, its generator's JSON in $OUT/NAME.json
    local name="$1"
    shift
    if [ "$KEEP_BAGS" = 1 ] && [ -f "$OUT/$name/metadata.yaml" ] && [ -f "$OUT/$name.json" ]; then
        echo "$name: kept" >&2
        return
    fi
    "${NICE[@]}" "$GEN" "$OUT/$name" "$@" >"$OUT/$name.json"
    echo "$name: $(du -sh "$OUT/$name" | cut -f1), $(grep -o '"messages": [0-9]*' "$OUT/$name.json")" >&2
}
generate plans "--plans" "$PLANS" --check-files "$OUT/plans_check"
generate plans_noplans --plans "$PLANS" --no-plans
generate empty --plans 0 --static-scene
if [ "$OCTOMAP_GB" != 0 ]; then
    generate octomap --plans "$OCTOMAP_PLANS" --octomap-gb "$OCTOMAP_GB"
    generate octomap_noplans --plans "$OCTOMAP_PLANS" --octomap-gb "$OCTOMAP_GB" --no-plans
fi

# run LABEL RUNS CMD...: RUNS runs; prints "median_wall_s max_rss_kb median_cpu_s", keeps the
# last run's stdout in $OUT/runs/LABEL.out and every run's "wall_us rss_kb cpu_s" in
# $OUT/runs/LABEL.runs. CPU time (user + system, children included) is what a busy machine
# disturbs least.
run() {
    local label="$1" runs="$2"
    shift 2
    : >"$OUT/runs/$label.runs"
    local status=0
    for _ in $(seq "$runs"); do
        local start end
        start=$(date +%s%N)
        status=0
        "${NICE[@]}" /usr/bin/time -f '%M %U %S' -o "$OUT/runs/$label.rss" "$@" >"$OUT/runs/$label.out" 2>"$OUT/runs/$label.err" || status=$?
        end=$(date +%s%N)
        if [ "$status" -eq 2 ] || [ "$status" -gt 4 ]; then
            echo "$label: exit status $status" >&2
            cat "$OUT/runs/$label.err" >&2
            exit 1
        fi
        echo "$(((end - start) / 1000)) $(tail -n 1 "$OUT/runs/$label.rss" | awk '{print $1, $2 + $3}')" >>"$OUT/runs/$label.runs"
    done
    awk 'function median(a, n,   i, j, t) {
            for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
            return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
        }
        {wall[NR] = $1 / 1e6; cpu[NR] = $3; if ($2 > rss) rss = $2}
        END {printf "%.3f %d %.3f\n", median(wall, NR), rss, median(cpu, NR)}' "$OUT/runs/$label.runs"
}

declare -A T RSS CPU
measure() { # KEY RUNS CMD...
    local key="$1"
    run "$@" >"$OUT/runs/$key.result" # not in a subshell: a failed run stops the script
    read -r "T[$key]" "RSS[$key]" "CPU[$key]" <"$OUT/runs/$key.result"
    awk -v k="$key" -v t="${T[$key]}" -v rss="${RSS[$key]}" -v cpu="${CPU[$key]}" \
        'BEGIN {printf "%-24s %9.3f s wall %9.3f s CPU %9.1f MB max RSS\n", k, t, cpu, rss / 1024}' >&2
}

section "audit, $PLANS plans (median of $RUNS)"
measure audit_j1_core0 "$RUNS" taskset -c 0 "$CCD" audit "$OUT/plans" --urdf "$URDF" --srdf "$SRDF" --format json --jobs 1
measure audit_j1 "$RUNS" "$CCD" audit "$OUT/plans" --urdf "$URDF" --srdf "$SRDF" --format json --jobs 1
measure audit_j2 "$RUNS" "$CCD" audit "$OUT/plans" --urdf "$URDF" --srdf "$SRDF" --format json --jobs 2
cp "$OUT/runs/audit_j1_core0.out" "$OUT/audit_plans.jsonl"

section "where one core's time goes (median of $RUNS, taskset -c 0, --jobs 1)"
measure startup_core0 "$RUNS" taskset -c 0 "$CCD" audit "$OUT/empty" --urdf "$URDF" --srdf "$SRDF" --format json --jobs 1
measure noplans_core0 "$RUNS" taskset -c 0 "$CCD" audit "$OUT/plans_noplans" --urdf "$URDF" --srdf "$SRDF" --format json --jobs 1

section "one \`check\` per plan ($PLANS plans, taskset -c 0, $CHECK_RUNS run(s))"
check_loop() {
    local verdicts="$1" d status
    : >"$verdicts"
    for d in "$OUT"/plans_check/plan_*; do
        status=0
        taskset -c 0 "$CCD" check --urdf "$URDF" --srdf "$SRDF" --scene "$d/scene.yaml" --trajectory "$d/trajectory.yaml" \
            --start-state "$d/start.yaml" --format json >/dev/null || status=$?
        echo "$status" >>"$verdicts"
    done
}
export -f check_loop
export OUT CCD URDF SRDF
# shellcheck disable=SC2016 # expanded by the inner bash
measure check_loop "$CHECK_RUNS" bash -c 'check_loop "$OUT/check_statuses"'
# One check alone (for the per-process cost): the first plan, median of RUNS.
first="$OUT/plans_check/plan_0000"
measure check_one "$RUNS" taskset -c 0 "$CCD" check --urdf "$URDF" --srdf "$SRDF" --scene "$first/scene.yaml" \
    --trajectory "$first/trajectory.yaml" --start-state "$first/start.yaml" --format json

if [ "$OCTOMAP_GB" != 0 ]; then
    section "octomap bag ($(du -sh "$OUT/octomap" | cut -f1), median of $OCTOMAP_RUNS)"
    measure octomap_j2 "$OCTOMAP_RUNS" "$CCD" audit "$OUT/octomap" --urdf "$URDF" --srdf "$SRDF" --format json --jobs 2
    measure octomap_j1_core0 "$OCTOMAP_RUNS" taskset -c 0 "$CCD" audit "$OUT/octomap" --urdf "$URDF" --srdf "$SRDF" --format json --jobs 1
    measure octomap_noplans_core0 "$OCTOMAP_RUNS" taskset -c 0 "$CCD" audit "$OUT/octomap_noplans" --urdf "$URDF" --srdf "$SRDF" --format json --jobs 1
    # One octomap message alone: CDR decoding and the voxel map (in-process, median of 5).
    taskset -c 0 "$GEN" --time-octomap >"$OUT/octomap_message_timing.json"
    cp "$OUT/runs/octomap_j1_core0.out" "$OUT/audit_octomap.jsonl"
fi

section "results"
RESULTS_T="$(for k in "${!T[@]}"; do echo "$k ${T[$k]} ${RSS[$k]} ${CPU[$k]}"; done)"
export RESULTS_T
"$REPO_ROOT/.venv/bin/python" - "$OUT" "$PLANS" "$OCTOMAP_GB" <<'EOF'
import json, os, sys
from pathlib import Path
out, plans, octomap_gb = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
m = {}
for line in os.environ["RESULTS_T"].splitlines():
    k, t, rss, cpu = line.split()
    m[k] = {"seconds": float(t), "cpu_seconds": float(cpu), "max_rss_mb": int(rss) / 1024}

def reports(name):
    lines = [json.loads(l) for l in (out / name).read_text().splitlines() if l.strip()]
    return [l for l in lines if "report" in l], next((l["summary"] for l in lines if "summary" in l), None)

audited, summary = reports("audit_plans.jsonl")
check_ms = sum(p["report"]["elapsed_ms"] for p in audited)
statuses = [int(s) for s in (out / "check_statuses").read_text().split()]
status_of = {"collision_free": 0, "collision": 1, "uncertain": 3, "invalid": 2}
mismatch = [i for i, (p, s) in enumerate(zip(audited, statuses)) if status_of[p["report"]["verdict"]] != s]
meant = json.loads((out / "plans.json").read_text())
t = lambda k: m[k]["seconds"]
last_wall = lambda k: int((out / "runs" / f"{k}.runs").read_text().split("\n")[-2].split()[0]) / 1e6
c = lambda k: m[k]["cpu_seconds"]
r = {
    "plans": len(audited), "summary": summary,
    "meant": {"free": meant["meant_free"], "colliding": meant["meant_colliding"]},
    "bag_mb": meant["mcap_bytes"] / 1e6,
    "timings": m,
    "plans_per_s": {"audit_jobs1_core0": plans / t("audit_j1_core0"), "audit_jobs1": plans / t("audit_j1"),
                    "audit_jobs2": plans / t("audit_j2"), "check_per_plan_core0": plans / t("check_loop")},
    "speedup_vs_check_per_plan": {"jobs1_core0": t("check_loop") / t("audit_j1_core0"), "jobs2": t("check_loop") / t("audit_j2")},
    "speedup_vs_check_per_plan_cpu_time": {"jobs1_core0": c("check_loop") / c("audit_j1_core0"), "jobs2": c("check_loop") / c("audit_j2")},
    "jobs2_over_jobs1": t("audit_j1") / t("audit_j2"),
    "cpu_s_per_plan_ms": {"audit_jobs1": 1e3 * c("audit_j1") / plans, "audit_jobs2": 1e3 * c("audit_j2") / plans, "check_per_plan": 1e3 * c("check_loop") / plans},
    "where_time_goes_core0": {
        "total_s": t("audit_j1_core0"),
        "startup_s (robot load, empty bag)": t("startup_core0"),
        "read_and_replay_s (bag without plans - startup)": t("noplans_core0") - t("startup_core0"),
        "plans_s (total - bag without plans)": t("audit_j1_core0") - t("noplans_core0"),
        # Of the last run (whose output is kept): its wall time, and the checks' own elapsed_ms.
        "last_run_total_s": last_wall("audit_j1_core0"),
        "last_run_checks_elapsed_ms_sum_s": check_ms / 1e3,
        "check_one_process_s": t("check_one"),
        "cpu_s": {"startup": c("startup_core0"), "read_and_replay": c("noplans_core0") - c("startup_core0"),
                  "plans": c("audit_j1_core0") - c("noplans_core0"), "check_one_process": c("check_one")},
    },
    "verdicts_audit_vs_check_mismatches": mismatch[:20], "mismatch_count": len(mismatch),
    "check_statuses": {s: statuses.count(s) for s in sorted(set(statuses))},
}
if octomap_gb != "0":
    o_audited, o_summary = reports("audit_octomap.jsonl")
    gen = json.loads((out / "octomap.json").read_text())
    r["octomap"] = {
        "bag_gb": gen["mcap_bytes"] / 1e9, "octomap_messages": gen["octomap_messages"],
        "octomap_stream_mb": [b / 1e6 for b in gen["octomap_stream_bytes"]], "occupied_leaves": gen["octomap_occupied_leaves"],
        "plans": len(o_audited), "summary": o_summary,
        "plans_per_s_jobs2": len(o_audited) / t("octomap_j2"),
        "max_rss_mb": {k: m[k]["max_rss_mb"] for k in ("octomap_j2", "octomap_j1_core0", "octomap_noplans_core0")},
        "read_and_replay_s_core0": t("octomap_noplans_core0") - t("startup_core0"),
        "plans_s_core0": t("octomap_j1_core0") - t("octomap_noplans_core0"),
        "last_run_total_s": last_wall("octomap_j1_core0"),
        "last_run_checks_elapsed_ms_sum_s": sum(p["report"]["elapsed_ms"] for p in o_audited) / 1e3,
        "one_octomap_message_ms": json.loads((out / "octomap_message_timing.json").read_text()),
    }
(out / "results.json").write_text(json.dumps(r, indent=2))
print(json.dumps(r, indent=2))
EOF
