# Sourced by the benchmark scripts: installs the Debian packages a fresh machine lacks.

# install_packages PACKAGE...: apt-get install, through sudo when not root; the package lists
# are updated once per script. Returns non-zero when apt-get (or sudo) is missing or fails.
apt_updated=0
install_packages() {
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || return 1
        sudo="sudo"
    fi
    command -v apt-get >/dev/null 2>&1 || return 1
    if [ "$apt_updated" -eq 0 ]; then
        $sudo apt-get update -qq || return 1
        apt_updated=1
    fi
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@"
}
