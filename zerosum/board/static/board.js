// The analysis board: a game tree of positions, the board, the streaming analysis.
import { AnalysisStream, SERVER_GONE, get, post } from "./api.js";
import { drawGrid, drawMoves, drawPits, layoutFor } from "./draw.js";
import { fillAnnotation, setUpAnnotation } from "./annotate.js";
import { drawChart } from "./chart.js";
import { keepGame, keepPrevious, keptGame, linkFor, movesIn, nodeOf, previousGame, readLink, snapshot } from "./keeping.js";
import {
  computerChoice, computerSeat, editingOnBoard, editorCounts, fillSeats, nudgePit, setUpEditor, setUpPlay, setUpRecords,
} from "./panels.js";

const $ = (id) => document.getElementById(id);

const board = {
  game: "ayoayo",
  nodes: [],          // {id, parent, move, mover, view, steps, children}
  current: 0,
  bottom: 0,          // the player whose row is drawn at the bottom
  preview: null,      // a position shown from the PV, not part of the game
  answer: null,       // the latest analysis of the current position
  animation: 0,       // bumped to cancel a running animation
  animating: false,
  headers: {},        // a record's other headers (players, event, date...), kept on export
  linkError: "",      // what was wrong with the link the page was opened with
};
window.board = board; // for the tests and the curious

function node() { return board.nodes[board.current]; }
function shownView() { return board.preview || node().view; }

function newNode(parent, move, mover, view, steps) {
  const entry = { id: board.nodes.length, parent, move, mover, view, steps, children: [] };
  board.nodes.push(entry);
  if (parent !== null) board.nodes[parent].children.push(entry.id);
  return entry;
}

// The positions of the game before node `id` (from the start), for the repetition rule.
function earlierPositions(id) {
  const found = [];
  for (let n = board.nodes[id]; n.parent !== null; ) {
    n = board.nodes[n.parent];
    found.unshift(n.view.position);
  }
  return found;
}

// Put node `id` first among its parent's children: the main line goes through it.
function promote(id) {
  const n = board.nodes[id];
  if (n.parent === null) return;
  const siblings = board.nodes[n.parent].children;
  siblings.splice(siblings.indexOf(id), 1);
  siblings.unshift(id);
}

// A game against the computer (a seat chosen) or analysis (nobody): the page says which.
function gameMode() { return computerSeat() !== null; }
function computersTurn(view) { return gameMode() && !view.over && view.to_move === computerSeat(); }

// The moves from the start to node `id`.
function pathMoves(id) {
  const moves = [];
  for (let n = board.nodes[id]; n.parent !== null; n = board.nodes[n.parent]) moves.unshift(n.move);
  return moves;
}

function plyOf(id) {
  let ply = 0;
  for (let n = board.nodes[id]; n.parent !== null; n = board.nodes[n.parent]) ply++;
  return ply;
}

// ---- drawing ------------------------------------------------------------------------------

function pitState(view, extra = {}) {
  return {
    counts: view.rows.map((row) => row.slice()),
    stores: view.score.slice(),
    bottom: board.bottom,
    legal: board.animating || board.preview || computersTurn(view) ? [] : view.moves,
    players: view.players,
    toMove: view.to_move,
    layout: layoutFor($("board-area").clientWidth),
    ...extra,
  };
}

function draw() {
  const view = shownView();
  const svg = $("board");
  svg.dataset.position = view.position;
  const frozen = board.preview || computersTurn(view);
  const editing = view.view === "pits" && !board.preview && editingOnBoard();
  if (editing) {
    drawPits(svg, view, { ...pitState(view), ...editorCounts(), legal: [], editing: true }, (row, cell, event) =>
      nudgePit(row, cell, event.type === "contextmenu" || event.shiftKey ? -1 : 1));
  } else if (view.view === "pits") drawPits(svg, view, pitState(view), (row, cell) => pitClicked(view, row, cell));
  else if (view.view === "grid") drawGrid(svg, frozen ? { ...view, moves: [] } : view, playMove);
  else drawMoves(svg, frozen ? { ...view, moves: [] } : view, playMove);
  const box = svg.getAttribute("viewBox").split(" ").map(Number);
  svg.style.aspectRatio = `${box[2]} / ${box[3]}`;
  svg.style.maxWidth = view.view === "grid" ? "420px" : "";
  $("status").textContent = editing ? "editing the position on the board (see the editor for its check); untick 'edit on the board' to play" : statusText(view);
  svg.dataset.editing = editing ? "yes" : "no";
  if (view.over) { $("hint-text").textContent = ""; highlight(null); }
  showMode();
  $("preview-bar").hidden = !board.preview;
  $("position-text").value = view.position;
  drawMoveList();
  colourPits();
  fillAnnotation(node());
  if (board.nodes.length) keepGame(board);
}

