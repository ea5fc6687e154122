// The surflet explorer. Controls are built from GET /api/noises; every
// change renders through POST /api/render, first at a quarter of the size,
// then in full, and a newer change aborts the requests of an older one.
'use strict';

const W = 512, H = 512;
// The tiled view draws three whole-pixel tiles a side, unscaled, so that
// the only seams it shows are the noise's.
const TILE = Math.floor(W / 3);
const DEFAULT_SCALE = 1 / 64;
const $ = (id) => document.getElementById(id);

// What the page exposes to scripts (the browser test reads it).
const surflet = window.surflet = { renders: 0, lastPng: null, lastBody: null, busy: true, glFrames: 0, analyses: 0, exports: 0 };

const state = {
  source: 'stack',
  values: {},          // parameter path -> value
  groups: { fractal: false, warp: false },
  period: null,        // [px, py] or null
  periodRest: [],      // a loaded period's entries past x and y (z, w)
  // A loaded config's stack keys that no control edits (a domain offset,
  // the warp's noise and fractal, ...), kept so that they reach the
  // preview and the exports unchanged.
  kept: {},
  origin: [0, 0],
  scale: DEFAULT_SCALE,
  mode: 'gray',
  ramp: 'terrain',
  range: 'documented',
  dims: 2, z: 0, w: 0,
  // On for the preview (and so for its exports): octaves finer than a
  // pixel fade out instead of aliasing into static.
  antialias: true,
};
let meta = null;

function setStatus(text, error) {
  const s = $('status');
  s.textContent = text;
  s.classList.toggle('error', !!error);
}

// ---- controls ------------------------------------------------------------

function applies(p) {
  if (p.group !== 'noise' && !state.groups[p.group]) return false;
  if (!p.when) return true;
  return Object.entries(p.when).every(([k, allowed]) => allowed.includes(state.values[k]));
}

function sliderOf(p) {
  // Position in [0, 1000] to value and back; log sliders for frequencies.
  const lo = p.min, hi = p.max;
  const toValue = (t) => {
    const u = t / 1000;
    const v = p.log ? lo * Math.pow(hi / lo, u) : lo + (hi - lo) * u;
    return Number(v.toPrecision(3));
  };
  const toPos = (v) => 1000 * (p.log ? Math.log(v / lo) / Math.log(hi / lo) : (v - lo) / (hi - lo));
  return { toValue, toPos };
}

function control(p) {
  const label = document.createElement('label');
  label.dataset.path = p.path;
  label.append(p.label + ' ');
  const changed = () => { refreshVisibility(); schedule(); };
  if (p.type === 'choice') {
    const sel = document.createElement('select');
    for (const c of p.choices) sel.add(new Option(c, c));
    sel.value = state.values[p.path];
    sel.addEventListener('change', () => { state.values[p.path] = sel.value; changed(); });
    label.append(sel);
  } else if (p.type === 'int' && p.max - p.min > 64) {
    const input = document.createElement('input');
    input.type = 'number'; input.min = p.min; input.max = p.max; input.step = 1;
    input.value = state.values[p.path];
    input.id = 'param-' + p.path.replace('.', '-');
    input.addEventListener('input', () => {
      const v = Math.trunc(Number(input.value));
      if (Number.isFinite(v) && v >= p.min && v <= p.max) { state.values[p.path] = v; changed(); }
    });
    label.append(input);
  } else if (p.type === 'int' || p.type === 'number') {
    const input = document.createElement('input');
    const out = document.createElement('output');
    input.type = 'range';
    input.id = 'param-' + p.path.replace('.', '-');
    if (p.type === 'int') {
      input.min = p.min; input.max = p.max; input.step = 1;
      input.value = state.values[p.path];
      input.addEventListener('input', () => { state.values[p.path] = Number(input.value); out.value = input.value; changed(); });
    } else {
      const s = sliderOf(p);
      input.min = 0; input.max = 1000; input.step = 1;
      input.value = s.toPos(state.values[p.path]);
      input.addEventListener('input', () => { state.values[p.path] = s.toValue(Number(input.value)); out.value = state.values[p.path]; changed(); });
    }
    out.value = state.values[p.path];
    label.append(input, out);
  } else if (p.type === 'period') {
    const on = document.createElement('input');
    on.type = 'checkbox';
    const px = document.createElement('input'), py = document.createElement('input');
    for (const i of [px, py]) { i.type = 'number'; i.min = p.min; i.max = p.max; i.value = 4; i.disabled = true; }
    const update = () => {
      px.disabled = py.disabled = !on.checked;
      const a = Math.trunc(Number(px.value)), b = Math.trunc(Number(py.value));
      state.period = on.checked && a >= p.min && b >= p.min && a <= p.max && b <= p.max ? [a, b] : null;
      changed();
    };
    on.id = 'period-on';
    for (const i of [on, px, py]) i.addEventListener('input', update);
    // `--period X,Y`, in lattice cells, as render says it.
    label.textContent = 'period ';
    label.append(on, px, py, ' cells');
    label.title = 'tile every X by Y cells: a period spans the image; pan still works, zoom is off';
  }
  return label;
}

