// The part of the scripts of display's interactive outputs, the explorer
// and the playground, that they share. Go writes each output's script as
//
//   <this function expression>(prefix, <the output's own script>)(id, data);
//
// where prefix is the stem of the output's classes ("tx" for the
// explorer's tx-fallback, tx-ui, ...). The first call returns the function
// that finds the output's element, puts an empty element of class
// prefix-ui where its still picture was, and calls the output's own script
// with the element, that empty element, the data and the helpers below.
// Every output carries its own copy of this file and keeps all it defines
// in closures, so an output works alone on a page, offline, and outputs on
// one page leave each other alone.
(function (prefix, start) {
  "use strict";

  // el appends a new element to parent and returns it.
  function el(parent, tag, className, text) {
    const node = document.createElement(tag);
    if (className) {
      node.className = className;
    }
    if (text !== undefined) {
      node.textContent = text;
    }
    parent.appendChild(node);
    return node;
  }

  // button appends a button that calls onClick.
  function button(parent, className, text, onClick) {
    const b = el(parent, "button", className, text);
    b.type = "button";
    b.addEventListener("click", onClick);
    return b;
  }

  // scanner returns the scan of the output whose element is root: run
  // walks it step by step and stop ends the walk. While a walk runs, the
  // element's data-scan attribute says "running"; then it holds the
  // walk's verdict, or "stopped".
  function scanner(root) {
    let timer = 0; // the pending step of a walk, if one is running

    // stop ends a running walk, leaving its trail unfinished.
    function stop() {
      if (timer) {
        clearTimeout(timer);
        timer = 0;
        root.setAttribute("data-scan", "stopped");
      }
    }

    // run ends any walk running, then calls step(k) for k = 0 to count-1
    // a pause apart, and at the end finish(), which returns the verdict.
    // The element's data-scan-delay attribute, in milliseconds, sets the
    // pause; without it a pause is at most slowest milliseconds and the
    // walk takes at most six seconds.
    function run(count, slowest, step, finish) {
      stop();
      root.setAttribute("data-scan", "running");
      const delay = root.hasAttribute("data-scan-delay") ?
        Number(root.getAttribute("data-scan-delay")) : Math.min(slowest, 6000 / count);
      let k = 0;
      function next() {
        step(k);
        k++;
        if (k < count) {
          timer = setTimeout(next, delay);
          return;
        }
        timer = 0;
        root.setAttribute("data-scan", finish());
      }
      next();
    }

    return { run: run, stop: stop };
  }

  return function (id, data) {
    // JupyterLab and exported HTML run the script where it stands, right
    // after its element, which also tells apart two views of one output
    // (they share the id); Notebook 6 runs a copy of the script in the
    // page's head, so there the id finds the element.
    const script = document.currentScript;
    let root = script && script.previousElementSibling;
    if (!root || root.id !== id) {
      root = document.getElementById(id);
    }
    if (!root || root.hasAttribute("data-ready")) {
      return;
    }
    root.setAttribute("data-ready", "");

    const fallback = root.querySelector("." + prefix + "-fallback");
    if (fallback) {
      fallback.remove();
    }
    const ui = el(root, "div", prefix + "-ui");
    start(root, ui, data, { el: el, button: button, scanner: scanner(root) });
  };
})
