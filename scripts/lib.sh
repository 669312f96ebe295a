# Helpers the scripts share; source it after setting $name, the script's
# name for messages.

# step announces a stage of a long operation.
step() { printf '\n== %s\n' "$*"; }

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
