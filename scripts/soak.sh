#!/usr/bin/env bash
# The soak check of issue 29: `npm test` must pass every time from a fresh clone on a 2-core machine
# while another `npm test` runs beside it. Clones this repository (at HEAD) twice into a temporary
# folder, installs each (npm ci), then runs ROUNDS rounds of `npm test` in both clones at once, and
# reports each run: passed or failed, how long it took, and where its log is.
#
#   npm run test:soak                        # 5 rounds, 2 runs side by side (the full check)
#   SOAK_ROUNDS=1 npm run test:soak          # one round
#   SOAK_COMMAND='npx vitest run --project unit packages/core' npm run test:soak   # a subset
#
# Settings (environment):
#   SOAK_ROUNDS    rounds (default 5)
#   SOAK_PARALLEL  runs side by side in each round, one clone each (default 2)
#   SOAK_COMMAND   what each run runs in its clone (default: npm test)
#   SOAK_REF       what to clone (default HEAD of this checkout; commit it first)
#   SOAK_DIR       where the clones and logs go (default a new folder in $TMPDIR); kept afterwards
#                  when a run failed or SOAK_KEEP=1, the logs always
#   SOAK_INSTALL   0 skips npm ci in clones already there (rerunning rounds in a kept SOAK_DIR)
#
# Exit status 0 when every run of every round passed, 1 otherwise. Runs nothing else meanwhile:
# the point is two test runs, and only two, sharing the machine.
set -euo pipefail

rounds="${SOAK_ROUNDS:-5}"
parallel="${SOAK_PARALLEL:-2}"
command="${SOAK_COMMAND:-npm test}"
source_repo="$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)"
ref="$(git -C "$source_repo" rev-parse "${SOAK_REF:-HEAD}")"
work="${SOAK_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/parley-soak.XXXXXX")}"
logs="$work/logs"
mkdir -p "$logs"

if [ -n "$(git -C "$source_repo" status --porcelain --untracked-files=no)" ]; then
  echo "soak: $source_repo has uncommitted changes; the soak runs the commit $ref without them." >&2
fi

echo "soak: ${rounds} round(s) of ${parallel} x '${command}' on ${ref:0:12}, in $work (nproc $(nproc))"

names=()
for ((i = 1; i <= parallel; i++)); do
  name="run$i"
  names+=("$name")
  clone="$work/$name"
  if [ ! -d "$clone/.git" ]; then
    git clone --quiet --no-checkout "$source_repo" "$clone"
    git -C "$clone" checkout --quiet --detach "$ref"
  fi
  if [ "${SOAK_INSTALL:-1}" = "0" ] && [ -d "$clone/node_modules" ]; then continue; fi
  echo "soak: npm ci in $clone"
  if ! (cd "$clone" && npm ci --no-audit --no-fund >"$logs/$name-install.log" 2>&1); then
    echo "soak: npm ci failed in $clone; see $logs/$name-install.log" >&2
    exit 1
  fi
done

failed=0
summary="$logs/summary.txt"
: >"$summary"
for ((round = 1; round <= rounds; round++)); do
  pids=()
  starts=()
  for name in "${names[@]}"; do
    log="$logs/round$round-$name.log"
    (cd "$work/$name" && exec bash -c "$command") >"$log" 2>&1 &
    pids+=("$!")
    starts+=("$(date +%s)")
  done
  for index in "${!names[@]}"; do
    name="${names[$index]}"
    status=0
    wait "${pids[$index]}" || status=$?
    took=$(($(date +%s) - ${starts[$index]}))
    verdict="passed"
    if [ "$status" -ne 0 ]; then
      verdict="FAILED (exit $status)"
      failed=$((failed + 1))
    fi
    log="$logs/round$round-$name.log"
    line="$(printf 'round %d  %-6s %-16s %3dm%02ds  %s' "$round" "$name" "$verdict" $((took / 60)) $((took % 60)) "$log")"
    echo "$line" | tee -a "$summary"
    if [ "$status" -ne 0 ]; then
      # The failed tests, as vitest names them (colours stripped).
      sed -E 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^ *(FAIL|×) ' | sort -u | head -20 | sed 's/^ */    /' | tee -a "$summary" || true
    fi
  done
done

runs=$((rounds * parallel))
if [ "$failed" -eq 0 ]; then
  echo "soak: all $runs runs passed ($summary)"
  if [ "${SOAK_KEEP:-0}" != "1" ]; then
    for name in "${names[@]}"; do rm -rf "${work:?}/$name"; done
  fi
  exit 0
fi
echo "soak: $failed of $runs runs failed; clones and logs kept in $work ($summary)" >&2
exit 1
