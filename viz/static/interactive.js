// gamesolver interactive tree: collapse/expand subtrees; on editable trees, edit a leaf and see
// minimax or alpha-beta recomputed. The data comes from the page's <script id="tree-data">.
// The searches below follow solver/minimax.py line for line (AIMA's fail-soft alpha-beta, ties
// to the first best child) and the bound rule of viz: a value v <= alpha on entry is an upper
// bound, v >= beta on entry a lower bound, otherwise exact.
(function () {
  "use strict";
  var DATA = JSON.parse(document.getElementById("tree-data").textContent);
  var SVGNS = "http://www.w3.org/2000/svg";
  var FOLD_ABOVE = 40, GAP = 46, ROW = 74, HALF_W = 19, HALF_H = 16, TOP = 34, LEFT = 40;
  var root = DATA.tree, algorithm = DATA.algorithm, selected = null, stats = null;
  var original = {};

  function num(v) {
    if (v === null || v === undefined) { return ""; }
    if (v === "inf" || v === Infinity) { return "+\u221e"; }
    if (v === "-inf" || v === -Infinity) { return "\u2212\u221e"; }
    // as viz.notation writes numbers: a true minus sign (U+2212), 3 significant digits
    var text = Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(3)));
    return text.replace("-", "\u2212");
  }
  function each(node, f) { f(node); node.children.forEach(function (c) { each(c, f); }); }
  each(root, function (n) { if (n.leafValue !== undefined) { original[n.path] = n.leafValue; } });

  // ---- the searches (editable trees only) ----
  function search() {
    var prune = algorithm === "alphabeta";
    stats = { searched: 0, pruned: 0, cutoffs: 0 };
    each(root, function (n) {
      n.kind = "pruned"; n.value = null; n.bound = "exact";
      n.principal = false; n.optimal = false; n.cut = null;
    });
    function value(n, alpha, beta) {
      n.kind = "node"; stats.searched += 1;
      var alphaIn = alpha, betaIn = beta;
      if (n.children.length === 0) { n.value = n.leafValue; n.bound = "exact"; return n.value; }
      var max = n.player === 0, v = max ? -Infinity : Infinity;
      for (var i = 0; i < n.children.length; i++) {
        var v2 = value(n.children[i], alpha, beta);
        if (i === 0 || (max ? v2 > v : v2 < v)) { v = v2; }
        if (!prune) { continue; }
        var cut = false;
        if (max) { alpha = Math.max(alpha, v); cut = v >= beta; }
        else { beta = Math.min(beta, v); cut = v <= alpha; }
        if (cut) {
          var rest = n.children.length - i - 1;
          if (rest > 0) {
            stats.cutoffs += 1; stats.pruned += rest;
            n.children[i + 1].cut = max ? "v=" + num(v) + " \u2265 \u03b2=" + num(beta)
              : "v=" + num(v) + " \u2264 \u03b1=" + num(alpha);
          }
          break;
        }
      }
      n.value = v;
      n.bound = v <= alphaIn && alphaIn !== -Infinity ? "upper"
        : (v >= betaIn && betaIn !== Infinity ? "lower" : "exact");
      return v;
    }
    value(root, -Infinity, Infinity);
    markPrincipal();
  }

  // The principal path and the optimal moves, as viz/build.py marks them: a node's principal
  // child is an exact child worth the node's value; among several, the quickest win or the
  // slowest loss or draw for the mover (every leaf here is a game end), then the first.
  function markPrincipal() {
    var plies = new Map(), choice = new Map();
    (function post(n) {
      n.children.forEach(post);
      if (n.kind !== "node" || n.value === null) { return; }
      var kids = n.children.filter(function (c) {
        return c.kind === "node" && c.value === n.value && c.bound === "exact";
      });
      if (kids.length === 0) { plies.set(n, 0); return; }
      var mover = n.player === 0 ? n.value : -n.value;
      function preference(c) { var p = (plies.get(c) || 0) + 1; return mover > 0 ? p : -p; }
      var best = kids[0];
      kids.forEach(function (c) { if (preference(c) < preference(best)) { best = c; } });
      choice.set(n, best);
      plies.set(n, (plies.get(best) || 0) + 1);
      if (n.bound === "exact" && n.children.length >= 2) {
        kids.forEach(function (c) { c.optimal = true; });
      }
    })(root);
    var n = root;
    root.principal = root.value !== null;
    while (choice.has(n)) { n = choice.get(n); n.principal = true; }
  }

  // the caption's line, worded as viz.dot.summary_line words it
  function summary() {
    if (!DATA.editable) { return DATA.summary; }
    var parts = ["value " + num(root.value)], moves = [], n = root, total = 0;
    while (true) {
      var next = n.children.filter(function (c) { return c.principal; })[0];
      if (!next) { break; }
      moves.push(next.move); n = next;
    }
    if (moves.length) { parts.push("best move " + moves[0], "principal variation " + moves.join(" ")); }
    parts.push(stats.searched.toLocaleString("en-US") + " nodes searched");
    each(root, function () { total += 1; });  // minimax searches every position of the tree
    if (stats.pruned) {
      parts.push(stats.pruned.toLocaleString("en-US") + (stats.pruned === 1 ? " move" : " moves") +
        " pruned, " +
        (total - stats.searched).toLocaleString("en-US") + " nodes saved versus minimax's " +
        total.toLocaleString("en-US"));
    }
    return parts.join("; ");
  }

  // ---- layout: leaves (and collapsed nodes) left to right, parents centred over children ----
  function layout() {
    var x = 0, depth = 0;
    function place(n, d) {
      n.y = TOP + d * ROW; depth = Math.max(depth, d);
      if (n.children.length === 0 || n.collapsed) { n.x = LEFT + x * GAP; x += 1; return; }
      n.children.forEach(function (c) { place(c, d + 1); });
      n.x = (n.children[0].x + n.children[n.children.length - 1].x) / 2;
    }
    place(root, 0);
    // room on the right for a cut written beside the last pruned edge
    return { width: LEFT + 110 + Math.max(x - 1, 0) * GAP, height: TOP + depth * ROW + 40 };
  }

  function el(name, attrs, parent) {
    var e = document.createElementNS(SVGNS, name);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (parent) { parent.appendChild(e); }
    return e;
  }
  function shape(n, g) {
    var x = n.x, y = n.y, pts;
    if (n.leaf || n.kind === "summary") {
      return el("rect", { x: x - HALF_W, y: y - HALF_H, width: 2 * HALF_W, height: 2 * HALF_H,
        rx: n.leaf === "horizon" || n.kind === "summary" ? 6 : 0 }, g);
    }
    pts = n.player === 0 ? [[x - HALF_W, y + HALF_H], [x + HALF_W, y + HALF_H], [x, y - HALF_H]]
      : [[x - HALF_W, y - HALF_H], [x + HALF_W, y - HALF_H], [x, y + HALF_H]];
    return el("polygon", { points: pts.map(function (p) { return p.join(","); }).join(" ") }, g);
  }
  function text(content, attrs, parent) { var t = el("text", attrs, parent); t.textContent = content; return t; }
  function hidden(n) { var k = 0; n.children.forEach(function (c) { k += 1 + hidden(c); }); return k; }
  function shown(n) { return n.bound === "lower" ? "\u2265" + num(n.value) : n.bound === "upper" ? "\u2264" + num(n.value) : num(n.value); }

  function draw() {
    var size = layout(), svg = document.getElementById("tree");
    svg.setAttribute("width", size.width); svg.setAttribute("height", size.height);
    svg.setAttribute("viewBox", "0 0 " + size.width + " " + size.height);
    while (svg.firstChild) { svg.removeChild(svg.firstChild); }
    var edges = el("g", { class: "edges" }, svg), nodes = el("g", { class: "nodes" }, svg);
    (function walk(n) {
      var role = n.leaf ? "leaf" : (n.kind === "summary" ? "summary" : (n.player === 0 ? "max" : "min"));
      var cls = ["node", role, n.kind];
      if (n.principal) { cls.push("principal"); }
      if (n.optimal && !n.principal) { cls.push("optimal"); }
      if (n.collapsed) { cls.push("collapsed"); }
      if (n.leaf && n.kind === "node") { cls.push("valued"); }
      if (selected === n) { cls.push("selected"); }
      var g = el("g", { class: cls.join(" "), id: "p-" + n.path, "data-path": n.path,
        "data-value": n.value === null ? "" : String(n.value), "data-bound": n.bound,
        "data-kind": n.kind }, nodes);
      el("title", {}, g).textContent = (n.state || n.path) + (n.cut ? " | pruned by " + n.cut : "");
      shape(n, g);
      var label = n.kind === "node" || (n.kind === "pruned" && n.value !== null && DATA.reveal) ? shown(n) : "";
      if (n.kind === "summary") { label = "\u2026" + n.positions; }
      // an editable tree shows the pruned leaves' values too (grey): they are what one edits
      if (DATA.editable && n.kind === "pruned" && n.children.length === 0) { label = num(n.leafValue); }
      if (n.label && n.kind === "node") { label = n.label; }
      var dy = n.leaf || n.kind === "summary" ? 5 : (n.player === 0 ? 9 : -2);
      text(label, { x: n.x, y: n.y + dy, class: "value" }, g);
      if (n.name) { text(n.name, { x: n.x - HALF_W - 5, y: n.y + 5, class: "name" }, g); }
      if (n.hits > 1) { text("\u00d7" + n.hits, { x: n.x + HALF_W + 3, y: n.y + 12, class: "hits" }, g); }
      if (n.collapsed) {
        text("+" + hidden(n), { x: n.x, y: n.y + HALF_H + 14, class: "badge" }, g);
        return;
      }
      n.children.forEach(function (c) {
        var ec = ["edge", c.kind === "pruned" ? "pruned" : "", c.principal ? "principal" : "",
          c.optimal && !c.principal ? "optimal" : ""].join(" ").replace(/\s+/g, " ").trim();
        var e = el("g", { class: ec }, edges);
        el("line", { x1: n.x, y1: n.y + HALF_H, x2: c.x, y2: c.y - HALF_H }, e);
        if (c.move !== "") {
          text(c.move, { x: n.x + (c.x - n.x) * 0.45 + 4, y: n.y + HALF_H + (c.y - n.y - 2 * HALF_H) * 0.45, class: "move" }, e);
        }
        if (c.cut) {
          text("\u2702 " + c.cut, { x: n.x + (c.x - n.x) * 0.7 + 6, y: n.y + HALF_H + (c.y - n.y - 2 * HALF_H) * 0.7 + 4, class: "cut" }, e);
        }
        walk(c);
      });
    })(root);
    document.getElementById("summary").textContent = summary();
  }

  // ---- interaction ----
  function find(path) {
    var found = null;
    each(root, function (n) { if (n.path === path) { found = n; } });
    return found;
  }
  function toggle(n) { if (n.children.length) { n.collapsed = !n.collapsed; draw(); } }
  function select(n) {
    selected = n;
    var box = document.getElementById("edit");
    box.hidden = false;
    document.getElementById("edit-where").textContent = "leaf " + (n.state || n.path);
    document.getElementById("edit-value").value = String(n.leafValue);
    draw();
  }
  function setLeaf(n, v) {
    if (!DATA.editable || !n || n.children.length || !isFinite(v)) { return false; }
    n.leafValue = v;
    if (n === selected) { document.getElementById("edit-value").value = String(v); }
    search(); draw(); return true;
  }
  document.getElementById("tree").addEventListener("click", function (e) {
    var g = e.target.closest("g.node");
    if (!g) { return; }
    var n = find(g.getAttribute("data-path"));
    if (n.children.length) { toggle(n); } else if (DATA.editable) { select(n); }
  });
  if (DATA.editable) {
    document.getElementById("edit-value").addEventListener("change", function () {
      var v = parseFloat(this.value);
      if (selected && !setLeaf(selected, v)) { this.value = String(selected.leafValue); }
    });
    document.getElementById("algorithm").addEventListener("change", function () {
      algorithm = this.value; search(); draw();
    });
    document.getElementById("reset").addEventListener("click", function () {
      each(root, function (n) { if (n.path in original) { n.leafValue = original[n.path]; } });
      if (selected) { document.getElementById("edit-value").value = String(selected.leafValue); }
      search(); draw();
    });
    search();
  }
  // a large tree opens folded: the principal path and the moves beside it, the rest one click away
  var leaves = 0;
  each(root, function (n) { if (n.children.length === 0) { leaves += 1; } });
  if (leaves > FOLD_ABOVE) {
    each(root, function (n) { n.collapsed = n.children.length > 0 && !n.principal; });
  }
  document.getElementById("expand").addEventListener("click", function () {
    each(root, function (n) { n.collapsed = false; }); draw();
  });
  draw();

  // ?autotest=edit:1.0=7,click:1,algorithm:minimax,report,...  performs those actions once the
  // page has loaded; "report" (and the end of the list) writes every drawn node's path, kind,
  // value, bound and whether it is on the principal path, and the summary, into the element
  // #autotest, reports apart by "---".
  function report() {
    var rows = [];
    Array.prototype.forEach.call(document.querySelectorAll("#tree g.node"), function (g) {
      rows.push([g.getAttribute("data-path"), g.getAttribute("data-kind"),
        g.getAttribute("data-value"), g.getAttribute("data-bound"),
        g.classList.contains("principal") ? "principal" : "-"].join(" "));
    });
    rows.push("summary " + document.getElementById("summary").textContent);
    return rows.join("\n");
  }
  var script = new URLSearchParams(location.search).get("autotest");
  if (script !== null) {
    var reports = [];
    script.split(",").filter(Boolean).forEach(function (action) {
      var m = /^(edit|click|algorithm|report|reset)(?::([^=]*)(?:=(.*))?)?$/.exec(action);
      if (!m) { reports.push("unknown action " + action); return; }
      if (m[1] === "edit") { setLeaf(find(m[2]), parseFloat(m[3])); }
      if (m[1] === "click") {  // a real click on the node, through the page's own handler
        var g = document.getElementById("p-" + m[2]);
        if (g) { g.dispatchEvent(new MouseEvent("click", { bubbles: true })); }
      }
      if (m[1] === "algorithm" && DATA.editable) { algorithm = m[2]; search(); draw(); }
      if (m[1] === "reset" && DATA.editable) { document.getElementById("reset").click(); }
      if (m[1] === "report") { reports.push(report()); }
    });
    if (!/report$/.test(script)) { reports.push(report()); }
    var out = document.createElement("pre");
    out.id = "autotest"; out.textContent = reports.join("\n---\n");
    document.body.appendChild(out);
  }
})();
