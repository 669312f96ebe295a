# Helpers the scripts share; source it after setting $name, the script's
# name for messages.

# step announces a stage of a long operation, with the minutes and seconds
# since the outermost script started (scripts/test's, when it runs
# scripts/install and scripts/image), so that a log says what each stage
# cost.
if [ -z "${TENSORNB_STEPS_START:-}" ]; then
	TENSORNB_STEPS_START=$(date +%s)
	export TENSORNB_STEPS_START
fi
step() {
	local t=$(($(date +%s) - TENSORNB_STEPS_START))
	printf '\n== [%d:%02d] %s\n' $((t / 60)) $((t % 60)) "$*"
}

# die prints what went wrong (its first argument), then what to do (its
# second, if any), and exits.
die() {
	printf '%s: %s\n' "$name" "$1" >&2
	if [ $# -gt 1 ]; then
		printf '%s: %s\n' "$name" "$2" >&2
	fi
	exit 1
}

# as_root runs a command as root, through sudo when needed.
as_root() {
	if [ "$(id -u)" -eq 0 ]; then
		"$@"
	elif command -v sudo >/dev/null; then
		sudo "$@"
	else
		die "installing needs root: run as root, or install by hand: $*"
	fi
}

# apt_install installs Debian's packages with apt-get, updating the
# package lists first only when the install fails without it, and stops
# with what to do when it fails after that too.
apt_install() {
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" ||
		{ as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q &&
			as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@"; } ||
		die "apt-get install $* failed (see above)" "install them by hand and run again"
}

# The kernel speaks ZeroMQ through the C libzmq, with cgo (see docs/dependencies.md):
# building it needs a C compiler, pkg-config and libzmq's headers, and
# running it needs libzmq. These are Debian's and Ubuntu's packages for
# them.
libzmq_packages=(gcc libc6-dev pkg-config libzmq3-dev)

# have_libzmq reports whether the kernel can be built here.
have_libzmq() {
	[ "$(go env CGO_ENABLED)" = 1 ] && command -v pkg-config >/dev/null && pkg-config --exists libzmq
}

# need_libzmq stops with what to do when the kernel cannot be built here.
need_libzmq() {
	[ "$(go env CGO_ENABLED)" = 1 ] ||
		die "cgo is off (go env CGO_ENABLED is not 1): the kernel needs it for libzmq" "unset CGO_ENABLED, make sure a C compiler is installed, and run again"
	have_libzmq ||
		die "libzmq's development files are missing (pkg-config --exists libzmq fails)" "apt-get install ${libzmq_packages[*]} (or your system's libzmq with its headers), then run again"
}

# install_libzmq installs libzmq_packages with apt-get unless the kernel
# can already be built.
install_libzmq() {
	have_libzmq && return
	echo "installing Debian's ${libzmq_packages[*]}..."
	apt_install "${libzmq_packages[@]}"
	need_libzmq
}

# The image test's tools: podman and what it runs containers with,
# mmdebstrap for the stand-in bases, Debian's JupyterHub, and nbformat for
# the notebooks' check.
image_packages=(podman runc slirp4netns uidmap mmdebstrap jupyterhub python3-nbformat)

# install_image_tools installs image_packages with apt-get unless they are
# all there.
install_image_tools() {
	if command -v podman >/dev/null && command -v runc >/dev/null && command -v slirp4netns >/dev/null &&
		command -v mmdebstrap >/dev/null && command -v jupyterhub >/dev/null && /usr/bin/python3 -c 'import nbformat' 2>/dev/null; then
		return
	fi
	echo "installing Debian's ${image_packages[*]} (a minute or two)..."
	apt_install "${image_packages[@]}"
}

# build_jupyterlab builds tensornb's JupyterLab (scripts/run serves it; the
# image test's stand-in base carries it) into
# kernel/internal/browser/lite/web/dist-jupyterlab with npm ci and npm run
# build, unless it is built already and newer than its scripts, schemas
# and lock.
build_jupyterlab() {
	local web=kernel/internal/browser/lite/web
	local built=$web/dist-jupyterlab/jupyterlab.js
	if [ -f "$built" ] && [ -z "$(find "$web" "$web/schema" -maxdepth 1 \( -name '*.js' -o -name '*.mjs' -o -name '*.json' \) -newer "$built")" ]; then
		echo "built already: $web/dist-jupyterlab"
		return
	fi
	npm ci --prefix "$web" --no-audit --no-fund ||
		die "npm ci --prefix $web failed (see above)" "check the npm registry can be reached, then run again"
	npm run --prefix "$web" --silent build ||
		die "esbuild could not bundle tensornb's JupyterLab (see above)" "run npm run --prefix $web build to see the error"
}
