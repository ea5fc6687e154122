// The explorer's node editor: the expression as a graph of nodes, drawn by
// Drawflow (vendor/, MIT). The editor and the expression box are two views
// of one graph: an edit here prints the expression into the box, and an
// expression typed or loaded there is read back through /api/export's call
// tree and laid out here. Each node shows its own output, rendered by the
// server and cancelled when superseded; selecting a node shows it in the
// main view.
'use strict';

const nodes = (() => {
  const PREVIEW = 64;
  // Where the add button puts the k-th node: five columns, far enough apart
  // that one node's output dot and the next one's input dots do not meet.
  const COLUMN = 220, ROW = 180;
  let editor = null;
  let sigs = {};            // function name -> { params, inputs }
  let changed = () => {};   // told when the graph's expression changes
  let quiet = false;        // set while the editor is rebuilt from a tree
  let previews = null;      // the AbortController of the running previews
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));

  // The inputs a node of `name` has: one per field parameter, and four
  // for displace's `by` (a field per axis, up to 4D).
  function slots(name) {
    const s = sigs[name];
    const out = [];
    for (const p of s.inputs) {
      if (name === 'displace' && p === 'by') for (let k = 0; k < 4; k++) out.push(`by[${k}]`);
      else out.push(p);
    }
    return out;
  }

  // A node: its function, its own output, its first two parameters and
  // the rest folded away (a noise call has nine).
  function html(name) {
    const s = sigs[name];
    const field = (p) => `<label class="nf">${esc(p)} <input type="text" df-p_${esc(p)} spellcheck="false"></label>`;
    const params = s.params.filter((p) => !s.inputs.includes(p));
    const more = params.length > 2 ? `<details><summary>more</summary>${params.slice(2).map(field).join('')}</details>` : '';
    return `<div class="nt">${esc(name)}</div><img class="np" width="${PREVIEW}" height="${PREVIEW}" alt="">${params.slice(0, 2).map(field).join('')}${more}`;
  }

  // Adds a node of `name` with the parameters' text `params`, at (x, y).
  function add(name, params, x, y) {
    const data = { fn: name };
    for (const [p, v] of Object.entries(params || {})) data['p_' + p] = v;
    const ins = slots(name);
    const id = editor.addNode(name, ins.length, 1, x, y, 'surflet-node', data, html(name));
    const el = document.getElementById('node-' + id);
    ins.forEach((label, k) => {
      const c = el.querySelector(`.inputs .input_${k + 1}`);
      c.dataset.label = label;
      c.title = label;
    });
    return id;
  }

  // The node connected to input `k` (0-based) of node `id`, if any.
  function child(n, k) {
    const c = n.inputs[`input_${k + 1}`];
    return c && c.connections.length ? Number(c.connections[0].node) : null;
  }

  // Node `id` as an expression; throws on an input left unconnected.
  function print(id, seen = new Set()) {
    if (seen.has(id)) throw new Error('the graph has a loop');
    seen.add(id);
    const n = editor.getNodeFromId(id);
    const name = n.data.fn, s = sigs[name];
    const ins = slots(name);
    const args = [];
    for (const p of s.params) {
      if (s.inputs.includes(p)) {
        if (name === 'displace' && p === 'by') {
          const by = [];
          ins.forEach((label, k) => { if (label.startsWith('by[') && child(n, k) !== null) by.push(print(child(n, k), new Set(seen))); });
          if (!by.length) throw new Error(`${name}: connect its by inputs`);
          args.push(`by=[${by.join(', ')}]`);
        } else {
          const c = child(n, ins.indexOf(p));
          if (c === null) throw new Error(`${name}: its input ${p} is not connected`);
          args.push(`${p}=${print(c, new Set(seen))}`);
        }
      } else {
        const v = (n.data['p_' + p] ?? '').trim();
        if (v !== '') args.push(`${p}=${v}`);
      }
    }
    return `${name}(${args.join(', ')})`;
  }

  // The nodes whose output goes nowhere; the root is the one with the
  // most nodes below it (the lowest id on a tie).
  function root() {
    const all = Object.values(editor.export().drawflow.Home.data);
    const below = (n, seen = new Set()) => {
      if (seen.has(n.id)) return 0;
      seen.add(n.id);
      let k = 1;
      for (const i of Object.values(n.inputs)) for (const c of i.connections) k += below(editor.getNodeFromId(c.node), seen);
      return k;
    };
    const free = all.filter((n) => !n.outputs.output_1.connections.length);
    free.sort((a, b) => below(b) - below(a) || a.id - b.id);
    return free.length ? Number(free[0].id) : null;
  }

  function expression() {
    const r = root();
    if (r === null) throw new Error('the editor is empty: add a node');
    return print(r);
  }

  function selected() {
    const el = document.querySelector('#drawflow .drawflow-node.selected');
    return el ? Number(el.id.slice(5)) : null;
  }

  // A parameter's text from the call tree: a number keeps its digits.
  function literal(t) {
    if ('num' in t) return t.text;
    if ('word' in t) return t.word;
    if ('list' in t) return `[${t.list.map(literal).join(', ')}]`;
    throw new Error('a field where a value belongs');
  }

  // Zooms out, if need be, so that a layout `w` by `h` fits the canvas;
  // the canvas scales about its centre (Drawflow's transform), so the
  // translation puts the layout's corner at the canvas's.
  function view(w, h) {
    const box = document.getElementById('drawflow');
    // Hidden (a stack's config loaded in stack mode), the canvas has no
    // size: keep the full size rather than zoom to nothing.
    const z = box.clientWidth && box.clientHeight ? Math.min(1, box.clientWidth / w, box.clientHeight / h) : 1;
    const tx = -(box.clientWidth / 2) * (1 - z), ty = -(box.clientHeight / 2) * (1 - z);
    editor.zoom = editor.zoom_last_value = z;
    editor.canvas_x = tx;
    editor.canvas_y = ty;
    editor.precanvas.style.transform = `translate(${tx}px, ${ty}px) scale(${z})`;
  }

  // Rebuilds the editor from a call tree, laid out by depth, the root at
  // the right.
  function load(tree) {
    quiet = true;
    try {
      editor.clear();
      const columns = [];
      const place = (depth) => {
        columns[depth] = (columns[depth] || 0) + 1;
        return columns[depth] - 1;
      };
      const made = [];
      const build = (t, depth) => {
        if ('num' in t) t = { call: 'const', args: [['value', t]] };
        const s = sigs[t.call];
        const params = {}, fields = [];
        t.args.forEach(([name, v], i) => {
          const p = name ?? s.params[i];
          if (s.inputs.includes(p)) fields.push([p, v]);
          else params[p] = literal(v);
        });
        const row = place(depth);
        const id = add(t.call, params, 0, 0);
        made.push([id, depth, row]);
        const ins = slots(t.call);
        for (const [p, v] of fields) {
          if (t.call === 'displace' && p === 'by') {
            v.list.forEach((f, k) => editor.addConnection(build(f, depth + 1), id, 'output_1', `input_${ins.indexOf(`by[${k}]`) + 1}`));
          } else {
            editor.addConnection(build(v, depth + 1), id, 'output_1', `input_${ins.indexOf(p) + 1}`);
          }
        }
        return id;
      };
      build(tree, 0);
      const deepest = Math.max(...made.map(([, d]) => d));
      for (const [id, depth, row] of made) {
        const el = document.getElementById('node-' + id);
        const x = 10 + (deepest - depth) * COLUMN, y = 10 + row * ROW;
        el.style.left = x + 'px';
        el.style.top = y + 'px';
        const n = editor.drawflow.drawflow.Home.data[id];
        n.pos_x = x; n.pos_y = y;
      }
      view(10 + (deepest + 1) * COLUMN, 10 + Math.max(...columns) * ROW);
      for (const [id] of made) editor.updateConnectionNodes('node-' + id);
    } finally {
      quiet = false;
    }
    refreshPreviews();
  }

  // Renders each complete node's own output into its image, one after the
  // other; a newer call aborts the older one's requests.
  async function refreshPreviews() {
    if (previews) previews.abort();
    const mine = previews = new AbortController();
    const ids = Object.keys(editor.export().drawflow.Home.data).map(Number);
    for (const id of ids) {
      const img = document.querySelector(`#node-${id} img.np`);
      if (!img) continue;
      let expr;
      try { expr = print(id); } catch (_) { img.removeAttribute('src'); continue; }
      try {
        const r = await window.surfletPost('/api/render', window.surfletBody({ size: [PREVIEW, PREVIEW] }, undefined, expr), mine.signal);
        const url = URL.createObjectURL(await r.blob());
        if (img.src) URL.revokeObjectURL(img.src);
        img.src = url;
        img.dataset.expr = expr;
      } catch (e) {
        if (e.name === 'AbortError') return;
        img.removeAttribute('src');
      }
    }
    if (mine === previews) window.surflet.nodePreviews = (window.surflet.nodePreviews || 0) + 1;
  }

  function edited() {
    if (quiet) return;
    changed();
    refreshPreviews();
  }

  function init(meta, onChange) {
    for (const f of meta.functions) sigs[f.name] = f;
    changed = onChange;
    editor = new Drawflow(document.getElementById('drawflow'));
    editor.start();
    for (const ev of ['nodeCreated', 'nodeRemoved', 'connectionCreated', 'connectionRemoved', 'nodeDataChanged']) editor.on(ev, edited);
    editor.on('nodeSelected', () => changed());
    editor.on('nodeUnselected', () => changed());
    const palette = document.getElementById('palette');
    for (const f of meta.functions) palette.add(new Option(f.name, f.name));
    palette.value = 'perlin';
    document.getElementById('add-node').addEventListener('click', () => {
      const n = Object.keys(editor.export().drawflow.Home.data).length;
      add(palette.value, {}, 10 + (n % 5) * COLUMN, 10 + Math.floor(n / 5) * ROW);
    });
    document.getElementById('clear-nodes').addEventListener('click', () => { editor.clear(); view(1, 1); edited(); });
    window.surflet.editor = editor;
  }

  return { init, load, expression, print, selected, add, refreshPreviews };
})();
