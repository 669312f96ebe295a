# The configuration of the JupyterLab that scripts/run serves: Debian's
# jupyter_server with jupyterlab_server's LabServerApp, serving the
# JupyterLab that kernel/internal/browser/lite/web builds into
# dist-jupyterlab/ (npm run build there) with the page of index.html
# beside this file. Used as
#
#   /usr/bin/python3 -m jupyterlab_server --config=scripts/jupyterlab/config.py
#
# with ServerApp's options (--port, --no-browser, --ServerApp.root_dir...)
# after it. Settings and workspaces are kept where JupyterLab keeps them,
# under the Jupyter configuration directory (~/.jupyter/lab/).
#
# The image's stand-in base (docker/standin) installs this file, with
# index.html and the built app in app/ beside it, as the
# jupyter_server_config.py of its Python: there every jupyter_server it
# starts (jupyter lab, jupyterhub-singleuser) serves this JupyterLab.
import os

from jupyter_core.paths import jupyter_config_dir
from jupyterlab_server import LabServerApp

here = os.path.dirname(os.path.realpath(__file__))
app = os.path.join(here, "app")
if not os.path.isdir(app):
    app = os.path.join(here, "..", "..", "kernel", "internal", "browser", "lite", "web", "dist-jupyterlab")
if not os.path.isfile(os.path.join(app, "jupyterlab.js")):
    raise SystemExit(
        "tensornb's JupyterLab is not built in " + os.path.normpath(app)
        + ": run npm ci --prefix kernel/internal/browser/lite/web and "
        + "npm run --prefix kernel/internal/browser/lite/web build (scripts/run does both)"
    )

c = get_config()  # noqa: F821 (traitlets defines it)
# The page a browser opens first (scripts/run gives the tour's). The
# extension's own default (/lab) would win over ServerApp.default_url:
# what it passes the server it is launched in wins over that.
LabServerApp.serverapp_config = {"default_url": os.environ.get("TENSORNB_LAB_OPEN", "/lab")}
# tensornb's JupyterLab has no terminal.
c.ServerApp.terminals_enabled = False
c.LabServerApp.app_url = "/lab"
c.LabServerApp.static_dir = app
c.LabServerApp.templates_dir = here
c.LabServerApp.schemas_dir = os.path.join(app, "schemas")
c.LabServerApp.themes_dir = os.path.join(app, "themes")
# The application's name and version in its pages (page_config.json, which
# the build writes).
c.LabServerApp.app_settings_dir = os.path.join(app, "settings")
c.LabServerApp.user_settings_dir = os.path.join(jupyter_config_dir(), "lab", "user-settings")
c.LabServerApp.workspaces_dir = os.path.join(jupyter_config_dir(), "lab", "workspaces")

