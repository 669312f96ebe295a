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

  // scanner returns the scan of the output whose element is root, which
  // adds the slots it reads to trail and writes its verdict in verdict:
  // run walks the positions step by step, stop ends the walk and clear
  // wipes what it showed. While a walk runs, the element's data-scan
  // attribute says "running"; then it holds the walk's pattern, or
  // "stopped".
  function scanner(root, trail, verdict) {
    let timer = 0; // the pending step of a walk, if one is running

    // clear empties the trail and the verdict and drops data-scan, for a
    // new layout; a walk still running goes on.
    function clear() {
      trail.textContent = "";
      verdict.textContent = "";
      root.removeAttribute("data-scan");
    }

    // stop ends a running walk, leaving its trail unfinished.
    function stop() {
      if (timer) {
        clearTimeout(timer);
        timer = 0;
        root.setAttribute("data-scan", "stopped");
      }
    }

    // run ends any walk running and clears the trail and the verdict. Then
    // it calls step(k) for k = 0 to count-1, a pause apart: step selects
    // position k and returns its chip, { delta, className, slot }, which
    // run adds to the trail after the delta (the move from the slot before;
    // "" for the first). At the end finish returns { summary, pattern }:
    // the verdict in words, and for data-scan. The element's
    // data-scan-delay attribute, in milliseconds, sets the pause; without
    // it a pause is at most slowest milliseconds and the walk takes at most
    // six seconds.
    function run(count, slowest, step, finish) {
      stop();
      clear();
      root.setAttribute("data-scan", "running");
      const delay = root.hasAttribute("data-scan-delay")
        ? Number(root.getAttribute("data-scan-delay"))
        : Math.min(slowest, 6000 / count);
      let k = 0;
      function next() {
        const chip = step(k);
        if (chip.delta) {
          el(trail, "span", prefix + "-delta", chip.delta);
        }
        el(trail, "span", chip.className, chip.slot);
        k++;
        if (k < count) {
          timer = setTimeout(next, delay);
          return;
        }
        timer = 0;
        const end = finish();
        verdict.textContent = end.summary;
        root.setAttribute("data-scan", end.pattern);
      }
      next();
    }

    return { run: run, stop: stop, clear: clear };
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
    start(root, ui, data, { el: el, button: button, scanner: scanner });
  };
});
