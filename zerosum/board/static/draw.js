// Drawing a position as SVG: a mancala board ("pits"), a grid of cells, or nothing ("moves").

const NS = "http://www.w3.org/2000/svg";

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function text(parent, x, y, content, attrs = {}) {
  const node = el("text", { x, y, "text-anchor": "middle", "dominant-baseline": "central", ...attrs }, parent);
  node.textContent = content;
  return node;
}

// The board's two layouts: "wide", stores at the ends of the rows as on a real board; and
// "narrow" (phones), stores as bars above and below, so the pits take the whole width.
const LAYOUTS = {
  wide: { width: 720, height: 320, x0: 145, rowY: [105, 215], labelY: [20, 300] },
  narrow: { width: 540, height: 420, x0: 48, rowY: [160, 260], labelY: [16, 404] },
};

export function layoutFor(width) {
  return width < 600 ? "narrow" : "wide";
}

// Where pit (row, cell) is drawn: columns follow the sowing, counter-clockwise, whichever
// player sits at the bottom.
export function pitPlace(row, cell, bottom, layout = "wide") {
  const { x0, rowY } = LAYOUTS[layout];
  const column = bottom === 0 ? 5 - cell : cell;
  return { x: x0 + column * 86, y: row === bottom ? rowY[1] : rowY[0] };
}

const SEED_SPOTS = (() => {
  const spots = [];
  for (let i = 0; i < 48; i++) {
    const ring = i === 0 ? 0 : i < 7 ? 1 : i < 19 ? 2 : 3;
    const first = [0, 1, 7, 19][ring];
    const count = [1, 6, 12, 29][ring];
    const angle = ((i - first) / count) * 2 * Math.PI + ring * 0.5;
    spots.push([Math.cos(angle) * ring * 10, Math.sin(angle) * ring * 10]);
  }
  return spots;
})();

function seeds(group, x, y, count) {
  const shown = Math.min(count, 37);
  for (let i = 0; i < shown; i++) {
    const [dx, dy] = SEED_SPOTS[i];
    el("circle", { cx: x + dx, cy: y + dy, r: 4.2, fill: "#f3e4c0", stroke: "#8d6e43", "stroke-width": 0.8, class: "seed" }, group);
  }
}

// The mancala board. `counts` is [[row 0 cells 0..5], [row 1 ...]], `stores` the captured
// seeds; `layout` "wide" or "narrow" (see LAYOUTS).
export function drawPits(svg, view, state, onPit) {
  const { counts, stores, bottom, legal, active, hit, players, toMove } = state;
  const layout = state.layout || "wide";
  const L = LAYOUTS[layout];
  const narrow = layout === "narrow";
  svg.innerHTML = "";
  svg.dataset.layout = layout;
  svg.setAttribute("viewBox", `0 0 ${L.width} ${L.height}`);
  const boardY = narrow ? 34 : 40;
  el("rect", { x: 4, y: boardY, width: L.width - 8, height: L.height - 2 * boardY, rx: 36, fill: "#b9834a", stroke: "#7a4f25", "stroke-width": 3 }, svg);
  const top = 1 - bottom;
  for (const row of [top, bottom]) {
    const y = row === bottom ? L.rowY[1] : L.rowY[0];
    const bandX = L.x0 - 45;
    if (toMove === row) el("rect", { x: bandX, y: y - 46, width: 520, height: 92, rx: 44, fill: "#d9a86b", class: "mover-band" }, svg);
    const label = `${players[row]}${toMove === row ? " — to move" : ""}`;
    text(svg, L.width / 2, row === bottom ? L.labelY[1] : L.labelY[0], label, { "font-size": narrow ? 22 : 17, "font-weight": toMove === row ? 700 : 400, class: `player-label row-${row}` });
  }
  for (const row of [0, 1]) {
    for (let cell = 0; cell < 6; cell++) {
      const { x, y } = pitPlace(row, cell, bottom, layout);
      const isLegal = legal.some((m) => m.cell && m.cell[0] === row && m.cell[1] === cell);
      const classes = ["pit"];
      if (isLegal) classes.push("legal");
      if (active && active[0] === row && active[1] === cell) classes.push("active");
      if (hit && hit[0] === row && hit[1] === cell) classes.push("hit");
      const group = el("g", { class: classes.join(" "), "data-row": row, "data-cell": cell, "data-count": counts[row][cell] }, svg);
      el("circle", { cx: x, cy: y, r: 38, fill: "#5b3818", class: "hole" }, group);
      seeds(group, x, y, counts[row][cell]);
      text(group, x + 28, y - 30, String(counts[row][cell]), { "font-size": narrow ? 24 : 19, "font-weight": 700, fill: "#fff", stroke: "#3b220c", "stroke-width": 3, "paint-order": "stroke" });
      if (narrow) {  // the cell's number at the pit's lower left, across from its count
        text(group, x - 30, y + 30, String(cell), { "font-size": 16, fill: "#3b220c", stroke: "#d9a86b", "stroke-width": 3, "paint-order": "stroke", class: "cell-number" });
      } else {
        text(group, x, row === bottom ? y + 54 : y - 54, `cell ${cell}`, { "font-size": 14, fill: "#3b220c" });
      }
      group.addEventListener("click", (event) => onPit(row, cell, event));  // the page says why when not legal
      if (state.editing) group.addEventListener("contextmenu", (event) => { event.preventDefault(); onPit(row, cell, event); });
    }
  }
  for (const row of [0, 1]) {
    const group = el("g", { class: `store store-${row}`, "data-seeds": stores[row] }, svg);
    if (narrow) {  // a bar beside the owner's row: above the top row, below the bottom one
      const y = row === bottom ? L.rowY[1] + 50 : L.rowY[0] - 50 - 50;
      el("rect", { x: 40, y, width: L.width - 80, height: 50, rx: 24, fill: "#5b3818" }, group);
      text(group, L.width / 2, y + 25, `${stores[row]} captured`, { "font-size": 24, "font-weight": 700, fill: "#fff" });
    } else {
      const x = row === bottom ? 662 : 58;
      el("rect", { x: x - 36, y: 70, width: 72, height: 180, rx: 32, fill: "#5b3818" }, group);
      text(group, x, 130, String(stores[row]), { "font-size": 30, "font-weight": 700, fill: "#fff" });
      text(group, x, 165, "captured", { "font-size": 12, fill: "#f3e4c0" });
      text(group, x, 185, players[row], { "font-size": 12, fill: "#f3e4c0" });
    }
  }
}

