// The page of `heterodox serve`: a board to click, a move list, an
// agent's reply. It knows no variant: the server sends the board as SVG
// (squares and reserve men carry data-target names) and the legal moves
// with the targets each is made by; clicks narrow the moves down until one
// is left (or a chooser asks between those sharing the same clicks).
"use strict";

const $ = (id) => document.getElementById(id);
const S = {
  info: null, id: null, token: null, tokens: {}, flip: false, state: null,
  legal: [], picked: [], chosen: [], watching: false, pending: 0, timer: null,
  viewing: null, // the ply shown while stepping through earlier positions
  seen: null,    // that position, as /position answered it
};

function busy(delta) {
  S.pending += delta;
  document.body.dataset.busy = S.pending > 0 ? "1" : "0";
}

async function api(method, path, body) {
  busy(1);
  try {
    const init = { method, headers: {} };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const response = await fetch(path, init);
    const data = await response.json();
    if (!response.ok) {
      const error = new Error(data.error ? data.error.message : response.statusText);
      error.status = response.status;
      error.retryAfter = Number(response.headers.get("Retry-After") || 0);
      throw error;
    }
    return data;
  } finally {
    busy(-1);
  }
}

function showError(error) { $("error").textContent = error ? String(error.message || error) : ""; }

function option(select, value, text) {
  const o = document.createElement("option");
  o.value = value; o.textContent = text || value;
  select.appendChild(o);
}

// ---- new game ---------------------------------------------------------

function fillForm() {
  for (const v of S.info.variants) option($("variant"), v.name);
  $("variant").addEventListener("change", fillOptions);
  $("options").addEventListener("input", fillPlayers);
  fillOptions();
  $("black").value = S.info.default_agent;
}

function formOptions() {
  const options = {};
  for (const input of $("options").querySelectorAll("input")) options[input.dataset.key] = input.value;
  return options;
}

// The shipped networks that play the variant and rules of the form: a
// network reads one rule set's tensors only.
function zooAgents() {
  const variant = $("variant").value, options = formOptions();
  const same = (a, b) => Object.keys(a).length === Object.keys(b).length && Object.keys(a).every((k) => a[k] === b[k]);
  return S.info.zoo.filter((z) => z.variant === variant && same(z.options, options));
}

// Each seat's list: human, the agents every variant has, the shipped
// networks of these rules, any other agent string. A choice still listed
// is kept.
function fillPlayers() {
  for (const id of ["white", "black"]) {
    const select = $(id), kept = select.value;
    select.textContent = "";
    option(select, "human");
    for (const a of S.info.agents.concat(zooAgents())) option(select, a.spec, a.spec + " (" + a.about + ")");
    option(select, "other", "other agent...");
    if ([...select.options].some((o) => o.value === kept)) select.value = kept;
  }
}

function fillOptions() {
  const v = S.info.variants.find((x) => x.name === $("variant").value);
  const box = $("options");
  box.textContent = "";
  for (const [key, value] of Object.entries(v.options)) {
    const label = document.createElement("label");
    label.textContent = key + " ";
    const input = document.createElement("input");
    input.id = "option-" + key; input.value = value; input.size = Math.max(6, value.length);
    input.dataset.key = key;
    label.appendChild(input);
    box.appendChild(label);
  }
  fillPlayers();
}

function playerOf(id) {
  const value = $(id).value;
  return value === "other" ? (window.prompt("Agent for " + id + " (e.g. net:runs/h1/last@64)") || "human") : value;
}

