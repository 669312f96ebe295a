#!/opt/conda/bin/python3
"""The stand-in base's start-notebook.py (see Containerfile), the image's
default command: the Jupyter server with its front end. Started by
JupyterHub (JUPYTERHUB_API_TOKEN set), it hands over to
start-singleuser.py. Otherwise it runs `jupyter lab`, as docker-stacks
does, or the jupyter subcommand that DOCKER_STACKS_JUPYTER_CMD names, with
the words of NOTEBOOK_ARGS and then its own arguments. The address and
port come from /etc/jupyter (0.0.0.0:8888)."""

import os
import shlex
import sys

if os.environ.get("JUPYTERHUB_API_TOKEN"):
    here = os.path.dirname(os.path.abspath(__file__))
    os.execv(os.path.join(here, "start-singleuser.py"), ["start-singleuser.py", *sys.argv[1:]])

subcommand = os.environ.get("DOCKER_STACKS_JUPYTER_CMD", "lab")
command = ["jupyter", subcommand, *shlex.split(os.environ.get("NOTEBOOK_ARGS", "")), *sys.argv[1:]]
os.execvp(command[0], command)
