#!/bin/sh
# Install the Debian packages the device needs, or name them:
#   libzbar0       pyzbar's QR decoder
#   poppler-utils  pdftoppm, to check printed PDFs in the tests
#   mosquitto      the classroom fleet's MQTT broker (the tests start their own on loopback)
#   chromium       the teacher dashboard's browser tests (headless, driven by Playwright)
#   espeak-ng      spoken prompts (the app is silent without it)
# Root installs them with apt-get; anyone else gets one line saying what to run.
need=""
ldconfig -p 2>/dev/null | grep -q 'libzbar\.so\.0' || need="$need libzbar0"
command -v pdftoppm >/dev/null 2>&1 || need="$need poppler-utils"   # PDF checks in the tests
command -v mosquitto >/dev/null 2>&1 || [ -x /usr/sbin/mosquitto ] || need="$need mosquitto"
command -v chromium >/dev/null 2>&1 || need="$need chromium"
command -v espeak-ng >/dev/null 2>&1 || need="$need espeak-ng"     # spoken prompts
command -v shellcheck >/dev/null 2>&1 || need="$need shellcheck"   # the install scripts' check in the tests
[ -z "$need" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing system packages:$need"
    # shellcheck disable=SC2086  # $need is a list of package names, split on purpose
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need) >/dev/null \
        || { echo "apt-get could not install$need" >&2; exit 1; }
    # The Debian package starts a broker on port 1883 where systemd runs; the fleet's
    # own configuration replaces it (systemd/install.sh), the tests start their own.
else
    echo "Missing system packages; run: sudo apt-get install -y$need"
fi
