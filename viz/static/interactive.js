// gamesolver interactive tree: collapse/expand subtrees; on editable trees, edit a leaf and see
// minimax or alpha-beta (expectiminimax, Star1 or Star2 with chance nodes) recomputed. The data
// comes from the page's <script id="tree-data">. The searches below follow solver/minimax.py
// and solver/expectiminimax.py line for line (AIMA's fail-soft alpha-beta, ties to the first
// best child, Ballard's *-minimax) and the bound rule of viz: a value v <= alpha on entry is an
// upper bound, v >= beta on entry a lower bound, otherwise exact.
(function () {
  "use strict";
  var DATA = JSON.parse(document.getElementById("tree-data").textContent);
  var SVGNS = "http://www.w3.org/2000/svg";
  var FOLD_ABOVE = 40, GAP = 46, ROW = 74, HALF_W = 19, HALF_H = 16, TOP = 34, LEFT = 40;
  var root = DATA.tree, algorithm = DATA.algorithm, stats = null;
  var FRAMES = DATA.frames, steps = null;
  var last = FRAMES.captions.length - 1, frame = last;  // the step shown (last: finished)
  // an engine's iterative deepening: one tree per iteration, the stepper steps through them
  var ITERATIONS = DATA.iterations || null, iteration = ITERATIONS ? ITERATIONS.length - 1 : 0;
  var mcts = DATA.algorithm === "mcts";
  var zoom = 1.4;  // large enough to project
  var NOTE_GAP = 130;  // the least distance between leaves when windows and ranges are shown
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

  // ---- numbers as Python holds them ----
  // The page computes as solver/ does, so that its values, windows and cuts are Python's to the
  // last digit: an int or a Fraction is {n, d, i} (BigInt numerator and denominator, i: an int),
  // a float a JS number. int and Fraction arithmetic is exact; a float makes the result a float;
  // int / int is a float (Python's true division); comparisons are exact, as Python's are.
  function gcd(a, b) {
    a = a < 0n ? -a : a; b = b < 0n ? -b : b;
    while (b) { var t = a % b; a = b; b = t; }
    return a;
  }
  function Q(n, d, isInt) {
    if (d < 0n) { n = -n; d = -d; }
    var g = gcd(n, d);
    if (g > 1n) { n /= g; d /= g; }
    return { n: n, d: d, i: Boolean(isInt) };
  }
  function exact(x) { return typeof x === "object" && x !== null; }
  function int(k) { return Q(BigInt(k), 1n, true); }
  function dec(x) {  // a number as viz/interactive.py's _number wrote it
    if (x === null || x === undefined) { return null; }
    if (x === "inf") { return Infinity; }
    if (x === "-inf") { return -Infinity; }
    if (Array.isArray(x)) { return Q(BigInt(x[0]), BigInt(x[1]), false); }
    if (typeof x === "object") { return x.f; }
    return Number.isInteger(x) ? int(x) : x;
  }
  function toF(x) { return exact(x) ? Number(x.n) / Number(x.d) : x; }
  function add(a, b) { return exact(a) && exact(b) ? Q(a.n * b.d + b.n * a.d, a.d * b.d, a.i && b.i) : toF(a) + toF(b); }
  function sub(a, b) { return exact(a) && exact(b) ? Q(a.n * b.d - b.n * a.d, a.d * b.d, a.i && b.i) : toF(a) - toF(b); }
  function mul(a, b) { return exact(a) && exact(b) ? Q(a.n * b.n, a.d * b.d, a.i && b.i) : toF(a) * toF(b); }
  function div(a, b) {
    if (exact(a) && exact(b) && !(a.i && b.i)) { return Q(a.n * b.d, a.d * b.n, false); }
    return toF(a) / toF(b);
  }
  function fromFloat(f) {  // a finite float as the exact fraction it is
    var d = 1n;
    while (!Number.isInteger(f)) { f *= 2; d *= 2n; }
    return Q(BigInt(f), d, false);
  }
  function cmp(a, b) {
    if (exact(a) && exact(b)) { var s = a.n * b.d - b.n * a.d; return s > 0n ? 1 : (s < 0n ? -1 : 0); }
    if (!exact(a) && !exact(b)) { return a > b ? 1 : (a < b ? -1 : 0); }
    if (exact(a)) { return -cmp(b, a); }
    if (!isFinite(a)) { return a > 0 ? 1 : -1; }
    return cmp(fromFloat(a), b);
  }
  function lt(a, b) { return cmp(a, b) < 0; }
  function le(a, b) { return cmp(a, b) <= 0; }
  function eq(a, b) { return a !== null && b !== null && cmp(a, b) === 0; }
  function pmax(a, b) { return cmp(b, a) > 0 ? b : a; }  // Python's max(a, b): a unless b > a
  function pmin(a, b) { return cmp(b, a) < 0 ? b : a; }
  function same(a, b) { return exact(a) === exact(b) && (!exact(a) || a.i === b.i) && eq(a, b); }
  function expectation(ps, vs) {  // solver.chance.expectation: sum(p * v), a whole Fraction an int
    var total = int(0);
    for (var i = 0; i < ps.length; i++) { total = add(total, mul(ps[i], vs[i])); }
    return exact(total) && !total.i && total.d === 1n ? Q(total.n, 1n, true) : total;
  }
  function gText(x, digits) {  // Python's format(x, ".3g"): rounded half to even, exactly
    var r = fromFloat(Math.abs(x)), exp = Math.floor(Math.log10(Math.abs(x)));
    function pow10(k) { return 10n ** BigInt(k); }
    function scaled(e) {  // |x| / 10^(e - digits + 1) as a fraction
      var k = digits - 1 - e;
      return k >= 0 ? [r.n * pow10(k), r.d] : [r.n, r.d * pow10(-k)];
    }
    var q = scaled(exp);  // make 10^(digits-1) <= q < 10^digits (log10 may be one off)
    if (q[0] < pow10(digits - 1) * q[1]) { exp -= 1; q = scaled(exp); }
    if (q[0] >= pow10(digits) * q[1]) { exp += 1; q = scaled(exp); }
    var m = q[0] / q[1], rest = 2n * (q[0] - m * q[1]);
    if (rest > q[1] || (rest === q[1] && m % 2n === 1n)) { m += 1n; }
    if (m === pow10(digits)) { m = pow10(digits - 1); exp += 1; }
    var figures = m.toString(), text;
    if (exp < -4 || exp >= digits) {
      text = (figures.slice(0, 1) + "." + figures.slice(1)).replace(/\.?0+$/, "") +
        "e" + (exp < 0 ? "-" : "+") + (Math.abs(exp) < 10 ? "0" : "") + Math.abs(exp);
    } else {
      text = exp >= 0 ? figures.slice(0, exp + 1) + "." + figures.slice(exp + 1)
        : "0." + "0".repeat(-exp - 1) + figures;
      text = text.replace(/0+$/, "").replace(/\.$/, "");
    }
    return (x < 0 ? "-" : "") + text;
  }
  var LARGE = 1e15;  // viz.notation.LARGE
  function num(v) {  // as viz.notation.number writes it: a true minus, fractions n/d, 3 digits
    if (v === null || v === undefined) { return ""; }
    if (v === "inf" || v === Infinity) { return "+\u221e"; }
    if (v === "-inf" || v === -Infinity) { return "\u2212\u221e"; }
    var text, f = toF(v);
    if (Number.isInteger(f) && Math.abs(f) >= LARGE) {
      text = gText(f, 3);
    } else if (Number.isInteger(f)) {
      text = exact(v) ? (v.n / v.d).toString() : BigInt(f).toString();
    } else if (exact(v) && v.d <= 1000n) {
      text = v.n + "/" + v.d;
    } else {
      text = gText(f, 3);
    }
    return text.replace(/-/g, "\u2212");
  }
  function plain(v) { return v === null || v === undefined ? "" : String(toF(v)); }
  function parseNumber(text) {  // typed as the textbook trees read a leaf: 7 an int, 7.5 a float
    text = String(text).trim();
    if (/^-?\d+$/.test(text)) { return int(text); }
    var f = parseFloat(text);
    return /^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text) && isFinite(f) ? f : null;
  }
  function each(node, f) { f(node); node.children.forEach(function (c) { each(c, f); }); }
  function decode(n) {  // once per tree: an engine's every iteration too
    ["value", "alphaIn", "betaIn", "leafValue", "probability"].forEach(function (k) {
      if (k in n) { n[k] = dec(n[k]); }
    });
    n.children.forEach(function (c, i) { c.index = i; decode(c); });
  }
  decode(DATA.tree);
  (DATA.iterations || []).forEach(function (it) { if (it.tree !== DATA.tree) { decode(it.tree); } });
  var BOUNDS = DATA.bounds ? DATA.bounds.map(dec) : null, limits = [-Infinity, Infinity];
  var PRUNING = { alphabeta: true, star1: true, star2: true };
  var positions = DATA.tree, folded = new Set();
  var original = new Map();
  each(positions, function (n) { if (n.leafValue !== undefined) { original.set(n, n.leafValue); } });
  var selected = null;  // the leaf (a position) whose value is being edited
  var labels = PRUNING[DATA.algorithm] === true;  // windows and ranges shown

  // ---- the searches (editable trees only) ----
  // Each search draws a new tree of what it did: a node for each position it entered (a Star2
  // probe is a node of its own beside the full search of the same outcome), the moves a cut
  // pruned with their subtrees (greyed), and nothing else, in the order the search met them;
  // each drawn node reads its position's fields (player, move, leaf value, ...) through its
  // prototype. The searches are solver/minimax.py's and solver/expectiminimax.py's, line for
  // line: AIMA's fail-soft alpha-beta (a value v <= alpha on entry an upper bound, v >= beta
  // a lower bound), expectiminimax's sum of p * v, Ballard's Star1 and Star2.
  function pyKey(moves) {  // json.dumps(moves, ensure_ascii=False), as viz/interactive.py's keys
    return "[" + moves.map(function (m) {
      return Array.isArray(m) ? "[" + m.map(function (x) { return JSON.stringify(x); }).join(", ") + "]"
        : JSON.stringify(m);
    }).join(", ") + "]";
  }
  function bounds() {  // *-minimax's [lo, hi]: the least and greatest leaf (as edited), or given
    if (!DATA.boundsFromLeaves) { return BOUNDS; }
    var lo = null, hi = null, queue = [positions];  // breadth-first, as the textbook game lists them
    while (queue.length) {
      var n = queue.shift();
      if (n.children.length === 0) {
        lo = lo === null ? n.leafValue : pmin(lo, n.leafValue);
        hi = hi === null ? n.leafValue : pmax(hi, n.leafValue);
      }
      queue = queue.concat(n.children);
    }
    return [lo, hi];
  }
  function search() {
    var prune = PRUNING[algorithm] === true, star = algorithm === "star1" || algorithm === "star2";
    limits = star ? bounds() : [-Infinity, Infinity];  // expectiminimax knows none
    var L = limits[0], U = limits[1], top = null;
    if (root !== positions) { each(root, function (n) { if (n.collapsed) { folded.add(n.key); } else { folded.delete(n.key); } }); }
    stats = { searched: 0, pruned: 0, cutoffs: 0 };
    steps = [];
    function make(pos, parent, probe, kind) {
      var n = Object.create(pos);
      n.pos = pos; n.probe = probe; n.kind = kind; n.value = null; n.bound = "exact";
      n.principal = false; n.optimal = false; n.cut = null; n.alphaIn = null; n.betaIn = null;
      n.opened = null; n.reveal = null; n.step = null; n.children = [];
      n.moves = parent ? parent.moves.concat([probe ? ["probe", pos.move] : pos.move]) : [];
      n.key = pyKey(n.moves);
      n.path = !parent ? "root" : (parent.path === "root" ? "" : parent.path + ".") + (probe ? "p" : "") + pos.index;
      n.collapsed = folded.has(n.key);
      if (parent) { parent.children.push(n); } else { top = n; }
      return n;
    }
    function enter(pos, parent, alpha, beta, probe) {
      var n = make(pos, parent, probe, "node");
      stats.searched += 1; n.alphaIn = alpha; n.betaIn = beta;
      return n;
    }
    function backup(n, v, bound) {
      n.value = v; n.bound = bound; steps.push({ kind: "backup", node: n });
      return v;
    }
    function grow(pos, parent) { var n = make(pos, parent, false, "pruned"); pos.children.forEach(function (c) { grow(c, n); }); }
    function cut(n, rest, text, probes) {  // a cut-off at n: the moves left are pruned, greyed;
      // Star2 cut while probing: the probes' moves after the first too (viz/build.py)
      var at = [[n, rest]].concat((probes || []).map(function (c) { return [c, c.pos.children.slice(1)]; }));
      var count = 0, first = true;
      at.forEach(function (a) { count += a[1].length; });
      if (count === 0) { return; }
      if (rest.length) { stats.cutoffs += 1; }
      stats.pruned += count;
      at.forEach(function (a) {
        a[1].forEach(function (c) { grow(c, a[0]); if (first) { a[0].children[a[0].children.length - 1].cut = text; first = false; } });
      });
      steps.push({ kind: "cut", node: n });
    }
    function cutText(v, limit, high) {
      return "v=" + num(v) + (high ? " \u2265 \u03b2=" : " \u2264 \u03b1=") + num(limit);
    }
    function value(pos, parent, alpha, beta) {
      var n = enter(pos, parent, alpha, beta, false);
      if (pos.children.length === 0) {
        n.value = pos.leafValue; n.bound = "exact"; steps.push({ kind: "leaf", node: n });
        return n.value;
      }
      if (pos.chance) { return star ? starValue(n, alpha, beta) : chanceValue(n); }
      var max = pos.player === 0, v = max ? -Infinity : Infinity, kids = pos.children;
      for (var i = 0; i < kids.length; i++) {
        var v2 = value(kids[i], n, alpha, beta);
        if (i === 0 || (max ? lt(v, v2) : lt(v2, v))) { v = v2; }
        if (!prune) { continue; }
        if (max) { alpha = pmax(alpha, v); } else { beta = pmin(beta, v); }
        if (max ? le(beta, v) : le(v, alpha)) {
          cut(n, kids.slice(i + 1), max ? cutText(v, beta, true) : cutText(v, alpha, false));
          break;
        }
      }
      var bound = "exact";
      if (prune && le(v, n.alphaIn) && n.alphaIn !== -Infinity) { bound = "upper"; }
      else if (prune && le(n.betaIn, v) && n.betaIn !== Infinity) { bound = "lower"; }
      return backup(n, v, bound);
    }
    function odds(pos) { return pos.children.map(function (c) { return c.probability; }); }
    function chanceValue(n) {  // expectiminimax: sum of p * v, nothing divided by the outcomes
      var values = n.pos.children.map(function (c) { return value(c, n, -Infinity, Infinity); });
      return backup(n, expectation(odds(n.pos), values), "exact");
    }
    function starValue(n, alpha, beta) {  // solver/expectiminimax.py's _StarNode
      var kids = n.pos.children, p = odds(n.pos);
      var lo = kids.map(function () { return L; }), hi = kids.map(function () { return U; });
      var probed = [], probing = false;  // the outcomes probed; in the probes (before the full pass)
      function window(i) {
        var othersHi = sub(expectation(p, hi), mul(p[i], hi[i]));
        var othersLo = sub(expectation(p, lo), mul(p[i], lo[i]));
        return [div(sub(alpha, othersHi), p[i]), div(sub(beta, othersLo), p[i])];
      }
      function chanceCut(i, v, high) {  // every outcome never entered is pruned, in outcome order
        var rest = kids.filter(function (c, j) { return probing ? probed.indexOf(j) < 0 : j > i; });
        cut(n, rest, cutText(v, high ? beta : alpha, high), probing ? n.children : []);
        return backup(n, v, high ? "lower" : "upper");
      }
      function settled(i, failedLow, failedHigh) {
        var upper = expectation(p, hi), lower = expectation(p, lo);
        if (failedLow || le(upper, alpha)) { return chanceCut(i, pmin(upper, alpha), false); }
        if (failedHigh || le(beta, lower)) { return chanceCut(i, pmax(lower, beta), true); }
        return null;
      }
      function probe(i) {  // Star2: the first move alone bounds a MAX (MIN) node from below (above)
        var kid = kids[i];
        if (kid.children.length === 0 || kid.chance) { return; }
        var w = window(i), max = kid.player === 0;
        var low = max ? L : pmax(w[0], L), high = max ? pmin(w[1], U) : U;
        if (max ? le(U, high) : le(low, L)) { return; }  // no first move could cut
        probed.push(i);
        var node = enter(kid, n, low, high, true);
        var v = value(kid.children[0], node, low, high);
        if (max) { lo[i] = pmax(lo[i], v); } else { hi[i] = pmin(hi[i], v); }
        backup(node, v, max ? "lower" : "upper");
      }
      var i, done;
      if (algorithm === "star2") {
        probing = true;
        for (i = 0; i < kids.length; i++) {
          probe(i);
          done = settled(i, false, false);
          if (done !== null) { return done; }
        }
        probing = false;
      }
      for (i = 0; i < kids.length; i++) {
        var w = window(i), low = pmax(w[0], L), high = pmin(w[1], U);
        var v = value(kids[i], n, low, high);
        var failedLow = le(v, low) && lt(L, low), failedHigh = le(high, v) && lt(high, U);
        if (failedLow) { hi[i] = pmin(hi[i], v); }
        else if (failedHigh) { lo[i] = pmax(lo[i], v); }
        else { lo[i] = v; hi[i] = v; }
        done = settled(i, failedLow, failedHigh);
        if (done !== null) { return done; }
      }
      return backup(n, expectation(p, lo), "exact");
    }
    value(positions, null, -Infinity, Infinity);
    root = top;
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
      if (n.chance) { plies.set(n, 0); return; }  // nobody chooses at a roll: the path stops
      var kids = n.children.filter(function (c) {
        return c.kind === "node" && eq(c.value, n.value) && c.bound === "exact";
      });
      if (kids.length === 0) { plies.set(n, 0); return; }
      var winning = cmp(n.value, int(0)) * (n.player === 0 ? 1 : -1) > 0;
      function preference(c) { var p = (plies.get(c) || 0) + 1; return winning ? p : -p; }
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
    var parts = ["value " + num(root.value)], moves = [], n = root, saved = 0;
    while (true) {
      var next = n.children.filter(function (c) { return c.principal; })[0];
      if (!next) { break; }
      moves.push(next.move); n = next;
    }
    if (moves.length) { parts.push("best move " + moves[0], "principal variation " + moves.join(" ")); }
    parts.push(stats.searched.toLocaleString("en-US") + (stats.searched === 1 ? " node" : " nodes") +
      " searched");
    each(positions, function () { saved += 1; });  // viz.notation.saving_text: the tree less
    saved -= stats.searched;  // the nodes searched (Star2 may search more: probes done again)
    if (stats.pruned || saved) {
      var base = /star|expecti/.test(algorithm) ? "expectiminimax's " : "minimax's ";
      var many = function (k) { return k.toLocaleString("en-US") + (k === 1 ? " node" : " nodes"); };
      parts.push(stats.pruned.toLocaleString("en-US") + (stats.pruned === 1 ? " move" : " moves") +
        " pruned, " + (saved < 0 ? many(-saved) + " more than " : many(saved) + " saved versus ") +
        base + (stats.searched + saved).toLocaleString("en-US"));
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
    var ab = PRUNING[algorithm] === true, inner = n.children.length > 0 && n.kind === "node";
    var range = "";
    if (ab && inner && visible) {
      var lo = -Infinity, hi = Infinity;
      if (n.chance) {
        var r = chanceRange(n, k, known);
        lo = r[0]; hi = r[1];
      } else if (known) {
        lo = n.bound === "upper" ? -Infinity : n.value; hi = n.bound === "lower" ? Infinity : n.value;
      } else {
        n.children.forEach(function (c) {
          if (c.kind !== "node" || c.reveal === null || c.reveal > k || c.value === null) { return; }
          if (n.player === 0 && c.bound !== "upper") { lo = pmax(lo, c.value); }
          if (n.player === 1 && c.bound !== "lower") { hi = pmin(hi, c.value); }
        });
      }
      if (!n.chance) { lo = pmax(lo, limits[0]); hi = pmin(hi, limits[1]); }  // in [L, U]
      range = "[" + num(lo) + ", " + num(hi) + "]";
    }
    return [visible, n.kind === "node" && known ? shown(n) : "", range, ab && inner ? windowText(n) : ""];
  }
  // A chance node's [lo, hi] at step k, viz/model.py's Frame.chance_range: an outcome not
  // searched yet lies in the bounds [L, U]; one searched at its value, or on one side of it (a
  // Star2 probe's bound; a value at or beyond the edge of the window it was searched in, read
  // as the search reads it); the node in [sum p * lo, sum p * hi], narrowed by its own bound
  // once backed up.
  function chanceRange(n, k, known) {
    var L = limits[0], U = limits[1], p = n.pos.children.map(function (c) { return c.probability; });
    var lo = p.map(function () { return L; }), hi = p.map(function () { return U; });
    n.children.forEach(function (c) {  // Star2 may visit an outcome twice: probe, then in full
      if (c.kind !== "node" || c.reveal === null || c.reveal > k || c.value === null) { return; }
      var v = c.value, i = c.index, bound = c.bound;
      if (!c.probe) {
        bound = le(v, c.alphaIn) && lt(L, c.alphaIn) ? "upper"
          : (le(c.betaIn, v) && lt(c.betaIn, U) ? "lower" : "exact");
      }
      if (bound !== "upper") { lo[i] = bound === "exact" ? v : pmax(lo[i], v); }
      if (bound !== "lower") { hi[i] = bound === "exact" ? v : pmin(hi[i], v); }
    });
    var low = expectation(p, lo), high = expectation(p, hi), b = n.bound, v = n.value;
    if (!known) { return [low, high]; }
    var tight = [b !== "upper" ? pmax(low, v) : low, b !== "lower" ? pmin(high, v) : high];
    if (le(tight[0], tight[1])) { return tight; }  // else float sums missed v by a rounding error
    return [b !== "upper" ? v : -Infinity, b !== "lower" ? v : Infinity];
  }
  function look(n, k) { return DATA.editable ? ownLook(n, k) : pythonLook(n, k); }
  function edited() {
    var changed = algorithm !== DATA.algorithm;
    original.forEach(function (v, pos) { if (!same(v, pos.leafValue)) { changed = true; } });
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
    var s = steps[k - 1], n = s.node;  // as viz.pseudocode.step_lines
    var side = n.chance ? "chance-" : (n.player === 0 ? "max-" : "min-");
    if (s.kind === "leaf") { return (algorithm === "minimax" || algorithm === "alphabeta" ? side : "max-") + "leaf"; }
    if (n.probe) { return "probe"; }
    var cut = s.kind === "cut" || (n.chance ? n.bound !== "exact" : n.bound === (n.player === 0 ? "lower" : "upper"));
    if (cut && n.chance && n.children.every(function (c) { return c.kind !== "node" || c.probe; })) { return "probe-cut"; }
    return side + (cut ? "cut" : "return");
  }
  // each step's caption, worded as viz/build.py words the steps
  var BOUND_TEXT = {
    exact: "",
    lower: " — a lower bound: it reached β, the value is at least this",
    upper: " — an upper bound: it stayed at or below α, the value is at most this"
  };
  function who(n) {
    var role = n.chance ? "CHANCE" : (n.player === 0 ? "MAX" : "MIN");
    return n.moves.length === 0 && !n.name ? "the root (" + role + ")" : role + " node " + n.title;
  }
  function stepText(s) {
    var n = s.node;
    if (s.kind === "leaf") {
      return (n.leaf === "terminal" ? "terminal position" : "horizon position (evaluated)") +
        (n.moves.length ? " " + n.title : " at the root") + " is worth " + num(n.value);
    }
    if (s.kind === "cut") {
      var pruned = n.children.filter(function (c) { return c.kind === "pruned"; }), names = pruned.map(function (c) { return c.move; });
      n.children.forEach(function (p) {  // a Star2 probe's moves never searched: by their path
        if (!p.probe) { return; }
        p.children.forEach(function (c) {
          if (c.kind !== "pruned") { return; }
          pruned.push(c);
          names.push(n.moves.concat([p.move, c.move]).map(function (m) { return Array.isArray(m) ? m[1] : m; }).join("\u00b7"));
        });
      });
      return "cut-off at " + who(n) + ": " + pruned[0].cut + ", so " +
        (pruned.length === 1 ? "move " : "moves ") + names.join(", ") + " need not be searched";
    }
    if (n.probe) {
      return who(n) + " is probed (Star2): its first move alone gives " + shown(n) + ", " +
        (n.player === 0 ? "a lower" : "an upper") + " bound on its value";
    }
    var how = n.chance ? "expectation (probability × value, summed)" : (n.player === 0 ? "maximum" : "minimum");
    return who(n) + " backs up the " + how + " of its children: " + shown(n) + BOUND_TEXT[n.bound];
  }
  function caption(k) {
    if (!DATA.editable || !edited()) { return FRAMES.captions[k]; }
    if (k === 0) { return "before the search: it starts at the root"; }
    return "step " + k + ": " + stepText(steps[k - 1]) + (k === last ? " (" + summary() + ")" : "");
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
  // an inner node as wide as its value (an expectation 11/2, a win rate 0.75); one that would
  // reach into the node before it on its row moves right, with its subtree
  function showsNotes(n) { return labels && PRUNING[algorithm] && n.children.length > 0 && n.kind === "node" && !mcts; }
  function extent(n) {  // how far right of its centre a node's shape and notes reach
    var half = nodeHalf(n);
    if (!showsNotes(n)) { return half; }
    return half + 4 + 5.8 * Math.max(rangeText(n).length, windowText(n).length);
  }
  function layout() {
    var cursor = LEFT, depth = 0, step = labels ? NOTE_GAP : GAP, right = [];
    function reach(n, d) { right[d] = Math.max(right[d] === undefined ? -Infinity : right[d], n.x + extent(n)); }
    function place(n, d) {
      n.y = TOP + d * (ROW + BOARD_H); depth = Math.max(depth, d);
      if (n.children.length === 0 || n.collapsed) {
        var half = halfWidth(n), notes = notesWidth(n);
        n.x = cursor + Math.max(half, BOARD_W / 2);
        var beside = n.notes ? 2 * half + notes + 14 : (notes ? half + notes + 24 : 0);
        cursor += Math.max(step, 2 * half + 8, beside, BOARD_W + 14);
        reach(n, d);
        return;
      }
      n.children.forEach(function (c) { place(c, d + 1); });
      n.x = (n.children[0].x + n.children[n.children.length - 1].x) / 2;
      var left = n.x - nodeHalf(n) - (n.name ? 6 + 8 * n.name.length : 0);
      if (right[d] !== undefined && left < right[d] + 6) {
        var delta = right[d] + 6 - left;
        (function shift(c, e) {
          c.x += delta; right[e] = Math.max(right[e], c.x + extent(c));
          if (!c.collapsed) { c.children.forEach(function (k) { shift(k, e + 1); }); }
        })(n, d);
        cursor += delta;
      }
      reach(n, d);
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
    var modelled = look(n, last)[2];  // the model's: narrowed as searched, in [L, U]
    if (n.chance || modelled) { return modelled; }
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
    if (n.chance) { return el("circle", { cx: x, cy: y, r: radius(n) }, g); }
    var w = nodeHalf(n);
    pts = n.player === 0 ? [[x - w, y + HALF_H], [x + w, y + HALF_H], [x, y - HALF_H]]
      : [[x - w, y - HALF_H], [x + w, y - HALF_H], [x, y + HALF_H]];
    return el("polygon", { points: pts.map(function (p) { return p.join(","); }).join(" ") }, g);
  }
  function nodeHalf(n) {  // half the width of a node's shape
    if (n.leaf || n.kind === "summary" || n.children.length === 0) { return halfWidth(n); }
    if (n.chance) { return radius(n); }
    var wide = mcts || n.value === null ? 0 : shown(n).length;
    return Math.max(HALF_W, 7.2 * wide + 1);  // a triangle holds its value where it is narrow
  }
  function radius(n) {  // a chance node's circle holds its value (an expectation: ≤11/2)
    return Math.max(HALF_W - 1, 4.3 * (n.value === null ? 0 : shown(n).length) + 2);
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
      var role = n.leaf ? "leaf" : (n.kind === "summary" ? "summary"
        : (n.chance ? "chance" : (n.player === 0 ? "max" : "min")));
      var cls = ["node", role, n.kind];
      if (n.table && n.kind === "node") { cls.push("table"); }
      if (n.probe) { cls.push("probe"); }
      if (n.principal) { cls.push("principal"); }
      if (n.optimal && !n.principal) { cls.push("optimal"); }
      if (n.collapsed) { cls.push("collapsed"); }
      if (n.leaf && n.kind === "node") { cls.push("valued"); }
      if (selected !== null && n.pos === selected) { cls.push("selected"); }
      if (now !== null && n.key === now) { cls.push("current"); }
      if (stepping) { cls = cls.filter(function (c) { return c !== "principal" && c !== "optimal"; }); }
      var g = el("g", { class: cls.join(" "), id: "p-" + n.path, "data-path": n.path,
        "data-value": plain(n.value), "data-bound": n.bound,
        "data-kind": n.kind }, nodes);
      el("title", {}, g).textContent = (n.state || n.path) + (n.cut ? " | pruned by " + n.cut : "");
      shape(n, g);
      var label = n.kind === "node" || (n.kind === "pruned" && n.value !== null && DATA.reveal) ? shown(n) : "";
      if (n.kind === "summary") { label = "\u2026" + n.positions; }
      // an editable tree shows the pruned leaves' values too (grey): they are what one edits
      if (DATA.editable && n.kind === "pruned" && n.children.length === 0) { label = num(n.leafValue); }
      if (stepping && n.kind === "node") { label = seen[1]; }
      if (mcts) { label = ""; }  // its counts stand beside it
      var dy = n.leaf || n.kind === "summary" || n.chance ? 5 : (n.player === 0 ? 9 : -2);
      if (n.label && n.kind === "node") {  // the leaf's label above its value, both inside
        text(n.label, { x: n.x, y: n.y - 2, class: "label" }, g);
        text(label, { x: n.x, y: n.y + 11, class: "value small" }, g);
      } else {
        text(label, { x: n.x, y: n.y + dy, class: "value" }, g);
      }
      if (labels && PRUNING[algorithm] && !(n.children.length === 0) && n.kind === "node" && !mcts) {
        var beside = nodeHalf(n);
        text(stepping ? seen[2] : rangeText(n), { x: n.x + beside + 4, y: n.y - 2, class: "range" }, g);
        text(windowText(n), { x: n.x + beside + 4, y: n.y + 11, class: "window" }, g);
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
      if (n.name) { text(n.name, { x: n.x - nodeHalf(n) - 5, y: n.y + 5, class: "name" }, g); }
      if (n.hits > 1) { text("\u00d7" + n.hits, { x: n.x + nodeHalf(n) + 3, y: n.y + 12, class: "hits" }, g); }
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
        // a roll's outcomes fan out: their moves and odds are written near the children, where
        // the edges are apart, and a cut nearer the chance node
        var at = n.chance ? 0.7 : 0.45, cutAt = n.chance ? 0.35 : 0.7;
        if (c.move !== "") {
          var label = text(c.move, { x: n.x + (c.x - n.x) * at + 4, y: below + (c.y - below - HALF_H) * at, class: "move" }, e);
          if (c.probabilityText) {  // a chance outcome's probability, beside its move
            el("tspan", { class: "odds", dx: "3" }, label).textContent = "p=" + c.probabilityText;
          }
        }
        if (c.cut && (!stepping || look(c, frame)[0])) {
          text("\u2702 " + c.cut, { x: n.x + (c.x - n.x) * cutAt + 6, y: below + (c.y - below - HALF_H) * cutAt + 4, class: "cut" }, e);
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
    selected = n.pos;
    var box = document.getElementById("edit");
    box.hidden = false;
    document.getElementById("edit-where").textContent = "leaf " + (n.title || n.path);
    document.getElementById("edit-value").value = plain(selected.leafValue);
    document.getElementById("edit-note").textContent = "";
    draw();
  }
  function switchTo(name) {  // another search: its pseudocode beside the tree, its steps
    algorithm = name;
    var lines = DATA.pseudocode[name], pre = document.getElementById("pseudocode");
    if (lines && pre) {
      while (pre.firstChild) { pre.removeChild(pre.firstChild); }
      lines.forEach(function (line) {
        var span = document.createElement("span");
        span.setAttribute("data-line", line[0]);
        span.textContent = line[1] || "\u200b";
        pre.appendChild(span);
      });
    }
    var menu = document.getElementById("algorithm");
    if (menu) { menu.value = name; }
    search(); draw();
  }
  function findPosition(path) {  // a leaf by its position (child indices from the root)
    var found = null;
    each(positions, function (n) { if (n.path === path) { found = n; } });
    return found;
  }
  // a leaf takes the typed value (an int or a float); on a tree with bounds given for
  // *-minimax (not the leaves' own) a value outside them is refused, as solver/ refuses it
  function setLeaf(pos, v) {
    if (!DATA.editable || !pos || pos.children.length || v === null) { return false; }
    var note = document.getElementById("edit-note");
    if (BOUNDS && !DATA.boundsFromLeaves && (lt(v, BOUNDS[0]) || lt(BOUNDS[1], v))) {
      if (note) { note.textContent = "outside the bounds [" + num(BOUNDS[0]) + ", " + num(BOUNDS[1]) + "] *-minimax assumes"; }
      return false;
    }
    if (note) { note.textContent = ""; }
    pos.leafValue = v;
    if (pos === selected) { document.getElementById("edit-value").value = plain(v); }
    search(); draw(); return true;
  }
  function activate(path) {  // fold or unfold the node, or edit the leaf
    var n = path === null ? null : find(path);
    if (n && n.children.length) { toggle(n); } else if (n && DATA.editable) { select(n); }
  }
  // a pointer's click is its press and release on one node: a value typed is saved as the press
  // takes the focus, and the redraw replaces the node pressed, so no "click" would reach it
  var tree = document.getElementById("tree"), pressed = null;
  function pathAt(t) { var g = t.closest && t.closest("g.node"); return g ? g.getAttribute("data-path") : null; }
  tree.addEventListener("mousedown", function (e) { pressed = e.button ? null : pathAt(e.target); });
  tree.addEventListener("mouseup", function (e) {
    var path = e.button ? null : pathAt(e.target), was = pressed;
    pressed = null;
    if (path !== null && path === was) { activate(path); }
  });
  tree.addEventListener("click", function (e) { if (!e.detail) { activate(pathAt(e.target)); } });
  if (DATA.editable) {
    document.getElementById("edit-value").addEventListener("change", function () {
      if (selected && !setLeaf(selected, parseNumber(this.value))) { this.value = plain(selected.leafValue); }
    });
    document.getElementById("algorithm").addEventListener("change", function () {
      switchTo(this.value);
    });
    document.getElementById("reset").addEventListener("click", function () {
      original.forEach(function (v, pos) { pos.leafValue = v; });
      if (selected) { document.getElementById("edit-value").value = plain(selected.leafValue); }
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
  // +, - and Ctrl+wheel zoom about a point that stays put: the pointer, or the middle of the tree in view
  function zoomAbout(z, x, y) {
    var svg = document.getElementById("tree"), was = svg.getBoundingClientRect(), old = zoom, v;
    if (x === undefined) {
      v = scroller.getBoundingClientRect();
      x = (Math.max(v.left, was.left) + Math.min(v.right, was.right)) / 2;
      y = (Math.max(0, was.top) + Math.min(innerHeight, was.bottom)) / 2;
    }
    var tx = (x - was.left) / old, ty = Math.max(0, y - was.top) / old;
    zoom = Math.max(0.3, Math.min(4, z)); draw();
    var now = svg.getBoundingClientRect();
    scroller.scrollLeft += now.left + tx * zoom - x;
    scrollBy(0, now.top + ty * zoom - y);
  }
  scroller.addEventListener("wheel", function (e) {
    if (!e.ctrlKey) { return; }
    e.preventDefault();  // not the browser's page zoom
    zoomAbout(zoom * Math.pow(1.25, -Math.max(-3, Math.min(3, e.deltaY / (e.deltaMode ? 3 : 100)))), e.clientX, e.clientY);
  }, { passive: false });
  function fitting() {  // the zoom at which the whole tree fits the room left under the controls
    var size = layout();
    return Math.min((scroller.clientWidth - 4) / size.width,
      Math.max(200, window.innerHeight - scroller.getBoundingClientRect().top - 8) / size.height);
  }
  function fit() { setZoom(fitting()); }
  // the page opens with the whole tree in view if it fits at a readable size (texts of 10 px
  // or more), beside the pseudocode or else with the pseudocode folded away (a click on its
  // title opens it); a larger tree keeps its zoom and the root in view, to be scrolled
  var READABLE = 10 / 12, panel = document.getElementById("code-panel");
  function openView(first) {
    var z = Math.min(zoom, fitting());
    if (z < READABLE && first && panel.open) {
      panel.open = false;
      z = Math.min(zoom, fitting());
      if (z < READABLE) { panel.open = true; }
    }
    if (z >= READABLE) { setZoom(z); } else { rootInView(); }
  }
  panel.addEventListener("toggle", function () { zoom = 1.4; openView(false); });
  document.getElementById("zoom-in").addEventListener("click", function () { zoomAbout(zoom * 1.25); });
  document.getElementById("zoom-out").addEventListener("click", function () { zoomAbout(zoom / 1.25); });
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
  openView(true);

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
    var nodes = {}, lines = [], current = [], texts = [];
    for (var k = 0; k <= last; k++) {
      each(root, function (n) { (nodes[n.key] = nodes[n.key] || []).push(look(n, k)); });
      lines.push(k < last ? lineAt(k) : null); current.push(currentKey(k)); texts.push(caption(k));
    }
    return { nodes: nodes, lines: lines, current: current, captions: texts, summary: summary() };
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
    var box = svg.getBoundingClientRect(), code = document.getElementById("pseudocode").getBoundingClientRect();
    rows.push("window " + [box.left, box.top, box.right, box.bottom, window.innerWidth,
      window.innerHeight, code.left, code.bottom].map(Math.round).join(" "));
    rows.push("panel " + (document.getElementById("code-panel").open ? "open" : "closed"));
    return rows.join("\n");
  }
  var script = new URLSearchParams(location.search).get("autotest");
  if (script !== null) {
    var reports = [];
    script.split(",").filter(Boolean).forEach(function (action) {
      var m = /^(edit|click|algorithm|report|reset|zoom|expand|hover|step|frames|boxes|panel)(?::([^=]*)(?:=(.*))?)?$/.exec(action);
      if (!m) { reports.push("unknown action " + action); return; }
      if (m[1] === "edit") { setLeaf(findPosition(m[2]), parseNumber(m[3])); }
      if (m[1] === "click") {  // a real click on the node, through the page's own handler
        var g = document.getElementById("p-" + m[2]);
        if (g) { g.dispatchEvent(new MouseEvent("click", { bubbles: true })); }
      }
      if (m[1] === "algorithm" && DATA.editable) { switchTo(m[2]); }
      if (m[1] === "reset" && DATA.editable) { document.getElementById("reset").click(); }
      if (m[1] === "zoom") { document.getElementById(m[2] === "fit" ? "fit" : "zoom-" + m[2]).click(); }
      if (m[1] === "expand") { document.getElementById("expand").click(); }
      if (m[1] === "panel") {  // the pseudocode panel folded or opened, as its summary's click does
        var panel = document.getElementById("code-panel");
        panel.open = !panel.open; panel.dispatchEvent(new Event("toggle"));
      }
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
