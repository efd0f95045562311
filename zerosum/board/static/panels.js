// The side panels: play against the computer, game records (import, export, review), and the
// position editor. Each gets the board's controller (`ui`) and works through the JSON API.
import { post } from "./api.js";

const $ = (id) => document.getElementById(id);

// ---- play against the computer ------------------------------------------------------------

export function setUpPlay(ui, levels) {
  const level = $("level");
  for (const lv of levels) {
    const option = document.createElement("option");
    option.value = lv.name;
    option.textContent = lv.name;
    option.title = lv.said;
    level.appendChild(option);
  }
  level.value = "club";
  $("computer").addEventListener("change", () => ui.modeChanged());
  level.addEventListener("change", () => ui.modeChanged());
  $("hint").addEventListener("click", async () => {
    const view = ui.node().view;
    if (view.over) return;
    $("hint-text").textContent = "thinking…";
    try {
      const answer = await ui.asking(() => post("/api/analyse", { game: ui.game(), position: view.position, time: 1 }));
      $("hint-text").textContent = `try ${answer.best_move} (${answer.outcome})`;
      ui.highlight(answer.best_move);
    } catch (error) {
      $("hint-text").textContent = error.message;
    }
  });
}

export function fillSeats(players) {
  const select = $("computer");
  const chosen = select.value;
  select.innerHTML = "";
  const none = new Option("nobody (analysis)", "");
  select.appendChild(none);
  players.forEach((name, player) => select.appendChild(new Option(name, String(player))));
  select.value = [...select.options].some((o) => o.value === chosen) ? chosen : "";
}

export function computerSeat() {
  const value = $("computer").value;
  return value === "" ? null : Number(value);
}

export async function computerChoice(game, position) {
  const answer = await post("/api/analyse", { game, position, level: $("level").value });
  return answer.best_move;
}

// ---- game records -------------------------------------------------------------------------

export function setUpRecords(ui) {
  $("record-export").addEventListener("click", () => exportRecord(ui.treeForExport()));
  $("record-export-line").addEventListener("click", () => exportRecord(ui.lineForExport()));
  async function exportRecord(what) {
    $("record-error").textContent = "";
    try {
      const { record } = await post("/api/export", what);
      $("record-text").value = record;
      const url = URL.createObjectURL(new Blob([record], { type: "text/plain" }));
      $("record-download").href = url;
    } catch (error) {
      $("record-error").textContent = error.message;
    }
  }
  $("record-import").addEventListener("click", async () => {
    $("record-error").textContent = "";
    try {
      const read = await post("/api/record", { record: $("record-text").value });
      ui.loadRecord(read);
    } catch (error) {
      $("record-error").textContent = error.message;
    }
  });
  $("review-run").addEventListener("click", async () => {
    $("record-error").textContent = "reviewing…";
    try {
      const line = ui.lineForExport();
      const { record } = await post("/api/export", line);
      const review = await ui.asking(() => post("/api/review", { record }));
      $("record-error").textContent = "";
      ui.showReview(review);
      drawReview(review, ui);
    } catch (error) {
      $("record-error").textContent = error.message;
    }
  });
}

function drawReview(review, ui) {
  const table = $("review-table");
  const p0 = ui.node().view.players[0];
  table.innerHTML = `<tr><th>ply</th><th>move</th><th>mark</th><th>lost</th><th title="the better move and its value, from ${p0}'s side: + is good for ${p0}">better → value (${p0}'s view)</th></tr>`;
  for (const m of review.moves) {
    const tr = table.insertRow();
    const lost = m.exact ? m.loss : ui.signed(m.loss, false).replace(/^\+/, "");
    for (const cell of [m.ply, m.move, m.mark, lost, m.mark ? `${m.best_move} → ${ui.signed(m.best_value, m.exact)}` : ""]) {
      tr.insertCell().textContent = String(cell);
    }
    tr.dataset.mark = m.mark;
  }
  const caption = table.createCaption();
  caption.textContent = Object.entries(review.marks).map(([k, v]) => `${k} ${v}`).join(" · ");
}

// ---- the position editor: pits (and stores) for games drawn as pits, cells for grid games ----

export function setUpEditor(ui) {
  $("editor-box").addEventListener("toggle", () => {
    if ($("editor-box").open) fillEditor(ui.node().view, ui.bottom());
    ui.redraw();
  });
  $("editor-use").addEventListener("click", async () => {
    if ($("editor").dataset.kind === "grid") {
      try {
        const view = await post("/api/position", { game: ui.game(), cells: gridCells() });
        await ui.start(ui.game(), view.position);
      } catch (error) {
        $("editor-check").textContent = error.message;
        $("editor-check").className = "bad";
      }
      return;
    }
    if (await ui.start(ui.game(), editorPosition())) $("edit-on-board").checked = false;
    ui.redraw();
  });
  $("editor").addEventListener("input", () => { checkEditor(ui); ui.redraw(); });
  $("edit-on-board").addEventListener("change", () => {
    if ($("edit-on-board").checked && !$("edit-0-0")) fillEditor(ui.node().view, ui.bottom());
    ui.redraw();
  });
}

// Editing on the board: whether it is on (a board drawn as pits, the editor filled).
export function editingOnBoard() {
  return $("edit-on-board").checked && $("editor-box").open && Boolean($("edit-0-0"));
}