// ---- annotation: the move tree edited (marks and comments are set in annotate.js) -----------

// The variation through the move shown becomes the main line where it branches off.
function promoteVariation() {
  let n = node();
  while (n.parent !== null && board.nodes[n.parent].children[0] === n.id) n = board.nodes[n.parent];
  if (n.parent === null) return "the move shown is on the main line already";
  promote(n.id);
  draw();
  return "";
}

// The move shown and every move after it leave the tree; the board goes back a move.
function deleteFromHere() {
  const n = node();
  if (n.parent === null) return "the start cannot be deleted";
  const siblings = board.nodes[n.parent].children;
  siblings.splice(siblings.indexOf(n.id), 1);
  jump(n.parent);
  return "";
}

// ↑ / ↓: the previous / next variation of the move shown (its siblings, the main line first).
function sibling(step) {
  const n = node();
  if (n.parent === null) return;
  const siblings = board.nodes[n.parent].children;
  const next = siblings[siblings.indexOf(n.id) + step];
  if (next !== undefined) jump(next);
}

function changed() {
  drawMoveList();
  keepGame(board);
}

function statusText(view) {
  if (view.over) return `game over: ${view.outcome}` + (view.note ? ` · ${view.note}` : "");
  const who = computersTurn(view) ? `${view.players[view.to_move]} (the computer) to move` : `${view.players[view.to_move]} to move`;
  return who + (view.score ? ` · captured ${view.players[0]} ${view.score[0]}, ${view.players[1]} ${view.score[1]}` : "");
}

function showMode() {
  const seat = computerSeat();
  const players = node().view.players;
  $("mode").textContent = seat === null
    ? "analysis: any move can be played for either side; a different move starts a variation"
    : `a game against the computer (it plays ${players[seat]} at ${$("level").value}): ◀ takes back your last turn and the game goes on from there`;
  $("mode").dataset.mode = seat === null ? "analysis" : "game";
}

// A click on a pit: its move if it is legal; else why it is not, in words.
function pitClicked(view, row, cell) {
  const legal = view.moves.find((m) => m.cell && m.cell[0] === row && m.cell[1] === cell);
  if (legal && !board.animating && !board.preview && !computersTurn(view)) { playMove(legal.move); return; }
  let why;
  if (board.preview) why = "this is a preview of a line: go back to the game to play";
  else if (board.animating) why = "wait for the sowing to finish";
  else if (view.over) why = "the game is over";
  else if (computersTurn(view)) why = `it is ${view.players[view.to_move]}'s turn, the computer's: wait for its move`;
  else if (row !== view.to_move) why = `that is ${view.players[row]}'s row; ${view.players[view.to_move]} is to move`;
  else if (view.rows[row][cell] === 0) why = `cell ${cell} is empty`;
  else why = `cell ${cell} is not a legal move here (it must feed the opponent's empty row); legal: ${view.moves.map((m) => m.move).join(", ")}`;
  $("sowing").textContent = why;
  $("sowing").dataset.refused = `${row}.${cell}`;
}

function drawMoveList() {
  const box = $("movelist");
  box.innerHTML = "";
  const line = (id, container, depth) => {
    let n = board.nodes[id];
    while (n.children.length) {
      const [main, ...others] = n.children;
      addMove(container, main);
      for (const alt of others) {
        const span = document.createElement("span");
        span.className = "variation";
        span.append(" (");
        addMove(span, alt);
        line(alt, span, depth + 1);
        span.append(") ");
        container.appendChild(span);
      }
      n = board.nodes[main];
    }
  };
  const start = document.createElement("span");
  start.className = "mv" + (board.current === 0 ? " current" : "");
  start.textContent = "start";
  start.dataset.node = 0;
  start.addEventListener("click", () => jump(0));
  box.appendChild(start);
  box.append(" ");
  line(0, box, 0);
}

