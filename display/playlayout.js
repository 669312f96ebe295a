// The stride playground's layout arithmetic in the page: playlayout.go,
// function for function. For one setting of the controls it works out the
// slot every position reads, how often each slot is read, the kind of
// layout, the view op of x that makes it and the Go line. Each function
// here is playlayout.go's of the same name without "play" (classify is
// playClassify, findOp playFindOp), whose comments say what each kind and
// op means; equal and signed stand in for Go's slices.Equal and %+d.
//
// Why twice: a playground also runs where no kernel is (an exported
// notebook, the static site), and its controls must answer any setting a
// reader types at once. Go cannot answer for it beforehand: the settings
// (up to 64 slots, 4 dimensions, strides from -128 to 128, offsets to 128)
// are far too many, and even the layouts that view ops of x make are tens
// of thousands for a 3×4 x (expands of its 12 elements alone: 12 × 3,982).
// Go compiled to WebAssembly would add megabytes to every output (2.6 MB
// for a program that only prints with fmt). So this copy stays, held to
// Go's by a table: Go writes settings and what playlayout.go says of each
// to testdata/playground/table.json (go generate ./display writes it, and
// TestPlaygroundTable fails when it is stale), and the browser test
// TestPlaygroundTableInBrowser replays every setting through this script
// and wants the same states.
//
// Go embeds this function expression in every playground's output, and
// playground.js calls it with the tensor x the playground starts from
// (base: its storage's values, shape, strides and offset, and how Go and
// Python write it). It returns classify, whose state the page shows, and
// the helpers the page uses too.
(function (base) {
  "use strict";

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

  function join(xs) {
    return xs.join(", ");
  }
  function list(xs) {
    return "[" + join(xs) + "]";
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

  // classify works out what the playground shows for layout l.
  function classify(l) {
    const st = {
      layout: l,
      kind: "",
      op: "",
      python: "",
      go: "",
      addresses: [],
      reads: [],
      outside: null,
      headline: "",
      sentence: "",
      detail: "",
      scan: "",
      steps: [],
      deltas: [],
      summary: "",
    };
    addresses(l, st);
    const negative = l.strides.findIndex(function (s) {
      return s < 0;
    });
    if (negative >= 0 && !l.numpy) {
      st.kind = "negative";
    } else if (st.outside !== null) {
      st.kind = "out-of-bounds";
    } else if (shared(st.reads).shared > 0) {
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
      join(l.shape) +
      "}, []int{" +
      join(l.strides) +
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
    explain(st, op);
    walk(l, st);
    return st;
  }

  // addresses fills in st.addresses, st.reads and st.outside, which Go's
  // playAddresses returns.
  function addresses(l, st) {
    st.reads = new Array(l.storage).fill(0);
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
  }

  // shared returns { shared, most, mostReads }: playShared's three.
  function shared(reads) {
    const s = { shared: 0, most: 0, mostReads: 0 };
    reads.forEach(function (r, slot) {
      if (r > 1) {
        s.shared++;
      }
      if (r > s.mostReads) {
        s.most = slot;
        s.mostReads = r;
      }
    });
    return s;
  }

  // explain writes st's headline, sentence and detail for its kind.
  function explain(st, op) {
    const l = st.layout,
      name = base.name;
    function opClause() {
      return op ? " It is " + describe(op) + "." : "";
    }
    switch (st.kind) {
      case "negative": {
        const negative = l.strides.findIndex(function (s) {
          return s < 0;
        });
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
      }
      case "out-of-bounds":
        explainOutOfBounds(st);
        break;
      case "overlapping": {
        const s = shared(st.reads);
        st.headline = "Overlapping";
        st.sentence =
          s.shared +
          " " +
          (s.shared === 1 ? "slot is" : "slots are") +
          " read by more than one position (slot " +
          s.most +
          " by " +
          s.mostReads +
          ")." +
          opClause() +
          " Reading is well defined; writing is not, since one slot cannot keep two values.";
        st.detail =
          "An in-place write, such as y.CopyFrom(z) (y.copy_(z) in PyTorch), is refused: RuntimeError: unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.";
        break;
      }
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
  }

  // explainOutOfBounds names the first position outside the storage.
  function explainOutOfBounds(st) {
    const l = st.layout;
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
      return;
    }
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
          py: base.py + ".permute(" + join(p) + ")",
          go: base.go + ".Permute(" + join(p) + ")",
          why: why,
        };
      }
    }
    const dense = equal(bt, rowMajor(bs));
    if (dense && o === bo && numel(s) === numel(bs) && equal(t, rowMajor(s))) {
      return {
        key: "view",
        py: base.py + ".view(" + join(s) + ")",
        go: base.go + ".View(" + join(s) + ")",
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
      py: py + ".expand(" + join(s) + ")",
      go: m.negative ? "" : go + ".Expand(" + join(s) + ")",
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

  return {
    classify: classify,
    numel: numel,
    positionOf: positionOf,
    arithmetic: arithmetic,
    signed: signed,
  };
});
