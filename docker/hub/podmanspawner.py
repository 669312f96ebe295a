"""A JupyterHub Spawner that starts each user's server in a podman
container of the tensornb image, as JupyterHub's KubeSpawner starts it in
a pod (docker/README.md, "A class on JupyterHub"):

- the image's entrypoint, then the single-user command (Spawner.cmd,
  jupyterhub-singleuser), as uid 1000 with group 100;
- the user's own home directory, a directory of the host under
  PodmanSpawner.homes that starts empty, mounted over /home/jovyan: the
  image's entrypoint copies the notebooks into it the first time;
- port 8888 inside, published on the host's loopback only; the container
  reaches the hub on the host's loopback through slirp4netns
  (10.0.2.2), and nothing of the host but that;
- Spawner.mem_limit and cpu_limit as podman's --memory and --cpus.

It is a Spawner of its own, not a Spawner.cmd wrapper around podman for
the default LocalProcessSpawner, because that one runs its command as a
system account of the same name (alice and bob would need accounts on the
host) and polls and stops the local process, the podman client, not the
container. This one names each container after its user, so it polls and
stops the container itself, and finds it again after a restart of the
hub.
"""

import asyncio
import os
import re
import shlex
import tempfile
from urllib.parse import urlparse

from jupyterhub.spawner import Spawner
from traitlets import Integer, List, Unicode, default


class PodmanSpawner(Spawner):
    image = Unicode("localhost/tensornb:latest", config=True, help="The image to start.")
    homes = Unicode(
        config=True,
        help="The host directory that holds each user's home directory, which is mounted over /home/jovyan.",
    )
    uid = Integer(1000, config=True, help="The uid the server runs as (the image's jovyan).")
    gid = Integer(100, config=True, help="The gid the server runs as (the group users).")
    podman = List(["podman"], config=True, help="The podman command.")
    container_prefix = Unicode("tensornb-hub-", config=True, help="The start of each container's name.")

    @default("env_keep")
    def _env_keep(self):
        return []  # the host's PATH and the like are not the container's

    @default("cmd")
    def _cmd(self):
        return ["jupyterhub-singleuser"]

    @property
    def container(self):
        return self.container_prefix + self.user.name + (f"-{self.name}" if self.name else "")

    def home(self):
        if not re.fullmatch(r"[a-z0-9][a-z0-9_-]*", self.user.name):
            raise ValueError(f"user name {self.user.name!r}: only lower-case letters, digits, _ and - make a home directory")
        return os.path.join(self.homes, self.user.name)

    async def podman_run(self, *args, check=True):
        process = await asyncio.create_subprocess_exec(
            *self.podman, *args, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
        )
        out, err = await process.communicate()
        if check and process.returncode != 0:
            raise RuntimeError(f"{shlex.join([*self.podman, *args])} failed: {err.decode().strip()}")
        return process.returncode, out.decode().strip()

    async def start(self):
        home = self.home()
        os.makedirs(home, mode=0o770, exist_ok=True)
        os.chown(home, self.uid, self.gid)
        os.chmod(home, 0o770)
        await self.podman_run("rm", "--force", "--time", "0", self.container, check=False)

        # The server listens on every address of its container at 8888, and
        # reaches the hub at the host's loopback, which slirp4netns shows
        # the container as 10.0.2.2.
        self.ip, self.port = "0.0.0.0", 8888
        if not self.hub_connect_url:
            self.hub_connect_url = f"http://10.0.2.2:{urlparse(self.hub.api_url).port}"
        env = self.get_env()

        # The token goes in a file only root can read, not on podman's
        # command line, which every user of the host can see.
        with tempfile.NamedTemporaryFile("w", prefix="tensornb-hub-env-", delete=False) as f:
            for key, value in env.items():
                if "\n" in value:
                    raise ValueError(f"the environment variable {key} holds a newline")
                f.write(f"{key}={value}\n")
            env_file = f.name
        try:
            args = [
                "run", "--detach", "--name", self.container,
                "--user", f"{self.uid}:{self.gid}",
                "--network", "slirp4netns:allow_host_loopback=true",
                "--publish", "127.0.0.1::8888",
                "--volume", f"{home}:/home/jovyan",
                "--env-file", env_file,
                "--label", f"tensornb.hub.user={self.user.name}",
            ]
            if self.mem_limit:
                args += ["--memory", str(self.mem_limit)]
            if self.cpu_limit:
                args += ["--cpus", str(self.cpu_limit)]
            await self.podman_run(*args, self.image, *self.cmd, *self.get_args())
        finally:
            os.unlink(env_file)
        _, published = await self.podman_run("port", self.container, "8888/tcp")
        host, _, port = published.splitlines()[0].rpartition(":")
        self.log.info("%s: container %s, at %s:%s", self.user.name, self.container, host, port)
        return (host, int(port))

    async def poll(self):
        code, out = await self.podman_run(
            "inspect", "--format", "{{.State.Running}} {{.State.ExitCode}}", self.container, check=False
        )
        if code != 0:
            return 0  # no such container: stopped
        running, _, exit_code = out.partition(" ")
        return None if running == "true" else int(exit_code or 0)

    async def stop(self, now=False):
        await self.podman_run("stop", "--time", "0" if now else "10", self.container, check=False)
        await self.podman_run("rm", "--force", self.container, check=False)
