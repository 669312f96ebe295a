#!/bin/sh
# The image's entrypoint. On JupyterHub the user's home directory is a
# volume that hides what the image put there, so the notebooks are copied
# from $TENSORNB_NOTEBOOKS into $HOME/notebooks when that directory does not
# exist yet; an existing one (with the user's own edits) is left alone.
# Then it runs its arguments in its own place, as Binder, JupyterHub and
# `docker run` expect of an entrypoint.
set -e
if [ -n "${TENSORNB_NOTEBOOKS:-}" ] && [ -d "$TENSORNB_NOTEBOOKS" ] && [ ! -e "$HOME/notebooks" ]; then
	cp -R "$TENSORNB_NOTEBOOKS" "$HOME/notebooks" ||
		echo "tensornb: could not copy the notebooks into $HOME/notebooks; they are in $TENSORNB_NOTEBOOKS" >&2
fi
exec "$@"