function addMove(container, id) {
  const n = board.nodes[id];
  const span = document.createElement("span");
  span.className = "mv" + (id === board.current ? " current" : "");
  span.dataset.node = id;
  const ply = document.createElement("span");
  ply.className = "ply";
  ply.textContent = `${plyOf(id)}.`;
  span.append(ply, ` ${n.move}`);
  span.title = `${n.view.players[n.mover]} played ${n.move}` + (n.comment ? ` — ${n.comment}` : "");
  if (n.nag) {
    const nag = document.createElement("span");
    nag.className = "nag";
    nag.textContent = n.nag;
    span.appendChild(nag);
  }
  if (n.review && n.review.mark) {
    const mark = document.createElement("span");
    mark.className = "mark";
    mark.textContent = n.review.mark;
    span.appendChild(mark);
    span.title += ` · lost ${n.review.loss}; better ${n.review.best_move}`;
  }
  span.addEventListener("click", () => jump(id));
  container.appendChild(span);
  container.append(" ");
  if (n.comment) {
    const comment = document.createElement("span");
    comment.className = "comment";
    comment.textContent = n.comment;
    container.append(comment, " ");
  }
}

// ---- the sowing animation -----------------------------------------------------------------

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function describeSowing(steps, view, mover) {
  const laps = steps.filter((s) => s.kind === "pick").length;
  const fours = steps.filter((s) => s.kind === "capture")
    .map((s) => `four in ${view.players[s.row]}'s cell ${s.cell} → ${view.players[s.by]}`);
  const swept = steps.filter((s) => s.kind === "sweep");
  const parts = [`${view.players[mover]} sowed cell ${steps[0].cell}: ${laps} lap${laps === 1 ? "" : "s"}`];
  if (fours.length) parts.push(fours.join("; "));
  if (swept.length) parts.push(`the game ends: ${view.players[swept[0].by]} takes the seeds left in their row`);
  return parts.join(" · ");
}

async function animate(before, after, steps, mover) {
  const token = ++board.animation;
  const svg = $("board");
  const log = [];
  const state = pitState(before, { legal: [] });
  state.toMove = after.over ? null : after.to_move;
  const speed = Number($("speed").value);
  board.animating = true;
  try {
    for (const step of steps) {
      if (token !== board.animation) return;
      const pit = [step.row, step.cell];
      state.active = pit;
      state.hit = null;
      if (step.kind === "pick") state.counts[step.row][step.cell] = 0;
      else if (step.kind === "drop") state.counts[step.row][step.cell] = step.seeds;
      else {
        state.counts[step.row][step.cell] = 0;
        state.stores[step.by] += step.seeds;
        state.hit = pit;
      }
      log.push(`${step.kind}:${step.row}.${step.cell}`);
      if (speed > 0) {
        drawPits(svg, after, state, () => {});
        await sleep(step.kind === "drop" ? speed : speed * 2);
      }
    }
  } finally {
    if (token === board.animation) board.animating = false;
    svg.dataset.animated = log.join(" ");
  }
}

// ---- moves and navigation -----------------------------------------------------------------

// `byComputer`: the computer's own move (the only way to move for its side in a game).
async function playMove(move, byComputer = false) {
  if (board.animating || board.preview) return;
  const here = node();
  if (computersTurn(here.view) && !byComputer) return;
  const known = here.children.map((id) => board.nodes[id]).find((n) => n.move === move);
  if (known) {
    if (gameMode()) promote(known.id);  // a game goes on along its main line
    jump(known.id);
    computerMove();
    return;
  }
  let played;
  stream.stop();  // the worker frees itself while the move is played, for the next position's search
  try {
    played = await post("/api/play", { game: board.game, position: here.view.position, move, earlier: earlierPositions(here.id) });
  } catch (error) {
    $("sowing").textContent = error.message;
    analyse();
    return;
  }
  if (node() !== here) return;  // the player went elsewhere meanwhile
  showLinkError("");
  const entry = newNode(here.id, played.move, played.mover, played.position, played.steps || null);
  if (gameMode()) promote(entry.id);  // after a takeback the game's new moves are its main line
  board.current = entry.id;
  board.answer = null;
  analyse();
  if (entry.steps) {
    $("sowing").textContent = describeSowing(entry.steps, here.view, played.mover);
    $("status").textContent = `${here.view.players[played.mover]} sows… then ${statusText(entry.view)}`;
    drawMoveList();
    await animate(here.view, entry.view, entry.steps, played.mover);
  } else {
    $("sowing").textContent = "";
  }
  if (board.current === entry.id) { draw(); computerMove(); }
}

// One search per page: the streaming analysis pauses while the page asks for another search
// (a review, a hint, the computer's move), then starts again on the position shown.
async function asking(request) {
  stream.stop();
  try {
    return await request();
  } finally {
    analyse();
  }
}

