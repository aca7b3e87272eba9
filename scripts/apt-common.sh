# Shared by the scripts that need Debian packages (source it from the repository root):
# `apt_install PACKAGE…` installs them with apt-get, as root or through sudo, reading the package
# lists first (a fresh machine has none). Call it only when something is missing.
apt_install() {
    local sudo=""
    [[ $(id -u) != 0 ]] && sudo=sudo
    echo "installing $* with apt-get" >&2
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}