function buildControls() {
  const root = $('stack');
  const groups = { noise: 'Noise', fractal: 'Fractal', warp: 'Warp' };
  for (const [g, title] of Object.entries(groups)) {
    const sec = document.createElement('section');
    sec.dataset.group = g;
    const h = document.createElement('h2');
    h.className = 'group-title';
    if (g === 'noise') {
      h.append(title);
    } else {
      // The box's label is the group's name, so that it says what the box
      // adds and its tick says whether it is on (a fixed "on" beside an
      // empty box read as the opposite).
      const l = document.createElement('label');
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.id = 'group-' + g;
      box.addEventListener('change', () => { state.groups[g] = box.checked; refreshVisibility(); schedule(); });
      l.append(box, title);
      h.append(l);
    }
    sec.append(h);
    for (const p of meta.parameters.filter((p) => p.group === g)) sec.append(control(p));
    root.append(sec);
  }
  if (!$('ramp').options.length) for (const r of meta.ramps) $('ramp').add(new Option(r, r));
  refreshVisibility();
}

function refreshVisibility() {
  for (const label of document.querySelectorAll('#stack label[data-path]')) {
    const p = meta.parameters.find((q) => q.path === label.dataset.path);
    label.hidden = !applies(p);
  }
  $('stack').hidden = state.source !== 'stack';
  $('expr').hidden = state.source !== 'expr';
  $('nodes-panel').hidden = state.source !== 'expr';
  $('ramp-row').hidden = !['ramp', 'tiled', '3d'].includes(state.mode);
  $('z-row').hidden = state.dims < 3;
  $('w-row').hidden = state.dims < 4;
}

// ---- the description -----------------------------------------------------

function setPath(obj, path, value) {
  const keys = path.split('.');
  let o = obj;
  for (const k of keys.slice(0, -1)) o = (o[k] ??= {});
  o[keys[keys.length - 1]] = value;
}

// The config document for the current state, and the pixels to ask for.
function config(pixels) {
  let c = { version: 2 };
  if (state.source === 'stack') {
    c = { ...structuredClone(state.kept), version: 2 };
    // A group switched off takes its kept keys with it.
    for (const g of ['fractal', 'warp']) if (!state.groups[g]) delete c[g];
    for (const p of meta.parameters) {
      if (p.type === 'period') continue;
      if (applies(p)) setPath(c, p.path, state.values[p.path]);
    }
    // The control edits x and y; a loaded config's z and w periods ride
    // along for as many axes as the view has.
    if (state.period) c.period = state.period.concat(state.periodRest).slice(0, Math.max(2, state.dims));
  }
  c.view = { size: [W, H], origin: state.origin.slice(), dims: state.dims };
  // With a period one tile spans the image (render's default), so the
  // tiled view shows the period and no seam.
  if (!tiling()) c.view.scale = state.scale;
  if (state.dims >= 3) c.view.z = state.z;
  if (state.dims >= 4) c.view.w = state.w;
  if (state.antialias) c.view.antialias = true;
  c.pixels = pixels || pixelsFor(state.mode);
  return c;
}

function tiling() { return state.source === 'stack' && state.period !== null; }

function pixelsFor(mode) {
  if (mode === 'normal') return { mode: 'normal' };
  if (mode === 'ramp' || mode === 'tiled') return { mode: 'ramp', ramp: state.ramp, range: state.range };
  return { mode: 'gray', range: state.range };
}

