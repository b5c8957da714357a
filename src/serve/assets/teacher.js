// The teacher's page: every table live (refreshed every two seconds), the variant everyone
// plays, and the finished games to download as a tournament journal or trace files.
"use strict";

let password = sessionStorage.getItem("teacher-password") || "";
const auth = () => ({ Authorization: "Bearer " + password });

// Downloads the text an authorised GET answers, as a file named `name`.
async function download(path, name) {
  const response = await fetch(path, { headers: auth() });
  if (!response.ok) throw new Error((await response.json()).error);
  const link = el("a", null, { href: URL.createObjectURL(await response.blob()), download: name });
  document.body.append(link);
  link.click();
  link.remove();
}

async function refresh() {
  const tables = await api("GET", "/api/teacher/tables", undefined, auth());
  const finished = [...new Set(tables.filter((t) => t.result && t.result !== "over").map((t) => t.game))];
  fill(document.getElementById("journals"), ...finished.map((game) => {
    const b = el("button", game, { type: "button", "data-journal": game });
    b.addEventListener("click", () => download(`/api/teacher/journal/${encodeURIComponent(game)}`, `${game}.jsonl`).catch(showError));
    return b;
  }));
  fill(document.getElementById("tables"), ...tables.slice().reverse().map((t) => {
    const row = el("tr");
    const number = el("td");
    number.append(el("a", t.number, { href: `/t/${t.id}`, target: "_blank" }));
    const trace = el("td");
    if (t.result) {
      const b = el("button", "trace", { type: "button" });
      b.addEventListener("click", () => download(`/api/teacher/tables/${t.id}/trace`, `table-${t.id}.trace`).catch(showError));
      trace.append(b);
    }
    row.append(number, el("td", [t.game, ...t.options].join(" ")), el("td", t.seats.map((s) => `${s[1]} (${s[0]})`).join(" vs ")),
      el("td", t.ply), el("td", t.reason || "playing"), trace);
    return row;
  }));
}

async function showAssignment() {
  const a = await api("GET", "/api/assignment");
  document.getElementById("assigned").textContent = a
    ? `Now: ${a.title} (${a.game}) ${a.options.join(" ")}` : "No assignment: students choose.";
}

function showError(e) {
  document.getElementById("error").textContent = e.message;
}

async function start() {
  try {
    await refresh();
  } catch (e) {
    showError(e);
    return;
  }
  sessionStorage.setItem("teacher-password", password);
  document.getElementById("login").hidden = true;
  document.getElementById("main").hidden = false;
  const games = await api("GET", "/api/games");
  fill(document.getElementById("game"), ...games.map((g) => el("option", g.name, { value: g.name })));
  await showAssignment();
  setInterval(() => refresh().catch(showError), 2000);
}

document.getElementById("login").addEventListener("submit", (event) => {
  event.preventDefault();
  password = document.getElementById("password").value;
  start();
});
document.getElementById("assign").addEventListener("submit", async (event) => {
  event.preventDefault();
  document.getElementById("error").textContent = "";
  const options = document.getElementById("options").value.split(/\s+/).filter(Boolean);
  try {
    await api("POST", "/api/teacher/assignment", { game: document.getElementById("game").value, options }, auth());
    await showAssignment();
  } catch (e) { showError(e); }
});
document.getElementById("clear").addEventListener("click", async () => {
  await api("POST", "/api/teacher/assignment", { game: null }, auth()).catch(showError);
  await showAssignment();
});
if (password) start();
