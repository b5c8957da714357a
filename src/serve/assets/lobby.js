// The lobby: join a seat by its code, open a table (game, options, who sits where), watch tables.
"use strict";

let games = [];
let assignment = null;

const SEAT_KINDS = [
  ["human", "a person (gets a join code)"],
  ["computer:easy", "the computer (easy)"],
  ["computer:medium", "the computer (medium)"],
  ["computer:hard", "the computer (hard)"],
  ["bot", "a bot program (gets a token)"],
];

function selectedGame() {
  return games.find((g) => g.name === document.getElementById("game").value);
}

// The option inputs and seat choices of the selected game (prefilled from the assignment).
function showGame() {
  const game = selectedGame();
  const options = document.getElementById("options");
  const seats = document.getElementById("seats");
  fill(options);
  fill(seats);
  if (!game) return;
  document.getElementById("about").textContent = game.error ? "does not load: " + game.error : (game.about || "");
  const assigned = assignment && assignment.game === game.name ? assignment.options : [];
  for (const o of game.options || []) {
    const given = assigned.find((s) => s.startsWith(o.name + "="));
    const input = el("input", null, { "data-option": o.name, size: 6, title: o.help });
    input.value = given ? given.slice(o.name.length + 1) : o.default;
    const label = el("label", o.name + " ");
    label.append(input);
    options.append(label);
  }
  (game.players || []).forEach((player, i) => {
    const label = el("label", player + ": ");
    const select = el("select", null, { "data-seat": i });
    SEAT_KINDS.forEach(([kind, text]) => select.append(el("option", i === 0 && kind === "human" ? "me" : text, { value: kind })));
    label.append(select);
    if (i === 0) {
      const name = el("input", null, { id: "my-name", size: 12, maxlength: 40, placeholder: "your name" });
      label.append(" ", name);
    }
    seats.append(label);
  });
}

async function loadGames() {
  games = await api("GET", "/api/games");
  assignment = await api("GET", "/api/assignment");
  const select = document.getElementById("game");
  fill(select, ...games.map((g) => el("option", g.title ? `${g.title} (${g.name})` : g.name, { value: g.name })));
  const banner = document.getElementById("assignment");
  if (assignment) {
    select.value = assignment.game;
    const options = assignment.options.length ? " with " + assignment.options.join(" ") : "";
    banner.textContent = `Your teacher asks everyone to play ${assignment.title} (${assignment.game})${options} now.`;
    banner.hidden = false;
  }
  showGame();
}

async function openTable(event) {
  event.preventDefault();
  const error = document.getElementById("new-error");
  error.textContent = "";
  const game = selectedGame();
  const options = {};
  document.querySelectorAll("[data-option]").forEach((input) => {
    const o = game.options.find((x) => x.name === input.dataset.option);
    if (!o || input.value !== o.default) options[input.dataset.option] = input.value;
  });
  const seats = [...document.querySelectorAll("[data-seat]")].map((select, i) => {
    const seat = { kind: select.value };
    const name = i === 0 ? document.getElementById("my-name").value.trim() : "";
    if (name) seat.name = name;
    return seat;
  });
  try {
    const table = await api("POST", "/api/tables", { game: game.name, options, seats });
    // I play the first seat that is not the computer's; the others' codes are shown as invitations.
    const mine = table.seats.find((s) => s.token);
    const invites = table.seats.filter((s) => s.code && s !== mine).map((s) => `${s.seat}:${s.code}`);
    const fragment = new URLSearchParams(mine ? { token: mine.token, seat: mine.seat, invite: invites.join(",") } : {});
    location.href = `/t/${table.id}#${fragment}`;
  } catch (e) {
    error.textContent = e.message;
  }
}

async function join(event) {
  event.preventDefault();
  const error = document.getElementById("join-error");
  error.textContent = "";
  try {
    const seat = await api("POST", "/api/join", {
      code: document.getElementById("join-code").value,
      name: document.getElementById("join-name").value,
    });
    location.href = `/t/${seat.id}#${new URLSearchParams({ token: seat.token, seat: seat.seat })}`;
  } catch (e) {
    error.textContent = e.message;
  }
}

async function loadTables() {
  const tables = await api("GET", "/api/tables");
  const body = document.getElementById("tables");
  fill(body, ...tables.slice(-50).reverse().map((t) => {
    const row = el("tr");
    const link = el("a", t.number, { href: `/t/${t.id}` });
    const cell = el("td");
    cell.append(link);
    row.append(cell, el("td", [t.game, ...t.options].join(" ")), el("td", t.seats.map((s) => s[1]).join(" vs ")),
      el("td", t.ply), el("td", t.reason || ""));
    return row;
  }));
}

document.getElementById("game").addEventListener("change", showGame);
document.getElementById("new-form").addEventListener("submit", openTable);
document.getElementById("join-form").addEventListener("submit", join);
const code = new URLSearchParams(location.search).get("code");
if (code) document.getElementById("join-code").value = code;
loadGames().catch((e) => { document.getElementById("new-error").textContent = e.message; });
loadTables();
setInterval(loadTables, 3000);