// What the main view shows of an expression: the node selected in the
// editor, where it is complete, or the whole expression.
function shownExpr() {
  const id = nodes.selected();
  if (id !== null) {
    try { return nodes.print(id); } catch (_) { /* incomplete: the whole graph */ }
  }
  return $('expr').value;
}

function body(extra, pixels, expr) {
  const b = { config: config(pixels), ...extra };
  if (state.source === 'expr') b.expr = expr ?? shownExpr();
  return b;
}
// The node editor's previews render through the same requests.
window.surfletBody = body;

// ---- requests ------------------------------------------------------------

let controller = null;
let generation = 0;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

window.surfletPost = (path, b, signal) => post(path, b, signal);

async function post(path, b, signal) {
  for (;;) {
    const r = await fetch(path, { method: 'POST', body: JSON.stringify(b), signal, headers: { 'content-type': 'application/json' } });
    if (r.status === 503 && r.headers.get('retry-after')) { await sleep(120); continue; }
    if (!r.ok) {
      let message = r.statusText;
      try { message = (await r.json()).error; } catch (_) { /* not JSON */ }
      const e = new Error(message);
      e.status = r.status;
      throw e;
    }
    return r;
  }
}

let lastBitmap = null;

function draw(bitmap) {
  const ctx = $('canvas').getContext('2d');
  ctx.imageSmoothingEnabled = true;
  ctx.clearRect(0, 0, W, H);
  if (state.mode === 'tiled') {
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) ctx.drawImage(bitmap, i * TILE, j * TILE, TILE, TILE);
  } else {
    ctx.drawImage(bitmap, 0, 0, W, H);
  }
}

let pending = false;
function schedule() {
  if (pending) return;
  pending = true;
  requestAnimationFrame(() => { pending = false; refresh(); });
}

async function refresh() {
  const mine = ++generation;
  if (controller) controller.abort();
  controller = new AbortController();
  const signal = controller.signal;
  surflet.busy = true;
  updateWhere();
  const started = performance.now();
  try {
    if (state.mode === '3d') {
      await refresh3d(signal, mine);
    } else {
      const b = body({});
      const quick = await post('/api/render', { ...b, size: [W / 4, H / 4] }, signal);
      const quickBitmap = await createImageBitmap(await quick.blob());
      if (mine !== generation) return;
      draw(quickBitmap);
      const size = state.mode === 'tiled' ? [TILE, TILE] : [W, H];
      const full = await post('/api/render', { ...b, size }, signal);
      const bytes = new Uint8Array(await full.arrayBuffer());
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      if (mine !== generation) return;
      draw(bitmap);
      lastBitmap = bitmap;
      surflet.lastPng = bytes;
      surflet.lastBody = { ...b, size };
    }
    surflet.renders++;
    setStatus(`rendered in ${Math.round(performance.now() - started)} ms`);
    // The export box always describes what is shown, not what was shown
    // when its button was pressed.
    if (exportKind) exportAs(exportKind, signal);
    analyse(signal, mine);
  } catch (e) {
    if (e.name === 'AbortError') return;
    if (mine === generation) { setStatus(e.message, true); surflet.busy = false; }
  }
}

async function analyse(signal, mine) {
  try {
    const r = await post('/api/analyze', body({ size: [256, 256] }), signal);
    const a = await r.json();
    if (mine !== generation) return;
    showAnalysis(a);
    surflet.analyses++;
  } catch (e) {
    if (e.name !== 'AbortError' && mine === generation) setStatus(e.message, true);
  } finally {
    if (mine === generation) surflet.busy = false;
  }
}

const fmt = (v) => (Math.abs(v) >= 1e4 || (Math.abs(v) < 1e-3 && v !== 0) ? v.toExponential(3) : v.toFixed(4));