// The position being edited, as the board draws it.
export function editorCounts() {
  const value = (id) => Math.max(0, Math.floor(Number($(id).value) || 0));
  return {
    counts: [0, 1].map((r) => [0, 1, 2, 3, 4, 5].map((c) => value(`edit-${r}-${c}`))),
    stores: [value("edit-cap-0"), value("edit-cap-1")],
    toMove: Number($("edit-to-move").value),
  };
}

// A pit clicked while editing on the board: one seed more (`delta` 1) or less (-1), checked
// live as a typed change is.
export function nudgePit(row, cell, delta) {
  const input = $(`edit-${row}-${cell}`);
  input.value = String(Math.max(0, Math.min(48, (Number(input.value) || 0) + delta)));
  $("editor").dispatchEvent(new Event("input"));
}

// The pits in the board's own order: the top row first, each row's cells in the columns the board
// draws them in (with Player 1 at the bottom, cells 5 to 0 from the left).
export function fillEditor(view, bottom) {
  const editor = $("editor");
  editor.innerHTML = "";
  editor.dataset.kind = view.view;
  $("edit-on-board").parentElement.hidden = view.view !== "pits";  // editing on the board: pits
  if (view.view === "grid" && view.marks) {
    fillGridEditor(editor, view);
    return;
  }
  if (view.view !== "pits") {
    editor.textContent = "this game's positions are set as text (the position box under the board)";
    $("editor-use").hidden = true;
    return;
  }
  $("editor-use").hidden = false;
  const number = (id, value) => {
    const input = document.createElement("input");
    Object.assign(input, { type: "number", min: 0, max: 48, value, id });
    return input;
  };
  const columns = bottom === 0 ? [5, 4, 3, 2, 1, 0] : [0, 1, 2, 3, 4, 5];
  for (const row of [1 - bottom, bottom]) {
    const label = document.createElement("span");
    label.textContent = `${view.players[row]} cells ${columns[0]}–${columns[5]}`;
    editor.appendChild(label);
    for (const cell of columns) editor.appendChild(number(`edit-${row}-${cell}`, view.rows[row][cell]));
  }
  const captured = document.createElement("span");
  captured.textContent = "captured";
  const caps = document.createElement("span");
  caps.className = "wide";
  caps.append(number("edit-cap-0", view.score[0]), ` ${view.players[0]}  `, number("edit-cap-1", view.score[1]), ` ${view.players[1]}`);
  const moverLabel = document.createElement("span");
  moverLabel.textContent = "to move";
  const mover = document.createElement("select");
  mover.id = "edit-to-move";
  view.players.forEach((name, p) => mover.appendChild(new Option(name, String(p))));
  mover.value = String(view.to_move ?? 0);
  const moverCell = document.createElement("span");
  moverCell.className = "wide";
  moverCell.appendChild(mover);
  editor.append(captured, caps, moverLabel, moverCell);
  $("editor-check").textContent = "";
}

// A grid game's editor: a button a cell, each click turning it to the next mark (empty, then
// the game's marks, e.g. x and o), checked live; the position is read back by the server.
function fillGridEditor(editor, view) {
  $("editor-use").hidden = false;
  const choices = ["", ...view.marks];
  const grid = document.createElement("div");
  grid.className = "grid-editor full";
  grid.style.gridTemplateColumns = `repeat(${view.rows[0].length}, 2.4em)`;
  view.rows.forEach((row, r) => row.forEach((mark, c) => {
    const cell = document.createElement("button");
    Object.assign(cell, { type: "button", id: `grid-${r}-${c}`, textContent: mark });
    cell.dataset.mark = mark;
    cell.addEventListener("click", () => {
      const next = choices[(choices.indexOf(cell.dataset.mark) + 1) % choices.length];
      cell.dataset.mark = next;
      cell.textContent = next;
      editor.dispatchEvent(new Event("input"));
    });
    grid.appendChild(cell);
  }));
  const help = document.createElement("span");
  help.className = "full small";
  help.textContent = `click a cell to change it: ${choices.map((m) => m || "empty").join(" → ")}`;
  editor.append(help, grid);
  $("editor-check").textContent = "";
}

// The grid being edited, row by row, as the game draws it.
export function gridCells() {
  const rows = [];
  for (let r = 0; $(`grid-${r}-0`); r++) {
    const row = [];
    for (let c = 0; $(`grid-${r}-${c}`); c++) row.push($(`grid-${r}-${c}`).dataset.mark);
    rows.push(row);
  }
  return rows;
}

export function editorPosition() {
  const value = (id) => $(id).value.trim() || "0";
  const rows = [0, 1].map((r) => `[${[0, 1, 2, 3, 4, 5].map((c) => value(`edit-${r}-${c}`)).join(",")}]`);
  return `[${rows.join(",")}] captured ${value("edit-cap-0")},${value("edit-cap-1")} to-move ${$("edit-to-move").value}`;
}

async function checkEditor(ui) {
  const grid = $("editor").dataset.kind === "grid";
  const current = () => (grid ? JSON.stringify(gridCells()) : editorPosition());
  const text = current();
  const check = $("editor-check");
  try {
    await post("/api/position", grid ? { game: ui.game(), cells: gridCells() } : { game: ui.game(), position: text });
    if (current() !== text) return;
    check.textContent = "a valid position";
    check.className = "ok";
  } catch (error) {
    if (current() !== text) return;
    check.textContent = error.message;
    check.className = "bad";
  }
}