// The computer's move when it is its turn (against the computer).
let thinkingFor = null;
async function computerMove() {
  const view = node().view;
  const seat = computerSeat();
  if (seat === null || view.over || view.to_move !== seat || board.preview || board.animating) return;
  if (thinkingFor === view.position) return;
  thinkingFor = view.position;
  $("status").textContent = `${view.players[seat]} (the computer) is thinking…`;
  try {
    stream.stop();
    const move = await computerChoice(board.game, view.position);
    if (node().view.position === view.position) await playMove(move, true);
  } catch (error) {
    $("sowing").textContent = error.message;
  } finally {
    thinkingFor = null;
  }
}

function jump(id) {
  board.animation++;
  board.animating = false;
  board.preview = null;
  if (id === board.current) { draw(); return; }
  board.current = id;
  board.answer = null;
  $("sowing").textContent = "";
  draw();
  analyse();
}

function back() {
  let n = node();
  if (n.parent === null) return;
  n = board.nodes[n.parent];
  // against the computer, take back to your own turn
  if (computerSeat() !== null && n.view.to_move === computerSeat() && n.parent !== null) n = board.nodes[n.parent];
  jump(n.id);
}
function forward() { if (node().children.length) jump(node().children[0]); }
function first() { jump(0); }
function last() {
  let n = node();
  while (n.children.length) n = board.nodes[n.children[0]];
  jump(n.id);
}
function highlight(move) {
  const found = move === null ? null : node().view.moves.find((m) => m.move === move);
  document.querySelectorAll(".hint").forEach((e) => e.classList.remove("hint"));
  if (found && found.cell) {
    const target = document.querySelector(`#board [data-row='${found.cell[0]}'][data-cell='${found.cell[1]}']`);
    if (target) target.classList.add("hint");
  }
}

// The line from the start through the current move and on along the main line, for records.
// The nodes of the line shown: from the start to the current move, then on along its main line.
function lineNodes() {
  const line = [];
  for (let n = node(); n.parent !== null; n = board.nodes[n.parent]) line.unshift(n);
  for (let n = node(); n.children.length; ) {
    n = board.nodes[n.children[0]];
    line.push(n);
  }
  return line;
}

function lineForExport() {
  const line = lineNodes();
  const comments = Object.fromEntries(line.map((n, i) => [String(i), n.comment || ""]).filter(([, c]) => c));
  const annotations = Object.fromEntries(line.map((n, i) => [String(i), n.nag || ""]).filter(([, a]) => a));
  return { game: board.game, position: board.nodes[0].view.position, headers: board.headers, moves: line.map((n) => n.move), comments, annotations };
}

// The whole move tree for a record: the main line from the start (first children), each
// other child a variation of the move it replaces, with comments.
function treeForExport() {
  const lineFrom = (id) => {
    const line = { moves: [], comments: {}, annotations: {}, variations: {} };
    for (let n = board.nodes[id]; n.children.length; ) {
      const [main, ...others] = n.children;
      const index = line.moves.length;
      const next = board.nodes[main];
      line.moves.push(next.move);
      if (next.comment) line.comments[index] = next.comment;
      if (next.nag) line.annotations[index] = next.nag;
      if (others.length) line.variations[index] = others.map((alt) => variationFrom(alt));
      n = next;
    }
    return line;
  };
  const variationFrom = (id) => {
    const first = board.nodes[id];
    const rest = lineFrom(id);
    const shift = (map) => Object.fromEntries(Object.entries(map).map(([k, v]) => [String(Number(k) + 1), v]));
    return {
      moves: [first.move, ...rest.moves],
      comments: { ...(first.comment ? { 0: first.comment } : {}), ...shift(rest.comments) },
      annotations: { ...(first.nag ? { 0: first.nag } : {}), ...shift(rest.annotations) },
      variations: shift(rest.variations),
    };
  };
  return { game: board.game, position: board.nodes[0].view.position, headers: board.headers, ...lineFrom(0) };
}

// A new game replaces the one on the page: the old one, if it has moves, is kept as the
// previous game (one click brings it back).
function replacingGame() {
  if (board.nodes.length > 1) keepPrevious(snapshot(board));
  if (board.nodes.length) showLinkError("");  // the page's first game keeps the link's error
  showPrevious();
}

