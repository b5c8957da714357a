// Two students play caro in Debian's Chromium through the class server's pages: one opens a table
// in the lobby, the other joins with the code shown, and they click their moves on the board
// until X wins. Needs /usr/bin/chromium and a built `boardrules` (target/release, or
// BOARDRULES_BIN); `.ci/run` installs Chromium and runs this after `cargo test --release`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";
import { chromium } from "playwright-core";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const bin = process.env.BOARDRULES_BIN || join(root, "target", "release", "boardrules");

// Starts `boardrules serve` on a free port with a fresh data file; resolves with its address.
function startServer(home) {
  const server = spawn(bin, ["serve", "--addr", "127.0.0.1:0", "--data", join(home, "class.sqlite")], {
    cwd: home,
    env: { ...process.env, BOARDRULES_CONFIG_DIR: join(home, "config"), XDG_CONFIG_HOME: join(home, "xdg"), NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    server.on("error", reject);
    server.on("exit", (code) => reject(new Error(`the server stopped (${code})`)));
    const lines = createInterface({ input: server.stdout });
    const printed = [];
    lines.on("line", (line) => {
      printed.push(line);
      if (printed.length === 2) {
        resolve({ server, url: printed[0].split(" ").pop().replace(/\/$/, ""), password: printed[1].split(" ").pop() });
      }
    });
  });
}

// Clicks the cell of `move` on the board picture of `page`, once the page shows position `ply`.
async function clickMove(page, move, ply) {
  await page.waitForSelector(`#picture[data-ply="${ply}"]`);
  const point = await page.evaluate(async (move) => {
    const id = location.pathname.split("/").pop();
    const picture = await (await fetch(`/api/tables/${id}/picture`)).json();
    const target = picture.moves.find((m) => m.move === move);
    const spot = picture.spots[target.spots[0]];
    const img = document.getElementById("picture");
    const rect = img.getBoundingClientRect();
    const scale = rect.width / img.naturalWidth;
    return { x: rect.left + spot.x * scale, y: rect.top + spot.y * scale };
  }, move);
  await page.mouse.click(point.x, point.y);
}

test("two browsers play caro to a win by clicking the board", { timeout: 120_000 }, async () => {
  const home = mkdtempSync(join(tmpdir(), "boardrules-browser-"));
  const { server, url, password } = await startServer(home);
  const context = await chromium.launchPersistentContext(join(home, "chromium-profile"), {
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  try {
    const ann = await context.newPage();
    await ann.goto(`${url}/`);
    await ann.waitForSelector('#game option[value="caro"]', { state: "attached" });
    await ann.selectOption("#game", "caro");
    await ann.fill('[data-option="size"]', "9");
    await ann.fill("#my-name", "Ann <i>x</i>");
    await ann.click("#open");
    await ann.waitForURL(/\/t\//);
    const code = await ann.textContent("[data-code]");
    assert.match(code, /^[a-z0-9]{6}$/);

    const bob = await context.newPage();
    await bob.goto(`${url}/`);
    await bob.fill("#join-code", code);
    await bob.fill("#join-name", "Bob");
    await bob.click("#join-form button");
    await bob.waitForURL(/\/t\//);
    await bob.waitForSelector("text=Bob (human)");
    // A name is shown as text, never as markup.
    assert.match(await bob.textContent("#seats"), /Ann <i>x<\/i> \(human\)/);
    assert.equal(await bob.locator("#seats i").count(), 0);

    const moves = [[ann, "5a"], [bob, "1a"], [ann, "5b"], [bob, "1b"], [ann, "5c"], [bob, "1c"], [ann, "5d"], [bob, "1d"], [ann, "5e"]];
    for (const [ply, [page, move]] of moves.entries()) {
      await clickMove(page, move, ply);
      const other = page === ann ? bob : ann;
      await other.waitForSelector(`#picture[data-ply="${ply + 1}"]`);
    }
    for (const page of [ann, bob]) {
      await page.waitForSelector("#result:has-text('X wins')");
      assert.equal(await page.textContent("#played"), moves.map(([, m]) => m).join(" "));
    }
    if (process.env.BOARDRULES_SCREENSHOT) await ann.screenshot({ path: process.env.BOARDRULES_SCREENSHOT });

    // The teacher's page, after the password, lists the table with its result and offers its
    // journal and trace.
    const teacher = await context.newPage();
    await teacher.goto(`${url}/teacher`);
    await teacher.fill("#password", "wrong");
    await teacher.click("#login button");
    await teacher.waitForSelector("#error:has-text('password')");
    await teacher.fill("#password", password);
    await teacher.click("#login button");
    await teacher.waitForSelector("#tables tr:has-text('X wins')");
    assert.match(await teacher.textContent("#tables"), /Ann <i>x<\/i> \(human\) vs Bob \(human\)/);
    await teacher.waitForSelector('[data-journal="caro"]');
    await teacher.waitForSelector("#live:has-text('live')");

    // A student's variant: a broken one is refused with check's report, a good one joins the games.
    writeFileSync(join(home, "broken.rhai"), "fn setup(opts) { #{ turn: 0 } }\nfn to_move(state) { state.turn +* 1 }\n");
    await teacher.fill("#variant-name", "broken");
    await teacher.setInputFiles("#variant-file", join(home, "broken.rhai"));
    await teacher.click("#upload button");
    await teacher.waitForSelector("#upload-report.error:has-text('broken.rhai')");
    writeFileSync(join(home, "caro_small.rhai"), "import \"caro\" as base;\nfn options() { let o = base::options(); o.size.value = 9; o }\n");
    await teacher.fill("#variant-name", "");
    await teacher.setInputFiles("#variant-file", join(home, "caro_small.rhai"));
    await teacher.click("#upload button");
    await teacher.waitForSelector("#upload-report:has-text('Added caro_small')", { timeout: 30_000 });
    await teacher.waitForSelector('#game option[value="caro_small"]', { state: "attached" });
  } finally {
    await context.close();
    server.kill("SIGKILL");
    rmSync(home, { recursive: true, force: true });
  }
});
