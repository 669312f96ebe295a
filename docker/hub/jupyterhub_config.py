# A class on one machine (docker/README.md, "A class on JupyterHub"):
# Debian's JupyterHub 3.0 on the host's loopback, a dummy authenticator,
# and PodmanSpawner (podmanspawner.py, beside this file), which starts the
# tensornb image for each user with podman. The image test
# (docker/image_test.go) runs it so:
#
#     jupyterhub -f docker/hub/jupyterhub_config.py --port 8000 \
#         --PodmanSpawner.image=localhost/tensornb:latest --PodmanSpawner.homes=/srv/tensornb-homes \
#         --DummyAuthenticator.password=... --Authenticator.allowed_users=alice --Authenticator.allowed_users=bob
#
# as root, which rootful podman needs. For a class, replace the dummy
# authenticator with a real one (a password on the command line is for
# the test).
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from podmanspawner import PodmanSpawner  # noqa: E402

c = get_config()  # noqa: F821

# Debian's configurable-http-proxy, which the hub starts, finds its Node
# modules in /usr/share/nodejs, where a Node.js that is not Debian's
# (NodeSource's, say) does not look.
if os.path.isdir("/usr/share/nodejs"):
    os.environ["NODE_PATH"] = os.pathsep.join(filter(None, ["/usr/share/nodejs", os.environ.get("NODE_PATH")]))

c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.authenticator_class = "dummy"
c.JupyterHub.spawner_class = PodmanSpawner
# Students land on the tour, in JupyterLab, which the pinned base serves.
# (On the stand-in base, which has no front end on jupyter_server, the
# test drives the servers through their REST API.)
c.Spawner.default_url = "/lab/tree/notebooks/00-tour.ipynb"
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
# Binder's limit; the image test measured what a user's notebooks take
# (docker/README.md).
c.Spawner.mem_limit = "2G"
c.Spawner.cpu_limit = 1.0
