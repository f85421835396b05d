#!/usr/bin/env bash
# Starts a throw-away PostgreSQL cluster on 127.0.0.1 for the hitl pause-point
# store's tests and exports TOOLGEN_TEST_POSTGRES_DSN. Works when sourced (by
# .ci/run) or executed; `.ci/postgres.sh stop` stops the cluster.
#
# On a fresh Debian 12 machine (as root) it installs PostgreSQL from Debian's
# packages first, without creating or starting Debian's own "main" cluster.
# When the cluster is already running it only checks the database and prints
# the DSN, so running it again is fast.
#
#   TOOLGEN_PG_DIR   cluster directory (default: ${TMPDIR:-/tmp}/toolgen-postgres);
#                    holds data/, the log, the socket, the port and password files
#   TOOLGEN_PG_PORT  port to listen on (default: the one used last time if it is
#                    still free, else the first free port from 54329 up)
#   TOOLGEN_PG_DB    database to create (default: toolgen_test)
#
# The cluster listens on 127.0.0.1 only, requires a password (generated once,
# kept in $TOOLGEN_PG_DIR/password) and runs with fsync off: it is for tests.

# _toolgen_pg_bindir prints the bin directory of the newest installed server
# (a version directory holding only client programs does not count).
_toolgen_pg_bindir() {
	local d found=""
	for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V); do
		if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then
			found="$d"
		fi
	done
	[ -n "$found" ] && echo "$found"
}

