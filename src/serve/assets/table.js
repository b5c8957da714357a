// A table: the board (click a cell or pit, or type a move), the legal moves, events and warnings,
// the result and a rematch; live through server-sent events. Without a token: a spectator view.
"use strict";

const id = location.pathname.split("/").pop();
const params = new URLSearchParams(location.hash.slice(1));
const token = params.get("token") || "";
let seat = params.has("seat") ? Number(params.get("seat")) : null; // my seat
let state = null;         // the table's state, as the API gives it
let picture = null;       // { svg, spots, moves: [{ move, spots }] }
let pending = null;       // moves still matching the spots clicked so far

function myTurn() {
  return token && state && state.to_move !== null && (seat === null || seat === state.to_move);
}

async function play(text) {
  const error = document.getElementById("error");
  error.textContent = "";
  pending = null;
  fill(document.getElementById("choices"));
  try {
    const next = await api("POST", `/api/tables/${id}/moves`, { token, move: text });
    // A live update may already have brought a later state (the opponent's reply): keep it.
    if (!(state && next.id === state.id && next.ply < state.ply)) {
      state = next;
      show();
    }
  } catch (e) {
    error.textContent = e.message;
  }
}

// The spot nearest to a click on the picture (in the picture's coordinates), if near one.
function spotAt(event) {
  const img = event.currentTarget;
  const scale = img.naturalWidth / img.clientWidth;
  const x = event.offsetX * scale, y = event.offsetY * scale;
  let best = null, bestDistance = 26 * 26;
  picture.spots.forEach((s, i) => {
    const d = (s.x - x) ** 2 + (s.y - y) ** 2;
    if (d < bestDistance) { best = i; bestDistance = d; }
  });
  return best;
}

// A click narrows the moves to those that change the spot clicked; one left is played, several
// are offered as buttons (a second click on another spot narrows further).
function clicked(event) {
  if (!picture || !myTurn()) return;
  const spot = spotAt(event);
  if (spot === null) return;
  const from = pending || picture.moves;
  let matching = from.filter((m) => m.spots.includes(spot));
  if (!matching.length && pending) matching = picture.moves.filter((m) => m.spots.includes(spot));
  if (matching.length === 1) return play(matching[0].move);
  pending = matching.length ? matching : null;
  const choices = document.getElementById("choices");
  fill(choices, ...(pending || []).map((m) => {
    const b = el("button", m.move, { type: "button" });
    b.addEventListener("click", () => play(m.move));
    return b;
  }));
}

async function showPicture() {
  try {
    picture = await api("GET", `/api/tables/${id}/picture`);
    const img = document.getElementById("picture");
    img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(picture.svg);
    img.dataset.ply = state.ply;
  } catch (e) {
    picture = null;
    document.getElementById("picture").alt = "no picture: " + e.message;
  }
}

function show() {
  document.title = `boardrules — ${state.title} #${state.number}`;
  document.getElementById("title").textContent = `${state.title} — table ${state.number}` +
    (state.options.length ? ` (${state.options.join(" ")})` : "");
  document.getElementById("seats").textContent =
    state.seats.map((s) => `${s.player}: ${s.name} (${s.kind})`).join(" · ") + (token ? "" : " — you are watching");
  const status = document.getElementById("status");
  if (state.result) status.textContent = "";
  else if (state.problem) status.textContent = "The script failed: " + state.problem;
  else status.textContent = `${state.to_move_name} to move` + (myTurn() ? " — your move?" : "");
  document.getElementById("result").textContent = state.result ? `Result: ${state.result}` : "";
  document.getElementById("rematch-area").hidden = !(state.result && token);
  if (state.rematch && token) goToRematch(state.rematch);
  document.getElementById("move-form").hidden = !token || !!state.result;
  fill(document.getElementById("events"), ...state.events.map((e) => el("li", e)));
  fill(document.getElementById("warnings"), ...state.warnings.map((w) => el("li", w)));
  fill(document.getElementById("legal"), ...state.legal.map((m) => {
    const b = el("button", m, { type: "button" });
    b.disabled = !myTurn();
    b.addEventListener("click", () => play(m));
    return b;
  }));
  document.getElementById("played").textContent = state.moves.join(" ");
  document.getElementById("board").textContent = state.board;
  showPicture();
}

// The rematch reverses the seats' order; each keeps its token.
function goToRematch(table) {
  const fragment = { token };
  if (seat !== null) fragment.seat = state.players.length - 1 - seat;
  location.replace(`/t/${table}#${new URLSearchParams(fragment)}`);
}

function showInvite() {
  const invites = (params.get("invite") || "").split(",").filter(Boolean);
  if (!invites.length) return;
  const box = document.getElementById("invite");
  box.hidden = false;
  box.append(el("span", "Invite: "));
  for (const invite of invites) {
    const code = invite.split(":")[1];
    box.append(el("span", "code "), el("span", code, { class: "code", "data-code": code }),
      el("span", ` or ${location.origin}/?code=${code}   `));
  }
}

document.getElementById("picture").addEventListener("click", clicked);
document.getElementById("move-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = document.getElementById("move");
  play(input.value.trim());
  input.value = "";
});
document.getElementById("rematch").addEventListener("click", async () => {
  try {
    const rematch = await api("POST", `/api/tables/${id}/rematch`, { token });
    goToRematch(rematch.id);
  } catch (e) {
    document.getElementById("error").textContent = e.message;
  }
});
showInvite();
const events = new EventSource(`/api/tables/${id}/events`);
events.addEventListener("state", (event) => {
  const next = JSON.parse(event.data);
  if (state && next.ply < state.ply && next.id === state.id) return;
  state = next;
  show();
});
events.onerror = () => { document.getElementById("status").textContent += " (reconnecting…)"; };