function showPrevious() {
  const previous = previousGame();
  const button = $("restore-previous");
  button.hidden = !previous;
  if (previous) button.textContent = `bring back the previous game (${previous.game}, ${movesIn(previous)} move${movesIn(previous) === 1 ? "" : "s"})`;
}

function restore(kept, at = kept.current) {
  board.game = kept.game;
  board.nodes = kept.nodes.map((n, id) => ({ ...n, id, steps: null }));
  board.current = at;
  board.headers = kept.headers || {};
  board.preview = null;
  board.animation++;
  board.animating = false;
  selectGame(kept.game);
  fillSeats(kept.nodes[0].view.players);
  if ([...$("computer").options].some((o) => o.value === kept.seat)) $("computer").value = kept.seat;
  if ([...$("level").options].some((o) => o.value === kept.level)) $("level").value = kept.level;
  draw();
  analyse();
  computerMove();
}

function restorePrevious() {
  const previous = previousGame();
  if (!previous) return;
  replacingGame();
  restore(previous);
  showPrevious();
}

function showLinkError(message) {
  board.linkError = message;
  $("link-error").textContent = message;
  $("link-error").hidden = !message;
}

function loadRecord(read, atEnd = false) {
  replacingGame();
  board.game = read.game;
  board.headers = read.headers || {};
  board.nodes = [];
  board.preview = null;
  board.animation++;
  board.animating = false;
  const addLine = (from, moves) => {
    let parent = from;
    for (const m of moves) {
      const before = parent;
      parent = newNode(before.id, m.move, m.mover, m.position, m.steps || null);
      parent.comment = m.comment;
      parent.nag = m.annotation || "";
      for (const variation of m.variations || []) addLine(before, variation);
    }
  };
  addLine(newNode(null, null, null, read.start, null), read.moves);
  board.current = 0;
  while (atEnd && node().children.length) board.current = node().children[0];
  selectGame(read.game);
  fillSeats(read.start.players);
  draw();
  analyse();
}

// The review of the line shown: its marks in the move list, its values in the chart.
function showReview(review) {
  const nodes = lineNodes();
  review.moves.forEach((m, i) => { if (nodes[i]) nodes[i].review = m; });
  drawMoveList();
  const points = review.moves.map((m) => ({ ply: m.ply, value: m.value, shown: signed(m.value, m.exact), exact: m.exact, mark: m.mark, move: m.move }));
  const scale = node().view.score ? 24 : 1;
  $("value-chart").removeAttribute("hidden");
  drawChart($("value-chart"), points, scale, node().view.players, (i) => { if (nodes[i]) jump(nodes[i].id); });
}

function playBest() {
  const answer = board.answer;
  if (answer && answer.position === node().view.position && answer.best_move != null && !computersTurn(node().view)) playMove(answer.best_move);
}

// ---- analysis -----------------------------------------------------------------------------

const stream = new AnalysisStream(onStream);

function analyse() {
  const view = node().view;
  // the address reopens this game at this move; a bad link stays shown until the game moves on
  if (!(board.linkError && board.nodes.length === 1)) history.replaceState(null, "", linkFor(board.game, board.nodes[0].view.position, pathMoves(board.current)));
  drawAnalysis(null);
  if (!$("engine-on").checked) { stream.stop(); return; }
  if (view.over) { stream.stop(); drawAnalysis({ over: true, outcome: view.outcome, value: view.value }); return; }
  $("engine-summary").textContent = "thinking…";
  stream.analyse(board.game, view.position);
}

function onStream(message) {
  if (message.position !== node().view.position) return;
  if (message.type === "error") { $("engine-summary").textContent = message.error; return; }
  if (message.type === "waiting") { $("engine-summary").textContent = "waiting for a free engine…"; return; }
  if (message.type === "gone") {  // the analysis shown is no longer being searched
    drawAnalysis(null);
    $("engine-summary").textContent = SERVER_GONE;
    return;
  }
  board.answer = message.answer;
  drawAnalysis(message.answer, message.type === "done");
  colourPits();
}

// An exact win's distance when the outcome does not say it: the plies of its line to the end.
function distance(answer) {
  if (!answer.exact || answer.endless || answer.value === 0 || / in \d+ pl/.test(answer.outcome)) return "";
  const plies = answer.plies ?? (answer.pv_end && answer.pv_end.kind === "end" ? answer.pv.length : null);
  return plies === null ? "" : ` in ${plies} pl${plies === 1 ? "y" : "ies"}`;
}

