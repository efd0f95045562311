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
  var FRAMES = DATA.frames, steps = null;
  var last = FRAMES.captions.length - 1, frame = last;  // the step shown (last: finished)
  // an engine's iterative deepening: one tree per iteration, the stepper steps through them
  var ITERATIONS = DATA.iterations || null, iteration = ITERATIONS ? ITERATIONS.length - 1 : 0;
  var mcts = DATA.algorithm === "mcts";
  var zoom = 1.4, labels = DATA.algorithm === "alphabeta";  // large enough to project
  var NOTE_GAP = 130;  // the least distance between leaves when windows and ranges are shown
  var original = {};
  // --boards: each position's board drawn inside the tree, under its node, in rows tall and
  // columns wide enough for the largest board (the hover panel shows it larger too)
  var BOARD_LINE = 11, BOARD_CHAR = 6.4, boardRows = 0, boardCols = 0;
  if (DATA.boards) {
    (function measure(n) {
      if (n.board) {
        var lines = String(n.board).split("\n");
        boardRows = Math.max(boardRows, lines.length);
        lines.forEach(function (l) { boardCols = Math.max(boardCols, l.length); });
      }
      n.children.forEach(measure);
    })(DATA.tree);
  }
  var BOARD_H = boardRows ? boardRows * BOARD_LINE + 8 : 0, BOARD_W = boardCols * BOARD_CHAR;

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
    steps = [];
    each(root, function (n) {
      n.kind = "pruned"; n.value = null; n.bound = "exact";
      n.principal = false; n.optimal = false; n.cut = null;
      n.opened = null; n.reveal = null; n.step = null;
    });
    function value(n, alpha, beta) {
      n.kind = "node"; stats.searched += 1;
      var alphaIn = alpha, betaIn = beta;
      n.alphaIn = alpha; n.betaIn = beta;
      if (n.children.length === 0) {
        n.value = n.leafValue; n.bound = "exact"; steps.push({ kind: "leaf", node: n });
        return n.value;
      }
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
            steps.push({ kind: "cut", node: n });
          }
          break;
        }
      }
      n.value = v;
      n.bound = v <= alphaIn && alphaIn !== -Infinity ? "upper"
        : (v >= betaIn && betaIn !== Infinity ? "lower" : "exact");
      steps.push({ kind: "backup", node: n });
      return v;
    }
    value(root, -Infinity, Infinity);
    markPrincipal();
    markSteps();
    last = steps.length; frame = last;
  }

  // The frame at which each node appears and is valued or cut, as viz/build.py's _mark_steps:
  // a node appears with the first step in its subtree, a pruned subtree with its cut.
  function markSteps() {
    var parents = new Map();
    each(root, function (n) { n.children.forEach(function (c) { parents.set(c, n); }); });
    steps.forEach(function (s, i) {
      var index = i + 1, n = s.node;
      while (n && n.opened === null) { n.opened = index; n = parents.get(n); }
      if (s.kind === "cut") {
        s.node.children.forEach(function (c) {
          each(c, function (d) {
            if (d.kind === "pruned" && d.step === null) { d.step = index; d.opened = index; }
          });
        });
      } else { s.node.reveal = index; s.node.step = index; }
    });
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

  // ---- stepping: what step k shows at a node, as viz.model.Frame says ----
  // A tree the page does not search shows the Python frames (DATA.frames, by node key); an
  // editable tree shows its own search's steps, marked by the same rules, so that an edited
  // tree steps through the new search.
  function pythonLook(n, k) {
    var changes = FRAMES.nodes[n.key];
    if (!changes) { return [k >= last, "", "", ""]; }
    var out = changes[0];
    for (var i = 0; i < changes.length && changes[i][0] <= k; i++) { out = changes[i]; }
    return out.slice(1);
  }
  function ownLook(n, k) {
    var visible = n === root || (n.opened !== null && n.opened <= k);
    var known = n.kind === "pruned" ? n.step !== null && n.step <= k
      : n.reveal !== null && n.reveal <= k;
    var ab = algorithm === "alphabeta", inner = n.children.length > 0 && n.kind === "node";
    var range = "";
    if (ab && inner && visible) {
      var lo = -Infinity, hi = Infinity;
      if (known) {
        lo = n.bound === "upper" ? -Infinity : n.value; hi = n.bound === "lower" ? Infinity : n.value;
      } else {
        n.children.forEach(function (c) {
          if (c.kind !== "node" || c.reveal === null || c.reveal > k || c.value === null) { return; }
          if (n.player === 0 && c.bound !== "upper") { lo = Math.max(lo, c.value); }
          if (n.player === 1 && c.bound !== "lower") { hi = Math.min(hi, c.value); }
        });
      }
      range = "[" + num(lo) + ", " + num(hi) + "]";
    }
    return [visible, n.kind === "node" && known ? shown(n) : "", range, ab && inner ? windowText(n) : ""];
  }
  function look(n, k) { return DATA.editable ? ownLook(n, k) : pythonLook(n, k); }
  function edited() {
    var changed = algorithm !== DATA.algorithm;
    each(root, function (n) { if (n.path in original && original[n.path] !== n.leafValue) { changed = true; } });
    return changed;
  }
  function currentKey(k) {
    if (k >= last) { return null; }
    if (!DATA.editable) { return FRAMES.current[k]; }
    return k > 0 && k < last ? steps[k - 1].node.key : null;
  }
  function lineAt(k) {
    if (!DATA.editable) { return FRAMES.lines[k]; }
    if (k === 0) { return null; }
    var s = steps[k - 1];
    return (s.node.player === 0 ? "max-" : "min-") + { leaf: "leaf", backup: "return", cut: "cut" }[s.kind];
  }
  function caption(k) {
    if (!DATA.editable || !edited()) { return FRAMES.captions[k]; }
    if (k === 0) { return "before the search: it starts at the root"; }
    var s = steps[k - 1], n = s.node, who = (n.player === 0 ? "MAX" : "MIN") + " node " + n.title;
    var text = s.kind === "leaf" ? "position " + n.title + " is worth " + num(n.value)
      : s.kind === "cut" ? "cut-off at " + who + ": " +
        n.children.filter(function (c) { return c.cut; })[0].cut
      : who + " backs up " + shown(n);
    return "step " + k + ": " + text + (k === last ? " (" + summary() + ")" : "");
  }

  // ---- layout: leaves (and collapsed nodes) left to right, parents centred over children ----
  // a leaf is as wide as its label (Ayoayo's captured seeds [12, 8]) and its value
  function notesWidth(n) {  // the texts written beside a node: MCTS's W/N, UCB and exact value
    if (n.notes) {  // an engine's node: order, window and table hit, as the model writes them
      var widest = 0;
      n.notes.concat(n.tableNote ? [n.tableNote] : []).forEach(function (t) {
        widest = Math.max(widest, t.length);
      });
      return 6.2 * widest;
    }
    if (!mcts) { return 0; }
    var wide = 0;  // the widest at any step (a child not yet visited: "UCB +∞ (unvisited)")
    (FRAMES.nodes[n.key] || []).forEach(function (change) {
      change.slice(2).forEach(function (t) { wide = Math.max(wide, t.length); });
    });
    return 6.6 * wide;
  }
  function halfWidth(n) {
    if (!(n.children.length === 0 || n.collapsed) || !n.label) { return HALF_W; }
    return Math.max(HALF_W, 4 + 4 * Math.max(n.label.length, shown(n).length));
  }
  function layout() {
    var cursor = LEFT, depth = 0, step = labels ? NOTE_GAP : GAP;
    function place(n, d) {
      n.y = TOP + d * (ROW + BOARD_H); depth = Math.max(depth, d);
      if (n.children.length === 0 || n.collapsed) {
        var half = halfWidth(n), notes = notesWidth(n);
        n.x = cursor + Math.max(half, BOARD_W / 2);
        var beside = n.notes ? 2 * half + notes + 14 : (notes ? half + notes + 24 : 0);
        cursor += Math.max(step, 2 * half + 8, beside, BOARD_W + 14);
        return;
      }
      n.children.forEach(function (c) { place(c, d + 1); });
      n.x = (n.children[0].x + n.children[n.children.length - 1].x) / 2;
      // what is placed later stands right of this node's notes (an engine's window, order)
      if (n.notes) { cursor = Math.max(cursor, n.x + HALF_W + notesWidth(n) + 16); }
    }
    place(root, 0);
    // room on the right for a cut written beside the last pruned edge, or a node's notes
    return { width: cursor + 110, height: TOP + depth * (ROW + BOARD_H) + 40 + BOARD_H };
  }
  function windowText(n) {
    if (n.alphaIn === undefined || n.alphaIn === null || n.kind !== "node") { return ""; }
    return "\u03b1=" + num(n.alphaIn) + " \u03b2=" + num(n.betaIn);
  }
  function rangeText(n) {
    if (n.kind !== "node" || n.value === null || n.value === undefined) { return ""; }
    var lo = n.bound === "upper" ? -Infinity : n.value, hi = n.bound === "lower" ? Infinity : n.value;
    return "[" + num(lo) + ", " + num(hi) + "]";
  }

  function el(name, attrs, parent) {
    var e = document.createElementNS(SVGNS, name);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (parent) { parent.appendChild(e); }
    return e;
  }
  function shape(n, g) {
    var x = n.x, y = n.y, pts, half = halfWidth(n);
    if (n.table && n.kind === "node") {  // answered by the engine's table: a cylinder
      var body = el("rect", { x: x - HALF_W, y: y - HALF_H, width: 2 * HALF_W, height: 2 * HALF_H,
        rx: HALF_W, ry: 5 }, g);
      el("path", { d: "M" + (x - HALF_W) + "," + (y - HALF_H + 5) + " a" + HALF_W + ",5 0 0,0 " +
        2 * HALF_W + ",0", class: "lid" }, g);
      return body;
    }
    if (n.leaf || n.kind === "summary") {
      return el("rect", { x: x - half, y: y - HALF_H, width: 2 * half, height: 2 * HALF_H,
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
    svg.setAttribute("width", size.width * zoom); svg.setAttribute("height", size.height * zoom);
    svg.setAttribute("data-zoom", String(zoom));
    svg.setAttribute("viewBox", "0 0 " + size.width + " " + size.height);
    while (svg.firstChild) { svg.removeChild(svg.firstChild); }
    var edges = el("g", { class: "edges" }, svg), nodes = el("g", { class: "nodes" }, svg);
    var stepping = frame < last, now = currentKey(frame);
    var walked = stepping && !DATA.editable ? FRAMES.walked[frame] : [];
    (function walk(n) {
      var seen = look(n, frame);
      if (stepping && !seen[0]) { return; }  // not reached yet: laid out, not drawn
      var role = n.leaf ? "leaf" : (n.kind === "summary" ? "summary" : (n.player === 0 ? "max" : "min"));
      var cls = ["node", role, n.kind];
      if (n.table && n.kind === "node") { cls.push("table"); }
      if (n.principal) { cls.push("principal"); }
      if (n.optimal && !n.principal) { cls.push("optimal"); }
      if (n.collapsed) { cls.push("collapsed"); }
      if (n.leaf && n.kind === "node") { cls.push("valued"); }
      if (selected === n) { cls.push("selected"); }
      if (now !== null && n.key === now) { cls.push("current"); }
      if (stepping) { cls = cls.filter(function (c) { return c !== "principal" && c !== "optimal"; }); }
      var g = el("g", { class: cls.join(" "), id: "p-" + n.path, "data-path": n.path,
        "data-value": n.value === null ? "" : String(n.value), "data-bound": n.bound,
        "data-kind": n.kind }, nodes);
      el("title", {}, g).textContent = (n.state || n.path) + (n.cut ? " | pruned by " + n.cut : "");
      shape(n, g);
      var label = n.kind === "node" || (n.kind === "pruned" && n.value !== null && DATA.reveal) ? shown(n) : "";
      if (n.kind === "summary") { label = "\u2026" + n.positions; }
      // an editable tree shows the pruned leaves' values too (grey): they are what one edits
      if (DATA.editable && n.kind === "pruned" && n.children.length === 0) { label = num(n.leafValue); }
      if (stepping && n.kind === "node") { label = seen[1]; }
      if (mcts) { label = ""; }  // its counts stand beside it
      var dy = n.leaf || n.kind === "summary" ? 5 : (n.player === 0 ? 9 : -2);
      if (n.label && n.kind === "node") {  // the leaf's label above its value, both inside
        text(n.label, { x: n.x, y: n.y - 2, class: "label" }, g);
        text(label, { x: n.x, y: n.y + 11, class: "value small" }, g);
      } else {
        text(label, { x: n.x, y: n.y + dy, class: "value" }, g);
      }
      if (labels && !(n.children.length === 0) && n.kind === "node" && !mcts) {
        text(stepping ? seen[2] : rangeText(n), { x: n.x + HALF_W + 4, y: n.y - 2, class: "range" }, g);
        text(windowText(n), { x: n.x + HALF_W + 4, y: n.y + 11, class: "window" }, g);
      }
      if (n.notes && n.kind === "node") {  // an engine's node: the model's texts beside it
        var right = n.leaf ? halfWidth(n) : HALF_W;
        n.notes.forEach(function (t, i) {
          text(t, { x: n.x + right + 4, y: n.y - 6 + 12 * i, class: i === 0 && n.table ? "tableflag" : "note" }, g);
        });
        if (n.tableNote) {
          text(n.tableNote, { x: n.x + right + 4, y: n.y - 6 + 12 * n.notes.length, class: "tablenote" }, g);
        }
      }
      if (mcts) {  // W/N, the UCB terms and the exact value, as the drawing model writes them
        var at = n.leaf ? halfWidth(n) : HALF_W;
        text(seen[1], { x: n.x + at + 4, y: n.y - 6, class: "counts" }, g);
        text(seen[2], { x: n.x + at + 4, y: n.y + 7, class: "range" }, g);
        text(seen[3], { x: n.x + at + 4, y: n.y + 20, class: "window" }, g);
      }
      if (BOARD_H && n.board) {  // the position, under its node, one text line per board row
        var b = text("", { x: n.x, y: n.y + HALF_H + 4, class: "board" }, g);
        String(n.board).split("\n").forEach(function (line, i) {
          var t = el("tspan", { x: n.x, dy: i === 0 ? BOARD_LINE - 2 : BOARD_LINE }, b);
          t.textContent = line.replace(/ /g, "\u00a0");
        });
      }
      if (n.name) { text(n.name, { x: n.x - HALF_W - 5, y: n.y + 5, class: "name" }, g); }
      if (n.hits > 1) { text("\u00d7" + n.hits, { x: n.x + HALF_W + 3, y: n.y + 12, class: "hits" }, g); }
      if (n.collapsed) {
        text("+" + hidden(n), { x: n.x, y: n.y + HALF_H + 14, class: "badge" }, g);
        return;
      }
      n.children.forEach(function (c) {
        if (stepping && !look(c, frame)[0]) { return; }
        var best = !stepping;
        var ec = ["edge", c.kind === "pruned" ? "pruned" : "", best && c.principal ? "principal" : "",
          best && c.optimal && !c.principal ? "optimal" : "",
          walked.indexOf(c.key) >= 0 ? "path" : ""].join(" ").replace(/\s+/g, " ").trim();
        var e = el("g", { class: ec, "data-child": c.path }, edges);
        var below = n.y + HALF_H + (n.board ? BOARD_H : 0);  // under the node's board, if any
        el("line", { x1: n.x, y1: below, x2: c.x, y2: c.y - HALF_H }, e);
        if (c.move !== "") {
          text(c.move, { x: n.x + (c.x - n.x) * 0.45 + 4, y: below + (c.y - below - HALF_H) * 0.45, class: "move" }, e);
        }
        if (c.cut && (!stepping || look(c, frame)[0])) {
          text("\u2702 " + c.cut, { x: n.x + (c.x - n.x) * 0.7 + 6, y: below + (c.y - below - HALF_H) * 0.7 + 4, class: "cut" }, e);
        }
        walk(c);
      });
    })(root);
    document.getElementById("summary").textContent = summary();
    showStep();
  }
  function showStep() {
    var slider = document.getElementById("slider");
    slider.max = String(last); slider.value = String(frame);
    document.getElementById("counter").textContent = "step " + frame + " / " + last;
    if (ITERATIONS) {
      slider.max = String(ITERATIONS.length - 1); slider.value = String(iteration);
      document.getElementById("counter").textContent =
        "iteration " + (iteration + 1) + " / " + ITERATIONS.length;
      document.body.setAttribute("data-iteration", String(iteration));
    }
    document.getElementById("caption").textContent = caption(frame);
    var line = frame < last ? lineAt(frame) : null;
    Array.prototype.forEach.call(document.querySelectorAll("#pseudocode span"), function (s) {
      s.classList.toggle("now", line !== null && s.getAttribute("data-line") === line);
    });
    document.body.setAttribute("data-step", String(frame));
  }
  function showIteration(k) {  // an engine's iteration k (from 0), drawn whole
    iteration = Math.max(0, Math.min(ITERATIONS.length - 1, k));
    var it = ITERATIONS[iteration];
    root = it.tree; FRAMES = it.frames; DATA.summary = it.summary;
    last = FRAMES.captions.length - 1; frame = last; selected = null;
    draw();
  }
  function position() { return ITERATIONS ? iteration : frame; }
  function goTo(k) {  // show step k, scrolled so that the node of the step is on screen
    if (ITERATIONS) { showIteration(k); return; }
    frame = Math.max(0, Math.min(last, k)); draw();
    var g = document.querySelector("#tree g.node.current"), n = g && find(g.getAttribute("data-path"));
    if (n && (n.x * zoom < scroller.scrollLeft || n.x * zoom > scroller.scrollLeft + scroller.clientWidth)) {
      scroller.scrollLeft = Math.max(0, n.x * zoom - scroller.clientWidth / 2);
    }
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
    document.getElementById("edit-where").textContent = "leaf " + (n.title || n.path);
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
  var scroller = document.getElementById("scroll");
  function rootInView() {  // the root stays on screen whatever the tree's width
    scroller.scrollLeft = Math.max(0, root.x * zoom - scroller.clientWidth / 2);
  }
  document.getElementById("expand").addEventListener("click", function () {
    each(root, function (n) { n.collapsed = false; }); draw(); rootInView();
  });
  function setZoom(z) { zoom = Math.max(0.3, Math.min(4, z)); draw(); rootInView(); }
  function fit() {
    var size = layout();
    setZoom(Math.min((scroller.clientWidth - 4) / size.width,
      Math.max(200, window.innerHeight - scroller.getBoundingClientRect().top - 8) / size.height));
  }
  document.getElementById("zoom-in").addEventListener("click", function () { setZoom(zoom * 1.25); });
  document.getElementById("zoom-out").addEventListener("click", function () { setZoom(zoom / 1.25); });
  document.getElementById("fit").addEventListener("click", fit);
  document.getElementById("prev").addEventListener("click", function () { goTo(position() - 1); });
  document.getElementById("next").addEventListener("click", function () { goTo(position() + 1); });
  document.getElementById("slider").addEventListener("input", function () {
    goTo(parseInt(this.value, 10));
  });
  document.addEventListener("keydown", function (e) {
    if (e.target && e.target.tagName === "INPUT" && e.target.type !== "range") { return; }
    if (e.key === "ArrowRight") { goTo(position() + 1); }
    if (e.key === "ArrowLeft") { goTo(position() - 1); }
  });
  var labelBox = document.getElementById("labels");
  if (labelBox) {
    labelBox.checked = labels;
    labelBox.addEventListener("change", function () { labels = this.checked; draw(); });
  }
  var board = document.getElementById("board");
  document.getElementById("tree").addEventListener("mouseover", function (e) {
    var g = e.target.closest("g.node"), n = g && find(g.getAttribute("data-path"));
    if (board && n && n.board) { board.hidden = false; board.textContent = n.title + "\n" + n.board; }
  });
  draw();

  // ?autotest=edit:1.0=7,click:1,algorithm:minimax,report,...  performs those actions once the
  // page has loaded; "report" (and the end of the list) writes every drawn node's path, kind,
  // value, bound and whether it is on the principal path, and the summary, into the element
  // #autotest, reports apart by "---".
  function report() {
    var rows = [];
    Array.prototype.forEach.call(document.querySelectorAll("#tree g.node"), function (g) {
      var row = [g.getAttribute("data-path"), g.getAttribute("data-kind"),
        g.getAttribute("data-value"), g.getAttribute("data-bound"),
        g.classList.contains("principal") ? "principal" : "-"];
      var notes = g.querySelectorAll("text.note, text.tableflag, text.tablenote");
      if (notes.length) {  // an engine's node: what is written beside it, and its value
        row.push(Array.prototype.map.call(notes, function (t) { return t.textContent; }).join("|"),
          "value=" + g.querySelector("text.value").textContent);
      }
      rows.push(row.join(" "));
    });
    rows.push("summary " + document.getElementById("summary").textContent);
    var lit = document.querySelector("#pseudocode span.now"), now = document.querySelector("#tree g.node.current");
    rows.push("step " + frame + " / " + last + " line " + (lit ? lit.getAttribute("data-line") : "none") +
      " current " + (now ? now.getAttribute("data-path") : "none") + " path " +
      Array.prototype.map.call(document.querySelectorAll("#tree g.edge.path"),
        function (g) { return g.getAttribute("data-child"); }).join(","));
    rows.push("caption " + document.getElementById("caption").textContent);
    if (ITERATIONS) { rows.push("iteration " + (iteration + 1) + " / " + ITERATIONS.length); }
    return rows.join("\n");
  }
  // every frame as this page shows it: each node's look by key, the line, the current node
  function allFrames() {
    var nodes = {}, lines = [], current = [];
    for (var k = 0; k <= last; k++) {
      each(root, function (n) { (nodes[n.key] = nodes[n.key] || []).push(look(n, k)); });
      lines.push(k < last ? lineAt(k) : null); current.push(currentKey(k));
    }
    return { nodes: nodes, lines: lines, current: current, captions: FRAMES.captions.length };
  }
  // every text drawn, as the browser laid it out: its owner (a node's or a move's path), text
  // and box, for a test to check that no two owners' labels overlap
  function textBoxes() {
    return Array.prototype.map.call(document.querySelectorAll("#tree text"), function (t) {
      var g = t.closest("g.node, g.edge"), b = t.getBBox();
      var owner = g.classList.contains("node") ? "n" + g.getAttribute("data-path")
        : "e" + g.getAttribute("data-child");
      return [owner, t.textContent, b.x, b.x + b.width, b.y, b.y + b.height];
    }).filter(function (b) { return b[1] !== ""; });
  }
  function viewReport() {  // what the reader sees beyond the values: zoom, scroll, notes, board
    var rows = [];
    var svg = document.getElementById("tree"), where = document.getElementById("edit-where");
    rows.push("zoom " + svg.getAttribute("data-zoom") + " width " + svg.getAttribute("width") +
      " view " + scroller.clientWidth + " scroll " + scroller.scrollLeft + " root " + root.x * zoom);
    rows.push("edit " + (where ? where.textContent : ""));
    rows.push("notes " + Array.prototype.map.call(
      document.querySelectorAll("#tree text.range, #tree text.window"),
      function (t) { return t.textContent; }).join("|"));
    rows.push("board " + (board && !board.hidden ? board.textContent.replace(/\n/g, "/") : ""));
    return rows.join("\n");
  }
  var script = new URLSearchParams(location.search).get("autotest");
  if (script !== null) {
    var reports = [];
    script.split(",").filter(Boolean).forEach(function (action) {
      var m = /^(edit|click|algorithm|report|reset|zoom|expand|hover|step|frames|boxes)(?::([^=]*)(?:=(.*))?)?$/.exec(action);
      if (!m) { reports.push("unknown action " + action); return; }
      if (m[1] === "edit") { setLeaf(find(m[2]), parseFloat(m[3])); }
      if (m[1] === "click") {  // a real click on the node, through the page's own handler
        var g = document.getElementById("p-" + m[2]);
        if (g) { g.dispatchEvent(new MouseEvent("click", { bubbles: true })); }
      }
      if (m[1] === "algorithm" && DATA.editable) { algorithm = m[2]; search(); draw(); }
      if (m[1] === "reset" && DATA.editable) { document.getElementById("reset").click(); }
      if (m[1] === "zoom") { document.getElementById(m[2] === "fit" ? "fit" : "zoom-" + m[2]).click(); }
      if (m[1] === "expand") { document.getElementById("expand").click(); }
      if (m[1] === "hover") {
        var h = document.getElementById("p-" + m[2]);
        if (h) { h.dispatchEvent(new MouseEvent("mouseover", { bubbles: true })); }
      }
      if (m[1] === "report") { reports.push(report()); }
      if (m[1] === "step") {
        goTo(m[2] === "end" ? (ITERATIONS ? ITERATIONS.length - 1 : last) : parseInt(m[2], 10));
      }
      if (m[1] === "boxes") { reports.push("boxes " + JSON.stringify(textBoxes())); }
      if (m[1] === "frames") { reports.push("frames " + JSON.stringify(allFrames())); }
    });
    if (!/report$/.test(script)) { reports.push(report()); }
    var out = document.createElement("pre");
    out.id = "autotest"; out.textContent = reports.join("\n---\n");
    document.body.appendChild(out);
    var view = document.createElement("pre");
    view.id = "autotest-view"; view.textContent = viewReport();
    document.body.appendChild(view);
  }
})();
