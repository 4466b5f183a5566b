#!/bin/sh
# Install the Debian packages the device needs (libzbar0 for pyzbar; poppler-utils to
# check printed PDFs), or name them.
# Root installs them with apt-get; anyone else gets one line saying what to run.
need=""
ldconfig -p 2>/dev/null | grep -q 'libzbar\.so\.0' || need="$need libzbar0"
command -v pdftoppm >/dev/null 2>&1 || need="$need poppler-utils"   # PDF checks in the tests
[ -z "$need" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing system packages:$need"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need) >/dev/null \
        || { echo "apt-get could not install$need" >&2; exit 1; }
else
    echo "Missing system packages; run: sudo apt-get install -y$need"
fi
