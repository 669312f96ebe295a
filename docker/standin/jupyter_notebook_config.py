# The stand-in base's settings for the classic Notebook 6.4's own server
# (see Containerfile and jupyter_server_config.py): the same address, port
# and no browser.
c.NotebookApp.ip = "0.0.0.0"
c.NotebookApp.port = 8888
c.NotebookApp.open_browser = False