async function newGame(event) {
  if (event) event.preventDefault();
  showError(null);
  const body = {
    variant: $("variant").value, options: formOptions(), white: playerOf("white"), black: playerOf("black"),
    seed: Number($("seed").value || 0),
  };
  if ($("fen").value.trim()) body.fen = $("fen").value.trim();
  try {
    const game = await api("POST", "/api/games", body);
    const variant = S.info.variants.find((x) => x.name === game.variant);
    S.id = game.id; S.tokens = {}; S.watching = false; S.viewing = null;
    const humans = ["white", "black"].filter((c) => game.players[c] === "human");
    // Under hidden information one page holds one seat: the other is
    // played from the invite link. Otherwise one page may play both.
    const held = variant.hidden_information ? humans.slice(0, 1) : humans;
    for (const c of held) S.tokens[c] = game.tokens[c];
    S.token = humans.length ? game.tokens[humans[0]] : game.tokens.referee;
    S.flip = humans.length === 1 && humans[0] === "black";
    const invite = humans.length === 2 && variant.hidden_information;
    $("invite").hidden = !invite;
    if (invite) {
      const link = location.origin + "/#game=" + game.id + "&token=" + game.tokens.black;
      $("invite").textContent = "Black plays from this link: " + link;
    }
    location.hash = "game=" + game.id + "&token=" + S.token;
    await refresh();
  } catch (e) { showError(e); }
}

// ---- state ------------------------------------------------------------

// The token to act with: the seat to move when this page holds it.
function actingToken() {
  const st = S.state;
  return (st && S.tokens[st.turn]) || S.token;
}

async function refresh() {
  const st = await api("GET", "/api/games/" + S.id + "?token=" + actingToken() + "&flip=" + S.flip);
  await show(st);
}

// Draws `st`; then asks the agent to move when it is its turn, unless
// `again` is false (after a failed agent move, which would fail again).
async function show(st, again = true) {
  S.state = st;
  if (S.viewing !== null && S.viewing >= st.moves.length) { S.viewing = null; S.seen = null; } // taken back
  if (S.tokens[st.turn] && S.tokens[st.turn] !== S.token && st.seat !== st.turn) {
    // Hot seat: the side to move is another seat this page holds.
    return refresh();
  }
  S.picked = []; S.chosen = [];
  S.legal = st.your_turn ? (await api("GET", "/api/games/" + S.id + "/legal?token=" + actingToken())).moves : [];
  render();
  document.body.dataset.version = String(st.version);
  if (again) schedule(); else clearTimeout(S.timer);
}

function schedule() {
  clearTimeout(S.timer);
  const st = S.state;
  if (!st || st.over) return;
  if (st.to_move === "agent" && !st.thinking) {
    const both = st.players.white !== "human" && st.players.black !== "human";
    if (!both || S.watching) S.timer = setTimeout(agentMove, both ? 400 : 0);
  } else if (!st.your_turn) {
    S.timer = setTimeout(() => refresh().catch(showError), 1000); // another page's move
  }
}

async function agentMove() {
  const id = S.id;
  try {
    const st = await api("POST", "/api/games/" + id + "/agent", { token: S.token, flip: S.flip });
    showError(null);
    await show(st);
  } catch (e) {
    if (id !== S.id) return; // another game meanwhile
    if (e.status === 503) {
      // The server runs all the searches it allows: ask again when it says.
      showError(e);
      clearTimeout(S.timer);
      S.timer = setTimeout(agentMove, 1000 * (e.retryAfter || 1));
      return;
    }
    // A game resigned while the agent thought: its answer is moot.
    const st = await api("GET", "/api/games/" + id + "?token=" + actingToken() + "&flip=" + S.flip).catch(() => null);
    if (st) await show(st, false);
    if (!st || !st.over) showError(e);
  }
}

async function play(text) {
  showError(null);
  try {
    await show(await api("POST", "/api/games/" + S.id + "/move", { token: actingToken(), move: text, flip: S.flip }));
  } catch (e) { showError(e); render(); }
}

// ---- drawing ------------------------------------------------------------

