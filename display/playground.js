// The page of display.Playground. Go embeds this function expression in
// every playground's output, after interactive.js, which calls it once it
// has found the playground's element (root) and put an empty element (ui)
// where the still picture was, with the playground's data and the helpers
// it shares with the explorer; Go adds the last argument, arithmeticOf:
// playlayout.js, the layout arithmetic, which this script makes for x. The
// data are the tensor x it starts from (its storage's values, shape,
// strides and offset, and how Go and Python write it), the presets, and
// the bounds of the controls. The script builds the controls and, for
// every setting, shows what playlayout.js's classify says of it: the slot
// each position reads, the reads of each slot, the kind of layout, the op
// of x that makes it and the Go line. It keeps its state in this closure
// and touches only its own element, so playgrounds on one page are
// independent. After every change the element's data-state attribute
// holds the state shown, as JSON.
(function (root, ui, data, tools, arithmeticOf) {
  "use strict";

  const el = tools.el,
    button = tools.button;
  const base = data.base;
  const limits = data.limits;
  const play = arithmeticOf(base);
  const classify = play.classify,
    numel = play.numel,
    positionOf = play.positionOf,
    arithmetic = play.arithmetic,
    signed = play.signed;

  // cellValue is the value in slot a of a storage of n slots, or "".
  function cellValue(n, a) {
    if (a < 0 || a >= n) {
      return "";
    }
    if (a < base.values.length) {
      return base.values[a];
    }
    return base.blank ? String(a) : base.zero;
  }

  function indexName(d, n) {
    return n <= 4 ? "ijkl"[d] : "i" + d;
  }

  // ---- The page. ----

  function clone(l) {
    return {
      storage: l.storage,
      shape: l.shape.slice(),
      strides: l.strides.slice(),
      offset: l.offset,
      numpy: l.numpy,
    };
  }

  el(ui, "div", "tp-title", data.title);

  const presetBar = el(ui, "div", "tp-bar");
  el(presetBar, "span", "tp-label", "presets:");
  data.presets.forEach(function (p) {
    const b = button(presetBar, "tp-preset", p.name, function () {
      set(clone(p.layout));
    });
    b.setAttribute("data-preset", p.key);
  });

  const rulesBar = el(ui, "div", "tp-bar");
  el(rulesBar, "span", "tp-label", "rules:");
  const rulesButtons = [
    ["pytorch", "PyTorch (no negative strides)"],
    ["numpy", "NumPy (negative strides allowed)"],
  ].map(function (r) {
    const b = button(rulesBar, "tp-rules", r[1], function () {
      const l = clone(layout);
      l.numpy = r[0] === "numpy";
      set(l);
    });
    b.setAttribute("data-rules", r[0]);
    return b;
  });

  const controls = el(ui, "div", "tp-controls");
  const scalars = el(controls, "div", "tp-scalars");
  function numberField(parent, label, field, min, max) {
    const f = el(parent, "label", "tp-field");
    el(f, "span", "tp-label", label);
    const input = el(f, "input");
    input.type = "number";
    input.min = String(min);
    input.max = String(max);
    input.step = "1";
    input.setAttribute("data-field", field);
    return input;
  }
  const storageInput = numberField(
    scalars,
    "storage slots",
    "storage",
    1,
    limits.slots,
  );
  const offsetInput = numberField(
    scalars,
    "offset",
    "offset",
    0,
    limits.offset,
  );
  const dimsBox = el(controls, "div", "tp-dimsbox");
  const dimsTable = el(dimsBox, "table", "tp-dims");
  const addButton = button(dimsBox, "tp-add", "add a dimension", function () {
    const l = clone(layout);
    l.shape.push(1);
    l.strides.push(1);
    set(l);
  });
  addButton.setAttribute("data-action", "add");

  const formulaLine = el(ui, "div", "tp-formula");
  const verdict = el(ui, "div", "tp-verdict");
  const badge = el(verdict, "span", "tp-badge");
  const sentence = el(verdict, "span", "tp-sentence");
  const detail = el(ui, "div", "tp-detail");
  const goLine = el(ui, "div", "tp-goline");
  el(goLine, "span", "tp-label", "Go:");
  const goCode = el(goLine, "code", "tp-go");
  const copyButton = button(goLine, "tp-copy", "copy", copyGo);
  const body = el(ui, "div", "tp-body");
  const panelsBox = el(body, "div", "tp-panels");
  const storageBox = el(body, "div", "tp-storage");
  const readLine = el(ui, "div", "tp-read-line");
  const scanBar = el(ui, "div", "tp-scanbar");
  button(scanBar, "tp-scan", "Scan", scan);
  el(scanBar, "span", "", "walks the positions in row-major order:");
  [
    ["start", "first"],
    ["step", "step +1"],
    ["jump", "jump"],
    ["repeat", "repeat"],
    ["out", "out of bounds"],
  ].forEach(function (c) {
    el(scanBar, "span", "tp-chip tp-step-" + c[0], c[1]);
  });
  const trail = el(ui, "div", "tp-trail");
  const summary = el(ui, "div", "tp-summary");
  const scanner = tools.scanner(root, trail, summary);

  let layout = null; // the setting shown
  let state = null; // what classify says of it
  let cellButtons = [];
  let slotBoxes = [];

  // set shows layout l, after bringing it within the controls' bounds.
  function set(l) {
    scanner.stop();
    l.storage = clamp(l.storage, 1, limits.slots);
    l.offset = clamp(l.offset, 0, limits.offset);
    l.shape = l.shape.slice(0, limits.dims);
    l.strides = l.strides.slice(0, limits.dims);
    l.strides = l.strides.map(function (s) {
      return clamp(s, -limits.stride, limits.stride);
    });
    l.shape = l.shape.map(function (s) {
      return Math.max(1, s);
    });
    for (let d = 0; d < l.shape.length; d++) {
      l.shape[d] = Math.min(l.shape[d], sizeLimit(l.shape, d));
    }
    layout = l;
    state = classify(l);
    draw();
  }

  function clamp(v, lo, hi) {
    return Math.min(Math.max(v, lo), hi);
  }

  // sizeLimit is the largest size of dimension d that keeps the positions
  // within the bound.
  function sizeLimit(shape, d) {
    let others = 1;
    shape.forEach(function (s, i) {
      if (i !== d) {
        others *= s;
      }
    });
    return Math.max(1, Math.floor(limits.cells / others));
  }

  function draw() {
    const l = layout;
    rulesButtons.forEach(function (b) {
      b.setAttribute(
        "aria-pressed",
        String((b.getAttribute("data-rules") === "numpy") === l.numpy),
      );
    });
    storageInput.value = String(l.storage);
    offsetInput.value = String(l.offset);
    drawDims();
    let formula = "address = " + l.offset;
    l.strides.forEach(function (s, d) {
      formula +=
        " + " +
        (s < 0 ? "(" + s + ")" : String(s)) +
        "·" +
        indexName(d, l.shape.length);
    });
    formulaLine.textContent =
      "layout (" +
      l.shape.join(",") +
      "):(" +
      l.strides.join(",") +
      "), offset " +
      l.offset +
      "; " +
      formula;
    badge.textContent = state.headline;
    badge.className = "tp-badge tp-kind-" + state.kind;
    sentence.textContent = state.sentence;
    detail.textContent = state.detail;
    goCode.textContent = state.go;
    copyButton.textContent = "copy";
    drawGrid();
    drawStorage();
    readLine.textContent = "";
    scanner.clear();
    root.setAttribute("data-kind", state.kind);
    root.setAttribute("data-state", JSON.stringify(state));
  }

  function drawDims() {
    const l = layout;
    dimsTable.textContent = "";
    const head = el(el(dimsTable, "thead"), "tr");
    ["dim", "size", "stride", ""].forEach(function (h) {
      el(head, "th", "", h);
    });
    const rows = el(dimsTable, "tbody");
    l.shape.forEach(function (size, d) {
      const row = el(rows, "tr");
      el(row, "td", "", indexName(d, l.shape.length) + " (" + d + ")");
      [
        ["size", size, 1, sizeLimit(l.shape, d)],
        ["stride", l.strides[d], -limits.stride, limits.stride],
      ].forEach(function (f) {
        const input = el(el(row, "td"), "input");
        input.type = "number";
        input.min = String(f[2]);
        input.max = String(f[3]);
        input.step = "1";
        input.value = String(f[1]);
        input.setAttribute("data-field", f[0]);
        input.setAttribute("data-dim", String(d));
        input.addEventListener("input", function () {
          edit(input, false);
        });
        input.addEventListener("change", function () {
          edit(input, true);
        });
      });
      const remove = button(el(row, "td"), "tp-remove", "remove", function () {
        const n = clone(layout);
        n.shape.splice(d, 1);
        n.strides.splice(d, 1);
        set(n);
      });
      remove.setAttribute("data-remove", String(d));
      remove.disabled = l.shape.length <= 1;
    });
    addButton.disabled = l.shape.length >= limits.dims;
  }

  // edit applies a control's value. While the field is being typed in
  // (input events) a value that is not a whole number yet ("-") waits;
  // when it is committed (change) the field shows the value applied.
  function edit(input, committed) {
    const text = input.value.trim();
    const v = Number(text);
    if (text === "" || !Number.isInteger(v)) {
      if (committed) {
        draw();
      }
      return;
    }
    const l = clone(layout);
    const field = input.getAttribute("data-field");
    const d = Number(input.getAttribute("data-dim"));
    if (field === "storage") {
      l.storage = v;
    } else if (field === "offset") {
      l.offset = v;
    } else if (field === "size") {
      l.shape[d] = v;
    } else if (field === "stride") {
      l.strides[d] = v;
    }
    const focused = document.activeElement === input;
    set(l);
    if (focused && !committed) {
      // The dimensions' inputs were drawn anew: keep typing in the new one.
      const again = root.querySelector(
        'input[data-field="' +
          field +
          '"]' +
          (field === "size" || field === "stride"
            ? '[data-dim="' + d + '"]'
            : ""),
      );
      if (again && again !== document.activeElement) {
        // Writing the value after focusing puts the caret at its end; a
        // value the bounds changed is shown once the field is committed.
        again.focus();
        again.value = "";
        again.value = text;
      }
    }
  }
  [storageInput, offsetInput].forEach(function (input) {
    input.addEventListener("input", function () {
      edit(input, false);
    });
    input.addEventListener("change", function () {
      edit(input, true);
    });
  });

  function drawGrid() {
    const l = layout,
      st = state;
    panelsBox.textContent = "";
    const r = l.shape.length;
    const rows = r >= 2 ? l.shape[r - 2] : 1,
      cols = l.shape[r - 1];
    const lead = l.shape.slice(0, Math.max(r - 2, 0));
    const panels = numel(lead);
    cellButtons = [];
    for (let n = 0; n < panels; n++) {
      const panel = el(panelsBox, "div", "tp-panel");
      if (r > 2) {
        const idx = positionOf(lead, n).map(String);
        while (idx.length < r) {
          idx.push(":");
        }
        el(panel, "div", "tp-panel-title", "[" + idx.join(", ") + "]");
      }
      const table = el(el(panel, "table", "tp-grid"), "tbody");
      const top = el(table, "tr");
      el(top, "th");
      for (let j = 0; j < cols; j++) {
        el(top, "th", "", indexName(r - 1, r) + "=" + j);
      }
      for (let i = 0; i < rows; i++) {
        const row = el(table, "tr");
        el(row, "th", "", r >= 2 ? indexName(r - 2, r) + "=" + i : "");
        for (let j = 0; j < cols; j++) {
          const k = (n * rows + i) * cols + j;
          const a = st.addresses[k];
          const v = cellValue(l.storage, a);
          const b = button(el(row, "td"), "tp-cell", undefined, function () {
            scanner.stop();
            select(k);
          });
          el(b, "span", "tp-val", v === "" ? "?" : v);
          el(b, "span", "tp-at", "@" + a);
          b.setAttribute("data-index", positionOf(l.shape, k).join(","));
          if (v === "") {
            b.classList.add("tp-out");
          }
          cellButtons.push(b);
        }
      }
    }
  }

  function drawStorage() {
    const l = layout,
      st = state;
    storageBox.textContent = "";
    el(
      storageBox,
      "div",
      "tp-label",
      "storage: " +
        l.storage +
        " slots of " +
        base.dtype +
        "; tinted slots are read, ×n by n positions",
    );
    const slots = el(storageBox, "div", "tp-slots");
    slotBoxes = [];
    for (let a = 0; a < l.storage; a++) {
      const slot = el(slots, "div", "tp-slot");
      slot.setAttribute("data-slot", String(a));
      el(slot, "span", "tp-addr", String(a));
      el(slot, "span", "tp-val", cellValue(l.storage, a));
      const reads = st.reads[a];
      slot.setAttribute("data-reads", String(reads));
      if (reads > 0) {
        slot.classList.add("tp-read");
      }
      if (reads > 1) {
        slot.classList.add("tp-shared");
        el(slot, "span", "tp-count", "×" + reads);
      }
      if (a === l.offset) {
        slot.classList.add("tp-offset");
        slot.title = "the storage offset: the slot of the first position";
      }
      slotBoxes.push(slot);
    }
  }

  // select highlights position k, the other positions reading its slot and
  // the slot, and works its address out.
  function select(k) {
    const st = state,
      l = layout;
    const a = st.addresses[k];
    cellButtons.forEach(function (b, n) {
      b.classList.toggle("tp-on", n === k);
      b.classList.toggle("tp-same", n !== k && st.addresses[n] === a);
    });
    slotBoxes.forEach(function (s, n) {
      s.classList.toggle("tp-on", n === a);
    });
    const idx = positionOf(l.shape, k);
    const v = cellValue(l.storage, a);
    readLine.textContent =
      "[" +
      idx.join(", ") +
      "] reads slot " +
      arithmetic(l, idx) +
      (v === "" ? ", outside the storage" : " (value " + v + ")");
  }

  // scan selects the positions one after another in row-major order,
  // adding each slot read to the trail, and gives the walk's verdict at
  // the end.
  function scan() {
    const st = state;
    scanner.run(
      st.addresses.length,
      300,
      function (k) {
        select(k);
        return {
          delta: k > 0 ? signed(st.deltas[k]) : "",
          className: "tp-chip tp-step-" + st.steps[k],
          slot: String(st.addresses[k]),
        };
      },
      function () {
        return { summary: st.summary, pattern: st.scan };
      },
    );
  }

  // copyGo puts the Go line on the clipboard where the page may, and
  // otherwise selects it for the reader to copy.
  function copyGo() {
    const text = goCode.textContent;
    function selectIt() {
      const range = document.createRange();
      range.selectNodeContents(goCode);
      const sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      copyButton.textContent = "selected";
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () {
        copyButton.textContent = "copied";
      }, selectIt);
    } else {
      selectIt();
    }
  }

  set(clone(data.presets[0].layout));
});
