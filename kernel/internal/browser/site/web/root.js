// siteRoot is the address of the site's root folder, where page.js, its
// lazy scripts and the engine's files are: the folder of page.js, which a
// page in a sub-folder of the site (week2/im2col.html) loads from the
// folders above it. document.currentScript is page.js only while the
// bundle first runs, when this module is evaluated.
export const siteRoot = new URL(
  ".",
  (document.currentScript && document.currentScript.src) || location.href,
);

// atRoot is the address of the site's file at path from its root.
export function atRoot(path) {
  return new URL(path, siteRoot).href;
}