function render() {
  const st = S.state;
  const shown = S.viewing === null ? st : S.seen;
  $("board").innerHTML = shown.svg;
  const mover = st.to_move === "agent" ? st.players[st.turn] : st.turn;
  $("status").textContent = st.over ? "Game over: " + st.outcome
    : st.thinking ? mover + " is thinking"
    : st.your_turn ? "Your move (" + st.turn + ")" : st.turn + " to move (" + mover + ")";
  $("position").value = shown.position;
  $("pgn").href = "/api/games/" + S.id + "/pgn?token=" + S.token;
  $("watch-row").hidden = !(st.players.white !== "human" && st.players.black !== "human");
  $("watch").textContent = S.watching ? "Pause" : "Play";
  renderMoves(st.moves);
  renderReply(st.agent);
  renderBeliefs(st.beliefs);
  renderEnding(st);
  renderHistory(st);
  highlight();
}

// The player this page acts for may resign or offer a draw: a human seat
// of a game not over.
function renderEnding(st) {
  const open = !st.over && st.players[actingColor()] === "human";
  $("resign").disabled = !open;
  $("draw").disabled = !open || st.thinking;
  const offer = st.draw_offer;
  const pendingFromOther = offer && offer.answer === "pending" && offer.by !== actingColor();
  $("draw").textContent = pendingFromOther ? "Accept draw" : "Offer draw";
  $("draw-answer").textContent = !offer ? ""
    : offer.answer === "pending" ? offer.by + " offers a draw"
    : "Draw offer " + offer.answer + ": " + offer.reason;
}

// The colour this page acts as now.
function actingColor() {
  const st = S.state;
  return S.tokens[st.turn] ? st.turn : st.seat;
}

function renderMoves(moves) {
  const turns = [];
  for (const m of moves) {
    const last = turns[turns.length - 1];
    if (last && last.player === m.player) {
      last.text += (last.text.endsWith(")") && !m.secret ? "" : " ") + m.notation;
      last.ply = m.ply;
    } else turns.push({ player: m.player, text: m.notation, ply: m.ply });
  }
  const body = $("moves").tBodies[0];
  body.textContent = "";
  let row = null;
  for (const t of turns) {
    if (!row || t.player === "white") {
      row = body.insertRow();
      row.className = "move";
      row.insertCell().className = "number";
      row.cells[0].textContent = body.rows.length + ".";
      row.insertCell(); row.insertCell();
    }
    const cell = row.cells[t.player === "white" ? 1 : 2];
    cell.textContent = t.text;
    cell.dataset.ply = String(t.ply);
    cell.className = "step" + (S.viewing === t.ply ? " viewed" : "");
  }
}

// ---- earlier positions ----------------------------------------------------

function renderHistory(st) {
  const past = S.viewing !== null;
  $("history").hidden = !past;
  $("prev").disabled = (past ? S.viewing : st.moves.length) === 0;
  $("next").disabled = !past;
  if (past) {
    const m = st.moves[S.viewing - 1];
    $("history-text").textContent = S.viewing === 0 ? "Viewing the start position"
      : "Viewing the position after " + m.player + "'s " + m.notation + " (ply " + S.viewing + ")";
  }
  document.body.dataset.viewing = past ? String(S.viewing) : "";
  $("move-text").disabled = past;
  $("play-text").disabled = past;
}

// Shows the board after `ply` steps (the live game at the last one).
async function view(ply) {
  const st = S.state;
  if (!st) return;
  if (ply === null || ply >= st.moves.length) {
    S.viewing = null; S.seen = null;
    return render();
  }
  ply = Math.max(0, ply);
  try {
    S.seen = await api("GET", "/api/games/" + S.id + "/position?token=" + S.token + "&ply=" + ply + "&flip=" + S.flip);
    S.viewing = ply;
    S.picked = []; S.chosen = [];
    render();
  } catch (e) { showError(e); }
}

function step(delta) {
  const st = S.state;
  if (!st) return;
  view((S.viewing === null ? st.moves.length : S.viewing) + delta);
}

