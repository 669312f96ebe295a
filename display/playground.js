// The script of display.Playground. Go embeds this function expression in
// every playground's output, after interactive.js, which calls it once it
// has found the playground's element (root) and put an empty element (ui)
// where the still picture was, with the playground's data and the helpers
// it shares with the explorer. The data are the tensor x it starts from
// (its storage's values, shape, strides and offset, and how Go and Python
// write it), the presets, and the bounds of the controls. The script
// builds the controls and, for every setting, works out the slot each
// position reads, the reads of each slot, the kind of layout, the op of x
// that makes it and the Go line, with the same arithmetic as
// playlayout.go, whose comments say what each kind means; the tests check
// that the two agree. It keeps its state in this closure and touches only
// its own element, so playgrounds on one page are independent. After
// every change the element's data-state attribute holds what is shown, as
// JSON.
(function (root, ui, data, tools) {
  "use strict";

  const el = tools.el,
    button = tools.button;
  const base = data.base;
  const limits = data.limits;

  // ---- The layout arithmetic: playlayout.go, step for step. ----

  function numel(shape) {
    let n = 1;
    shape.forEach(function (s) {
      n *= s;
    });
    return n;
  }

  function rowMajor(shape) {
    const strides = new Array(shape.length);
    let step = 1;
    for (let d = shape.length - 1; d >= 0; d--) {
      strides[d] = step;
      step *= shape[d];
    }
    return strides;
  }

  function isRowMajor(shape, strides) {
    let expected = 1;
    for (let d = shape.length - 1; d >= 0; d--) {
      if (shape[d] === 1) {
        continue;
      }
      if (strides[d] !== expected) {
        return false;
      }
      expected *= shape[d];
    }
    return true;
  }

  function positionOf(shape, k) {
    const idx = new Array(shape.length);
    for (let d = shape.length - 1; d >= 0; d--) {
      idx[d] = k % shape[d];
      k = Math.floor(k / shape[d]);
    }
    return idx;
  }

  function equal(a, b) {
    return (
      a.length === b.length &&
      a.every(function (v, i) {
        return v === b[i];
      })
    );
  }

  function joined(xs) {
    return xs.join(", ");
  }
  function list(xs) {
    return "[" + joined(xs) + "]";
  }
  function signed(v) {
    return (v >= 0 ? "+" : "") + v;
  }

  function arithmetic(l, idx) {
    let text = String(l.offset);
    let addr = l.offset;
    idx.forEach(function (i, d) {
      const s = l.strides[d];
      text += " + " + i + "·" + (s < 0 ? "(" + s + ")" : String(s));
      addr += i * s;
    });
    return text + " = " + addr;
  }

  function classify(l) {
    const st = {
      layout: l,
      kind: "",
      op: "",
      python: "",
      go: "",
      addresses: [],
      reads: new Array(l.storage).fill(0),
      outside: null,
      headline: "",
      sentence: "",
      detail: "",
      scan: "",
      steps: [],
      deltas: [],
      summary: "",
    };
    const n = numel(l.shape);
    for (let k = 0; k < n; k++) {
      const idx = positionOf(l.shape, k);
      let a = l.offset;
      idx.forEach(function (i, d) {
        a += i * l.strides[d];
      });
      st.addresses.push(a);
      if (a < 0 || a >= l.storage) {
        if (st.outside === null) {
          st.outside = idx;
        }
        continue;
      }
      st.reads[a]++;
    }
    const negative = l.strides.findIndex(function (s) {
      return s < 0;
    });
    let shared = 0,
      most = 0,
      mostReads = 0;
    st.reads.forEach(function (r, slot) {
      if (r > 1) {
        shared++;
      }
      if (r > mostReads) {
        most = slot;
        mostReads = r;
      }
    });
    if (negative >= 0 && !l.numpy) {
      st.kind = "negative";
    } else if (st.outside !== null) {
      st.kind = "out-of-bounds";
    } else if (shared > 0) {
      st.kind = "overlapping";
    } else if (isRowMajor(l.shape, l.strides)) {
      st.kind = "contiguous";
    }
    let op = null;
    if (st.kind !== "negative" && st.kind !== "out-of-bounds") {
      op = findOp(l);
    }
    if (st.kind === "") {
      st.kind = op ? "view" : "strided";
    }
    st.go =
      storageGo(l.storage) +
      ".AsStrided([]int{" +
      joined(l.shape) +
      "}, []int{" +
      joined(l.strides) +
      "}, " +
      l.offset +
      ")";
    if (op) {
      st.op = op.key;
      st.python = op.py;
      if (op.go !== "") {
        st.go = op.go;
      }
    }

    const name = base.name;
    function opClause() {
      return op ? " It is " + describe(op) + "." : "";
    }
    switch (st.kind) {
      case "negative":
        st.headline = "Refused: a negative stride";
        st.sentence =
          "Dimension " +
          negative +
          " has stride " +
          l.strides[negative] +
          ": it walks the storage backwards. NumPy allows that (x[::-1] is a view), PyTorch does not (torch.flip copies); switch to NumPy's rules to see the layout.";
        st.detail =
          "as_strided refuses it: RuntimeError: as_strided: Negative strides are not supported at the moment, got strides: " +
          list(l.strides);
        break;
      case "out-of-bounds": {
        const addr = st.addresses.find(function (a) {
          return a < 0 || a >= l.storage;
        });
        const where =
          addr < 0 ? "before slot 0" : "past the last slot, " + (l.storage - 1);
        st.headline = "Out of bounds";
        st.sentence =
          "Position " +
          list(st.outside) +
          " reads slot " +
          arithmetic(l, st.outside) +
          ", " +
          where +
          ": the storage has slots 0 to " +
          (l.storage - 1) +
          ".";
        if (l.numpy) {
          st.detail =
            "NumPy's as_strided does not check: that position would read memory outside the buffer.";
        } else {
          let need = l.offset + 1;
          l.shape.forEach(function (s, d) {
            need += (s - 1) * l.strides[d];
          });
          st.detail =
            "as_strided refuses it: RuntimeError: setStorage: sizes " +
            list(l.shape) +
            ", strides " +
            list(l.strides) +
            ", storage offset " +
            l.offset +
            ", and itemsize " +
            base.item +
            " requiring a storage size of " +
            need * base.item +
            " are out of bounds for storage of size " +
            l.storage * base.item;
        }
        break;
      }
      case "overlapping":
        st.headline = "Overlapping";
        st.sentence =
          shared +
          " " +
          (shared === 1 ? "slot is" : "slots are") +
          " read by more than one position (slot " +
          most +
          " by " +
          mostReads +
          ")." +
          opClause() +
          " Reading is well defined; writing is not, since one slot cannot keep two values.";
        st.detail =
          "An in-place write, such as y.CopyFrom(z) (y.copy_(z) in PyTorch), is refused: RuntimeError: unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.";
        break;
      case "contiguous":
        st.headline = "Contiguous";
        st.sentence =
          "In row-major order the positions read consecutive slots, from slot " +
          l.offset +
          ", with no gaps.";
        st.sentence += op
          ? opClause()
          : " No single view op of " + name + " makes it: as_strided does.";
        break;
      case "view":
        st.headline =
          op.go === "" ? "A view NumPy makes" : "A view PyTorch makes";
        st.sentence =
          "It is " +
          describe(op) +
          ". Not contiguous, and no slot is read twice.";
        if (op.go === "") {
          st.detail =
            "PyTorch has no negative strides: torch.flip makes a copy, and tensor follows PyTorch (the Go line fails as as_strided does).";
        }
        break;
      case "strided":
        st.headline = "Only as_strided makes this";
        st.sentence =
          "Every position reads a slot of its own inside the storage, but not in row-major order, and no single view op of " +
          name +
          " makes this layout: as_strided does.";
        break;
    }
    walk(l, st);
    return st;
  }

  function walk(l, st) {
    const seen = new Set();
    const jumps = [];
    let repeats = 0,
      outs = 0;
    st.addresses.forEach(function (a, k) {
      const outside = a < 0 || a >= l.storage;
      let step = "jump";
      if (k === 0 && outside) {
        step = "out";
      } else if (k === 0) {
        step = "start";
      } else if (outside) {
        step = "out";
      } else if (seen.has(a)) {
        step = "repeat";
      } else if (a === st.addresses[k - 1] + 1) {
        step = "step";
      }
      const delta = k > 0 ? a - st.addresses[k - 1] : 0;
      if (step === "out") {
        outs++;
      } else if (step === "repeat") {
        repeats++;
      } else if (step === "jump" && jumps.indexOf(signed(delta)) < 0) {
        jumps.push(signed(delta));
      }
      st.steps.push(step);
      st.deltas.push(delta);
      seen.add(a);
    });
    const total = st.addresses.length;
    if (outs > 0) {
      st.scan = "out";
      st.summary =
        "Out of bounds: " +
        outs +
        " of the " +
        total +
        " reads fall outside the storage.";
    } else if (repeats > 0) {
      st.scan = "repeats";
      st.summary =
        "Repeats: " +
        repeats +
        " of the " +
        total +
        " reads go back to a slot already read.";
    } else if (jumps.length > 0) {
      st.scan = "jumps";
      st.summary =
        "Jumps: the reads move through the storage by " +
        jumps.join(", ") +
        ", not one slot at a time.";
    } else {
      st.scan = "steps";
      st.summary =
        "Steps by one: every read is the slot after the one before, so logical order is storage order.";
    }
  }

  function storageGo(n) {
    if (base.blank) {
      return "tensor.Arange(" + n + ")";
    }
    if (n === base.storage) {
      return base.go;
    }
    if (n < base.storage) {
      return base.go + ".AsStrided([]int{" + n + "}, []int{1}, 0).Clone()";
    }
    return (
      "tensor.Cat([]*tensor.Tensor{" +
      base.go +
      ".AsStrided([]int{" +
      base.storage +
      "}, []int{1}, 0), " +
      base.go +
      ".DType().Zeros(" +
      (n - base.storage) +
      ")}, 0)"
    );
  }

  function describe(op) {
    return op.key === "identity"
      ? base.name + " itself, as given"
      : op.py + ": " + op.why;
  }

  function findOp(l) {
    if (l.storage !== base.storage) {
      return null;
    }
    const bs = base.shape,
      bt = base.strides,
      bo = base.offset;
    const s = l.shape,
      t = l.strides,
      o = l.offset;
    const r = bs.length,
      q = s.length;
    const name = base.name;
    if (equal(s, bs) && equal(t, bt) && o === bo) {
      return {
        key: "identity",
        py: base.py,
        go: base.go,
        why: name + " itself",
      };
    }
    if (q === r && o === bo && r >= 2) {
      const perms = permutations(r);
      for (let n = 0; n < perms.length; n++) {
        const p = perms[n];
        const match = p.every(function (d, i) {
          return s[i] === bs[d] && t[i] === bt[d];
        });
        if (!match) {
          continue;
        }
        const why =
          "the sizes and strides of " +
          name +
          "'s dimensions, in another order";
        const moved = [];
        p.forEach(function (d, i) {
          if (i !== d) {
            moved.push(i);
          }
        });
        if (r === 2) {
          return {
            key: "permute",
            py: base.py + ".T",
            go: base.go + ".T()",
            why: why,
          };
        }
        if (moved.length === 2) {
          const args = moved[0] + ", " + moved[1];
          return {
            key: "permute",
            py: base.py + ".transpose(" + args + ")",
            go: base.go + ".Transpose(" + args + ")",
            why: why,
          };
        }
        return {
          key: "permute",
          py: base.py + ".permute(" + joined(p) + ")",
          go: base.go + ".Permute(" + joined(p) + ")",
          why: why,
        };
      }
    }
    const dense = equal(bt, rowMajor(bs));
    if (dense && o === bo && numel(s) === numel(bs) && equal(t, rowMajor(s))) {
      return {
        key: "view",
        py: base.py + ".view(" + joined(s) + ")",
        go: base.go + ".View(" + joined(s) + ")",
        why: name + "'s elements in the same order, under another shape",
      };
    }
    let m = matchIndex(bs, bt, bo, s, t, o, null, l.numpy);
    if (m) {
      return indexOp(base.py, base.go, m.spec, m.negative, name);
    }
    if (q === r - 1 && r >= 2) {
      const d = matchDiagonal(l);
      if (d) {
        return d;
      }
    }
    const e = matchExpand(l);
    if (e) {
      return e;
    }
    const u = matchUnfold(base.py, base.go, name, bs, bt, bo, l);
    if (u) {
      return u;
    }
    if (dense && r >= 2) {
      const flat = [numel(bs)];
      const py = base.py + ".view(-1)",
        go = base.go + ".View(-1)",
        flatName = "the flattened " + name;
      m = matchIndex(flat, [1], bo, s, t, o, null, l.numpy);
      if (m) {
        return indexOp(py, go, m.spec, m.negative, flatName);
      }
      const fu = matchUnfold(py, go, flatName, flat, [1], bo, l);
      if (fu) {
        return fu;
      }
    }
    return null;
  }

  function indexOp(py, go, spec, negative, name) {
    return {
      key: "index",
      py: py + "[" + spec + "]",
      go: negative ? "" : go + '.Index("' + spec + '")',
      why:
        "each stride is " +
        name +
        "'s times the step, an integer index drops its dimension, and the offset moves to the first element taken",
    };
  }

  function permutations(r) {
    const out = [];
    function grow(p) {
      if (p.length === r) {
        if (
          p.some(function (d, i) {
            return d !== i;
          })
        ) {
          out.push(p.slice());
        }
        return;
      }
      for (let d = 0; d < r; d++) {
        if (p.indexOf(d) < 0) {
          grow(p.concat([d]));
        }
      }
    }
    grow([]);
    return out;
  }

  function combinations(r, q) {
    const out = [];
    function grow(c, next) {
      if (c.length === q) {
        out.push(c.slice());
        return;
      }
      for (let d = next; d < r; d++) {
        grow(c.concat([d]), d + 1);
      }
    }
    grow([], 0);
    return out;
  }

  function matchIndex(bs, bt, bo, s, t, o, wild, numpy) {
    const r = bs.length,
      q = s.length;
    if (q > r) {
      return null;
    }
    const choices = combinations(r, q);
    for (let c = 0; c < choices.length; c++) {
      const kept = choices[c];
      const steps = new Array(r).fill(0),
        sizes = new Array(r).fill(0),
        keptAt = new Array(r).fill(-1);
      let fits = true;
      kept.forEach(function (d, j) {
        keptAt[d] = j;
        let size = s[j],
          step = 1;
        if (wild && wild[j]) {
          size = 1;
        } else if (bt[d] === 0) {
          fits = fits && t[j] === 0;
        } else if (t[j] % bt[d] !== 0 || t[j] === 0) {
          fits = false;
        } else {
          step = t[j] / bt[d];
          fits = fits && (step > 0 || numpy);
        }
        steps[d] = step;
        sizes[d] = size;
        fits = fits && (size - 1) * Math.abs(step) <= bs[d] - 1;
      });
      if (!fits) {
        continue;
      }
      const lo = new Array(r),
        hi = new Array(r);
      for (let d = 0; d < r; d++) {
        if (keptAt[d] < 0) {
          lo[d] = 0;
          hi[d] = bs[d] - 1;
        } else if (steps[d] > 0) {
          lo[d] = 0;
          hi[d] = bs[d] - 1 - (sizes[d] - 1) * steps[d];
        } else {
          lo[d] = (sizes[d] - 1) * -steps[d];
          hi[d] = bs[d] - 1;
        }
      }
      const starts = new Array(r).fill(0);
      const solve = function (d, rest) {
        if (d === r) {
          return rest === 0;
        }
        for (let i = lo[d]; i <= hi[d]; i++) {
          starts[d] = i;
          if (solve(d + 1, rest - i * bt[d])) {
            return true;
          }
        }
        return false;
      };
      if (!solve(0, o - bo)) {
        continue;
      }
      let items = [],
        negative = false;
      for (let d = 0; d < r; d++) {
        if (keptAt[d] < 0) {
          items.push(String(starts[d]));
          continue;
        }
        items.push(sliceText(starts[d], sizes[d], steps[d], bs[d]));
        negative = negative || steps[d] < 0;
      }
      while (items.length > 0 && items[items.length - 1] === ":") {
        items.pop();
      }
      return { spec: items.join(", "), negative: negative };
    }
    return null;
  }

  function sliceText(start, size, step, n) {
    if (step > 0) {
      const first = start !== 0 ? String(start) : "";
      const stop =
        Math.floor((n - start + step - 1) / step) !== size
          ? String(start + (size - 1) * step + 1)
          : "";
      const by = step !== 1 ? ":" + step : "";
      return first + ":" + stop + by;
    }
    const first = start !== n - 1 ? String(start) : "";
    const stop =
      Math.floor(start / -step) + 1 !== size
        ? String(start + (size - 1) * step - 1)
        : "";
    return first + ":" + stop + ":" + step;
  }

  function matchDiagonal(l) {
    const bs = base.shape,
      bt = base.strides,
      r = bs.length;
    const longest = Math.max.apply(null, bs);
    for (let d1 = 0; d1 < r; d1++) {
      for (let d2 = d1 + 1; d2 < r; d2++) {
        for (let n = 0; n < 2 * longest; n++) {
          let k = Math.floor((n + 1) / 2);
          if (n % 2 === 0) {
            k = -k;
          }
          let size,
            start = base.offset;
          if (k >= 0) {
            size = Math.min(bs[d1], bs[d2] - k);
            start += k * bt[d2];
          } else {
            size = Math.min(bs[d1] + k, bs[d2]);
            start -= k * bt[d1];
          }
          if (size <= 0 || start !== l.offset) {
            continue;
          }
          const shape = [],
            strides = [];
          for (let d = 0; d < r; d++) {
            if (d !== d1 && d !== d2) {
              shape.push(bs[d]);
              strides.push(bt[d]);
            }
          }
          shape.push(size);
          strides.push(bt[d1] + bt[d2]);
          if (!equal(shape, l.shape) || !equal(strides, l.strides)) {
            continue;
          }
          let py = base.py + ".diagonal(" + k + ", " + d1 + ", " + d2 + ")";
          if (d1 === 0 && d2 === 1) {
            py = base.py + (k !== 0 ? ".diagonal(" + k + ")" : ".diagonal()");
          }
          return {
            key: "diagonal",
            py: py,
            go: base.go + ".Diagonal(" + k + ", " + d1 + ", " + d2 + ")",
            why:
              "one step moves along dimensions " +
              d1 +
              " and " +
              d2 +
              " of " +
              base.name +
              " at once, stride " +
              bt[d1] +
              " + " +
              bt[d2] +
              " = " +
              (bt[d1] + bt[d2]),
          };
        }
      }
    }
    return null;
  }

  function matchExpand(l) {
    const s = l.shape,
      t = l.strides;
    function stretched(j) {
      return t[j] === 0 && s[j] > 1;
    }
    let lead = 0;
    while (lead < s.length && stretched(lead)) {
      lead++;
    }
    const wild = [];
    let stretch = lead > 0;
    for (let j = lead; j < s.length; j++) {
      wild.push(stretched(j));
      stretch = stretch || stretched(j);
    }
    if (!stretch) {
      return null;
    }
    const m = matchIndex(
      base.shape,
      base.strides,
      base.offset,
      s.slice(lead),
      t.slice(lead),
      l.offset,
      wild,
      l.numpy,
    );
    if (!m) {
      return null;
    }
    let py = base.py,
      go = base.go;
    if (m.spec !== "") {
      py += "[" + m.spec + "]";
      go += '.Index("' + m.spec + '")';
    }
    return {
      key: "expand",
      py: py + ".expand(" + joined(s) + ")",
      go: m.negative ? "" : go + ".Expand(" + joined(s) + ")",
      why: "stride 0 reads one slot all along a stretched dimension, so nothing is copied",
    };
  }

  function matchUnfold(py, go, name, bs, bt, bo, l) {
    if (l.shape.length !== bs.length + 1 || l.offset !== bo) {
      return null;
    }
    for (let d = 0; d < bs.length; d++) {
      for (let size = 1; size <= bs[d]; size++) {
        for (let step = 1; step <= bs[d]; step++) {
          const shape = bs.slice(),
            strides = bt.slice();
          shape[d] = Math.floor((bs[d] - size) / step) + 1;
          strides[d] *= step;
          shape.push(size);
          strides.push(bt[d]);
          if (!equal(shape, l.shape) || !equal(strides, l.strides)) {
            continue;
          }
          const args = d + ", " + size + ", " + step;
          return {
            key: "unfold",
            py: py + ".unfold(" + args + ")",
            go: go + ".Unfold(" + args + ")",
            why:
              "windows of " +
              size +
              " elements of " +
              name +
              ", one every " +
              step +
              ", so windows share slots when the step is smaller than the window",
          };
        }
      }
    }
    return null;
  }

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
