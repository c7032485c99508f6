#!/usr/bin/env bash
# The root file system of the judge's Containerfile, built without a container engine (issue 44, item 9): where
# none runs (CI, the cgroup v2 lane), debootstrap makes Debian 12's minimal base, as debian:12-slim is made, and
# the Containerfile's own COPY, ENV, WORKDIR and RUN lines are carried out in it, in order, under chroot. FROM must
# name debian:12-slim; ENTRYPOINT and CMD are written to DIR/.image-command for the one who starts it.
#
# Usage (as root, on a Debian/Ubuntu host that reaches Debian's mirror and PyPI): scripts/image-rootfs.sh DIR
# Makes DIR afresh (~1.3 GB; about 5 minutes on a fast link). Exits non-zero where a step fails.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
DIR=${1:?usage: image-rootfs.sh DIR}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
[[ $(id -u) -eq 0 ]] || { echo "image-rootfs: run as root (debootstrap, chroot)" >&2; exit 2; }
command -v debootstrap >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; }

mounted=()
cleanup() { for (( i=${#mounted[@]}-1; i>=0; i-- )); do umount -l "${mounted[i]}" 2>/dev/null || true; done; }
trap cleanup EXIT

# One instruction per line: continuations joined, comments and blank lines dropped.
instructions=$(sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$REPO/Containerfile" | grep -v -E '^[[:space:]]*(#|$)')
[[ $(head -1 <<< "$instructions") == "FROM debian:12-slim" ]] || { echo "image-rootfs: Containerfile must start FROM debian:12-slim" >&2; exit 2; }

rm -rf "$DIR"; mkdir -p "$DIR"
debootstrap --variant=minbase bookworm "$DIR" "$MIRROR" > "$DIR.debootstrap.log" 2>&1 \
    || { tail -5 "$DIR.debootstrap.log" >&2; exit 1; }
cp /etc/resolv.conf "$DIR/etc/resolv.conf"  # the build's network, as an engine's build container has it
for fs in proc sys dev; do mount --rbind "/$fs" "$DIR/$fs"; mounted+=("$DIR/$fs"); done
# This host's trusted certificates for the build's pip (a network that inspects TLS has its own authority).
build_env=(PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root)
if [[ -n "${PIP_CERT:-}" && -f "$PIP_CERT" ]]; then
    cp "$PIP_CERT" "$DIR/.build-ca.crt"; build_env+=(PIP_CERT=/.build-ca.crt)
fi
workdir=/
while read -r verb rest; do
    case "$verb" in
        FROM) ;;
        RUN) echo "image-rootfs: RUN ${rest:0:100}" >&2
             chroot "$DIR" /usr/bin/env -i "${build_env[@]}" /bin/sh -c "cd $workdir && $rest" ;;
        COPY) read -r -a words <<< "$rest"; target=${words[-1]}; unset 'words[-1]'
              mkdir -p "$DIR$(dirname "$target")"; [[ $target == */ ]] && mkdir -p "$DIR$target"
              for source in "${words[@]}"; do cp -a "$REPO/$source" "$DIR$target"; done
              find "$DIR$target" -name __pycache__ -prune -exec rm -rf {} + ;;
        ENV) build_env+=("$rest") ;;
        WORKDIR) workdir=$rest; mkdir -p "$DIR$workdir" ;;
        ENTRYPOINT|CMD) echo "$verb $rest" >> "$DIR/.image-command" ;;
        EXPOSE|VOLUME|LABEL) ;;
        *) echo "image-rootfs: the Containerfile's $verb is not supported here" >&2; exit 2 ;;
    esac
done <<< "$(tail -n +2 <<< "$instructions")"
printf '%s\n' "${build_env[@]}" | grep -v '^PIP_CERT=' > "$DIR/.image-env"
echo "WORKDIR $workdir" >> "$DIR/.image-command"
rm -f "$DIR/.build-ca.crt"
cleanup; mounted=()
echo "image-rootfs: $DIR ($(du -sh "$DIR" | cut -f1))" >&2
