// The browser test of `surflet serve`: headless Chromium (Debian's
// `chromium`), driven through playwright-core, against the real server.
//
//   SURFLET_BIN=target/debug/surflet node run.mjs [SCREENSHOT.png]
//
// It checks that the page loads without console errors, that the preview is
// not blank, that its labels are the command line's words and its
// checkboxes' labels do not contradict their ticks, that the seed and
// frequency controls change the image, that the exported `surflet render`
// command renders the same pixels as the preview, that the export box follows
// the controls, that the 3D view draws with WebGL, and that pan and zoom move
// the view; then it saves a screenshot for the README, whose export box shows
// the config of the controls beside it.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { PNG } from 'pngjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../../..');
const bin = resolve(process.env.SURFLET_BIN || join(root, 'target/debug/surflet'));
const shot = resolve(process.argv[2] || join(root, 'target/browser/serve.png'));
const browserPath = process.env.CHROMIUM || '/usr/bin/chromium';

function startServer() {
  const child = spawn(bin, ['serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((ok, fail) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/listening on (http:\/\/\S+)/);
      if (m) ok({ child, url: m[1] });
    });
    child.on('exit', (code) => fail(new Error(`surflet serve exited with ${code}: ${out}`)));
  });
}

// Splits a POSIX shell command as the page quotes it: words, and
// single-quoted words with '\'' for a quote.
function shellWords(command) {
  const words = [];
  let word = null, i = 0;
  while (i < command.length) {
    const c = command[i];
    if (c === "'") {
      const end = command.indexOf("'", i + 1);
      assert.ok(end > i, `unterminated quote in ${command}`);
      word = (word ?? '') + command.slice(i + 1, end);
      i = end + 1;
    } else if (c === '\\') {
      word = (word ?? '') + command[i + 1];
      i += 2;
    } else if (c === ' ') {
      if (word !== null) words.push(word);
      word = null;
      i++;
    } else {
      word = (word ?? '') + c;
      i++;
    }
  }
  if (word !== null) words.push(word);
  return words;
}

const decode = (bytes) => PNG.sync.read(Buffer.from(bytes));

