#!/usr/bin/env bash
# The README's commands for a new installation, in its order, on an empty data folder (SQLite):
# the organiser's account first, then the hall server; the desk's login page must answer.
# Bounded: the server gets at most 90 s to answer (a loaded machine starts it slowly) and is
# stopped after at most 120 s.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=$(mktemp -d)
trap 'kill "$HALL" 2>/dev/null || true; wait "$HALL" 2>/dev/null || true; rm -rf "$DATA"' EXIT
HALL=""
export DATA_DIR="$DATA"
unset DATABASE_URL
printf 'Lange-Nacht-2026\n' > "$DATA/password"
.venv/bin/python manage.py organiser anna --password-file "$DATA/password"
PORT=$(.venv/bin/python -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
timeout 120 .venv/bin/python manage.py hall --host 127.0.0.1 --port "$PORT" --workers 1 --noinput &
HALL=$!
for _ in $(seq 1 300); do
  if .venv/bin/python -c "import urllib.request,sys; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:$PORT/anmelden/', timeout=2).status == 200 else 1)" 2>/dev/null; then
    echo "new installation: organiser created, hall serves http://127.0.0.1:$PORT/anmelden/"
    exit 0
  fi
  sleep 0.3
done
echo "new installation: the hall server did not answer" >&2
exit 1
