#!/bin/sh
# The Debian packages each purpose needs, installed when root (with apt-get), or named
# in one line for whoever is not:
#   sh scripts/system-packages.sh run            what the app needs to play (make run)
#   sh scripts/system-packages.sh test           that, and the tools the tests use (make test)
#   sh scripts/system-packages.sh PURPOSE --print   the purpose's packages, one a line;
#                                                checks and installs nothing
# A station needs no broker (it is an MQTT client): the classroom's mosquitto runs on the
# coordinator, installed by `systemd/install.sh --coordinator`.
set -eu

# purpose  package               present when                    what for
PACKAGES='
run   python3-venv          py:ensurepip                     the venv make creates
run   libzbar0              lib:libzbar.so.0                 pyzbar decoding the QR cards
run   espeak-ng             cmd:espeak-ng                    spoken prompts (the app is silent without it)
run   fonts-droid-fallback  file:/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf  the Chinese names on M.E.C.S. card pages; Chinese, Japanese and full-width names on printed badges and reports
test  poppler-utils         cmd:pdftoppm                     reading printed PDFs back
test  mosquitto             cmd:mosquitto                    the fleet tests start their own broker on loopback
test  chromium              cmd:chromium                     the dashboard tests drive it headless (Playwright)
test  shellcheck            cmd:shellcheck                   checking the install scripts
'

usage() {
    echo "usage: sh scripts/system-packages.sh run|test [--print]" >&2
    exit 2
}

[ $# -ge 1 ] || usage
case $1 in
    run) purposes="run" ;;
    test) purposes="run test" ;;
    *) usage ;;
esac
print=0
case ${2-} in
    "") ;;
    --print) print=1 ;;
    *) usage ;;
esac

present() {  # present KIND:WHAT
    what=${1#*:}
    case $1 in
        py:*) python3 -c "import $what" >/dev/null 2>&1 ;;
        # ldconfig lives in /sbin, on no PATH but root's (Debian)
        lib:*) { ldconfig -p || /sbin/ldconfig -p; } 2>/dev/null | grep -q "$what" ;;
        cmd:*) command -v "$what" >/dev/null 2>&1 || [ -x "/usr/sbin/$what" ] ;;
        file:*) [ -e "$what" ] ;;
    esac
}

need=""
for purpose in $purposes; do
    # shellcheck disable=SC2034  # $why is the table's last column, read to keep it whole
    while read -r for package check why; do
        [ "$for" = "$purpose" ] || continue
        if [ "$print" = 1 ]; then
            echo "$package"
        elif ! present "$check"; then
            need="$need $package"
        fi
    done <<EOF
$PACKAGES
EOF
done
[ -z "$need" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing system packages:$need"
    # shellcheck disable=SC2086  # $need is a list of package names, split on purpose
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need) >/dev/null \
        || { echo "apt-get could not install$need" >&2; exit 1; }
    # The Debian mosquitto starts a broker on port 1883 where systemd runs; the fleet's
    # own configuration replaces it (systemd/install.sh), the tests start their own.
else
    echo "Missing system packages; run: sudo apt-get install -y$need"
fi