// A value with its sign; a horizon evaluation (not exact) rounded as `gamesolver` rounds it
// (report.evaluation): two decimals, or one significant digit when smaller.
function signed(value, exact = true) {
  if (value === null || value === undefined) return "?";
  let size = Math.abs(value);
  if (!exact && size !== 0) size = Math.round(size * 100) === 0 ? Number(size.toPrecision(1)) : Math.round(size * 100) / 100;
  return value > 0 ? `+${size}` : value < 0 ? `−${size}` : "0";
}

function drawAnalysis(answer, finished = false) {
  const summary = $("engine-summary");
  const body = $("move-values").querySelector("tbody");
  body.innerHTML = "";
  delete $("move-values").dataset.depth;
  $("pv").innerHTML = "";
  $("engine-stats").textContent = "";
  setEvalBar(answer ? answer.value : 0);
  $("move-values").hidden = Boolean(answer && answer.over);  // a finished game has no moves to value
  if (!answer) { summary.textContent = "—"; return; }
  const view = node().view;
  const p0 = view.players[0];
  summary.innerHTML = "";
  const proved = answer.over ? null : answer.proved;  // the opening book's (or a proof's) values
  const estimate = !answer.over && !answer.exact && !proved;  // a horizon evaluation, not a result
  const value = proved ? proved.value : answer.value;
  summary.append(`${answer.over ? "final" : estimate ? "evaluation" : "value"} ${signed(value, !estimate)} `);
  const whose = document.createElement("span");
  whose.className = "small";
  whose.textContent = `(${p0}'s view: + is good for ${p0}) `;
  summary.append(whose, document.createElement("br"), proved ? proved.outcome : answer.outcome + distance(answer));
  if (answer.exact || proved) {
    const mark = document.createElement("span");
    mark.className = "exact";
    mark.textContent = proved ? ` solved (${proved.source})` : answer.tablebase ? " exact (tablebase)" : " exact";
    summary.append(mark);
  }
  if (answer.proved) {  // proved values (the opening book's), on the final answer
    const solved = document.createElement("div");
    solved.className = "small solved";
    const moves = Object.entries(answer.proved.moves).map(([m, v]) => `${m} ${signed(v)}`).join(", ");
    solved.textContent = `every move's value proved (${answer.proved.source}): ${moves}; the lines are the engine's`;
    summary.append(solved);
  }
  if (answer.over) return;
  $("move-values").dataset.depth = answer.depth === null ? "end" : String(answer.depth);
  $("move-values").dataset.position = answer.position;
  const stats = answer.stats;  // null when the answer was read from a tablebase, not searched
  const depth = answer.depth === null ? "to the end" : `depth ${answer.depth}`;
  $("engine-stats").textContent = stats
    ? `${depth} · ${stats.nodes.toLocaleString("en")} nodes · ${Math.round(stats.nodes_per_second).toLocaleString("en")} nodes/s · ${stats.seconds.toFixed(2)} s${finished ? (answer.complete ? " · finished" : ` · stopped after ${Math.round(stats.seconds)} s, the board's limit for one position`) : ""}`
    : "read from the endgame tablebase, not searched";
  const pv = $("pv");
  pv.append("line: ");
  answer.pv.forEach((step, i) => {
    const span = document.createElement("span");
    span.className = "pvmove";
    span.textContent = step.move;
    span.title = `${view.players[step.player]} plays ${step.move}; click to preview`;
    span.addEventListener("click", () => previewLine(answer.pv.slice(0, i + 1).map((s) => s.move)));
    pv.append(span, " ");
  });
  if (answer.pv_end && answer.pv_end.kind !== "depth") {
    const end = document.createElement("span");
    end.className = "small pv-end";
    end.textContent = `(${answer.pv_end.text})`;
    pv.append(end);
  }
  const sign = view.to_move === 0 ? 1 : -1;
  const rows = shownMoves(answer).sort((a, b) => sign * ((b.value ?? -1e9 * sign) - (a.value ?? -1e9 * sign)));
  for (const row of rows) {
    const tr = document.createElement("tr");
    tr.className = row.best ? "best" : "";
    tr.dataset.move = row.move;
    tr.dataset.outcome = outcomeFor(row.value, view.to_move);
    tr.dataset.exact = row.exact ? "yes" : "no";
    const said = row.value === null ? "worse (pruned)"
      : row.proved ? `proved (${answer.proved.source})`
      : answer.exact
        ? `exact${row.endless ? ", by endless play" : row.plies !== null ? `, ${row.plies} plies` : ""}`
        : `depth ${answer.depth}`;
    for (const cell of [row.move + (row.best ? " ★" : ""), signed(row.value, row.exact), said]) {
      const td = document.createElement("td");
      td.textContent = cell;
      td.addEventListener("click", () => playMove(row.move));
      tr.appendChild(td);
    }
    tr.appendChild(lineCell(row, view));
    body.appendChild(tr);
  }
}

