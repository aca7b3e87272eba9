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
