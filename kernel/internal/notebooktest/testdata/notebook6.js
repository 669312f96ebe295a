// Measures what Notebook 6 drew for one output of one cell, for
// notebook6_test.go. It is an expression: a function of the cell's index,
// the output's index and the picture's known labels (the texts of its SVG
// form), which returns what the test checks:
//
//   found     whether the output has an output area
//   classes   the class of the output's subarea (output_html, output_svg,
//             output_text, ...), which says which MIME type Notebook chose
//   html      the start of the HTML it inserted, after sanitizing
//   visible   the subarea's box
//   area      the same box, with its full scroll extent
//   images    each <img>: the start of its src, whether it loaded, its box
//   boxes     each place a known label is drawn on its own, with its box
//   missing   the known labels drawn nowhere on their own
//
// A label is drawn on its own where an element or a text node holds just
// that text (spaces collapsed) and no descendant of it does. The labels
// inside an <img> of an SVG data URI are the <text> elements of that SVG:
// the SVG is put off screen at the image's size to measure them, and
// their boxes are moved onto the image. An <img> of a PNG that was drawn
// from an SVG (pngSVG, the output's SVG form, or "") is measured the same
// way, with that SVG.
(function (cellIndex, outputIndex, labels, pngSVG) {
  var wanted = new Set(labels);
  var norm = function (s) {
    return s.replace(/\s+/g, " ").trim();
  };
  var box = function (r) {
    return { x: r.left, y: r.top, w: r.width, h: r.height };
  };

  var cell = Jupyter.notebook.get_cell(cellIndex);
  var areas = cell.output_area.element.children(".output_area");
  var result = {
    found: false,
    classes: "",
    html: "",
    visible: null,
    area: null,
    images: [],
    boxes: [],
    missing: [],
  };
  if (outputIndex >= areas.length) {
    return result;
  }
  var sub = areas[outputIndex].querySelector(".output_subarea");
  if (!sub) {
    return result;
  }
  result.found = true;
  result.classes = sub.className;
  result.html = sub.innerHTML.slice(0, 400);
  var r = sub.getBoundingClientRect();
  result.visible = box(r);
  result.area = {
    x: r.left,
    y: r.top,
    w: Math.max(r.width, sub.scrollWidth),
    h: Math.max(r.height, sub.scrollHeight),
  };

  var drawn = new Set();
  var add = function (text, rect) {
    if (rect.width > 0 && rect.height > 0) {
      var b = box(rect);
      b.text = text;
      result.boxes.push(b);
      drawn.add(text);
    }
  };

  // Labels in the page itself: HTML, or an inline <svg>.
  var nodes = [];
  var walk = document.createTreeWalker(
    sub,
    NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT,
  );
  for (var n = walk.nextNode(); n; n = walk.nextNode()) {
    var text = norm(n.textContent);
    if (wanted.has(text)) {
      nodes.push({ node: n, text: text });
    }
  }
  nodes.forEach(function (m) {
    var inner = nodes.some(function (o) {
      return o !== m && o.text === m.text && m.node.contains(o.node);
    });
    if (!inner) {
      var range = document.createRange();
      range.selectNodeContents(m.node);
      add(m.text, range.getBoundingClientRect());
    }
  });

  // Labels inside images.
  sub.querySelectorAll("img").forEach(function (img) {
    var src = img.getAttribute("src") || "";
    var ir = img.getBoundingClientRect();
    var info = {
      src: src.slice(0, 40),
      loaded: img.complete && img.naturalWidth > 0,
      x: ir.left,
      y: ir.top,
      w: ir.width,
      h: ir.height,
      naturalW: img.naturalWidth,
    };
    result.images.push(info);
    var m = /^data:image\/svg\+xml(;[^,]*)?,/.exec(src);
    var png = pngSVG && src.indexOf("data:image/png;") === 0;
    if (!(m || png) || !info.loaded) {
      return;
    }
    var svgText;
    if (png) {
      svgText = pngSVG;
    } else if ((m[1] || "").indexOf(";base64") >= 0) {
      var data = src.slice(m[0].length);
      var bytes = Uint8Array.from(atob(data), function (c) {
        return c.charCodeAt(0);
      });
      svgText = new TextDecoder().decode(bytes);
    } else {
      svgText = decodeURIComponent(src.slice(m[0].length));
    }
    var svg = new DOMParser().parseFromString(
      svgText,
      "image/svg+xml",
    ).documentElement;
    if (svg.nodeName !== "svg") {
      return;
    }
    var host = document.createElement("div");
    host.style.cssText = "position:fixed;left:-30000px;top:0;";
    host.appendChild(document.importNode(svg, true));
    document.body.appendChild(host);
    var placed = host.firstChild;
    placed.setAttribute("width", ir.width);
    placed.setAttribute("height", ir.height);
    var sr = placed.getBoundingClientRect();
    placed.querySelectorAll("text").forEach(function (t) {
      var text = norm(t.textContent);
      if (wanted.has(text)) {
        var tr = t.getBoundingClientRect();
        add(
          text,
          new DOMRect(
            tr.left - sr.left + ir.left,
            tr.top - sr.top + ir.top,
            tr.width,
            tr.height,
          ),
        );
      }
    });
    host.remove();
  });

  result.missing = labels.filter(function (l) {
    return !drawn.has(l);
  });
  return result;
});
