#!/usr/bin/env bash
# Builds interop/.venv with the pinned Python peers (requirements.txt) from the configured package
# index. Idempotent: a venv that already has the pinned versions is kept.
set -euo pipefail
cd "$(dirname "$0")"
PYTHON="${PYTHON:-python3}"
if [ -x .venv/bin/python ] && .venv/bin/python - <<'PY' 2>/dev/null
import importlib.metadata as m, sys
want = dict(line.split("==") for line in open("requirements.txt") if "==" in line and not line.startswith("#"))
sys.exit(0 if all(m.version(k) == v.strip() for k, v in want.items()) else 1)
PY
then
  echo "interop/.venv is ready"
  exit 0
fi
"$PYTHON" -m venv .venv
# Where a package index is configured for pip (extra-index-url, e.g. a local mirror), use it alone:
# asking an unreachable default index first costs a DNS timeout per package.
INDEX_ARGS=()
if [ -z "${PIP_INDEX_URL:-}" ]; then
  read -r -a EXTRA <<<"$(.venv/bin/pip config get global.extra-index-url 2>/dev/null | tr '\n' ' ' || true)"
  if [ "${#EXTRA[@]}" -gt 0 ]; then
    INDEX_ARGS=(--index-url "${EXTRA[0]}")
    for url in "${EXTRA[@]:1}"; do INDEX_ARGS+=(--extra-index-url "$url"); done
  fi
fi
.venv/bin/pip install --quiet --retries 0 --disable-pip-version-check "${INDEX_ARGS[@]}" -r requirements.txt
echo "interop/.venv is ready: $(.venv/bin/python -c 'import fastmcp, importlib.metadata as m; print("fastmcp", fastmcp.__version__, "mcp", m.version("mcp"))')"
