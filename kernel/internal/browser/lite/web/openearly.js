// Opening the file of the page's ?path= as soon as the application has
// started. JupyterLite's router opens it too, but only after the routes
// before it: JupyterLab's state plugin loads the workspace there and
// then waits for its debounced save (at least 500 ms; a first visit
// waited a second). Opened here first, the file is already open when the
// router's turn comes, and the router's open only shows it again (both
// open it with JupyterLab's docmanager:open, which reveals a file that
// is open).
export default {
  id: "tensornb:open-early",
  description:
    "Opens the file of ?path= once the application has started, before the router's turn.",
  autoStart: true,
  activate: (app) => {
    const path = new URLSearchParams(window.location.search).get("path");
    if (!path) {
      return;
    }
    void app.started.then(() =>
      // A file that cannot be opened is the router's to report.
      app.commands.execute("docmanager:open", { path }).catch(() => {}),
    );
  },
};
