// build.mjs bundles tensornb's two JupyterLab apps with esbuild (npm run
// build): the static site's JupyterLite app into dist/, with the files
// JupyterLite reads beside it that JupyterLab's build would have made,
// and the JupyterLab of scripts/run into dist-jupyterlab/:
//
//   dist/lab.js, dist/lab.css and the fonts they load   the app (lab.js), an ES
//                                                        module
//   dist/chunks/                                        the parts it imports with
//                                                        import(), loaded on first
//                                                        use (Mermaid, MathJax, the
//                                                        widgets' controls, the
//                                                        editor's other languages)
//                                                        and the modules they share
//   dist/themes/@jupyterlab/theme-light-extension/index.css
//                                                        the light theme, which
//                                                        JupyterLab loads by URL
//   dist/schemas/all.json                               the settings schemas of the
//                                                        extensions in package.json
//   dist/schemas/all_federated.json                     the (empty) list of federated
//                                                        extensions JupyterLite asks for
//
//   dist-jupyterlab/                                    the JupyterLab that
//                                                        scripts/run serves on a
//                                                        Jupyter server
//                                                        (jupyterlab.js), its
//                                                        chunks, theme, schemas
//                                                        and settings/page_config.json
//
// Package kernel/internal/browser/lite copies dist/ into the site's lab/build/.
// With TNB_META=FILE, the build also writes esbuild's metafile (which
// package adds what to lab.js) to FILE.
import * as esbuild from "esbuild";
import fs from "node:fs";
import path from "node:path";

// kernel.js wraps the mutexes JupyterLite's kernel client keeps, to let
// a failing cell tagged raises-exception not drop the cells after it: the
// build fails if the client no longer keeps them as kernel.js expects.
const client = fs.readFileSync(
  "node_modules/@jupyterlite/services/lib/kernel/client.js",
  "utf8",
);
for (const line of [
  "this._mutexMap.set(kernelId, mutex)",
  "this._cancelReason.set(mutex, 'error')",
]) {
  if (!client.includes(line)) {
    console.error(
      `@jupyterlite/services' kernel client (lib/kernel/client.js) no longer has ${line}: update MutexMap in kernel.js for it, or pin @jupyterlite/services back to the version in package.json`,
    );
    process.exit(1);
  }
}

const dist = "dist";
fs.rmSync(dist, { recursive: true, force: true });

// JupyterLab's packages import their icons' SVG as text (webpack's
// raw-loader) while their CSS points at SVG files by url(): the first
// are loaded as text, the second copied as files.
const svgAsText = {
  name: "svg-as-text",
  setup(build) {
    build.onResolve({ filter: /\.svg$/ }, async (args) => {
      if (args.kind === "url-token" || args.pluginData === "svg-as-text") {
        return undefined;
      }
      const r = await build.resolve(args.path, {
        resolveDir: args.resolveDir,
        kind: args.kind,
        importer: args.importer,
        pluginData: "svg-as-text",
      });
      if (r.errors.length) {
        return { errors: r.errors };
      }
      return { path: r.path, namespace: "svg-text" };
    });
    build.onLoad({ filter: /.*/, namespace: "svg-text" }, (args) => ({
      contents: fs.readFileSync(args.path, "utf8"),
      loader: "text",
    }));
  },
};

// webpack's CSS loader reads "~pkg/file" as the file in a package.
const tilde = {
  name: "tilde",
  setup(build) {
    build.onResolve({ filter: /^~/ }, (args) =>
      build.resolve(args.path.slice(1), {
        resolveDir: args.resolveDir,
        kind: args.kind,
        importer: args.importer,
      }),
    );
  },
};

// With code splitting, a CommonJS module behind a dynamic import() is
// a chunk whose one export is default: the module's exports. webpack,
// which JupyterLab's packages are written for, gives the exports'
// names too, and JupyterLab's MathJax extension reads them from its
// imports of mathjax-full (CommonJS): those imports get the module's
// exports instead of the chunk's. The build fails if the extension no
// longer imports mathjax-full so.
const mathjaxExtension =
  /@jupyterlab[/\\]mathjax-extension[/\\]lib[/\\]index\.js$/;
