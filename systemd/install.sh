#!/usr/bin/env bash
# Install the tabletop on a Raspberry Pi (Raspberry Pi OS Bookworm), as a kiosk that
# boots straight into the app. Run it again at any time (after `git pull`, say): it does
# only what is missing and restarts what runs. Every command is printed before it runs.
#
#   sudo systemd/install.sh [--station] [--fleet FILE]
#   sudo systemd/install.sh --coordinator --broker-dir DIR [--pin-file FILE] [--fleet FILE] [--no-app]
#   systemd/install.sh ... --dry-run      # print the plan, change nothing (no root needed)
#
# --station (default)  the app on tty1 at boot (tabletop.service)
# --coordinator        also the classroom's MQTT broker (mosquitto) and the teacher's
#                      dashboard: https on port 8443, http on 8080 sends you there
#                      (tabletop-teacher.service)
# --fleet FILE         this station's fleet file from `tabletop fleet setup` (e.g.
#                      station-3.toml), installed as /etc/tabletop/fleet.toml
# --broker-dir DIR     (coordinator) the folder `tabletop fleet setup` wrote: its
#                      mosquitto.conf, passwd, acl and TLS files (ca.crt, server.crt,
#                      server.key) go to /etc/mosquitto/conf.d and /etc/tabletop/mosquitto,
#                      its teacher.toml to /etc/tabletop/teacher.toml; the dashboard serves
#                      HTTPS with server.crt (/etc/tabletop/teacher.crt, .key, .env)
# --pin-file FILE      (coordinator) the dashboard's PIN, installed as
#                      /etc/tabletop/teacher.pin (default: keep it, or make a random one)
# --no-app             (coordinator) no app on this device's screen: broker and dashboard only
# --source DIR         the project to install (default: the folder this script is in)
# --dry-run            print every command, run none
set -euo pipefail

PREFIX=/opt/tabletop
DATA=/var/lib/tabletop
ETC=/etc/tabletop
ACCOUNT=tabletop
UNITS=/etc/systemd/system
GROUPS_WANTED=(video render input gpio audio i2c spi)
# A|B: the first of these the system has (Debian 13 renamed some libraries).
APT_PACKAGES=(
    python3-venv       # the venv
    python3-picamera2  # the camera (libcamera), seen in the venv via --system-site-packages
    python3-lgpio      # GPIO for gpiozero (seat buttons and LEDs), on a Pi 5 too
    'libzbar0|libzbar0t64'  # pyzbar's QR decoder
    fonts-droid-fallback
    poppler-utils      # pdftoppm: printables are checked by reading them back
    espeak-ng          # spoken prompts (tabletop/ui/speech.py)
    libegl1 libgles2 libgbm1  # SDL's KMS/DRM screen driver
    rsync              # copies the project to /opt/tabletop
)
# Packages only Raspberry Pi OS has: elsewhere (an arm64 board's Debian, a laptop) they
# are skipped with the reason, and the install goes on without them.
declare -A WITHOUT=(
    [python3-picamera2]="the Pi camera's library is only in Raspberry Pi OS: cameras then come through OpenCV (a USB webcam)"
    [python3-lgpio]="the Pi's GPIO library is only in Raspberry Pi OS: no seat buttons or lamps on the header (the touchscreen and keys 1..8 still work)"
)

mode=station
fleet=""
broker_dir=""
pin_file=""
app=1
dry_run=0
source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
args=("$@")

