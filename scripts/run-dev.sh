#!/usr/bin/env bash
# Start the sandbox, the mail sink, the portal and a worker side by side; stop all on Ctrl-C.
set -euo pipefail
: "${BIN:=.venv/bin}" "${PORTAL_PORT:=5000}" "${SANDBOX_PORT:=8100}"
# the SMTP sink's port follows the portal's (the Makefile's MAIL_SINK_PORT), and the portal,
# its worker and the commands below send to it
: "${MAIL_SINK_PORT:=$((PORTAL_PORT + 3025))}"
export MAIL_PORT="$MAIL_SINK_PORT"

# The first admin (first run only): its one-time password is shown now and again in the
# summary at the end, below the servers' start-up lines. Kept in a shell variable, never exported.
admin_note=$("$BIN/flask" --app app users ensure-admin)
echo "$admin_note"

pids=()
cleanup() { kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; }
trap cleanup EXIT INT TERM

# The sandbox keeps its records in instance/sandbox-state.json across restarts, as the portal
# keeps its merchants in its database (delete both, with instance/, to start over).
"$BIN/python" -m portal.sandbox --host 127.0.0.1 --port "$SANDBOX_PORT" \
  --config instance/sandbox.json --state instance/sandbox-state.json > instance/sandbox.log 2>&1 &
pids+=($!)
# A local SMTP server: every email the portal sends lands in instance/mail/ as a .eml file.
"$BIN/python" -m portal.core.mail.sink --port "$MAIL_SINK_PORT" --folder instance/mail \
  > instance/mail.log 2>&1 &
pids+=($!)
# gunicorn.conf.py: 2 workers, the access log on stdout, every log line redacted; the workers'
# Prometheus metrics in instance/metrics, added up by /metrics
PROMETHEUS_MULTIPROC_DIR=instance/metrics "$BIN/gunicorn" --config gunicorn.conf.py --bind "127.0.0.1:$PORTAL_PORT" app:app \
  > instance/portal.log 2>&1 &
pids+=($!)
# A background worker: bulk imports, the status sync, reminders and queued step sends.
"$BIN/flask" --app app worker > instance/worker.log 2>&1 &
pids+=($!)

"$BIN/python" - "$PORTAL_PORT" "$SANDBOX_PORT" <<'PY'
import sys, time, urllib.request
for url in (f"http://127.0.0.1:{sys.argv[1]}/healthz", f"http://127.0.0.1:{sys.argv[2]}/openapi.json"):
    for _ in range(100):
        try:
            urllib.request.urlopen(url, timeout=1)
            break
        except OSError:
            time.sleep(0.2)
PY
# Keys and the webhook are kept in the sandbox's state file; registering them again is harmless
# (both replace what is there) and covers a state file deleted on its own.
"$BIN/flask" --app app payments register-sandbox-keys || true
# the portal's webhook, through the sandbox's webhook API, under GATEWAY_PARTNER_MID
# (instance/portal.env)
"$BIN/flask" --app app gateway webhooks register \
  "http://127.0.0.1:$PORTAL_PORT/webhooks/onboarding" || true
cat <<TXT

  Portal:  http://127.0.0.1:$PORTAL_PORT   (sign in as admin@localhost)
$(sed -e 's/ (shown once)//' -e 's/^/           /' <<<"$admin_note")
           More users: $BIN/flask --app app users create EMAIL --role ops
  Sandbox: http://127.0.0.1:$SANDBOX_PORT  (gateway emulator; OpenAPI at /openapi.json)
  Mail:    instance/mail/*.eml  (what the portal emails; SMTP sink on 127.0.0.1:$MAIL_SINK_PORT)
  Logs:    instance/portal.log, instance/sandbox.log, instance/worker.log

  Press Ctrl-C to stop them all.
TXT
wait -n "${pids[@]}"