const mathjaxImports = {
  name: "mathjax-imports",
  setup(build) {
    build.onLoad({ filter: mathjaxExtension }, (args) => {
      let n = 0;
      const contents = fs
        .readFileSync(args.path, "utf8")
        .replace(/import\((['"])mathjax-full\/[^'"]+\1\)/g, (call) => {
          n++;
          return `${call}.then(tnbExports)`;
        });
      if (n === 0) {
        return {
          errors: [
            {
              text: "@jupyterlab/mathjax-extension no longer imports mathjax-full with import(): see mathjaxImports in build.mjs",
            },
          ],
        };
      }
      return {
        contents:
          contents +
          "\nfunction tnbExports(m) {\n  return m.default && m.default.__esModule ? m.default : m;\n}\n",
        loader: "js",
      };
    });
  },
};

const common = {
  bundle: true,
  minify: true,
  logLevel: "warning",
  loader: {
    ".svg": "file",
    ".woff": "file",
    ".woff2": "file",
    ".ttf": "file",
    ".eot": "file",
    ".png": "file",
    ".gif": "file",
  },
  assetNames: "assets/[name]-[hash]",
};

// The app's options: an ES module split into chunks, so that what
// JupyterLab's packages import with import() loads on first use, as in
// JupyterLab's own build, and the browser has a quarter of the script to
// run before the app starts (4 MB of 15).
const appOptions = {
  ...common,
  format: "esm",
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  plugins: [tilde, svgAsText, mathjaxImports],
  // What webpack gives JupyterLab's packages: Node's global, __dirname.
  define: {
    global: "globalThis",
    __dirname: '"/"',
    "process.env.NODE_ENV": '"production"',
  },
};

// The light theme, which JupyterLab loads by URL, into out.
function theme(out) {
  return esbuild.build({
    ...common,
    entryPoints: {
      "themes/@jupyterlab/theme-light-extension/index":
        "@jupyterlab/theme-light-extension/style/theme.css",
    },
    outdir: out,
    plugins: [tilde],
  });
}

const app = await esbuild.build({
  ...appOptions,
  entryPoints: { lab: "lab.js" },
  outdir: dist,
  metafile: true,
});
if (process.env.TNB_META) {
  fs.writeFileSync(process.env.TNB_META, JSON.stringify(app.metafile));
}
await theme(dist);

// The settings schemas of the extensions in package.json: each plugin's
// id, its package, its package's version and its schema.
const pkg = JSON.parse(fs.readFileSync("package.json", "utf8"));
const schemas = [];
for (const name of Object.keys(pkg.dependencies).sort()) {
  const dir = path.join("node_modules", name);
  const meta = JSON.parse(
    fs.readFileSync(path.join(dir, "package.json"), "utf8"),
  );
  const schemaDir = meta.jupyterlab && meta.jupyterlab.schemaDir;
  if (!schemaDir || !fs.existsSync(path.join(dir, schemaDir))) {
    continue;
  }
  for (const file of fs.readdirSync(path.join(dir, schemaDir)).sort()) {
    if (file.endsWith(".json")) {
      const schema = JSON.parse(
        fs.readFileSync(path.join(dir, schemaDir, file), "utf8"),
      );
      schemas.push({
        name,
        plugin: file.slice(0, -".json".length),
        schema,
        version: meta.version,
      });
    }
  }
}

// In the form JupyterLite's settings service reads (and a Jupyter
// server's settings API returns), with no user settings yet.
fs.mkdirSync(path.join(dist, "schemas"), { recursive: true });
fs.writeFileSync(
  path.join(dist, "schemas", "all.json"),
  JSON.stringify(
    schemas.map((s) => ({
      id: s.name + ":" + s.plugin,
      raw: "{}",
      schema: s.schema,
      version: s.version,
    })),
  ),
);
fs.writeFileSync(path.join(dist, "schemas", "all_federated.json"), "[]");
console.log(
  `dist/: the app, the light theme and ${schemas.length} settings schemas`,
);

// The JupyterLab that scripts/run serves on Debian's jupyterlab_server
// (jupyterlab.js), with the schemas laid out as its schemas_dir wants
// them: PACKAGE/PLUGIN.json, and the package's name and version in
// PACKAGE/package.json.orig.
const served = "dist-jupyterlab";
fs.rmSync(served, { recursive: true, force: true });
await esbuild.build({
  ...appOptions,
  entryPoints: { jupyterlab: "jupyterlab.js" },
  outdir: served,
});
await theme(served);
for (const s of schemas) {
  const dir = path.join(served, "schemas", s.name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, s.plugin + ".json"),
    JSON.stringify(s.schema),
  );
  fs.writeFileSync(
    path.join(dir, "package.json.orig"),
    JSON.stringify({ name: s.name, version: s.version }),
  );
}
// tensornb's own settings: the property inspector's form for a cell's
// nbgrader metadata (schema/nbgrader.json), for no plugin of code.
const own = path.join(served, "schemas", "tensornb");
fs.mkdirSync(own, { recursive: true });
fs.copyFileSync(
  path.join("schema", "nbgrader.json"),
  path.join(own, "nbgrader.json"),
);
fs.writeFileSync(
  path.join(own, "package.json.orig"),
  JSON.stringify({ name: "tensornb", version: "1.0.0" }),
);
// The page configuration jupyterlab_server adds to its own (its
// app_settings_dir): the application's name and version, as JupyterLab's
// own server gives them.
const application = JSON.parse(
  fs.readFileSync(
    path.join("node_modules", "@jupyterlab", "application", "package.json"),
  ),
);
fs.mkdirSync(path.join(served, "settings"));
fs.writeFileSync(
  path.join(served, "settings", "page_config.json"),
  JSON.stringify({ appName: "JupyterLab", appVersion: application.version }),
);
console.log(
  `${served}/: the JupyterLab scripts/run serves, its theme, ${schemas.length + 1} settings schemas and its page configuration`,
);
