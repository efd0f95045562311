// The board's JSON API and its analysis stream (see docs/board.md).

export async function post(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || `error ${response.status}`);
  return data;
}

export async function get(path) {
  const response = await fetch(path);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || `error ${response.status}`);
  return data;
}

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
    this.socket.onclose = () => { this.closedAt = Date.now(); setTimeout(() => this.open(), 1000); };
  }

  send(message) {
    this.wanted = message.type === "analyse" ? message : null;
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  analyse(game, position) { this.send({ type: "analyse", game, position }); }

  stop() { this.send({ type: "stop" }); }
}