// A grid of cells (tic-tac-toe and other games with BoardCells); legal cells are clickable.
export function drawGrid(svg, view, onCell) {
  svg.innerHTML = "";
  const rows = view.rows;
  const size = 90;
  const width = rows[0].length * size;
  svg.setAttribute("viewBox", `-10 -10 ${width + 20} ${rows.length * size + 20}`);
  rows.forEach((row, r) => row.forEach((mark, c) => {
    const move = view.moves.find((m) => m.cell && m.cell[0] === r && m.cell[1] === c);
    const group = el("g", { class: `cell${move ? " legal" : ""}`, "data-row": r, "data-cell": c }, svg);
    el("rect", { x: c * size, y: r * size, width: size, height: size, fill: move ? "#fffdf5" : "#f4efe6", stroke: "#7a4f25", "stroke-width": 2 }, group);
    text(group, c * size + size / 2, r * size + size / 2, mark.toUpperCase(), { "font-size": 54, "font-weight": 700, fill: mark === "x" ? "#1565c0" : "#c62828" });
    if (move) {
      group.style.cursor = "pointer";
      group.addEventListener("click", () => onCell(move.move));
    }
  }));
}

// A game with no board drawing: its legal moves as buttons.
export function drawMoves(svg, view, onMove) {
  svg.innerHTML = "";
  const lines = view.text ? view.text.split("\n") : [];  // the game's text picture, if any
  const top = lines.length * 20;
  svg.setAttribute("viewBox", `0 0 720 ${120 + top}`);
  text(svg, 360, 20, view.over ? `game over: ${view.outcome}` : `${view.players[view.to_move]} to move`, { "font-size": 18 });
  lines.forEach((line, i) => {
    const shown = text(svg, 20, 45 + i * 20, line, { "font-size": 16, "font-family": "monospace", "text-anchor": "start" });
    shown.setAttribute("xml:space", "preserve");
  });
  view.moves.forEach((m, i) => {
    const group = el("g", { class: "cell legal", "data-move": m.move }, svg);
    el("rect", { x: 20 + i * 90, y: 45 + top, width: 80, height: 50, rx: 8, fill: "#fffdf5", stroke: "#7a4f25" }, group);
    text(group, 60 + i * 90, 70 + top, m.move, { "font-size": 20 });
    group.style.cursor = "pointer";
    group.addEventListener("click", () => onMove(m.move));
  });
}