function showAnalysis(a) {
  $('ranges').textContent =
    `documented [${fmt(a.documented_range[0])}, ${fmt(a.documented_range[1])}]\n` +
    `measured   [${fmt(a.min)}, ${fmt(a.max)}]\n` +
    `mean ${fmt(a.mean)}  std ${fmt(a.std)}`;
  const h = $('histogram').getContext('2d');
  const hw = h.canvas.width, hh = h.canvas.height;
  h.clearRect(0, 0, hw, hh);
  const counts = a.histogram.counts, top = Math.max(...counts, 1);
  h.fillStyle = '#6cb6ff';
  counts.forEach((c, i) => {
    const bh = (c / top) * (hh - 4);
    h.fillRect((i * hw) / counts.length, hh - bh, hw / counts.length - 1, bh);
  });
  const s = $('spectrum').getContext('2d');
  const sw = s.canvas.width, sh = s.canvas.height;
  s.clearRect(0, 0, sw, sh);
  const pts = a.spectrum.frequency.map((f, i) => [f, a.spectrum.power[i]]).filter(([f, p]) => f > 0 && p > 0);
  if (pts.length > 1) {
    const lx = pts.map(([f]) => Math.log10(f)), ly = pts.map(([, p]) => Math.log10(p));
    const [x0, x1] = [Math.min(...lx), Math.max(...lx)], [y0, y1] = [Math.min(...ly), Math.max(...ly)];
    s.strokeStyle = '#ffcc66';
    s.beginPath();
    lx.forEach((x, i) => {
      const px = ((x - x0) / (x1 - x0 || 1)) * (sw - 4) + 2, py = sh - 2 - ((ly[i] - y0) / (y1 - y0 || 1)) * (sh - 4);
      if (i === 0) s.moveTo(px, py); else s.lineTo(px, py);
    });
    s.stroke();
  }
  $('spectrum-note').textContent =
    `log–log; peak ${fmt(a.spectrum.peak)}, centroid ${fmt(a.spectrum.centroid)} cycles/unit, anisotropy ${fmt(a.spectrum.anisotropy)}`;
}

// ---- 3D heightmap (plain WebGL) ------------------------------------------

const MESH = 128;
let gl = null, glProgram = null, glBuffers = null, glCount = 0;
let yaw = 0.6, pitch = 0.7;

function initGl() {
  const canvas = $('gl');
  gl = canvas.getContext('webgl', { preserveDrawingBuffer: true, antialias: true });
  if (!gl) throw new Error('this browser has no WebGL');
  const vs = `attribute vec3 p; attribute vec3 n; attribute vec3 c; uniform mat4 m; varying vec3 vc;
    void main() { float l = 0.35 + 0.65 * max(dot(normalize(n), normalize(vec3(0.4, 0.8, 0.3))), 0.0);
      vc = c * l; gl_Position = m * vec4(p, 1.0); }`;
  const fs = `precision mediump float; varying vec3 vc; void main() { gl_FragColor = vec4(vc, 1.0); }`;
  const compile = (type, src) => {
    const s = gl.createShader(type);
    gl.shaderSource(s, src); gl.compileShader(s);
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(s));
    return s;
  };
  glProgram = gl.createProgram();
  gl.attachShader(glProgram, compile(gl.VERTEX_SHADER, vs));
  gl.attachShader(glProgram, compile(gl.FRAGMENT_SHADER, fs));
  gl.linkProgram(glProgram);
  glBuffers = { p: gl.createBuffer(), n: gl.createBuffer(), c: gl.createBuffer(), i: gl.createBuffer() };
  gl.enable(gl.DEPTH_TEST);
}

function terrain(t) {
  const stops = [[0, [0.10, 0.24, 0.43]], [0.45, [0.16, 0.44, 0.69]], [0.5, [0.85, 0.76, 0.54]], [0.6, [0.33, 0.55, 0.25]], [0.8, [0.45, 0.36, 0.26]], [1, [1, 1, 1]]];
  for (let i = 1; i < stops.length; i++) {
    if (t <= stops[i][0]) {
      const [a, ca] = stops[i - 1], [b, cb] = stops[i], u = (t - a) / (b - a);
      return ca.map((v, k) => v + (cb[k] - v) * u);
    }
  }
  return stops[stops.length - 1][1];
}

