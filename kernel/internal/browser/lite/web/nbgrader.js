// The nbgrader form of the property inspector: a cell's nbgrader
// metadata (its grade_id, points, whether it is a solution, graded or
// locked), which tensornb's grading reads, edited as fields rather than
// as JSON. JupyterLab's metadata form extension draws a form for each
// "jupyter.lab.metadataforms" entry in the settings schema of an active
// plugin: this plugin's schema (schema/nbgrader.json, which the build
// lays out for the server as tensornb/nbgrader.json) holds the form,
// and the plugin is there to make it active; it needs no code of its own.
export default {
  id: "tensornb:nbgrader",
  description:
    "Shows a cell's nbgrader metadata as a form in the property inspector.",
  autoStart: true,
  activate: () => {},
};
