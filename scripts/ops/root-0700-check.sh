#!/usr/bin/env bash
# As root, from a fresh clone inside a directory other users cannot traverse (mktemp -d is
# 0700, like /root): npm ci, an integration test on the embedded PostgreSQL, then npm start
# twice on the same data, proving an account survives the restart. Run by .ci/run as root.
set -euo pipefail
src="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
port=3999
cleanup() {
  kill -- "-${pid:-0}" 2>/dev/null || true
  # The cluster of this throw-away checkout lives outside it (/var/lib/careerbot/postgres-…).
  dir=$(grep -o '"databaseDir":"[^"]*"' "$work/start.log" 2>/dev/null | head -1 | cut -d'"' -f4 || true)
  case "$dir" in /var/lib/careerbot/*|/var/tmp/careerbot-postgres/*|/tmp/careerbot-postgres/*) rm -rf "$dir" ;; esac
  rm -rf "$work"
}
trap cleanup EXIT
chmod 700 "$work"
git clone -q "$src" "$work/repo"
cd "$work/repo"
npm ci --no-audit --no-fund --loglevel=error
env -u DATABASE_URL -u TEST_DATABASE_URL npx vitest run test/integration/public-bot.test.ts

start() {
  # Its own process group, so stopping it reaches npm's child (the service) too.
  setsid env -u DATABASE_URL PORT=$port HOST=127.0.0.1 npm start > "$work/start.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 120); do
    curl -sf "http://127.0.0.1:$port/readyz" > /dev/null && return 0
    sleep 0.5
  done
  cat "$work/start.log"; return 1
}
stop() {
  kill -TERM -- "-$pid"
  wait "$pid" || true
  for _ in $(seq 1 60); do
    curl -s "http://127.0.0.1:$port/readyz" > /dev/null || return 0
    sleep 0.5
  done
  echo "the service still answers after SIGTERM"; return 1
}

start
grep -o '"databaseDir":"[^"]*"' "$work/start.log"
curl -sf -H 'content-type: application/json' -d '{"username":"rootcheck","email":"rootcheck@example.com","password":"correct horse battery"}' "http://127.0.0.1:$port/api/auth/register" > /dev/null
stop
start
jar="$work/cookies"
csrf=$(curl -sf -c "$jar" "http://127.0.0.1:$port/api/auth/csrf" | node -e "process.stdin.on('data', d => console.log(JSON.parse(d).csrfToken))")
curl -sf -b "$jar" -c "$jar" -H 'content-type: application/json' -d "{\"csrfToken\":\"$csrf\",\"email\":\"rootcheck\",\"password\":\"correct horse battery\"}" "http://127.0.0.1:$port/api/auth/callback/credentials" > /dev/null
stop
echo "root-0700-check: npm test and npm start work under a 0700 directory; the account survived a restart"