const { child, url } = await startServer();
const browser = await chromium.launch({
  executablePath: browserPath,
  args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
});
const problems = [];
// A node's own preview: a render of the node's expression at 64×64
// (nodes.js `PREVIEW`).
const nodePreview = (request) => {
  try {
    const body = JSON.parse(request.postData() ?? '');
    return request.url().endsWith('/api/render') && typeof body.expr === 'string'
      && body.size?.[0] === 64 && body.size?.[1] === 64;
  } catch (_) {
    return false;
  }
};
try {
  const page = await browser.newPage({ viewport: { width: 1240, height: 900 } });
  // Chromium logs every refused request as a console error, also the two
  // kinds the page handles by design: a node preview of a node still
  // being filled in (`const()` just after it is dropped: 400, and the node
  // shows no image until it is complete, nodes.js `refreshPreviews`), and
  // the server's bounded pool (503 with Retry-After, which app.js `post`
  // waits out and asks again). Those responses are counted here, and as
  // many console lines of their status are let through at the end.
  const consoleErrors = [];
  const handled = { 400: 0, 503: 0 };
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  page.on('response', (r) => {
    if (r.status() === 503 && r.headers()['retry-after']) handled[503] += 1;
    if (r.status() === 400 && nodePreview(r.request())) handled[400] += 1;
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => {
    // Aborted stale previews are the design, not a failure.
    if (!/ERR_ABORTED/.test(r.failure()?.errorText ?? '')) problems.push(`request failed: ${r.url()}`);
  });

  const renders = () => page.evaluate(() => window.surflet.renders);
  const settled = async (before) => {
    await page.waitForFunction((n) => window.surflet.renders > n && !window.surflet.busy, before, { timeout: 60000 });
  };
  const preview = async () => Buffer.from(await page.evaluate(() => Array.from(window.surflet.lastPng)));
  const status = () => page.textContent('#status');

  await page.goto(url);
  await settled(0);
  assert.match(await status(), /rendered/, 'the first render reports success');

  // The preview canvas holds an image, not one colour.
  const spread = await page.evaluate(() => {
    const c = document.getElementById('canvas');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let lo = 255, hi = 0;
    for (let i = 0; i < d.length; i += 4) { lo = Math.min(lo, d[i]); hi = Math.max(hi, d[i]); }
    return hi - lo;
  });
  assert.ok(spread > 100, `the preview is nearly blank (grey levels span ${spread})`);
  const first = await preview();

  // The words of the command line: each pixel mode and range is labelled
  // with the value `render` and config files take (the 3D and tiled views
  // are the explorer's own), and the analysis names the documented range.
  const labels = await page.$$eval('#mode option, #range option', (os) => os.map((o) => [o.value, o.textContent]));
  for (const [value, label] of labels) {
    if (!['3d', 'tiled'].includes(value)) assert.equal(label, value, `the option ${value} is labelled ${label}`);
  }
  assert.match(await page.textContent('#ranges'), /^documented \[-?\d/, 'the analysis names the documented range');
  // A checkbox is labelled with what it adds, never with a state ("on"
  // beside an empty box said the opposite of the box).
  const boxes = await page.$$eval('input[type=checkbox]', (bs) => bs.map((b) => [b.id, b.checked, b.closest('label').innerText.trim()]));
  assert.deepEqual(boxes.map(([id, checked]) => [id, checked]), [['period-on', false], ['group-fractal', false], ['group-warp', false], ['antialias', true]]);
  for (const [id, , label] of boxes) assert.doesNotMatch(label, /\b(on|off)\b/i, `${id} is labelled ${label}`);
  assert.deepEqual(boxes.slice(1).map(([, , label]) => label.toLowerCase()), ['fractal', 'warp', 'antialias']);
  // The preview is antialiased, and says so.
  assert.match(await page.textContent('#where'), /antialiased/, 'the view says the preview is antialiased');

  // The seed, by keyboard in its number field.
  let n = await renders();
  await page.click('#param-seed');
  await page.keyboard.press('ArrowUp');
  await settled(n);
  const seeded = await preview();
  assert.ok(!seeded.equals(first), 'changing the seed changes the image');
  assert.equal(await page.inputValue('#param-seed'), '1');

  // The frequency, by keyboard on its slider.
  n = await renders();
  await page.focus('#param-frequency');
  for (let i = 0; i < 40; i++) await page.keyboard.press('ArrowRight');
  await settled(n);
  const faster = await preview();
  assert.ok(!faster.equals(seeded), 'changing the frequency changes the image');

  // A fractal in a colour ramp, panned by dragging and zoomed by the wheel.
  n = await renders();
  await page.check('#group-fractal');
  await page.selectOption('#mode', 'ramp');
  await settled(n);
  n = await renders();
  const box = await page.locator('#canvas').boundingBox();
  await page.mouse.move(box.x + 300, box.y + 300);
  await page.mouse.down();
  await page.mouse.move(box.x + 200, box.y + 250, { steps: 5 });
  await page.mouse.up();
  await page.mouse.wheel(0, -200);
  await settled(n);
  const where = await page.textContent('#where');
  assert.doesNotMatch(where, /origin \(0\.0000, 0\.0000\)/, `panning moves the origin: ${where}`);

  // The exported command renders exactly the preview's pixels.
  const dir = mkdtempSync(join(tmpdir(), 'surflet-browser-'));
  for (const mode of ['ramp', 'normal', 'gray']) {
    n = await renders();
    if (mode !== 'ramp') {
      await page.selectOption('#mode', mode);
      await settled(n);
    }
    await page.evaluate(() => { document.getElementById('export').value = ''; });
    await page.click('[data-export=command]');
    await page.waitForFunction(() => document.getElementById('export').value.startsWith('surflet render'));
    const command = await page.inputValue('#export');
    const words = shellWords(command);
    assert.equal(words[0], 'surflet');
    assert.ok(words.includes('--antialias'), `the export carries the preview's antialiasing: ${command}`);
    const out = join(dir, `${mode}.png`);
    const args = words.slice(1).map((w) => (w === 'noise.png' ? out : w));
    execFileSync(bin, args, { stdio: 'inherit' });
    const cli = decode(readFileSync(out));
    const shown = decode(await preview());
    assert.equal(cli.width, shown.width);
    assert.equal(cli.height, shown.height);
    assert.ok(cli.data.equals(shown.data), `${mode}: the command's pixels differ from the preview's (${command})`);
    console.log(`ok: ${mode} preview = ${command}`);
  }

  // TOML export, then import of the same text, renders the same image.
  await page.click('[data-export=toml]');
  await page.waitForFunction(() => document.getElementById('export').value.startsWith('version = 2'));
  const toml = await page.inputValue('#export');
  const before = await preview();
  n = await renders();
  await page.fill('#import', toml);
  await page.click('#load');
  await settled(n);
  assert.ok((await preview()).equals(before), 'a loaded TOML export renders the same image');

  // A loaded config's keys that no control edits (the domain offset, the
  // fractal's amplitude and normalisation, the warp's noise and fractal)
  // reach the preview and the exports unchanged.
  const keptLines = [
    'version = 2', 'noise = "perlin"', 'seed = 5', 'offset = [0.5, -2.25]',
    '[fractal]', 'octaves = 3', 'amplitude = 0.5', 'normalize = false',
    '[warp]', 'amplitude = 0.25', 'noise = "value"',
    '[warp.fractal]', 'octaves = 2',
    '[view]', 'size = [256, 256]', 'scale = "1/64"',
  ];
  const loadToml = async (lines) => {
    n = await renders();
    await page.fill('#import', lines.join('\n'));
    await page.click('#load');
    await settled(n);
    return preview();
  };
  const withKept = await loadToml(keptLines);
  const without = await loadToml(keptLines.filter((l) => !/^(offset|amplitude = 0\.5|noise = "value")/.test(l)));
  assert.ok(!withKept.equals(without), 'the kept keys change the preview');
  await loadToml(keptLines);
  await page.evaluate(() => { document.getElementById('export').value = ''; });
  await page.click('[data-export=toml]');
  await page.waitForFunction(() => document.getElementById('export').value.startsWith('version = 2'));
  const keptToml = await page.inputValue('#export');
  for (const line of ['offset = [0.5, -2.25]', 'amplitude = 0.5', 'normalize = false', 'noise = "value"', '[warp.fractal]']) {
    assert.ok(keptToml.includes(`${line}\n`), `the export lost ${line}:\n${keptToml}`);
  }
  await page.evaluate(() => { document.getElementById('export').value = ''; });
  await page.click('[data-export=command]');
  await page.waitForFunction(() => document.getElementById('export').value.startsWith('surflet render'));
  const keptCommand = await page.inputValue('#export');
  const keptOut = join(dir, 'kept.png');
  execFileSync(bin, shellWords(keptCommand).slice(1).map((w) => (w === 'noise.png' ? keptOut : w)), { stdio: 'inherit' });
  assert.ok(decode(readFileSync(keptOut)).data.equals(decode(withKept).data), `the kept keys' command differs from the preview (${keptCommand})`);
  console.log(`ok: kept keys = ${keptCommand}`);
  // A loaded 3D period keeps its z entry (the control edits x and y).
  await loadToml(['version = 2', 'noise = "perlin"', 'period = [4, 4, 3]', '[view]', 'dims = 3', 'z = 0.5']);
  await page.evaluate(() => { document.getElementById('export').value = ''; });
  await page.click('[data-export=command]');
  await page.waitForFunction(() => document.getElementById('export').value.startsWith('surflet render'));
  const periodCommand = await page.inputValue('#export');
  assert.ok(periodCommand.includes('--period 4,4,3'), `the z period was dropped: ${periodCommand}`);
  const periodOut = join(dir, 'period3.png');
  execFileSync(bin, shellWords(periodCommand).slice(1).map((w) => (w === 'noise.png' ? periodOut : w)), { stdio: 'inherit' });
  assert.ok(decode(readFileSync(periodOut)).data.equals(decode(await preview()).data), `the 3D period's command differs from the preview (${periodCommand})`);
  // Back to the TOML export, which the next check follows.
  await page.click('[data-export=toml]');
  await page.waitForFunction(() => document.getElementById('export').value.startsWith('version = 2'));

  // The export box follows the controls: a new seed exports again.
  const seed = Number(await page.inputValue('#param-seed'));
  n = await renders();
  await page.click('#param-seed');
  await page.keyboard.press('ArrowUp');
  await settled(n);
  await page.waitForFunction((s) => document.getElementById('export').value.includes(`\nseed = ${s}\n`), seed + 1, { timeout: 60000 });

  // The 3D view: a WebGL context that draws something.
  n = await renders();
  await page.selectOption('#mode', '3d');
  await settled(n);
  const gl = await page.evaluate(() => {
    const c = document.getElementById('gl');
    const g = c.getContext('webgl', { preserveDrawingBuffer: true });
    const px = new Uint8Array(c.width * c.height * 4);
    g.readPixels(0, 0, c.width, c.height, g.RGBA, g.UNSIGNED_BYTE, px);
    const colours = new Set();
    for (let i = 0; i < px.length; i += 4 * 97) colours.add((px[i] << 16) | (px[i + 1] << 8) | px[i + 2]);
    return { frames: window.surflet.glFrames, colours: colours.size };
  });
  assert.ok(gl.frames >= 1, 'the 3D view drew a frame');
  assert.ok(gl.colours > 50, `the 3D view is nearly blank (${gl.colours} colours)`);

  // The node editor: the README's terrain graph built by adding nodes and
  // dragging wires between them, never typing an expression.
  await page.check('input[name=source][value=expr]');
  await page.waitForFunction(() => (window.surflet.treeLoads || 0) >= 1, null, { timeout: 60000 });
  const laid = await page.$$eval('#drawflow .drawflow-node', (ns) => ns.map((e) => `${e.style.left},${e.style.top}`));
  assert.ok(laid.length >= 5, `the default expression has ${laid.length} nodes`);
  assert.equal(new Set(laid).size, laid.length, 'each node of the default expression has its own place');
  await page.click('#clear-nodes');
  const made = [];
  const addNode = async (name, params = {}) => {
    await page.selectOption('#palette', name);
    await page.click('#add-node');
    const id = await page.evaluate(() => Math.max(...Object.keys(window.surflet.editor.export().drawflow.Home.data).map(Number)));
    for (const [k, v] of Object.entries(params)) await page.fill(`#node-${id} input[df-p_${k}]`, v);
    made.push(id);
    return id;
  };
  const centre = async (sel) => {
    const b = await page.locator(sel).boundingBox();
    return [b.x + b.width / 2, b.y + b.height / 2];
  };
  const wire = async (from, to, input) => {
    // Nodes are placed on a grid as they are added; drag the source next
    // to its target first, so that both ends are in view.
    const [ox, oy] = await centre(`#node-${from} .outputs .output_1`);
    const label = await page.$eval(`#node-${to} .inputs`, (el, name) => [...el.children].findIndex((c) => c.dataset.label === name), input);
    assert.ok(label >= 0, `node ${to} has no input ${input}`);
    const [ix, iy] = await centre(`#node-${to} .inputs .input_${label + 1}`);
    await page.mouse.move(ox, oy);
    await page.mouse.down();
    await page.mouse.move((ox + ix) / 2, (oy + iy) / 2, { steps: 4 });
    await page.mouse.move(ix, iy, { steps: 4 });
    await page.mouse.up();
  };
  const scaled = async (input, k, minus) => {
    const m = await addNode('mul');
    await wire(input, m, 'a');
    await wire(await addNode('const', { value: k }), m, 'b');
    const s = await addNode('sub');
    await wire(m, s, 'a');
    await wire(await addNode('const', { value: minus }), s, 'b');
    return s;
  };
  const low = await addNode('fbm', { octaves: '6' });
  await wire(await addNode('simplex', { seed: '1' }), low, 'input');
  const high = await addNode('ridged', { octaves: '5' });
  await wire(await addNode('perlin', { seed: '2', frequency: '2' }), high, 'input');
  const mask = await addNode('fbm', { octaves: '2' });
  await wire(await addNode('perlin', { seed: '3', frequency: '0.5' }), mask, 'input');
  const sel = await addNode('select', { threshold: '0.1', falloff: '0.15' });
  await wire(await scaled(low, '0.6', '0.2'), sel, 'a');
  await wire(await scaled(high, '0.9', '0.1'), sel, 'b');
  await wire(mask, sel, 'control');
  const wires = await page.evaluate(() => Object.values(window.surflet.editor.export().drawflow.Home.data)
    .reduce((k, nd) => k + Object.values(nd.inputs).reduce((j, i) => j + i.connections.length, 0), 0));
  assert.equal(wires, made.length - 1, 'every wire was dragged into place');
  // The expression box shows the same graph as the README's expression.
  const readme = 'select(fbm(simplex(seed=1), octaves=6) * 0.6 - 0.2, ridged(perlin(seed=2, frequency=2), octaves=5) * 0.9 - 0.1, control=fbm(perlin(seed=3, frequency=0.5), octaves=2), threshold=0.1, falloff=0.15)';
  const graphOf = (expr) => page.evaluate(async (e) => (await (await fetch('/api/export', { method: 'POST', body: JSON.stringify({ expr: e }) })).json()).config.graph, expr);
  const built = await page.inputValue('#expr');
  assert.deepEqual(await graphOf(built), await graphOf(readme), `the editor's graph is not the README's: ${built}`);
  console.log(`ok: built by dragging: ${built}`);
  // The main view shows it; its exported command renders the same bytes.
  await page.mouse.click((await page.locator('#drawflow').boundingBox()).x + 5, (await page.locator('#drawflow').boundingBox()).y + 5);
  n = await renders();
  await page.selectOption('#mode', 'ramp');
  await settled(n);
  await page.evaluate(() => { document.getElementById('export').value = ''; });
  await page.click('[data-export=command]');
  await page.waitForFunction(() => document.getElementById('export').value.startsWith('surflet render'));
  const graphCommand = await page.inputValue('#export');
  const graphOut = join(dir, 'graph.png');
  execFileSync(bin, shellWords(graphCommand).slice(1).map((w) => (w === 'noise.png' ? graphOut : w)), { stdio: 'inherit' });
  assert.ok(decode(readFileSync(graphOut)).data.equals(decode(await preview()).data), `the node graph's command differs from the preview (${graphCommand})`);
  console.log(`ok: node graph = ${graphCommand}`);
  // Each node shows its own output.
  await page.waitForFunction((k) => [...document.querySelectorAll('#drawflow img.np')].filter((i) => i.src).length === k, made.length, { timeout: 60000 });
  // An edit to a node: the time to the first full preview, measured here
  // (README states it; a test does not assert a time).
  n = await renders();
  await page.fill(`#node-${low} input[df-p_octaves]`, '7');
  await settled(n);
  const took = await status();
  assert.match(await page.inputValue('#expr'), /octaves=7/);
  console.log(`measured: after a node edit (7 + 5 + 2 octaves, 512x512): ${took}`);
  // And for a 6-octave fBm typed into the box (the README's number).
  n = await renders();
  await page.fill('#expr', 'fbm(simplex(seed=1), octaves=6)');
  await settled(n);
  console.log(`measured: after an edit (6 octaves, 512x512): ${await status()}`);
  await page.waitForFunction(() => document.querySelectorAll('#drawflow .drawflow-node').length === 2, null, { timeout: 60000 });
  // The box's graph back to the nodes built above, by loading it again.
  n = await renders();
  await page.fill('#expr', built);
  await settled(n);
  await page.waitForFunction((k) => document.querySelectorAll('#drawflow .drawflow-node').length === k, made.length, { timeout: 60000 });
  // Selecting a node shows its output alone.
  const maskNode = await page.evaluate(() => Object.values(window.surflet.editor.export().drawflow.Home.data)
    .find((nd) => nd.data.fn === 'fbm' && nd.data.p_octaves === '2').id);
  n = await renders();
  await page.click(`#node-${maskNode} .nt`);
  await settled(n);
  const body = await page.evaluate(() => window.surflet.lastBody.expr);
  assert.match(body, /^fbm\(input=perlin\(seed=3, frequency=0\.5\), octaves=2\)$/, `the main view shows ${body}`);
  await page.locator('#nodes-panel').screenshot({ path: join(dirname(shot), 'nodes.png') });
  console.log(`screenshot: ${join(dirname(shot), 'nodes.png')}`);
  // A config with a graph, loaded, is laid out as nodes.
  n = await renders();
  await page.fill('#import', ['version = 2', '[graph]', 'op = "abs"', '[graph.input]', 'noise = "perlin"', '[graph.input.fractal]', 'octaves = 3'].join('\n'));
  await page.click('#load');
  await settled(n);
  const names = await page.$$eval('#drawflow .drawflow-node .nt', (ns) => ns.map((e) => e.textContent).sort());
  assert.deepEqual(names, ['abs', 'fbm', 'perlin'], `the loaded graph's nodes: ${names}`);
  await page.check('input[name=source][value=stack]');
  // Back to the TOML export, which the screenshot's check follows.
  await page.click('[data-export=toml]');
  await page.waitForFunction(() => document.getElementById('export').value.startsWith('version = 2'));

  // The screenshot for the README: a warped ridged fractal in a colour
  // ramp, loaded as a pasted TOML config.
  n = await renders();
  await page.fill('#import', [
    'version = 2', 'noise = "simplex"', 'seed = 7', 'frequency = 0.75',
    '[fractal]', 'kind = "ridged"', 'octaves = 6',
    '[warp]', 'amplitude = 0.35',
    '[view]', 'size = [512, 512]', 'origin = [3.0, 1.0]', 'scale = "1/128"', 'antialias = true',
    '[pixels]', 'mode = "ramp"', 'ramp = "terrain"', 'range = "auto"',
  ].join('\n'));
  await page.click('#load');
  await settled(n);
  // The export box shows the loaded config, not the one before it.
  await page.waitForFunction(() => /\nseed = 7\n/.test(document.getElementById('export').value), null, { timeout: 60000 });
  const shown = await page.inputValue('#export');
  for (const line of ['noise = "simplex"', 'frequency = 0.75', 'kind = "ridged"', 'octaves = 6', 'amplitude = 0.35', 'mode = "ramp"', 'range = "auto"']) {
    assert.ok(shown.includes(`\n${line}\n`), `the screenshot's export box lacks ${line}:\n${shown}`);
  }
  assert.equal(await page.inputValue('#mode'), 'ramp');
  assert.equal(await page.inputValue('#range'), 'auto');
  assert.ok(await page.isChecked('#antialias'), "the loaded config's [view] antialias ticks the box");
  await page.evaluate(() => window.scrollTo(0, 0));
  mkdirSync(dirname(shot), { recursive: true });
  await page.screenshot({ path: shot, fullPage: true });
  console.log(`screenshot: ${shot}`);

  for (const text of consoleErrors) {
    const code = /the server responded with a status of (400|503)\b/.exec(text)?.[1];
    if (code && handled[code] > 0) handled[code] -= 1;
    else problems.push(`console: ${text}`);
  }
  assert.deepEqual(problems, [], 'the page logged no errors');
} finally {
  await browser.close();
  child.kill('SIGTERM');
}
console.log('browser test passed');