function renderReply(reply) {
  const box = $("agent-reply");
  box.textContent = "";
  if (!reply) return;
  const head = document.createElement("div");
  head.textContent = reply.agent + " (" + reply.player + ") " +
    (reply.secret ? "made its secret choice" : "played " + reply.move) +
    (reply.value === null ? "" : "; value " + (reply.value >= 0 ? "+" : "") + reply.value.toFixed(2));
  box.appendChild(head);
  if (reply.withheld) {
    const note = document.createElement("div");
    note.textContent = "its search is withheld while it holds a secret you cannot see";
    box.appendChild(note);
  } else if (reply.top.length) {
    const list = document.createElement("ol");
    for (const m of reply.top.slice(0, 5)) {
      const item = document.createElement("li");
      item.textContent = m.notation + ": " + m.visits + " visits, policy " + m.policy.toFixed(2);
      list.appendChild(item);
    }
    box.appendChild(list);
  }
}

// After a game of secrets, what each engine agent believed of its
// opponent's secret at its last move (docs/hidden.md).
function renderBeliefs(beliefs) {
  const box = $("beliefs");
  box.textContent = "";
  for (const b of beliefs || []) {
    const head = document.createElement("div");
    head.textContent = "What " + b.player + " believed of its opponent's secret: " +
      b.consistent + " possible, " + b.entropy_bits.toFixed(2) + " bits, after " + b.turns + " turns weighed";
    box.appendChild(head);
    const list = document.createElement("ol");
    for (const s of b.secrets) {
      const item = document.createElement("li");
      item.textContent = s.secret + ": " + (100 * s.probability).toFixed(1) + "%";
      list.appendChild(item);
    }
    box.appendChild(list);
  }
}

// ---- clicking ------------------------------------------------------------

const ordered = () => S.legal.filter((m) => m.ordered);
const selections = () => S.legal.filter((m) => !m.ordered);

function matching(picked) {
  return ordered().filter((m) => m.targets.length >= picked.length && picked.every((t, i) => m.targets[i] === t));
}

function onClick(event) {
  const place = event.target.closest("[data-target]");
  if (!place || !S.legal.length || S.viewing !== null) return; // no moves from the past
  const target = place.dataset.target;
  showError(null);
  if (selections().some((m) => m.targets.includes(target))) {
    const i = S.chosen.indexOf(target);
    if (i >= 0) S.chosen.splice(i, 1); else S.chosen.push(target);
    return highlight();
  }
  const next = S.picked.concat([target]);
  if (matching(next).length) S.picked = next;
  else if (S.picked[S.picked.length - 1] === target) S.picked = [];
  else S.picked = matching([target]).length ? [target] : [];
  const candidates = S.picked.length ? matching(S.picked) : [];
  const complete = candidates.filter((m) => m.targets.length === S.picked.length);
  if (candidates.length === 1 && complete.length === 1 && S.picked.length >= 2) return play(complete[0].long);
  highlight();
}

function mark(name, targets) {
  for (const el of $("board").querySelectorAll("." + name)) el.classList.remove(name);
  for (const t of targets) {
    const el = $("board").querySelector('[data-target="' + t + '"]');
    if (el) el.classList.add(name);
  }
}

function highlight() {
  const shown = S.viewing === null ? S.state : S.seen;
  const candidates = S.picked.length ? matching(S.picked) : [];
  const complete = candidates.filter((m) => m.targets.length === S.picked.length);
  mark("last", shown.last);
  mark("check", shown.check ? [shown.check] : []);
  mark("picked", S.picked);
  mark("hint", candidates.filter((m) => m.targets.length > S.picked.length).map((m) => m.targets[S.picked.length]));
  mark("chosen", S.chosen);
  const chooser = $("chooser");
  chooser.textContent = "";
  for (const m of S.viewing === null ? complete : []) {
    const b = document.createElement("button");
    b.type = "button"; b.className = "choice"; b.textContent = m.notation; b.title = m.kind;
    b.addEventListener("click", () => play(m.long));
    chooser.appendChild(b);
  }
  renderSelection();
}

function sameSet(a, b) { return a.length === b.length && a.every((x) => b.includes(x)); }