_toolgen_pg_main() {
	local base="${TOOLGEN_PG_DIR:-${TMPDIR:-/tmp}/toolgen-postgres}"
	local db="${TOOLGEN_PG_DB:-toolgen_test}"
	local data="$base/data" log="$base/postgres.log"
	local bindir="" pw="" port="" p
	# _toolgen_pg_as runs a command as the cluster's owner.
	_toolgen_pg_as() {
		if [ "$(id -u)" = 0 ]; then
			runuser -u postgres -- "$@"
		else
			"$@"
		fi
	}
	_toolgen_pg_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

	bindir="$(_toolgen_pg_bindir || true)"
	if [ -z "$bindir" ]; then
		if [ "$(id -u)" != 0 ]; then
			echo "postgres: PostgreSQL is not installed and installing it needs root (apt-get install postgresql)" >&2
			return 1
		fi
		echo "== installing PostgreSQL from Debian's packages"
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq || { echo "postgres: apt-get update failed" >&2; return 1; }
		# Install postgresql-common first and tell it not to create (and
		# start) Debian's default "main" cluster on port 5432.
		apt-get install -y -qq --no-install-recommends postgresql-common >/dev/null ||
			{ echo "postgres: apt-get install postgresql-common failed" >&2; return 1; }
		if [ -f /etc/postgresql-common/createcluster.conf ]; then
			sed -ri 's/^#?[[:space:]]*create_main_cluster[[:space:]]*=.*$/create_main_cluster = false/' \
				/etc/postgresql-common/createcluster.conf
		fi
		apt-get install -y -qq --no-install-recommends postgresql >/dev/null ||
			{ echo "postgres: apt-get install postgresql failed" >&2; return 1; }
		bindir="$(_toolgen_pg_bindir || true)"
		if [ -z "$bindir" ]; then
			echo "postgres: installed, but no server binaries under /usr/lib/postgresql/*/bin" >&2
			return 1
		fi
	fi

	if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then
		echo "postgres: the postgres user does not exist (is postgresql-common installed?)" >&2
		return 1
	fi

	mkdir -p "$base" || { echo "postgres: cannot create $base" >&2; return 1; }
	chmod 700 "$base"
	if [ "$(id -u)" = 0 ]; then
		chown postgres:postgres "$base"
		# The server runs as postgres, which needs to reach $base.
		if ! runuser -u postgres -- test -w "$base"; then
			echo "postgres: the postgres user cannot write $base (a parent directory is closed to it); set TOOLGEN_PG_DIR or TMPDIR to a directory it can reach, such as /tmp" >&2
			return 1
		fi
	fi

	# The superuser's password: generated once, reused afterwards.
	if [ ! -s "$base/password" ]; then
		od -An -tx1 -N16 /dev/urandom | tr -d ' \n' >"$base/password.tmp"
		mv "$base/password.tmp" "$base/password"
	fi
	pw="$(cat "$base/password")"
	chmod 600 "$base/password"
	[ "$(id -u)" = 0 ] && chown postgres:postgres "$base/password"

	if [ ! -s "$data/PG_VERSION" ]; then
		echo "== initdb $data ($("$bindir/postgres" --version))"
		rm -rf "$data"
		_toolgen_pg_as "$bindir/initdb" -D "$data" -U postgres --pwfile="$base/password" \
			--auth-local=scram-sha-256 --auth-host=scram-sha-256 -E UTF8 --locale=C.UTF-8 >"$base/initdb.log" 2>&1 ||
			{ cat "$base/initdb.log" >&2; echo "postgres: initdb failed (log above)" >&2; return 1; }
	fi

	if _toolgen_pg_as "$bindir/pg_ctl" -D "$data" status >/dev/null 2>&1; then
		port="$(cat "$base/port" 2>/dev/null || true)"
		if [ -z "$port" ]; then
			echo "postgres: a cluster runs in $data but $base/port is missing; stop it with $0 stop" >&2
			return 1
		fi
		echo "== PostgreSQL already running on 127.0.0.1:$port ($data)"
	else
		port="${TOOLGEN_PG_PORT:-}"
		if [ -n "$port" ]; then
			if _toolgen_pg_busy "$port"; then
				echo "postgres: TOOLGEN_PG_PORT=$port is already in use on 127.0.0.1" >&2
				return 1
			fi
		else
			port="$(cat "$base/port" 2>/dev/null || true)"
			if [ -z "$port" ] || _toolgen_pg_busy "$port"; then
				port=""
				for p in $(seq 54329 54429); do
					if ! _toolgen_pg_busy "$p"; then
						port="$p"
						break
					fi
				done
			fi
			if [ -z "$port" ]; then
				echo "postgres: no free port in 54329-54429 on 127.0.0.1" >&2
				return 1
			fi
		fi
		echo "$port" >"$base/port"
		echo "== starting PostgreSQL on 127.0.0.1:$port ($data, log $log)"
		_toolgen_pg_as "$bindir/pg_ctl" -D "$data" -l "$log" -w -t 60 -o \
			"-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$base -c max_connections=200 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
			start >/dev/null ||
			{ tail -n 30 "$log" >&2; echo "postgres: pg_ctl start failed (log above)" >&2; return 1; }
	fi

	local psql=(env PGPASSWORD="$pw" "$bindir/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres -d postgres -tA)
	if [ "$("${psql[@]}" -c "SELECT 1 FROM pg_database WHERE datname = '$db'")" != 1 ]; then
		"${psql[@]}" -c "CREATE DATABASE \"$db\"" ||
			{ echo "postgres: cannot create database $db" >&2; return 1; }
	fi

	TOOLGEN_TEST_POSTGRES_DSN="postgres://postgres:$pw@127.0.0.1:$port/$db?sslmode=disable"
	export TOOLGEN_TEST_POSTGRES_DSN
	echo "== TOOLGEN_TEST_POSTGRES_DSN=$TOOLGEN_TEST_POSTGRES_DSN"
	echo "export TOOLGEN_TEST_POSTGRES_DSN='$TOOLGEN_TEST_POSTGRES_DSN'" >"$base/env"
	return 0
}

_toolgen_pg_stop() {
	local base="${TOOLGEN_PG_DIR:-${TMPDIR:-/tmp}/toolgen-postgres}" d
	d="$(_toolgen_pg_bindir || true)"
	[ -n "$d" ] && [ -s "$base/data/PG_VERSION" ] || return 0
	if [ "$(id -u)" = 0 ]; then
		runuser -u postgres -- "$d/pg_ctl" -D "$base/data" -m fast stop
	else
		"$d/pg_ctl" -D "$base/data" -m fast stop
	fi
}

if [ "${1:-}" = stop ]; then
	_toolgen_pg_stop
else
	_toolgen_pg_main
fi
_toolgen_pg_rc=$?
unset -f _toolgen_pg_main _toolgen_pg_stop _toolgen_pg_bindir _toolgen_pg_as _toolgen_pg_busy
# Sourced: return to the caller (whose set -e stops it on failure); executed: exit.
return "$_toolgen_pg_rc" 2>/dev/null || exit "$_toolgen_pg_rc"
