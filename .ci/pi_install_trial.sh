#!/usr/bin/env bash
# The install steps of docs/pi.md, as far as a computer that is not a Raspberry Pi can run them:
# on Debian 12 Bookworm (any architecture) with Debian's own Python 3.11, in a scratch folder.
#
#   bash .ci/pi_install_trial.sh            # needs /usr/bin/python3 3.11, python3-venv and PyPI
#
# 1. a venv with --system-site-packages, then pip install --only-binary=:all: with the Pi
#    constraints, editable, from a copy of this checkout (PyPI only: local pip settings ignored);
# 2. the card reader loads its models; numpy and OpenCV are the constrained versions;
# 3. tocktable config --example, checked; tocktable serve --mock-pins without a camera answers
#    /api/state and stops on SIGTERM;
# 4. systemd-analyze verify accepts deploy/tocktable.service (its ExecStart pointed at the venv).
# What it cannot do (no Pi here): the camera, the GPIO pins, picamera2 from apt, systemd at boot.
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
python=/usr/bin/python3
"$python" -c 'import sys; assert sys.version_info[:2] == (3, 11), sys.version' \
  || { echo "needs Debian Bookworm's Python 3.11 at $python" >&2; exit 2; }

work="$(mktemp -d /tmp/pi-trial.XXXXXX)"
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
echo "trial in $work"

# The checkout as committed (git archive), as a clone on the Pi would have it.
mkdir "$work/src" && git -C "$src" archive HEAD | tar -x -C "$work/src"

# 1. The venv and the install (docs/pi.md, "Install tocktable").
"$python" -m venv --system-site-packages "$work/venv"
export PIP_CONFIG_FILE=/dev/null PIP_DISABLE_PIP_VERSION_CHECK=1
unset PIP_FIND_LINKS PIP_INDEX_URL PIP_EXTRA_INDEX_URL
"$work/venv/bin/pip" install --quiet --isolated --only-binary=:all: \
  -c "$work/src/deploy/pi-constraints.txt" -e "$work/src[pi]"
echo "installed with $("$work/venv/bin/pip" --version | cut -d' ' -f1-2), wheels only"

# 2. What the service needs at run time.
(cd "$work" && "$work/venv/bin/python" - <<'EOF'
import cv2, numpy, lgpio, onnxruntime, PIL  # noqa: F401
import vision
assert numpy.__version__.startswith("1."), numpy.__version__
vision.CardReader.default()
print(f"numpy {numpy.__version__}, OpenCV {cv2.__version__}, onnxruntime {onnxruntime.__version__}: the card reader loads")
EOF
)

# 3. A configuration, checked, and the service for a moment.
tocktable="$work/venv/bin/tocktable"
port="$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
"$tocktable" config --example \
  | sed -e 's/^source = "picamera"/source = "none"/' -e "s/^port = 8000/port = $port/" > "$work/tocktable.toml"
"$tocktable" config "$work/tocktable.toml"
mkdir "$work/data" "$work/run"
(cd "$work/run" && exec "$tocktable" serve --config "$work/tocktable.toml" --data "$work/data" --mock-pins \
  > "$work/serve.log" 2>&1) &
server=$!
for _ in $(seq 60); do
  curl -sf "http://127.0.0.1:$port/api/state" -o "$work/state.json" && break
  sleep 1
done
"$python" -c "import json, sys; s = json.load(open(sys.argv[1])); print(f'serve answers: {len(s[\"seats\"])} seats, phase {s[\"phase\"]}')" "$work/state.json"
grep -E "^(Dashboard|Admin PIN):" "$work/serve.log" | sed -e 's/PIN: .*/PIN: (printed)/'
kill -TERM "$server"
wait "$server" && echo "serve stopped on SIGTERM" || { echo "serve exited $? on SIGTERM" >&2; exit 1; }
server=""

# 4. The unit file, with ExecStart pointed at this venv.
if command -v systemd-analyze >/dev/null; then
  sed "s|/opt/tocktable/.venv/bin/tocktable|$tocktable|" "$work/src/deploy/tocktable.service" > "$work/tocktable.service"
  systemd-analyze verify "$work/tocktable.service" && echo "systemd-analyze verify: the unit is valid"
else
  echo "no systemd-analyze here: the unit was not verified"
fi
echo "pi install trial passed"
