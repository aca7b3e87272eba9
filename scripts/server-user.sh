# Sourced by the scripts that start `vicinity serve`: when they run as root (CI runs `make test`
# as root), the server runs as an unprivileged user, as systemd's DynamicUser= would run it, so
# that what only root may do (a socket option at the wrong level reset every connection for
# anyone else) fails here rather than in production.
#
#   serve_as_unprivileged "$work" "$bin"   # once the database in $work is made
#   "${as_server_user[@]}" "$serve_bin" serve --db "$work/db.sqlite" … &
#
# The database's folder is given to that user; the binary is copied into it when the user cannot
# reach it where it was built (a clone under /root, say). `as_server_user` execs the command
# (`$!` is the server's pid). Not root: both leave everything as it is.
server_user=nobody
server_group=nogroup
as_server_user=()

serve_as_unprivileged() { # folder, binary
    serve_bin=$2
    [[ $(id -u) == 0 ]] || return 0
    as_server_user=(setpriv --reuid="$server_user" --regid="$server_group" --clear-groups env HOME=/nonexistent)
    if ! "${as_server_user[@]}" test -x "$serve_bin"; then
        cp "$serve_bin" "$1/vicinity"
        serve_bin=$1/vicinity
    fi
    chown -R "$server_user:$server_group" "$1"
}

# The set-up the client scripts share: the Istanbul example imported into $1/db.sqlite, an admin
# token in $admin, `serve` started on it unprivileged (pid in $server, log in $1/serve.log), an
# EXIT trap that stops it and removes $1, and a wait until the HTTP API answers.
#
#   serve_example "$work" "$bin" LINE_PORT HTTP_PORT [SERVE_OPTION…]   # a port of 0: the system chooses
serve_example() { # folder, binary, line port, HTTP port, more options of serve
    serve_folder=$1
    "$2" import Data/pharmacies-istanbul-example.csv --kind pharmacy --db "$1/db.sqlite" >/dev/null
    # More place files (space-separated), e.g. places with opening hours for the fuzzer to see.
    for extra in ${SERVE_EXAMPLE_EXTRA:-}; do
        "$2" import "$extra" --kind pharmacy --db "$1/db.sqlite" >/dev/null 2>&1
    done
    admin=$("$2" admin-token --db "$1/db.sqlite" 2>/dev/null)
    serve_as_unprivileged "$1" "$2"
    "${as_server_user[@]}" "$serve_bin" serve --db "$1/db.sqlite" --line-port "$3" --http-port "$4" "${@:5}" \
        2>"$1/serve.log" &
    server=$!
    trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$serve_folder"' EXIT
    for _ in $(seq 50); do curl -sf "http://127.0.0.1:$4/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
}
