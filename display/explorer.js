// The script of display.Explorer. Go embeds this function expression in
// every explorer's output, after interactive.js, which calls it once it
// has found the explorer's element (root) and put an empty element (ui)
// where the still picture was, with the explorer's data and the helpers
// it shares with the playground. The data are the buffers, and for each
// mode its shape, strides, offset, cells (value, storage slot, scan step)
// and scan verdict, all worked out by package tensor. The script draws
// the mode chosen and responds to clicks; it keeps its state in this
// closure and touches only its own element, so explorers on one page are
// independent.
(function (root, ui, data, tools) {
  "use strict";

  const el = tools.el,
    button = tools.button;
  const modeBar = el(ui, "div", "tx-modes");
  const modeButtons = data.modes.map(function (m, n) {
    const b = button(modeBar, "tx-mode", m.name, function () {
      showMode(n);
    });
    b.setAttribute("data-mode", m.key);
    return b;
  });
  const head = el(ui, "div", "tx-head");
  const note = el(ui, "div", "tx-note");
  const body = el(ui, "div", "tx-body");
  const gridBox = el(body, "div", "tx-gridbox");
  const storageBox = el(body, "div", "tx-storage");
  const readLine = el(ui, "div", "tx-read-line");
  const formulaLine = el(ui, "div", "tx-formula-line");
  el(formulaLine, "span", "tx-rule", "offset + i·s₀ + j·s₁ = address:  ");
  const formula = el(formulaLine, "span", "tx-formula");
  const scanBar = el(ui, "div", "tx-scanbar");
  button(scanBar, "tx-scan", "Scan", scan);
  el(scanBar, "span", "", "walks the cells in logical order:");
  el(scanBar, "span", "tx-chip tx-start", "first");
  el(scanBar, "span", "tx-chip tx-step", "step +1");
  el(scanBar, "span", "tx-chip tx-jump", "jump");
  el(scanBar, "span", "tx-chip tx-repeat", "repeat");
  const trail = el(ui, "div", "tx-trail");
  const verdict = el(ui, "div", "tx-verdict");
  const scanner = tools.scanner(root, trail, verdict);

  let mode = null; // the mode shown
  let selected = 0; // the index in mode.cells of the cell selected
  let cellButtons = [];
  let slotBoxes = {}; // buffer name -> the element of each slot

  function showMode(n) {
    scanner.stop();
    const before = mode && mode.cells[selected].index;
    mode = data.modes[n];
    root.setAttribute("data-mode", mode.key);
    modeButtons.forEach(function (b, i) {
      b.setAttribute("aria-pressed", String(i === n));
    });
    head.textContent =
      mode.expr +
      ": layout " +
      mode.layout +
      ", offset " +
      mode.offset +
      ", " +
      (mode.contiguous ? "contiguous" : "not contiguous") +
      ", reads " +
      mode.buffer;
    note.textContent = mode.note;
    scanner.clear();
    drawGrid();
    drawStorage();
    // Keep the position selected if the new shape has it.
    const k = before
      ? mode.cells.findIndex(function (c) {
          return c.index[0] === before[0] && c.index[1] === before[1];
        })
      : 0;
    select(Math.max(k, 0));
  }

  function drawGrid() {
    gridBox.textContent = "";
    const table = el(el(gridBox, "table", "tx-grid"), "tbody");
    const top = el(table, "tr");
    el(top, "th");
    for (let j = 0; j < mode.shape[1]; j++) {
      el(top, "th", "", "j=" + j);
    }
    let row = null;
    cellButtons = mode.cells.map(function (c, k) {
      if (c.index[1] === 0) {
        row = el(table, "tr");
        el(row, "th", "", "i=" + c.index[0]);
      }
      const b = button(el(row, "td"), "tx-cell", c.value, function () {
        scanner.stop();
        select(k);
      });
      b.setAttribute("data-index", c.index.join(","));
      return b;
    });
  }

  // drawStorage draws the buffer the mode reads, after the one its values
  // were copied from if it is a copy. Slots the mode reads are tinted, with
  // a count where several cells read one slot; its offset is underlined.
  function drawStorage() {
    storageBox.textContent = "";
    slotBoxes = {};
    const names = mode.source ? [mode.source, mode.buffer] : [mode.buffer];
    names.forEach(function (name) {
      const buffer = data.buffers.find(function (b) {
        return b.name === name;
      });
      const box = el(storageBox, "div", "tx-buffer");
      box.setAttribute("data-buffer", name);
      el(box, "div", "tx-buffer-title", buffer.title);
      const slots = el(box, "div", "tx-slots");
      slotBoxes[name] = buffer.values.map(function (value, s) {
        const slot = el(slots, "div", "tx-slot");
        slot.setAttribute("data-slot", String(s));
        el(slot, "span", "tx-addr", String(s));
        el(slot, "span", "tx-val", value);
        if (name === mode.buffer) {
          const reads = mode.reads[s];
          if (reads > 0) {
            slot.classList.add("tx-read");
          }
          if (s === mode.offset) {
            slot.classList.add("tx-offset");
            slot.title = "the storage offset: the slot of element [0, 0]";
          }
          if (reads > 1) {
            el(slot, "span", "tx-count", "×" + reads);
          }
        }
        return slot;
      });
    });
  }

  // select highlights cell k and the slot it reads, other cells reading
  // that slot, and for a copy the slot its value came from, and writes the
  // formula out.
  function select(k) {
    selected = k;
    const c = mode.cells[k];
    cellButtons.forEach(function (b, n) {
      b.classList.toggle("tx-on", n === k);
      b.classList.toggle("tx-same", n !== k && mode.cells[n].slot === c.slot);
    });
    root.querySelectorAll(".tx-slot").forEach(function (s) {
      s.classList.remove("tx-on", "tx-from");
    });
    slotBoxes[mode.buffer][c.slot].classList.add("tx-on");
    let read =
      mode.expr +
      "[" +
      c.index.join(", ") +
      "] reads " +
      mode.buffer +
      "[" +
      c.slot +
      "] (value " +
      c.value +
      ")";
    if (mode.source) {
      slotBoxes[mode.source][mode.from[k]].classList.add("tx-from");
      read += ", copied from " + mode.source + "[" + mode.from[k] + "]";
    }
    readLine.textContent = read;
    formula.textContent =
      mode.offset +
      " + " +
      c.index[0] +
      "·" +
      mode.strides[0] +
      " + " +
      c.index[1] +
      "·" +
      mode.strides[1] +
      " = " +
      c.slot;
  }

  // scan selects the cells one after another in logical order, adding each
  // slot read to the trail, and gives the verdict at the end.
  function scan() {
    scanner.run(
      mode.cells.length,
      350,
      function (k) {
        const c = mode.cells[k];
        select(k);
        return {
          delta: c.delta,
          className: "tx-chip tx-" + c.step,
          slot: String(c.slot),
        };
      },
      function () {
        return { summary: mode.summary, pattern: mode.scan };
      },
    );
  }

  showMode(0);
});
