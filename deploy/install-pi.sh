#!/bin/sh
# Install tocktable as a service on Raspberry Pi OS Bookworm (run from the source folder with sudo).
set -eu
apt-get install -y python3-venv python3-picamera2 python3-lgpio
id tocktable >/dev/null 2>&1 || useradd --system --home-dir /var/lib/tocktable --shell /usr/sbin/nologin tocktable
usermod -a -G gpio,video tocktable
mkdir -p /opt/tocktable /etc/tocktable
cp -r . /opt/tocktable/src
python3 -m venv --system-site-packages /opt/tocktable/.venv
/opt/tocktable/.venv/bin/pip install -c /opt/tocktable/src/deploy/pi-constraints.txt "/opt/tocktable/src[pi]"
[ -f /etc/tocktable/tocktable.toml ] || /opt/tocktable/.venv/bin/tocktable config --example > /etc/tocktable/tocktable.toml
cp /opt/tocktable/src/deploy/tocktable.service /etc/systemd/system/tocktable.service
systemctl daemon-reload
systemctl enable --now tocktable
echo "tocktable is running: journalctl -u tocktable -f shows the dashboard URL and the admin PIN"
