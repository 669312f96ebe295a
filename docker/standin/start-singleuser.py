#!/opt/conda/bin/python3
"""The stand-in base's start-singleuser.py (see Containerfile): JupyterHub's
single-user server (jupyterhub-singleuser, of Debian's JupyterHub 3.0),
with the words of NOTEBOOK_ARGS and then its own arguments. The hub gives
it its address, port and token in the environment."""

import os
import shlex
import sys

command = ["jupyterhub-singleuser", *shlex.split(os.environ.get("NOTEBOOK_ARGS", "")), *sys.argv[1:]]
os.execvp(command[0], command)
