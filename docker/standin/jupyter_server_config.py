# The stand-in base's settings for jupyter_server (see Containerfile): on
# every address at port 8888, as a container's server must be, with no
# browser to open. The command line overrides them (Binder's --ip and
# --port, JupyterHub's).
c.ServerApp.ip = "0.0.0.0"
c.ServerApp.port = 8888
c.ServerApp.open_browser = False