function renderSelection() {
  const all = S.viewing === null ? selections() : [];
  $("selection").hidden = all.length === 0;
  if (!all.length) return;
  $("selection-chosen").textContent = S.chosen.length ? S.chosen.join(", ") : "none";
  const list = $("selection-list");
  if (list.dataset.version !== String(S.state.version)) {
    list.textContent = "";
    option(list, "", "pick from the list...");
    for (const m of all.slice(0, 500)) option(list, m.long, m.notation);
    list.dataset.version = String(S.state.version);
  }
  const fit = all.find((m) => m.targets.length > 0 && sameSet(m.targets, S.chosen));
  $("confirm-selection").disabled = !(fit || list.value);
}

function confirmSelection() {
  if (S.viewing !== null) return;
  const list = $("selection-list");
  const fit = selections().find((m) => m.targets.length > 0 && sameSet(m.targets, S.chosen));
  const move = fit ? fit.long : list.value;
  if (move) play(move);
}

// ---- buttons ------------------------------------------------------------

function wire() {
  $("new-game").addEventListener("submit", newGame);
  $("board").addEventListener("click", onClick);
  $("flip").addEventListener("click", () => {
    S.flip = !S.flip;
    refresh().then(() => (S.viewing === null ? null : view(S.viewing))).catch(showError);
  });
  $("undo").addEventListener("click", async () => {
    showError(null);
    try { await show(await api("POST", "/api/games/" + S.id + "/undo", { token: actingToken(), flip: S.flip })); }
    catch (e) { showError(e); }
  });
  $("typed").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("move-text").value.trim();
    if (text) { $("move-text").value = ""; play(text); }
  });
  $("copy-position").addEventListener("click", () => {
    $("position").select();
    if (navigator.clipboard) navigator.clipboard.writeText($("position").value).catch(() => {});
  });
  $("watch").addEventListener("click", () => { S.watching = !S.watching; render(); schedule(); });
  $("step").addEventListener("click", agentMove);
  $("selection-list").addEventListener("change", renderSelection);
  $("confirm-selection").addEventListener("click", confirmSelection);
  $("clear-selection").addEventListener("click", () => { S.chosen = []; highlight(); });
  $("moves").addEventListener("click", (event) => {
    const cell = event.target.closest("td[data-ply]");
    if (cell) view(Number(cell.dataset.ply));
  });
  $("prev").addEventListener("click", () => step(-1));
  $("next").addEventListener("click", () => step(1));
  $("live").addEventListener("click", () => view(null));
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, select, textarea")) return;
    if (event.key === "ArrowLeft") { event.preventDefault(); step(-1); }
    if (event.key === "ArrowRight") { event.preventDefault(); step(1); }
  });
  $("resign").addEventListener("click", resign);
  $("draw").addEventListener("click", offerDraw);
}

// Resigning asks once more: the button turns into "Really resign?" for a
// few seconds, and a second click resigns.
async function resign() {
  const button = $("resign");
  if (button.dataset.armed !== "1") {
    button.dataset.armed = "1"; button.textContent = "Really resign?";
    setTimeout(() => { button.dataset.armed = ""; button.textContent = "Resign"; }, 4000);
    return;
  }
  button.dataset.armed = ""; button.textContent = "Resign";
  showError(null);
  try { await show(await api("POST", "/api/games/" + S.id + "/resign", { token: actingToken(), flip: S.flip })); }
  catch (e) { showError(e); }
}

async function offerDraw() {
  showError(null);
  try { await show(await api("POST", "/api/games/" + S.id + "/draw", { token: actingToken(), flip: S.flip })); }
  catch (e) { showError(e); }
}

async function main() {
  wire();
  try {
    S.info = await api("GET", "/api/info");
    fillForm();
    const hash = new URLSearchParams(location.hash.slice(1));
    if (hash.get("game") && hash.get("token")) {
      S.id = hash.get("game"); S.token = hash.get("token");
      await refresh();
      S.tokens[S.state.seat] = S.token;
      S.flip = S.state.seat === "black";
      await refresh();
    } else {
      await newGame();
    }
  } catch (e) { showError(e); }
}

main();
