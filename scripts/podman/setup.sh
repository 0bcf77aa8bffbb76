#!/usr/bin/env bash
# Sets up the container engine the node agent and its tests use: Podman from
# Debian's packages serving the Docker Engine API on a unix socket, plus two
# local images built from root file systems (no image registry is reachable).
# Idempotent: installs only what is missing, starts the service only when it
# does not answer, builds an image only when it is absent (the workspace
# image's root file system is cached as a tarball).
#
#   SPARROW_PODMAN_SOCKET  socket path     (default /run/sparrow-podman/podman.sock)
#   SPARROW_IMAGE_CACHE    tarball cache   (default /var/cache/sparrow/images)
#
# Prints the DOCKER_HOST to use at the end. Needs root (apt-get, rootful Podman).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
socket=${SPARROW_PODMAN_SOCKET:-/run/sparrow-podman/podman.sock}
cache=${SPARROW_IMAGE_CACHE:-/var/cache/sparrow/images}
busybox_image=localhost/sparrow/busybox:v1
workspace_image=localhost/sparrow/workspace:v2
export CONTAINERS_CONF="$here/containers.conf"

log() { printf 'podman-setup: %s\n' "$*"; }
fail() { printf 'podman-setup: error: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || fail "run as root (apt-get and rootful Podman need it)"

# Rootful Podman with CNI bridge networking: no uidmap, slirp4netns or
# fuse-overlayfs (rootless only); git makes the tests' bare repositories.
packages=(podman runc conmon catatonit containernetworking-plugins iptables
  busybox-static debootstrap curl ca-certificates git)

install_missing() {
  local missing=()
  for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q '^install ok installed$'; then
      missing+=("$package")
    fi
  done
  [ ${#missing[@]} -eq 0 ] && return
  log "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >/dev/null
  apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
}

engine_answers() { curl -fsS --max-time 5 --unix-socket "$socket" http://engine/_ping >/dev/null 2>&1; }

# The service keeps its own copy of containers.conf and runs from /, so it
# outlives the checkout that started it (conmon fails in a deleted working
# directory). Its pid is kept beside the socket; a service this script started
# with another configuration, or whose working directory is gone, is replaced.
state=$(dirname "$socket")
service_conf="$state/containers.conf"
pid_file="$state/service.pid"

service_is_current() {
  local pid
  pid=$(cat "$pid_file" 2>/dev/null || true)
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 1
  case "$(readlink "/proc/$pid/cwd")" in *" (deleted)") return 1 ;; esac
  cmp -s "$here/containers.conf" "$service_conf"
}

stop_our_service() {
  local pid
  pid=$(cat "$pid_file" 2>/dev/null || true)
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    log "restarting the service (pid $pid): configuration changed or working directory gone"
    kill "$pid"
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
  rm -f "$pid_file"
}

start_service() {
  if engine_answers; then
    if service_is_current; then
      log "engine already answers at $socket"
      return
    fi
    if [ ! -f "$pid_file" ]; then
      log "engine answers at $socket (not started by this script; used as it is)"
      return
    fi
    stop_our_service
  fi
  mkdir -p "$state"
  rm -f "$socket"
  cp "$here/containers.conf" "$service_conf"
  local service_log=/var/log/sparrow-podman.log
  log "starting podman system service on $socket (log: $service_log)"
  (
    cd /
    CONTAINERS_CONF="$service_conf" setsid nohup podman system service --time=0 "unix://$socket" \
      >>"$service_log" 2>&1 </dev/null &
    echo $! >"$pid_file"
  )
  for _ in $(seq 1 60); do
    engine_answers && return
    sleep 0.5
  done
  tail -n 20 "$service_log" >&2 || true
  fail "the engine did not answer at $socket"
}

# A root file system of busybox-static alone: about 2 MB, for fast tests.
build_busybox() {
  podman image exists "$busybox_image" && return
  log "building $busybox_image"
  local work
  work=$(mktemp -d)
  mkdir -p "$work/root/bin" "$work/root/etc" "$work/root/tmp" "$work/root/root"
  chmod 1777 "$work/root/tmp"
  cp /bin/busybox "$work/root/bin/busybox"
  for applet in $(/bin/busybox --list); do
    [ "$applet" = busybox ] || ln -s busybox "$work/root/bin/$applet"
  done
  printf 'root:x:0:0:root:/root:/bin/sh\n' >"$work/root/etc/passwd"
  printf 'root:x:0:\n' >"$work/root/etc/group"
  tar -C "$work/root" -cf "$work/rootfs.tar" .
  podman import --quiet --change 'ENV PATH=/bin' --change 'CMD ["/bin/sh"]' \
    "$work/rootfs.tar" "$busybox_image" >/dev/null
  rm -rf "$work"
}

# The first `URIs:` (deb822) or `deb` (one-line) source for Debian itself, so
# debootstrap uses the mirror apt is already set up with.
debian_mirror() {
  local uri
  uri=$(grep -hsE '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' |
    grep -E '/debian/?$' | head -n 1 || true)
  if [ -z "$uri" ]; then
    uri=$(grep -hsE '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list |
      awk '{print $2}' | grep -E '/debian/?$' | head -n 1 || true)
  fi
  [ -n "$uri" ] || fail "no Debian mirror found in /etc/apt/sources.list*"
  printf '%s\n' "$uri"
}

# Debian minbase with git, bash, CA certificates and tmux (which holds terminal
# sessions so they outlive the agent): the default workspace. Bump the tag when
# the package list changes so caches and CI build it again.
build_workspace() {
  podman image exists "$workspace_image" && return
  local tarball="$cache/workspace-v2.tar"
  if [ ! -s "$tarball" ]; then
    local suite work
    suite=$(. /etc/os-release && printf '%s' "$VERSION_CODENAME")
    work=$(mktemp -d)
    log "debootstrap $suite (minbase + git, bash) into $work; cached as $tarball"
    debootstrap --variant=minbase --include=git,bash,ca-certificates,procps,less,tmux \
      "$suite" "$work/root" "$(debian_mirror)" >"$work/debootstrap.log" 2>&1 ||
      { tail -n 30 "$work/debootstrap.log" >&2; fail "debootstrap failed"; }
    rm -rf "$work/root/var/cache/apt/archives/"*.deb "$work/root/var/lib/apt/lists/"* \
      "$work/root/usr/share/doc" "$work/root/usr/share/man" "$work/root/usr/share/locale"
    mkdir -p "$cache"
    tar -C "$work/root" -cf "$tarball.partial" . && mv "$tarball.partial" "$tarball"
    rm -rf "$work"
  fi
  log "importing $workspace_image from $tarball"
  podman import --quiet \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV LANG=C.UTF-8' --change 'WORKDIR /root' --change 'CMD ["/bin/bash"]' \
    "$tarball" "$workspace_image" >/dev/null
}

install_missing
start_service
build_busybox
build_workspace
log "ready: DOCKER_HOST=unix://$socket (images $busybox_image, $workspace_image)"
