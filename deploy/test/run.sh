#!/usr/bin/env bash
# The production recipe, run for real on this machine: Debian's nginx with deploy/nginx/pairwell.conf
# (only its ports, log path, host name and certificate substituted) in front of two instances of the
# built server on one fresh PostgreSQL database, both started from deploy/pairwell.env.example; then
# the journey over HTTPS (deploy/test/journey.mjs). Run by .ci/run. Everything it starts is stopped,
# and its database dropped, whatever way it exits.
#
# Settings (all optional): DEPLOY_HTTPS_PORT (8443), DEPLOY_HTTP_PORT (8080), DEPLOY_PORT_A (4841),
# DEPLOY_PORT_B (4842), DEPLOY_PG_URL (postgres://127.0.0.1:5432, the server to make the database
# on), DEPLOY_DATABASE (pairwell_deploy_test: dropped and made again, so never a database you keep).
set -euo pipefail
cd "$(dirname "$0")/../.."

https_port=${DEPLOY_HTTPS_PORT:-8443}
http_port=${DEPLOY_HTTP_PORT:-8080}
port_a=${DEPLOY_PORT_A:-4841}
port_b=${DEPLOY_PORT_B:-4842}
pg_url=${DEPLOY_PG_URL:-postgres://127.0.0.1:5432}
database=${DEPLOY_DATABASE:-pairwell_deploy_test}
nginx=/usr/sbin/nginx

say() { printf '[deploy] %s\n' "$*"; }
fail() {
  say "FAILED: $*" >&2
  exit 1
}
[[ $database =~ ^[a-z_][a-z0-9_]*$ ]] || fail "DEPLOY_DATABASE must be a plain lower-case name"

# --- Cleanup: every process started here, on any exit -------------------------------------------

work=$(mktemp -d -t pairwell-deploy.XXXXXX)
pids=()
database_made=false
stop_all() {
  local pid
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  # The app drains within 4 s and nginx stops at once; anything still there after 10 s is killed.
  local deadline=$((SECONDS + 10))
  for pid in "${pids[@]}"; do
    while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
}
on_exit() {
  local status=$?
  trap - EXIT INT TERM
  stop_all
  if ((status != 0)); then
    local file
    for file in "$work"/app-a.log "$work"/app-b.log "$work"/nginx/error.log "$work"/nginx/access.log; do
      [ -s "$file" ] || continue
      say "--- last lines of ${file#"$work"/}"
      tail -n 25 "$file" >&2
    done
  fi
  if $database_made; then
    psql "$pg_url/postgres" -qAt -c "drop database if exists $database with (force)" >/dev/null ||
      say "could not drop database $database"
  fi
  rm -rf "$work"
  exit "$status"
}
trap on_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

for port in "$https_port" "$http_port" "$port_a" "$port_b"; do
  if ss -Hltn "sport = :$port" | grep -q .; then fail "port $port is already in use"; fi
done

# --- nginx, the unit files, the build -----------------------------------------------------------

if [ ! -x "$nginx" ]; then
  say "installing nginx (apt-get)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null
fi
say "$("$nginx" -v 2>&1)"

if command -v systemd-analyze >/dev/null; then
  # An instance of the template, as `systemctl enable pairwell@3001` would load it.
  mkdir "$work/units"
  cp deploy/systemd/pairwell@.service "$work/units/"
  ln -s pairwell@.service "$work/units/pairwell@3001.service"
  if ! verify=$(systemd-analyze verify "$work/units/pairwell@3001.service" 2>&1) || [ -n "$verify" ]; then
    printf '%s\n' "$verify" >&2
    fail "systemd-analyze verify found problems in deploy/systemd/pairwell@.service"
  fi
  say "systemd-analyze verify: deploy/systemd/pairwell@.service has no problems"
else
  say "systemd-analyze is not installed: deploy/systemd/pairwell@.service not verified"
fi

built_at() { [ -f "$1" ] && stat -c %Y "$1" || echo 0; }
oldest_build=$(for file in dist/server/main.js dist/client/index.html dist/ssr/prerender.js; do
  built_at "$file"
done | sort -n | head -n 1)
if [ "$oldest_build" = 0 ] || [ -n "$(find src vite.config.ts package.json -newermt "@$oldest_build" -type f -print -quit)" ]; then
  say "building (npm run build)"
  npm run build >"$work/build.log" 2>&1 || {
    cat "$work/build.log" >&2
    fail "npm run build"
  }
fi

# --- A certificate for localhost, made here --------------------------------------------------

# The work directory must be traversable by nginx's workers (nobody, when started as root); the
# private key stays in a directory only its owner reads.
chmod 0755 "$work"
mkdir -m 0700 "$work/tls"
mkdir -m 0755 "$work/nginx" "$work/data"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 \
  -subj /CN=localhost -addext subjectAltName=DNS:localhost,IP:127.0.0.1 \
  -keyout "$work/tls/key.pem" -out "$work/tls/cert.pem" 2>/dev/null

# --- The shipped nginx site, rendered for this machine --------------------------------------------

site="$work/nginx/pairwell.conf"
cp deploy/nginx/pairwell.conf "$site"
# Replaces text exactly as the shipped file has it, the number of times it must occur: a line
# changed in the shipped file makes the test stop here rather than run something else.
substitute() {
  local from=$1 to=$2 times=$3 found
  found=$(grep -cF -- "$from" "$site" || true)
  ((found == times)) || fail "deploy/nginx/pairwell.conf: expected $times line(s) with '$from', found $found"
  FROM=$from TO=$to perl -pi -e 's/\Q$ENV{FROM}\E/$ENV{TO}/g' "$site"
}
substitute 'server 127.0.0.1:3001;' "server 127.0.0.1:$port_a;" 1
substitute 'server 127.0.0.1:3002;' "server 127.0.0.1:$port_b;" 1
substitute 'listen 80;' "listen 127.0.0.1:$http_port;" 1
substitute 'listen [::]:80;' "listen [::1]:$http_port;" 1
substitute 'listen 443 ssl http2;' "listen 127.0.0.1:$https_port ssl http2;" 1
substitute 'listen [::]:443 ssl http2;' "listen [::1]:$https_port ssl http2;" 1
substitute '/etc/letsencrypt/live/pairwell.example/fullchain.pem' "$work/tls/cert.pem" 1
substitute '/etc/letsencrypt/live/pairwell.example/privkey.pem' "$work/tls/key.pem" 1
substitute '/var/log/nginx/pairwell.access.log' "$work/nginx/access.log" 2
substitute 'https://pairwell.example$request_uri' "https://localhost:$https_port\$request_uri" 1
substitute 'server_name pairwell.example;' 'server_name localhost;' 2
if grep -nE 'pairwell\.example|/etc/|/var/' "$site" | grep -v '^[0-9]*: *#'; then
  fail "the rendered site still names a production host or path (above)"
fi

# Debian's nginx.conf, reduced to what the site needs, with every path in the work directory.
cat >"$work/nginx/nginx.conf" <<EOF
daemon off;
worker_processes 1;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log notice;
events { worker_connections 256; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  sendfile on;
  client_body_temp_path $work/nginx/body;
  proxy_temp_path $work/nginx/proxy;
  fastcgi_temp_path $work/nginx/fastcgi;
  uwsgi_temp_path $work/nginx/uwsgi;
  scgi_temp_path $work/nginx/scgi;
  include $site;
}
EOF
nginx_args=(-p "$work/nginx/" -c "$work/nginx/nginx.conf" -e "$work/nginx/error.log")
"$nginx" -t -q "${nginx_args[@]}" || fail "nginx -t refused the rendered site"

# --- A fresh database, two instances started together, nginx ----------------------------------

PGOPTIONS='--client-min-messages=warning' psql "$pg_url/postgres" -qAt \
  -c "drop database if exists $database with (force)" >/dev/null
psql "$pg_url/postgres" -qAt -c "create database $database" >/dev/null
database_made=true

# The shipped environment file, read as systemd reads it (KEY=value lines, comments skipped), in an
# otherwise empty environment; then the four settings that name this machine instead of production.
app_env=(PATH="$PATH")
while IFS= read -r line || [ -n "$line" ]; do
  [[ $line =~ ^[[:space:]]*(#|$) ]] && continue
  [[ $line =~ ^[A-Z_][A-Z0-9_]*= ]] || fail "deploy/pairwell.env.example: not KEY=value: $line"
  app_env+=("$line")
done <deploy/pairwell.env.example
for name in DATABASE_URL PUBLIC_URL DATA_DIR SMTP_URL; do
  printf '%s\n' "${app_env[@]}" | grep -q "^$name=" || fail "deploy/pairwell.env.example has no $name"
done
app_env+=(
  DATABASE_URL="$pg_url/$database"
  PUBLIC_URL="https://localhost:$https_port"
  DATA_DIR="$work/data"
  # Email stays in DATA_DIR/outbox/ (an empty value counts as unset).
  SMTP_URL=
)

# The unit's own environment (each instance gets its own PORT below) and command line (its node
# flags and script), run by this machine's node.
while IFS= read -r line; do
  [[ $line == PORT=* ]] || app_env+=("$line")
done < <(sed -n 's|^Environment=||p' deploy/systemd/pairwell@.service)
read -r -a exec_start <<<"$(sed -n 's|^ExecStart=/usr/bin/node ||p' deploy/systemd/pairwell@.service)"
start_instance() { # name port
  env -i "${app_env[@]}" PORT="$2" node "${exec_start[@]}" >"$work/app-$1.log" 2>&1 &
  pids+=($!)
  eval "pid_$1=$!"
}
start_instance a "$port_a"
start_instance b "$port_b"
"$nginx" "${nginx_args[@]}" &
pids+=($!)
nginx_pid=$!

# Waits until the instance logs Fastify's "Server listening at" line (the shipped LOG_LEVEL is info),
# with no deadline of its own: on a busy machine two instances migrating and starting side by side
# take as long as they take (issue 26). An instance that exits ends the wait at once: tail --pid
# stops with it, and grep reaches the end of the log without the line.
await_listening() { # name pid port
  local name=$1 pid=$2 port=$3
  grep -m 1 -qE "\"msg\":\"Server listening at https?://[^\"]*:$port\"" \
    < <(tail --pid="$pid" -n +1 -F "$work/app-$name.log" 2>/dev/null) ||
    fail "instance $name exited before it was listening"
  # Listening comes after this instance's migrations: /readyz must say so on the first ask.
  curl -fsS -o /dev/null "http://127.0.0.1:$port/readyz" ||
    fail "instance $name is listening but /readyz did not answer 200"
}

# Polls until the URL answers 200, for at most 60 s, and fails as soon as the process is gone.
await_ready() { # what pid url [curl options]
  local what=$1 pid=$2 url=$3 deadline=$((SECONDS + 60))
  shift 3
  until curl -fsS -o /dev/null --max-time 2 "$@" "$url" 2>/dev/null; do
    kill -0 "$pid" 2>/dev/null || fail "$what exited before it was ready"
    ((SECONDS < deadline)) || fail "$what was not ready within 60 s ($url)"
    sleep 0.2
  done
}
# Both ready means the migrations ran once on the empty database: /readyz answers 200 only when
# every migration this build knows has been applied, and they were started at the same moment.
await_listening a "$pid_a" "$port_a"
await_listening b "$pid_b" "$port_b"
await_ready nginx "$nginx_pid" "https://localhost:$https_port/readyz" --cacert "$work/tls/cert.pem"
say "nginx on :$http_port and :$https_port, instances on :$port_a and :$port_b, database $database"

JOURNEY_HTTPS_ORIGIN="https://localhost:$https_port" \
  JOURNEY_HTTP_ORIGIN="http://localhost:$http_port" \
  JOURNEY_CA_FILE="$work/tls/cert.pem" \
  JOURNEY_NGINX_ACCESS_LOG="$work/nginx/access.log" \
  JOURNEY_INSTANCE_A="http://127.0.0.1:$port_a" JOURNEY_PID_A="$pid_a" JOURNEY_LOG_A="$work/app-a.log" \
  JOURNEY_INSTANCE_B="http://127.0.0.1:$port_b" JOURNEY_PID_B="$pid_b" JOURNEY_LOG_B="$work/app-b.log" \
  node deploy/test/journey.mjs &
# In the background and waited for, so a TERM or an interrupt stops the run at once.
pids+=($!)
wait $!

say "production recipe: every check passed"
