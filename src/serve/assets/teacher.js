// The teacher's page: every table live (server-sent events from /api/teacher/events, read with
// fetch so that the password travels in a header; a slow poll only while the stream is down),
// the variant everyone plays, a student's variant to check and add, and the finished games to
// download as a tournament journal or trace files.
"use strict";

let password = sessionStorage.getItem("teacher-password") || "";
const auth = () => ({ Authorization: "Bearer " + password });
// Every table's summary, by id.
const tables = new Map();

// Downloads the text an authorised GET answers, as a file named `name`.
async function download(path, name) {
  const response = await fetch(path, { headers: auth() });
  if (!response.ok) throw new Error((await response.json()).error);
  const link = el("a", null, { href: URL.createObjectURL(await response.blob()), download: name });
  document.body.append(link);
  link.click();
  link.remove();
}

// Takes the whole list of tables from the API.
async function refresh() {
  const list = await api("GET", "/api/teacher/tables", undefined, auth());
  tables.clear();
  for (const t of list) tables.set(t.id, t);
  show();
}

// Draws the tables (newest first) and the journals of the games with finished tables.
function show() {
  const all = [...tables.values()].sort((a, b) => b.number - a.number);
  const finished = [...new Set(all.filter((t) => t.result && t.result !== "over").map((t) => t.game))].sort();
  fill(document.getElementById("journals"), ...finished.map((game) => {
    const b = el("button", game, { type: "button", "data-journal": game });
    b.addEventListener("click", () => download(`/api/teacher/journal/${encodeURIComponent(game)}`, `${game}.jsonl`).catch(showError));
    return b;
  }));
  fill(document.getElementById("tables"), ...all.map((t) => {
    const row = el("tr", null, { "data-table": t.id });
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

// Follows the stream of changes until it ends or fails.
async function listen() {
  const response = await fetch("/api/teacher/events", { headers: auth() });
  if (!response.ok || !response.body) throw new Error(response.statusText);
  document.getElementById("live").textContent = "(live)";
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value.replace(/\r\n?/g, "\n");
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (data.length) await changed(event, JSON.parse(data.join("\n")));
    }
  }
}

// Applies one event of the stream.
async function changed(event, data) {
  if (event === "tables") {
    tables.clear();
    for (const t of data) tables.set(t.id, t);
  } else if (event === "table") {
    tables.set(data.id, data);
  } else if (event === "stale") {
    await refresh();
    return;
  }
  show();
}

// Keeps the stream open: when it drops, the list is polled (slowly) until it is back.
async function follow() {
  for (;;) {
    try {
      await listen();
    } catch (_) { /* reconnect below */ }
    document.getElementById("live").textContent = "(reconnecting…)";
    await new Promise((resolve) => setTimeout(resolve, 5000));
    await refresh().catch(showError);
  }
}

async function showAssignment() {
  const a = await api("GET", "/api/assignment");
  document.getElementById("assigned").textContent = a
    ? `Now: ${a.title} (${a.game}) ${a.options.join(" ")}` : "No assignment: students choose.";
}

async function showGames() {
  const games = await api("GET", "/api/games");
  const select = document.getElementById("game");
  const chosen = select.value;
  fill(select, ...games.filter((g) => !g.error).map((g) => el("option", g.name, { value: g.name })));
  if (chosen) select.value = chosen;
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
  document.getElementById("error").textContent = "";
  await showGames();
  await showAssignment();
  follow();
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
document.getElementById("upload").addEventListener("submit", async (event) => {
  event.preventDefault();
  const report = document.getElementById("upload-report");
  const file = document.getElementById("variant-file").files[0];
  const name = document.getElementById("variant-name").value.trim() || (file ? file.name.replace(/\.rhai$/, "") : "");
  report.hidden = false;
  report.className = "";
  if (!file) {
    report.textContent = "Choose the script file first.";
    return;
  }
  report.textContent = "Checking…";
  try {
    const added = await api("POST", "/api/teacher/variants", { name, script: await file.text() }, auth());
    report.textContent = `Added ${added.name}: everyone can play it now.\n${added.check}`;
    await showGames();
  } catch (e) {
    report.className = "error";
    report.textContent = e.message;
  }
});
if (password) start();