usage() {
    sed -n '2,23s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

die() {
    echo "install.sh: $*" >&2
    exit 1
}

say() {
    printf '\n== %s\n' "$*"
}

# Print a command (quoted as a shell would need it), then run it (unless --dry-run).
run() {
    local word line=""
    for word in "$@"; do
        if [[ $word =~ ^[A-Za-z0-9_./:=,@%+-]+$ ]]; then
            line+=" $word"
        else
            line+=" '${word//\'/\'\\\'\'}'"
        fi
    done
    printf '+%s\n' "$line"
    if [ "$dry_run" = 0 ]; then
        "$@"
    fi
}

# put MODE OWNER GROUP DEST: write standard input to DEST (atomically, with its mode and
# owner); --dry-run prints what would be written.
put() {
    local mode=$1 owner=$2 group=$3 dest=$4 tmp
    printf '+ write %s (mode %s, %s:%s)\n' "$dest" "$mode" "$owner" "$group"
    if [ "$dry_run" = 1 ]; then
        sed 's/^/|   /'
        return
    fi
    tmp=$(mktemp "$dest.XXXXXX")
    cat >"$tmp"
    chown "$owner:$group" "$tmp"
    chmod "$mode" "$tmp"
    mv -f "$tmp" "$dest"
}

need_arg() {
    if [ $# -lt 2 ] || [ -z "$2" ] || [[ $2 == --* ]]; then
        die "$1 needs a value (see --help)"
    fi
}

while [ $# -gt 0 ]; do
    case $1 in
        --station) mode=station ;;
        --coordinator) mode=coordinator ;;
        --fleet) need_arg "$@"; fleet=$2; shift ;;
        --broker-dir) need_arg "$@"; broker_dir=$2; shift ;;
        --pin-file) need_arg "$@"; pin_file=$2; shift ;;
        --source) need_arg "$@"; source_dir=$2; shift ;;
        --no-app) app=0 ;;
        --dry-run) dry_run=1 ;;
        -h | --help) usage; exit 0 ;;
        *) die "unknown option $1 (see --help)" ;;
    esac
    shift
done

# -- checks first: refuse before changing anything ---------------------------------------

if [ "$dry_run" = 0 ] && [ "$(id -u)" != 0 ]; then
    die "this changes the system, so it must run as root: sudo $0 ${args[*]}  (or --dry-run to see the plan)"
fi
if [ "$mode" = station ]; then
    [ -z "$broker_dir" ] || die "--broker-dir is for the coordinator (add --coordinator)"
    [ -z "$pin_file" ] || die "--pin-file is for the coordinator's dashboard (add --coordinator)"
    [ "$app" = 1 ] || die "--no-app is for a coordinator (a station is its app)"
fi
if [ ! -f "$source_dir/pyproject.toml" ] || [ ! -d "$source_dir/tabletop" ]; then
    die "$source_dir is not the tabletop project (no pyproject.toml); pass --source DIR"
fi
[ -f "$source_dir/systemd/tabletop.service" ] || die "$source_dir/systemd/tabletop.service is missing"

setting_of() {  # KEY FILE: the KEY = "..." of a fleet file (device, host)
    sed -n "s/^[[:space:]]*$1[[:space:]]*=[[:space:]]*\"\([^\"]*\)\".*/\1/p" "$2" | head -n 1
}
if [ -n "$fleet" ]; then
    [ -r "$fleet" ] || die "cannot read the fleet file $fleet"
    device=$(setting_of device "$fleet")
    [ -n "$device" ] || die "$fleet is not a fleet file (no device = \"...\" line)"
    [ "$device" != teacher ] \
        || die "$fleet is the teacher's console file: on the coordinator it comes with --broker-dir"
fi
if [ -n "$broker_dir" ]; then
    for f in mosquitto.conf passwd acl teacher.toml; do
        [ -r "$broker_dir/$f" ] || die "$broker_dir/$f is missing: make the folder with \`tabletop fleet setup --out DIR\`"
    done
    if grep -q '^keyfile ' "$broker_dir/mosquitto.conf"; then
        for f in ca.crt server.crt server.key; do
            [ -r "$broker_dir/$f" ] || die "$broker_dir/$f is missing: the broker's TLS needs it (run \`tabletop fleet setup\` again)"
        done
    fi
    [ "$(setting_of device "$broker_dir/teacher.toml")" = teacher ] \
        || die "$broker_dir/teacher.toml is not the teacher's fleet file"