function buildMesh(heights) {
  const N = MESH, pos = [], nor = [], col = [], idx = [];
  const h = (i, j) => heights[Math.min(N - 1, Math.max(0, j)) * N + Math.min(N - 1, Math.max(0, i))];
  const k = 0.22;
  for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) {
    const t = h(i, j);
    pos.push(i / (N - 1) * 2 - 1, t * k, j / (N - 1) * 2 - 1);
    const dx = (h(i + 1, j) - h(i - 1, j)) * k * (N - 1) / 4, dz = (h(i, j + 1) - h(i, j - 1)) * k * (N - 1) / 4;
    nor.push(-dx, 1, -dz);
    col.push(...(state.ramp === 'gray' ? [t, t, t] : terrain(t)));
  }
  for (let j = 0; j < N - 1; j++) for (let i = 0; i < N - 1; i++) {
    const a = j * N + i;
    idx.push(a, a + 1, a + N, a + 1, a + N + 1, a + N);
  }
  const put = (buf, data, target = gl.ARRAY_BUFFER) => { gl.bindBuffer(target, buf); gl.bufferData(target, data, gl.STATIC_DRAW); };
  put(glBuffers.p, new Float32Array(pos));
  put(glBuffers.n, new Float32Array(nor));
  put(glBuffers.c, new Float32Array(col));
  put(glBuffers.i, new Uint16Array(idx), gl.ELEMENT_ARRAY_BUFFER);
  glCount = idx.length;
}

function drawGl() {
  if (!gl || !glCount) return;
  const cy = Math.cos(yaw), sy = Math.sin(yaw), cp = Math.cos(pitch), sp = Math.sin(pitch), s = 0.68;
  // Orthographic: turn about y, tilt about x, scale into the clip cube.
  const m = new Float32Array([
    s * cy, s * sy * sp, -s * sy * cp * 0.5, 0,
    0, s * cp, s * sp * 0.5, 0,
    s * sy, -s * cy * sp, s * cy * cp * 0.5, 0,
    0, -0.1, 0, 1,
  ]);
  gl.viewport(0, 0, gl.canvas.width, gl.canvas.height);
  gl.clearColor(0.08, 0.09, 0.11, 1);
  gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
  gl.useProgram(glProgram);
  for (const [name, buf] of [['p', glBuffers.p], ['n', glBuffers.n], ['c', glBuffers.c]]) {
    const loc = gl.getAttribLocation(glProgram, name);
    gl.bindBuffer(gl.ARRAY_BUFFER, buf);
    gl.enableVertexAttribArray(loc);
    gl.vertexAttribPointer(loc, 3, gl.FLOAT, false, 0, 0);
  }
  gl.uniformMatrix4fv(gl.getUniformLocation(glProgram, 'm'), false, m);
  gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, glBuffers.i);
  gl.drawElements(gl.TRIANGLES, glCount, gl.UNSIGNED_SHORT, 0);
  surflet.glFrames++;
}

async function refresh3d(signal, mine) {
  if (!gl) initGl();
  const r = await post('/api/render', { ...body({}, { mode: 'gray', range: state.range }), size: [MESH, MESH] }, signal);
  const bitmap = await createImageBitmap(await r.blob());
  if (mine !== generation) return;
  const c = new OffscreenCanvas(MESH, MESH).getContext('2d');
  c.drawImage(bitmap, 0, 0);
  const px = c.getImageData(0, 0, MESH, MESH).data;
  const heights = new Float32Array(MESH * MESH);
  for (let i = 0; i < heights.length; i++) heights[i] = px[4 * i] / 255;
  buildMesh(heights);
  drawGl();
}

// ---- pan, zoom and the other inputs --------------------------------------

function updateWhere() {
  const s = tiling() ? 'one period per image' : `${fmt(state.scale)} units/pixel`;
  const aa = state.antialias ? ', antialiased: octaves finer than a pixel fade out' : '';
  $('where').textContent = `origin (${fmt(state.origin[0])}, ${fmt(state.origin[1])}), ${s}${aa}`;
}

