// Keeping games: the current game in the browser's storage (it survives a reload), the game it
// replaced (one step back), and links that carry a game's moves.

const CURRENT = "gamesolver-board-game";
const PREVIOUS = "gamesolver-board-previous";

// A game as kept: the move tree with each node's position, comments and marks (no sowing steps:
// they are only for the animation of a move as it is played), and who the computer plays.
export function snapshot(board) {
  return {
    game: board.game,
    current: board.current,
    headers: board.headers,
    seat: document.getElementById("computer").value,
    level: document.getElementById("level").value,
    nodes: board.nodes.map((n) => ({
      parent: n.parent, move: n.move, mover: n.mover, view: n.view, children: n.children,
      comment: n.comment || "", nag: n.nag || "",
    })),
  };
}

export function movesIn(kept) { return kept ? kept.nodes.length - 1 : 0; }

function read(key) {
  try {
    const kept = JSON.parse(localStorage.getItem(key) || "null");
    return kept && Array.isArray(kept.nodes) && kept.nodes.length ? kept : null;
  } catch {
    return null;  // storage off, or not ours: nothing kept
  }
}

function write(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // storage full or off: the game stays on the page, it is only not kept
  }
}

export function keepGame(board) { write(CURRENT, snapshot(board)); }
export function keptGame() { return read(CURRENT); }
export function keepPrevious(kept) { write(PREVIOUS, kept); }
export function previousGame() { return read(PREVIOUS); }

// The page's address for the line from the start to `path` (move texts): the start position
// and the moves, so that a link reopens the game at that move.
export function linkFor(game, start, path) {
  let query = `?game=${encodeURIComponent(game)}&position=${encodeURIComponent(start)}`;
  if (path.length) query += `&moves=${path.map(encodeURIComponent).join("+")}`;
  return query;
}

// What a link asks for: {game, position, moves} (moves: a list, empty when none given).
export function readLink(search) {
  const params = new URLSearchParams(search);
  const moves = (params.get("moves") || "").split(/\s+/).filter(Boolean);
  return { game: params.get("game"), position: params.get("position"), moves, given: params.has("game") || params.has("position") || params.has("moves") };
}

// The node of `kept` reached by `moves` from its start, or null when the game has no such line.
export function nodeOf(kept, moves) {
  let id = 0;
  for (const move of moves) {
    id = kept.nodes[id].children.find((child) => kept.nodes[child].move === move);
    if (id === undefined) return null;
  }
  return id;
}
