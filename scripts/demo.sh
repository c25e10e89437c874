#!/usr/bin/env bash
# npm run demo: sets everything up on a fresh machine (Debian packages, npm packages, the build),
# starts a private containerd under .lab/demo and shows syncpod's main job against it.
# --keep leaves it running (and prints how to use it); --stop takes it down.
set -euo pipefail
cd "$(dirname "$0")/.."
# --stop needs nothing installed or built: it takes down what a --keep run left.
if [ "${1:-}" = --stop ]; then exec node --import tsx scripts/demo.ts "$@"; fi
need=()
command -v containerd >/dev/null || need+=(containerd)
command -v runc >/dev/null || need+=(runc)
[ -x /usr/lib/cni/bridge ] || need+=(containernetworking-plugins)
[ -x /bin/busybox ] || need+=(busybox-static)
command -v ip >/dev/null || need+=(iproute2)
command -v nsenter >/dev/null || need+=(util-linux)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then echo "demo: needs root to install ${need[*]} and to run containerd" >&2; exit 1; fi
  echo "demo: installing ${need[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need[@]}" >/dev/null
fi
[ -d node_modules/@grpc/grpc-js ] || npm ci --no-audit --no-fund
npm run build --silent >/dev/null
exec node --import tsx scripts/demo.ts "$@"