fi
if [ -n "$pin_file" ]; then
    [ -r "$pin_file" ] || die "cannot read the PIN file $pin_file"
    # The dashboard reads the file's first line: 4 to 64 characters, no spaces.
    if ! head -n 1 "$pin_file" | grep -Eq '^[^[:space:]]{4,64}$'; then
        die "$pin_file must hold one PIN of 4 to 64 characters without spaces on its first line"
    fi
fi
if [ "$mode" = coordinator ] && [ -z "$broker_dir" ] && [ ! -e "$ETC/teacher.toml" ]; then
    die "the coordinator needs --broker-dir DIR (from \`tabletop fleet setup --out DIR\`) the first time"
fi
if [ -r /etc/os-release ]; then
    # shellcheck disable=SC1091  # the system's own file
    codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
    [ "$codename" = bookworm ] || echo "install.sh: written for Raspberry Pi OS Bookworm, this is '${codename:-unknown}': going on" >&2
fi

[ "$dry_run" = 1 ] && echo "Dry run: printing the commands, changing nothing."
echo "Installing the tabletop $mode from $source_dir into $PREFIX (data in $DATA)."

# -- packages ---------------------------------------------------------------------------

# Can apt install this package here? (It knows a version of it: "Candidate".)
available() {
    local candidate
    candidate=$(apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: *//p' | head -n 1)
    [ -n "$candidate" ] && [ "$candidate" != "(none)" ]
}

say "Debian packages"
wanted=("${APT_PACKAGES[@]}")
[ "$mode" = coordinator ] && wanted+=(mosquitto)
run apt-get update
[ "$dry_run" = 1 ] && echo "(dry run: the package lists were not updated, so what is found here may be old)"
packages=()
skipped=()
for choice in "${wanted[@]}"; do
    found=""
    IFS='|' read -r -a names <<<"$choice"
    for name in "${names[@]}"; do
        if available "$name"; then found=$name; break; fi
    done
    if [ -n "$found" ]; then
        packages+=("$found")
    elif [ -n "${WITHOUT[$choice]:-}" ]; then
        skipped+=("$choice")
        echo "skipped $choice: ${WITHOUT[$choice]}"
    else
        die "the package ${choice//|/ or } is not in this system's package sources (apt-cache policy ${names[0]}): add the Debian sources that have it, then run this again"
    fi
done
run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${packages[@]}"
# The [pi] extra (picamera2, lgpio from PyPI) builds only beside Raspberry Pi OS's own
# camera and GPIO libraries.
extra="[pi]"
if [ ${#skipped[@]} -gt 0 ]; then
    extra=""
    echo "without ${skipped[*]}: the project is installed without its [pi] extra (picamera2, lgpio)"
fi

# -- the account ------------------------------------------------------------------------

say "The $ACCOUNT user (no login; owns $DATA)"
if id -u "$ACCOUNT" >/dev/null 2>&1; then
    echo "user $ACCOUNT exists"
else
    run useradd --system --user-group --home-dir "$DATA" --no-create-home \
        --shell /usr/sbin/nologin --comment "Tabletop math games" "$ACCOUNT"
fi
groups=()
for g in "${GROUPS_WANTED[@]}"; do
    if getent group "$g" >/dev/null; then groups+=("$g"); else echo "no group $g here: skipped"; fi
done
if [ ${#groups[@]} -gt 0 ]; then
    run usermod --append --groups "$(IFS=,; echo "${groups[*]}")" "$ACCOUNT"
fi

# -- the project and its venv -----------------------------------------------------------

say "The project in $PREFIX"
if [ -d "$PREFIX" ] && [ "$(cd "$source_dir" && pwd -P)" = "$(cd "$PREFIX" && pwd -P)" ]; then
    echo "$source_dir is $PREFIX: nothing to copy"
else
    run install -d -m 0755 -o root -g root "$PREFIX"
    run rsync -a --delete --chown=root:root \
        --exclude=/.venv --exclude=/.git --exclude='__pycache__' --exclude='*.egg-info' \
        --exclude=/.pytest_cache --exclude=/.mypy_cache --exclude=/.ruff_cache \
        --exclude=/.hypothesis --exclude=/build \
        "$source_dir/" "$PREFIX/"
fi
venv=$PREFIX/.venv
if [ -f "$venv/pyvenv.cfg" ] && ! grep -q '^include-system-site-packages = true' "$venv/pyvenv.cfg"; then
    echo "$venv does not see the system's packages (picamera2): making it again"
    run rm -rf "$venv"
fi
if [ ! -x "$venv/bin/python" ] || [ "$dry_run" = 1 ]; then
    # --system-site-packages: picamera2 and libcamera come from apt, not from PyPI.
    run python3 -m venv --system-site-packages "$venv"
fi
# Editable (-e): a `git pull` in $PREFIX is live at the next restart (the data files are
# package data, so a plain wheel install works too).
run "$venv/bin/pip" install --quiet --editable "${PREFIX}${extra}"

# -- data and settings ------------------------------------------------------------------

say "Data in $DATA, settings in $ETC"
run install -d -m 0750 -o "$ACCOUNT" -g "$ACCOUNT" "$DATA"
run install -d -m 0750 -o root -g "$ACCOUNT" "$ETC"
if [ -n "$fleet" ]; then
    run install -m 0640 -o root -g "$ACCOUNT" "$fleet" "$ETC/fleet.toml"
fi

# -- the coordinator: broker and dashboard ----------------------------------------------

if [ "$mode" = coordinator ]; then
    say "The classroom's MQTT broker (mosquitto)"
    if [ -n "$broker_dir" ]; then
        run install -d -m 0750 -o root -g mosquitto "$ETC/mosquitto"
        run install -m 0640 -o root -g mosquitto "$broker_dir/passwd" "$ETC/mosquitto/passwd"
        run install -m 0640 -o root -g mosquitto "$broker_dir/acl" "$ETC/mosquitto/acl"
        if [ -e "$broker_dir/server.key" ]; then  # TLS (a setup without --no-tls)
            run install -m 0644 -o root -g root "$broker_dir/ca.crt" "$ETC/mosquitto/ca.crt"
            run install -m 0644 -o root -g root "$broker_dir/server.crt" "$ETC/mosquitto/server.crt"
            run install -m 0640 -o root -g mosquitto "$broker_dir/server.key" "$ETC/mosquitto/server.key"
        fi
        # The setup's files name its own folder; here they live in $ETC/mosquitto. Debian's
        # mosquitto.conf already keeps retained messages (persistence in /var/lib/mosquitto)
        # and runs as the mosquitto user, and mosquitto refuses those settings twice.
        sed -e "s#^password_file .*#password_file $ETC/mosquitto/passwd#" \
            -e "s#^acl_file .*#acl_file $ETC/mosquitto/acl#" \
            -e "s#^cafile .*#cafile $ETC/mosquitto/ca.crt#" \
            -e "s#^certfile .*#certfile $ETC/mosquitto/server.crt#" \
            -e "s#^keyfile .*#keyfile $ETC/mosquitto/server.key#" \
            -e '/^persistence /d' -e '/^persistence_location /d' -e '/^user /d' \
            "$broker_dir/mosquitto.conf" \
            | put 0644 root root /etc/mosquitto/conf.d/tabletop.conf
        run install -m 0640 -o root -g "$ACCOUNT" "$broker_dir/teacher.toml" "$ETC/teacher.toml"
        # The dashboard serves HTTPS on 8443 with the broker's certificate (made for its
        # name), and plain HTTP on 8080 sends browsers there.
        web="--port 8080"
        if [ -e "$broker_dir/server.key" ]; then
            run install -m 0644 -o root -g root "$broker_dir/server.crt" "$ETC/teacher.crt"
            run install -m 0640 -o root -g "$ACCOUNT" "$broker_dir/server.key" "$ETC/teacher.key"
            web="--port 8443 --redirect-port 8080 --tls-cert $ETC/teacher.crt --tls-key $ETC/teacher.key"
        fi
        echo "TABLETOP_TEACHER_WEB=$web" | put 0644 root root "$ETC/teacher.env"
    else
        echo "no --broker-dir: keeping the installed broker files and $ETC/teacher.toml"
        web=$(sed -n 's/^TABLETOP_TEACHER_WEB=//p' "$ETC/teacher.env" 2>/dev/null || true)
    fi
    run systemctl enable mosquitto.service
    run systemctl restart mosquitto.service

    say "The teacher's PIN ($ETC/teacher.pin)"
    if [ -n "$pin_file" ]; then
        head -n 1 "$pin_file" | put 0640 root "$ACCOUNT" "$ETC/teacher.pin"
    elif [ -e "$ETC/teacher.pin" ]; then
        echo "keeping the PIN in $ETC/teacher.pin"
    elif [ "$dry_run" = 1 ]; then  # a PIN made now would not be the one the real run makes
        echo "(a random 6-digit PIN)" | put 0640 root "$ACCOUNT" "$ETC/teacher.pin"
        echo "A random 6-digit PIN would be made (change it: --pin-file FILE, or edit $ETC/teacher.pin)"
    else
        pin=$(printf '%06d' "$(shuf --random-source=/dev/urandom -i 0-999999 -n 1)")
        printf '%s\n' "$pin" | put 0640 root "$ACCOUNT" "$ETC/teacher.pin"
        echo "The teacher's PIN is $pin (change it: --pin-file FILE, or edit $ETC/teacher.pin)"
    fi
fi

# -- USB sticks -------------------------------------------------------------------------

say "USB sticks mounted for the app (/media/tabletop/...)"
run install -m 0644 "$PREFIX/systemd/99-tabletop-usb.rules" /etc/udev/rules.d/99-tabletop-usb.rules
run udevadm control --reload

# -- the units --------------------------------------------------------------------------

say "systemd units"
units=()
[ "$app" = 1 ] && units+=(tabletop.service)
[ "$mode" = coordinator ] && units+=(tabletop-teacher.service)
for unit in "${units[@]}"; do
    run install -m 0644 "$PREFIX/systemd/$unit" "$UNITS/$unit"
done
run systemctl daemon-reload
for unit in "${units[@]}"; do
    run systemctl enable "$unit"
done
if [ "$mode" = coordinator ]; then
    run systemctl restart tabletop-teacher.service
fi
if [ "$app" = 1 ]; then
    # A desktop session would hold the screen: boot to the console, where the app runs.
    if [ "$(systemctl get-default 2>/dev/null || true)" = graphical.target ]; then
        run systemctl set-default multi-user.target
    fi
    # Restart a running app (an update); a first install starts at the next boot, so a
    # console on tty1 is not taken from whoever runs this.
    run systemctl try-restart tabletop.service
fi

say "Done"
if [ ${#skipped[@]} -gt 0 ]; then
    echo "Skipped (not in this system's packages): ${skipped[*]}; see above for what that means."
fi
if [ "$app" = 1 ]; then
    echo "The app starts on the screen at the next boot (sudo reboot), or now: sudo systemctl start tabletop"
fi
if [ "$mode" = coordinator ]; then
    # The broker's host (the name its certificate, which the dashboard serves, was made
    # for) and the dashboard's port.
    teacher_toml=${broker_dir:-$ETC}/teacher.toml
    host=$(setting_of host "$teacher_toml" 2>/dev/null || true)
    port=$(sed -n 's/.*--port \([0-9]*\).*/\1/p' <<<"$web")
    scheme=http
    [[ $web == *--tls-cert* ]] && scheme=https
    echo "The teacher's dashboard: $scheme://${host:-"<the host in $teacher_toml>"}:${port:-8080} (PIN in $ETC/teacher.pin)"
fi
[ "$app" = 1 ] && echo "The app's log: journalctl -u tabletop -b"
[ "$mode" = coordinator ] && echo "The dashboard's and broker's logs: journalctl -u tabletop-teacher -u mosquitto -b"
exit 0
