# Sourced by serve.sh and test.sh: make_venv DIR creates a virtual environment in DIR (once),
# installing Debian's python3-venv first when this Python has no working venv module.
make_venv() {
    local dir=$1
    [ -x "$dir/bin/python" ] && return 0
    if ! python3 -m venv "$dir" >/dev/null 2>&1; then
        rm -rf "$dir"
        echo "== installing python3-venv with apt-get"
        local sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3-venv >/dev/null
        python3 -m venv "$dir"
    fi
    "$dir/bin/python" -m pip install -q --disable-pip-version-check --upgrade pip
}
