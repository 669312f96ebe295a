#!/bin/bash
# The stand-in base's start.sh (see Containerfile): the image's entrypoint
# runs its command through it, after tini. It runs the command as jovyan:
# as is when the container already runs as a user other than root (as
# Binder and JupyterHub start it), and with root's rights dropped first
# when it was started as root. It keeps none of docker-stacks' options
# for changing the user, its uid or its home at start.
set -e
if [ $# -eq 0 ]; then
	echo "start.sh: no command to run" >&2
	exit 2
fi
if [ "$(id -u)" = 0 ]; then
	echo "start.sh: started as root; running $1 as ${NB_USER} (uid ${NB_UID}, gid ${NB_GID})" >&2
	export HOME="/home/${NB_USER}" USER="${NB_USER}" LOGNAME="${NB_USER}"
	cd "$HOME"
	exec setpriv --reuid="${NB_UID}" --regid="${NB_GID}" --init-groups --inh-caps=-all --bounding-set=-all -- "$@"
fi
exec "$@"
