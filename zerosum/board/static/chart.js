// The value history of a reviewed game: each move's value (Player 1's view, as everywhere) ply
// by ply, proven values filled, the review's marks ringed; a click on a point goes to that move.

const NS = "http://www.w3.org/2000/svg";

function el(name, attrs, parent) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  parent.appendChild(node);
  return node;
}

// `points`: [{ply, value, shown (the value as written), exact, mark, move}]; `scale`: the value drawn at the top edge;
// `onPick(index)`: a point clicked.
export function drawChart(svg, points, scale, players, onPick) {
  svg.innerHTML = "";
  const width = 600, height = 160, left = 34, right = 8, top = 10, bottom = 22;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const plies = Math.max(1, points.length);
  const x = (ply) => left + ((width - left - right) * ply) / plies;
  const y = (value) => top + ((height - top - bottom) * (1 - Math.max(-1, Math.min(1, value / scale)))) / 2;
  el("rect", { x: left, y: top, width: width - left - right, height: (height - top - bottom) / 2, fill: "#eef4fb" }, svg);
  el("line", { x1: left, x2: width - right, y1: y(0), y2: y(0), stroke: "#999", "stroke-width": 1 }, svg);
  for (const [value, said] of [[scale, `+${scale}`], [0, "0"], [-scale, `−${scale}`]]) {
    el("text", { x: left - 4, y: y(value) + 4, "text-anchor": "end", "font-size": 11, fill: "#555" }, svg).textContent = said;
  }
  el("text", { x: left + 4, y: top + 11, "font-size": 11, fill: "#1b4f8a" }, svg).textContent = `${players[0]} better`;
  el("text", { x: left + 4, y: height - bottom - 4, "font-size": 11, fill: "#555" }, svg).textContent = `${players[1]} better`;
  el("text", { x: width - right, y: height - 6, "text-anchor": "end", "font-size": 11, fill: "#555" }, svg).textContent = `ply ${points.length}`;
  const path = points.map((p, i) => `${i ? "L" : "M"}${x(p.ply).toFixed(1)},${y(p.value).toFixed(1)}`).join(" ");
  if (path) el("path", { d: `M${x(0)},${y(0)} ${path.replace(/^M/, "L")}`, fill: "none", stroke: "#1b4f8a", "stroke-width": 1.5 }, svg);
  points.forEach((p, i) => {
    const dot = el("circle", {
      cx: x(p.ply), cy: y(p.value), r: p.mark ? 5 : 3.5,
      fill: p.exact ? "#1b4f8a" : "#fff", stroke: p.mark ? "#D55E00" : "#1b4f8a", "stroke-width": p.mark ? 2.5 : 1.5,
      class: "point", "data-ply": p.ply, "data-value": p.value, "data-mark": p.mark || "",
    }, svg);
    const title = document.createElementNS(NS, "title");
    title.textContent = `ply ${p.ply}: ${p.move}, ${p.exact ? `value ${p.shown} (exact)` : `evaluation ${p.shown}`}${p.mark ? ` ${p.mark}` : ""}`;
    dot.appendChild(title);
    dot.style.cursor = "pointer";
    dot.addEventListener("click", () => onPick(i));
  });
}