function wirePanZoom() {
  const canvas = $('canvas');
  let drag = null;
  canvas.addEventListener('pointerdown', (e) => {
    drag = { x: e.clientX, y: e.clientY, origin: state.origin.slice() };
    canvas.setPointerCapture(e.pointerId);
    canvas.classList.add('dragging');
  });
  canvas.addEventListener('pointermove', (e) => {
    if (!drag) return;
    const per = tiling() ? state.period[0] / (state.values.frequency * W) : state.scale;
    const tile = state.mode === 'tiled' ? W / TILE : 1;
    state.origin = [drag.origin[0] - (e.clientX - drag.x) * per * tile, drag.origin[1] - (e.clientY - drag.y) * per * tile];
    schedule();
  });
  const end = () => { drag = null; canvas.classList.remove('dragging'); };
  canvas.addEventListener('pointerup', end);
  canvas.addEventListener('pointercancel', end);
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    if (tiling()) return;
    const rect = canvas.getBoundingClientRect();
    const px = e.clientX - rect.left, py = e.clientY - rect.top;
    const f = Math.pow(2, Math.max(-1, Math.min(1, e.deltaY * 0.002)));
    const next = Math.min(64, Math.max(1 / 65536, state.scale * f));
    state.origin = [state.origin[0] + px * (state.scale - next), state.origin[1] + py * (state.scale - next)];
    state.scale = next;
    schedule();
  }, { passive: false });
  const gl = $('gl');
  let turn = null;
  gl.addEventListener('pointerdown', (e) => { turn = { x: e.clientX, y: e.clientY, yaw, pitch }; gl.setPointerCapture(e.pointerId); });
  gl.addEventListener('pointermove', (e) => {
    if (!turn) return;
    yaw = turn.yaw + (e.clientX - turn.x) * 0.01;
    pitch = Math.max(0.1, Math.min(1.5, turn.pitch + (e.clientY - turn.y) * 0.01));
    drawGl();
  });
  gl.addEventListener('pointerup', () => { turn = null; });
}

function wireInputs() {
  for (const r of document.querySelectorAll('input[name=source]')) {
    r.addEventListener('change', () => {
      state.source = r.value;
      refreshVisibility();
      if (state.source === 'expr') readExpr();
      schedule();
    });
  }
  // The box and the editor are two views of one graph: typing here lays
  // the graph out again (after a pause), an edit there rewrites the box.
  let typing = null;
  $('expr').addEventListener('input', () => {
    schedule();
    clearTimeout(typing);
    typing = setTimeout(readExpr, 400);
  });
  $('mode').addEventListener('change', () => {
    state.mode = $('mode').value;
    $('gl').hidden = state.mode !== '3d';
    $('canvas').hidden = state.mode === '3d';
    refreshVisibility();
    schedule();
  });
  $('ramp').addEventListener('change', () => { state.ramp = $('ramp').value; schedule(); });
  $('range').addEventListener('change', () => { state.range = $('range').value; schedule(); });
  $('dims').addEventListener('change', () => { state.dims = Number($('dims').value); refreshVisibility(); schedule(); });
  for (const axis of ['z', 'w']) {
    const input = $(axis), out = input.nextElementSibling;
    out.value = input.value;
    input.addEventListener('input', () => { state[axis] = Number(input.value); out.value = input.value; schedule(); });
  }
  $('antialias').addEventListener('change', () => { state.antialias = $('antialias').checked; schedule(); });
  $('reset-view').addEventListener('click', () => { state.origin = [0, 0]; state.scale = DEFAULT_SCALE; schedule(); });
  for (const b of document.querySelectorAll('[data-export]')) {
    b.addEventListener('click', () => exportAs(b.dataset.export));
  }
  $('save-image').addEventListener('click', () => {
    if (!surflet.lastPng) return;
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([surflet.lastPng], { type: 'image/png' }));
    a.download = 'noise.png';
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  });
  $('load').addEventListener('click', () => load($('import').value));
  $('file').addEventListener('change', async () => {
    const f = $('file').files[0];
    if (f) { const text = await f.text(); $('import').value = text; load(text); }
  });
}

// Lays the expression box's graph out in the node editor.
async function readExpr() {
  try {
    const r = await post('/api/export', { config: config(), expr: $('expr').value });
    const e = await r.json();
    if (e.tree) nodes.load(e.tree);
    surflet.treeLoads = (surflet.treeLoads || 0) + 1;
  } catch (err) {
    setStatus(err.message, true);
  }
}

// An edit in the node editor: its graph into the box, and a new preview.
function nodesChanged() {
  try {
    $('expr').value = nodes.expression();
  } catch (e) {
    setStatus(e.message, true);
    return;
  }
  schedule();
}

// The kind of text the export box holds (null until a button is pressed);
// every render exports it again.
let exportKind = null;

async function exportAs(kind, signal) {
  exportKind = kind;
  try {
    const pixels = ['3d', 'tiled'].includes(state.mode) ? pixelsFor('ramp') : undefined;
    const r = await post('/api/export', body({}, pixels), signal);
    const e = await r.json();
    const text = kind === 'toml' ? e.toml : kind === 'json' ? e.json : kind === 'expr' ? e.expr : (e.command ?? e.command_note);
    $('export').value = text ?? '';
    $('export').dataset.kind = kind;
    surflet.exports++;
  } catch (err) {
    if (err.name !== 'AbortError') setStatus(err.message, true);
  }
}

