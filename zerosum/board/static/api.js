// The board's JSON API and its analysis stream (see docs/board.md).

export const SERVER_GONE = "the board's server does not answer (was it stopped?): start `gamesolver board` again, then reload this page; your game is kept";

// A request to the server; a server that is gone or answers something else is said in words.
async function request(path, options) {
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new Error(SERVER_GONE);
  }
  let data;
  try {
    data = await response.json();
  } catch {
    throw new Error(`the server answered ${response.status} without its JSON: ${SERVER_GONE}`);
  }
  if (!response.ok) throw new Error(data.error || `error ${response.status}`);
  return data;
}

export function post(path, body) {
  return request(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

export function get(path) { return request(path); }

// One WebSocket to /api/stream: analyse(game, position) replaces the running search.
export class AnalysisStream {
  constructor(onMessage) {
    this.onMessage = onMessage;
    this.wanted = null;
    this.open();
  }

  open() {
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/stream`;
    this.socket = new WebSocket(url);
    this.socket.onopen = () => { if (this.wanted) this.socket.send(JSON.stringify(this.wanted)); };
    this.socket.onmessage = (event) => this.onMessage(JSON.parse(event.data));
    this.socket.onclose = () => {
      this.closedAt = Date.now();
      if (this.wanted) this.onMessage({ type: "gone", position: this.wanted.position });
      setTimeout(() => this.open(), 1000);
    };
  }

  send(message) {
    this.wanted = message.type === "analyse" ? message : null;
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  analyse(game, position) { this.send({ type: "analyse", game, position }); }

  stop() { this.send({ type: "stop" }); }
}