// A move's value as an outcome for the player who would play it: win, draw or loss (exact), or
// who is ahead at the horizon ("" for a pruned move).
function outcomeFor(value, mover) {
  if (value === null || value === undefined) return "";
  const own = mover === 0 ? value : -value;
  return own > 0 ? "win" : own < 0 ? "loss" : "draw";
}

// The legal pits ringed in their move's outcome colour (the answer of the position shown).
function colourPits() {
  const answer = board.answer;
  const view = node().view;
  if (!answer || answer.position !== view.position || board.preview || view.view !== "pits") return;
  for (const row of shownMoves(answer)) {
    const found = view.moves.find((m) => m.move === row.move);
    if (!found || !found.cell) continue;
    const pit = document.querySelector(`#board .pit[data-row='${found.cell[0]}'][data-cell='${found.cell[1]}']`);
    if (pit) { pit.dataset.outcome = outcomeFor(row.value, view.to_move); pit.dataset.exact = row.exact ? "yes" : "no"; }
  }
}

// The answer's moves as shown: a move the proof (the opening book) settled takes its proved
// value, exact, and is best when it keeps the proved value; the others are the search's.
function shownMoves(answer) {
  const proved = answer.over ? null : answer.proved;
  return (answer.moves || []).map((row) => {
    const value = proved ? proved.moves[row.move] : undefined;
    return value === undefined
      ? { ...row, exact: answer.exact, proved: false }
      : { ...row, value, exact: true, proved: true, best: value === proved.value };
  });
}

// A move's line in its row: each move previews the line up to it; long lines are folded.
const LINE_SHOWN = 10;

function lineCell(row, view) {
  const td = document.createElement("td");
  td.className = "line";
  if (!row.line) return td;
  const moves = row.line.map((s) => s.move);
  row.line.slice(0, LINE_SHOWN).forEach((step, i) => {
    const span = document.createElement("span");
    span.className = "pvmove";
    span.textContent = step.move;
    span.title = `${view.players[step.player]} plays ${step.move}; click to preview`;
    span.addEventListener("click", () => previewLine(moves.slice(0, i + 1)));
    td.append(span, " ");
  });
  const more = row.line.length > LINE_SHOWN ? `… ${row.line.length} plies` : "";
  const end = row.line_end && row.line_end.kind !== "depth" ? row.line_end.kind === "repeat" ? "repeats" : row.line_end.kind === "end" ? "ends" : "cut" : "";
  if (more || end) {
    const tail = document.createElement("span");
    tail.className = "small";
    tail.textContent = [more, end].filter(Boolean).join(", ");
    if (row.line_end) tail.title = row.line_end.text;
    td.append(tail);
  }
  return td;
}

function setEvalBar(value) {
  const forBottom = (value || 0) * (board.bottom === 0 ? 1 : -1);
  // a full bar at 24 seeds ahead in a game with a score, at a win in one scored +1/0/-1
  const scale = node().view.score ? 24 : 1;
  const share = 50 + Math.max(-50, Math.min(50, (forBottom / scale) * 50));
  $("evalfill").style.height = `${share}%`;
  $("evalbar").title = `evaluation ${signed(value, false)} (${node().view.players[0]}'s view)`;
}

async function previewLine(moves) {
  let view = node().view;
  try {
    for (const move of moves) view = (await post("/api/play", { game: board.game, position: view.position, move })).position;
  } catch (error) {
    $("sowing").textContent = error.message;
    return;
  }
  board.preview = view;
  draw();
}

// ---- set-up -------------------------------------------------------------------------------

// A new game from `position` (null: the game's start); false, with the message shown under the
// position box, when the position is not valid.
async function start(game, position) {
  try {
    await open(game, position);
  } catch (error) {
    $("position-error").textContent = error.message;
    return false;
  }
  $("position-error").textContent = "";
  return true;
}

// Show `game` in the game menu: a game with options ("connect4 width=5 height=4", as records
// and links keep it) gets an entry of its own, so its options stay with it.
function selectGame(game) {
  const select = $("game");
  if (![...select.options].some((o) => o.value === game)) select.appendChild(new Option(game, game));
  select.value = game;
}