// Loads a pasted or chosen config: the server parses it (TOML or JSON) and
// answers it resolved, as JSON, which sets the controls.
async function load(text) {
  const t = text.trim();
  if (!t) return;
  try {
    let b;
    if (t.startsWith('{')) b = { config: JSON.parse(t) };
    else b = { toml: t };
    const r = await post('/api/export', b);
    const e = await r.json();
    apply(e.config, e.expr);
    if (e.tree) nodes.load(e.tree);
    setStatus('config loaded');
  } catch (err) {
    setStatus(err.message, true);
  }
}

function ratioValue(r) {
  if (typeof r === 'number') return r;
  const [n, d] = String(r).split('/').map(Number);
  return d ? n / d : n;
}

function apply(c, expr) {
  if (c.graph) {
    state.source = 'expr';
    $('expr').value = expr;
  } else {
    state.source = 'stack';
    state.groups.fractal = !!c.fractal;
    state.groups.warp = !!c.warp;
    for (const p of meta.parameters) {
      if (p.type === 'period') continue;
      const v = p.path.split('.').reduce((o, k) => (o == null ? undefined : o[k]), c);
      state.values[p.path] = v ?? p.default;
    }
    state.period = c.period ? c.period.slice(0, 2) : null;
    state.periodRest = c.period ? c.period.slice(2) : [];
    state.kept = keptKeys(c);
  }
  const v = c.view || {};
  state.origin = v.origin || [0, 0];
  const sc = Array.isArray(v.scale) ? v.scale[0] : v.scale;
  state.scale = sc === undefined ? DEFAULT_SCALE : ratioValue(sc);
  state.dims = v.dims || 2; state.z = v.z || 0; state.w = v.w || 0;
  state.antialias = v.antialias === true;
  const px = c.pixels || {};
  state.mode = px.mode || 'gray';
  if (px.ramp) state.ramp = px.ramp;
  state.range = px.range === 'auto' ? 'auto' : 'documented';
  syncControls();
  schedule();
}

// The stack keys of a loaded config that no control edits: the config
// less its other tables, the period and every control's key.
function keptKeys(c) {
  const kept = structuredClone(c);
  for (const k of ['version', 'view', 'pixels', 'animation', 'graph', 'period']) delete kept[k];
  for (const p of meta.parameters) {
    const keys = p.path.split('.');
    const parent = keys.slice(0, -1).reduce((o, k) => (o == null ? undefined : o[k]), kept);
    if (parent != null) delete parent[keys[keys.length - 1]];
  }
  // Tables left empty say nothing; the groups' switches decide them.
  const empty = (t) => t && typeof t === 'object' && Object.keys(t).length === 0;
  if (kept.warp && empty(kept.warp.fractal)) delete kept.warp.fractal;
  for (const g of ['fractal', 'warp']) if (empty(kept[g])) delete kept[g];
  return kept;
}

// Puts the state back into every control after a load.
function syncControls() {
  $('stack').replaceChildren();
  buildControls();
  for (const g of ['fractal', 'warp']) $('group-' + g).checked = state.groups[g];
  if (state.period) {
    $('period-on').checked = true;
    const [px, py] = document.querySelectorAll('label[data-path=period] input[type=number]');
    px.value = state.period[0]; py.value = state.period[1];
    px.disabled = py.disabled = false;
  }
  for (const r of document.querySelectorAll('input[name=source]')) r.checked = r.value === state.source;
  $('mode').value = state.mode;
  $('gl').hidden = state.mode !== '3d';
  $('canvas').hidden = state.mode === '3d';
  if ([...$('ramp').options].some((o) => o.value === state.ramp)) $('ramp').value = state.ramp;
  $('range').value = state.range;
  $('dims').value = String(state.dims);
  $('z').value = state.z; $('w').value = state.w;
  $('antialias').checked = state.antialias;
  refreshVisibility();
}

async function main() {
  const r = await fetch('/api/noises');
  meta = await r.json();
  for (const p of meta.parameters) state.values[p.path] = p.default;
  buildControls();
  nodes.init(meta, nodesChanged);
  wireInputs();
  wirePanZoom();
  refresh();
}

main().catch((e) => setStatus(e.message, true));
