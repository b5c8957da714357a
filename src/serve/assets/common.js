// Shared by the pages: JSON requests and safe text.
"use strict";

// Calls the API: resolves with the JSON answer, rejects with an Error carrying the server's
// message and status.
async function api(method, path, body, headers) {
  const init = { method, headers: Object.assign({}, headers || {}) };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (_) { data = text; }
  if (!response.ok) {
    const error = new Error((data && data.error) || response.statusText);
    error.status = response.status;
    throw error;
  }
  return data;
}

// A new element with text (never markup) and attributes.
function el(tag, text, attributes) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  for (const [k, v] of Object.entries(attributes || {})) node.setAttribute(k, v);
  return node;
}

// Empties `node` and adds `children`.
function fill(node, ...children) {
  node.replaceChildren(...children);
  return node;
}