async function open(game, position) {
  const view = await post("/api/position", { game, position });
  replacingGame();
  board.game = game;
  board.headers = {};
  board.nodes = [];
  board.preview = null;
  board.animation++;
  board.animating = false;
  board.current = newNode(null, null, null, view, null).id;
  selectGame(game);
  fillSeats(view.players);
  draw();
  analyse();
  computerMove();
}

// The page opened: the game kept in this browser when the address is its own (a reload), else
// what the link asks for (a position and moves); a bad link says what was wrong.
async function openFirst(chosen) {
  const link = readLink(location.search);
  const kept = keptGame();
  const known = kept && [...$("game").options].some((o) => o.value === kept.game.split(" ")[0]);
  if (known && !link.given) return restore(kept);
  if (known && (link.game || chosen.game) === kept.game && link.position === kept.nodes[0].view.position) {
    const at = nodeOf(kept, link.moves);
    if (at !== null) return restore(kept, at);
  }
  if (known && movesIn(kept)) keepPrevious(kept);
  const game = link.game || chosen.game;
  const position = link.position || (game === chosen.game ? chosen.position : null);
  try {
    if (link.moves.length) {
      const { record } = await post("/api/export", { game, position, moves: link.moves });
      loadRecord(await post("/api/record", { record }), true);
    } else {
      await open(game, position);
    }
  } catch (error) {
    const what = link.moves.length ? "the link's game" : "the link's position";
    showLinkError(`could not open ${what}: ${error.message}. The board shows the start instead.`);
    await open(chosen.game, null);
  }
  showPrevious();
}

async function main() {
  const { games, broken, needs_options: needs, default: chosen, levels, warnings } = await get("/api/games");
  // A plug-in that cannot be loaded is named with its error, one made only with options says
  // how to give them; every other game works.
  const said = [
    ...warnings,
    ...broken.map((b) => `game ${b.name} cannot be loaded, so it is not listed: ${b.error}`),
    ...needs.map((n) => `game ${n.name} needs options (${n.options.join(", ")}): start the board with gamesolver board ${n.name} ${n.options.map((o) => `-O ${o}=…`).join(" ")}`),
  ];
  if (said.length) { $("warnings").textContent = said.join(" "); $("warnings").hidden = false; }
  const select = $("game");
  for (const g of games) {
    const option = document.createElement("option");
    option.value = g.name;
    option.textContent = g.name;
    option.title = g.description;
    select.appendChild(option);
  }
  const ui = {
    node, game: () => board.game, start, highlight, lineForExport, treeForExport, loadRecord, showReview,
    computerMove, asking, modeChanged: () => { draw(); computerMove(); }, bottom: () => board.bottom, signed,
    redraw: () => draw(),
  };
  setUpPlay(ui, levels);
  setUpRecords(ui);
  setUpEditor(ui);
  setUpAnnotation({ node, changed, promoteVariation, deleteFromHere });
  await openFirst(chosen);
  $("restore-previous").addEventListener("click", restorePrevious);
  select.addEventListener("change", () => start(select.value, null));
  $("flip").addEventListener("click", flip);
  $("back").addEventListener("click", back);
  $("forward").addEventListener("click", forward);
  $("first").addEventListener("click", first);
  $("last").addEventListener("click", last);
  $("best").addEventListener("click", playBest);
  $("preview-exit").addEventListener("click", () => { board.preview = null; draw(); });
  $("engine-on").addEventListener("change", analyse);
  $("position-load").addEventListener("click", () => start(board.game, $("position-text").value));
  document.addEventListener("keydown", onKey);
  window.addEventListener("resize", () => {  // a phone turned: the other layout, if it changes
    const svg = $("board");
    if (svg.dataset.layout && svg.dataset.layout !== layoutFor($("board-area").clientWidth) && !board.animating) draw();
  });
  document.body.dataset.ready = "yes";
}

function flip() {
  board.bottom = 1 - board.bottom;
  draw();
  setEvalBar(board.answer ? board.answer.value : 0);
}

function onKey(event) {
  if (event.target.closest && event.target.closest("input, textarea, select")) return;
  const keys = {
    ArrowLeft: back, ArrowRight: forward, Home: first, End: last, " ": playBest, f: flip,
    ArrowUp: () => sibling(-1), ArrowDown: () => sibling(1),
  };
  const action = keys[event.key];
  if (action) { event.preventDefault(); action(); }
}

main();
