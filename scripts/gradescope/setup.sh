#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's
# image (scripts/gradescope-bundle made the zip it comes in): it installs
# the Go toolchain the bundle names (go-version) from the Go module proxy,
# a C compiler and libzmq with apt-get, builds tensornb from the bundle's
# source (tensornb/), and grades the teacher's own notebook once, which
# must score full marks and which leaves Go's build cache warm for the
# students' runs. Set GOPROXY to use a mirror of the module proxy.
set -euo pipefail
cd "$(dirname "$0")"
say() { printf '\n== setup.sh: %s\n' "$*"; }
die() {
	printf 'setup.sh: %s\n' "$1" >&2
	[ $# -gt 1 ] && printf 'setup.sh: %s\n' "$2" >&2
	exit 1
}

go_version=$(cat go-version)
notebooks=(*.ipynb)
[ "${#notebooks[@]}" -eq 1 ] && [ -f "${notebooks[0]}" ] ||
	die "the bundle must hold one notebook, the teacher's; it holds: ${notebooks[*]}" "make it again with scripts/gradescope-bundle"
notebook=${notebooks[0]}
proxy=${GOPROXY:-https://proxy.golang.org}
proxy=${proxy%%[,|]*}
[ "$proxy" = direct ] || [ "$proxy" = off ] && proxy=https://proxy.golang.org

say "apt-get: a C compiler, pkg-config and libzmq (the kernel's ZeroMQ), curl and unzip"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends ca-certificates curl unzip gcc libc6-dev pkg-config libzmq3-dev ||
	die "apt-get install failed (see above)" "check that the image reaches its package mirror"

arch=$(dpkg --print-architecture)
say "Go $go_version ($arch) from $proxy into /usr/local/go"
if [ "$(/usr/local/go/bin/go env GOVERSION 2>/dev/null)" != "$go_version" ]; then
	zip=$(mktemp)
	curl -fsSL --retry 3 -o "$zip" "$proxy/golang.org/toolchain/@v/v0.0.1-$go_version.linux-$arch.zip" ||
		die "could not download Go's toolchain $go_version for linux-$arch from $proxy" "check that the image reaches the module proxy, or set GOPROXY to a mirror"
	unpacked=$(mktemp -d)
	unzip -q "$zip" -d "$unpacked"
	rm -rf /usr/local/go
	mv "$unpacked/golang.org/toolchain@v0.0.1-$go_version.linux-$arch" /usr/local/go
	rm -rf "$zip" "$unpacked"
	# A module's zip keeps no file modes: the go command and its tools
	# are made executable again, as the go command does when it unpacks
	# a toolchain.
	chmod +x /usr/local/go/bin/* /usr/local/go/pkg/tool/*/*
fi
export PATH=/usr/local/go/bin:$PATH
go version

say "building tensornb from the bundle's source"
(cd tensornb && go build -o /usr/local/bin/tensornb ./kernel/cmd/tensornb) ||
	die "go build failed (see above)" "check that the image reaches the module proxy, or set GOPROXY to a mirror"

say "grading $notebook against itself: the teacher's answers must score full marks"
feedback=$(mktemp -d)
tensornb grade -image none -module "$PWD/tensornb" -feedback "$feedback" -classroom "$notebook" "$notebook" ||
	die "the teacher's notebook does not score full marks (the tests above say which failed)" "fix the notebook's answers or tests and make the bundle again"
rm -rf "$feedback"
