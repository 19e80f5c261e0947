// ravel serve's page: plain JavaScript, no framework, nothing fetched from
// elsewhere. It talks to the JSON API of the same server (see the manual).
'use strict';

const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const k of kids) if (k != null) e.append(k);
  return e;
}

const SVGNS = 'http://www.w3.org/2000/svg';
function sv(tag, attrs, text) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text != null) e.textContent = text;
  return e;
}

// POST body to path; resolves to {status, exit, data (JSON or text), raw}.
async function post(path, body) {
  let r;
  try {
    r = await fetch(path, { method: 'POST', body, headers: { 'Content-Type': 'text/plain' } });
  } catch (err) {
    return { status: 0, exit: null, data: { error: 'cannot reach the server: ' + err.message, messages: [] }, raw: '' };
  }
  const raw = await r.text();
  let data = raw;
  if ((r.headers.get('Content-Type') || '').startsWith('application/json')) {
    try { data = JSON.parse(raw); } catch (e) { data = { error: 'the server sent malformed JSON', messages: [] }; }
  }
  const exit = r.headers.get('X-Ravel-Exit');
  return { status: r.status, exit: exit == null ? null : Number(exit), data, raw };
}

function setStatus(box, kind, title, details) {
  box.className = 'status ' + kind;
  box.replaceChildren(el('strong', { text: title }));
  if (details && details.length) box.append(el('pre', { class: 'messages', text: details.join('\n') }));
}

function apiError(box, res) {
  const d = typeof res.data === 'object' ? res.data : { error: String(res.data), messages: [] };
  const msgs = (d.messages || []).filter((m) => m !== d.error);
  setStatus(box, 'error', d.error || ('HTTP ' + res.status), msgs);
}

function query(params) {
  return Object.entries(params).filter(([, v]) => v !== null && v !== undefined && v !== '')
    .map(([k, v]) => encodeURIComponent(k) + '=' + encodeURIComponent(v)).join('&');
}

// --- tabs ---
for (const t of document.querySelectorAll('.tab')) {
  t.addEventListener('click', () => {
    for (const u of document.querySelectorAll('.tab')) u.classList.toggle('active', u === t);
    for (const v of document.querySelectorAll('.view')) v.classList.toggle('active', v.id === t.dataset.view);
  });
}

// --- samples and models ---
const samples = { litmus: [], c: [] };
let litmusName = 'test.litmus';
let cName = 'prog.c';

// A sample's file name as the API takes it (a plain token), else a default.
function apiName(name, fallback) {
  return /^[A-Za-z0-9_+][A-Za-z0-9_.+-]{0,63}$/.test(name) ? name : fallback;
}

// The samples, one <optgroup> per group (the examples, then each folder of
// the server's --samples directories). A sample from --samples carries an id
// and its text is fetched when picked.
function fillSamples(select, list, editor, pick, onPick) {
  const groups = new Map();
  list.forEach((s, i) => {
    const g = s.group || 'examples';
    if (!groups.has(g)) groups.set(g, el('optgroup', { label: g }));
    groups.get(g).append(el('option', { value: String(i), text: s.name }));
  });
  select.replaceChildren(el('option', { value: '', text: '(your own)' }), ...groups.values());
  const load = async (s) => {
    if (s.text === undefined) {
      const r = await fetch('/api/sample?id=' + s.id);
      s.text = r.ok ? await r.text() : '';
      if (!r.ok) { editor.value = ''; return; }
    }
    editor.value = s.text;
    onPick(s.name);
  };
  select.addEventListener('change', () => {
    const s = list[Number(select.value)];
    if (select.value !== '' && s) load(s);
  });
  const i = list.findIndex((s) => s.name === pick && (s.group || 'examples').startsWith('examples'));
  if (i >= 0) { select.value = String(i); load(list[i]); }
}

async function loadMeta() {
  const [s, m] = await Promise.all([fetch('/api/samples').then((r) => r.json()), fetch('/api/models').then((r) => r.json())]);
  for (const x of s) (samples[x.kind] || []).push(x);
  fillSamples($('litmus-sample'), samples.litmus, $('litmus-editor'), 'SB.litmus', (n) => { litmusName = apiName(n, 'test.litmus'); });
  fillSamples($('c-sample'), samples.c, $('c-editor'), 'counter_race.c', (n) => { cName = apiName(n, 'prog.c'); });
  const builtin = m.filter((x) => x.solver !== 'cat'), cats = m.filter((x) => x.solver === 'cat');
  $('litmus-model').replaceChildren(
    el('optgroup', { label: 'built in' }, ...builtin.map((x) => el('option', { value: x.name, title: x.summary, text: x.name + ' — ' + x.summary }))),
    cats.length ? el('optgroup', { label: 'cat files (--models)' }, ...cats.map((x) => el('option', { value: x.name, title: x.summary, text: x.name }))) : null);
  $('litmus-model').value = 'sc';
}
$('litmus-editor').addEventListener('input', () => { $('litmus-sample').value = ''; litmusName = 'test.litmus'; });
$('c-editor').addEventListener('input', () => { $('c-sample').value = ''; cName = 'prog.c'; });

// --- the litmus view ---
function fitSvg(holder) {
  const svg = holder.querySelector('svg');
  if (!svg) return;
  const w = parseFloat(svg.getAttribute('width')) || 300;
  svg.removeAttribute('height');
  svg.setAttribute('width', '100%');
  svg.style.maxWidth = Math.round(w * 1.1) + 'px';
}

async function runLitmus() {
  const text = $('litmus-editor').value;
  const model = $('litmus-model').value;
  const vo = $('litmus-verdict-only').checked;
  const box = $('litmus-status');
  const base = { model, name: litmusName, verdict_only: vo ? 1 : null };
  setStatus(box, 'busy', 'Running ravel litmus -m ' + model + (vo ? ' --verdict-only' : '') + ' …');
  $('litmus-run').disabled = true;
  $('litmus-herd').textContent = '';
  $('litmus-json').textContent = '';
  $('litmus-graphs').replaceChildren();
  $('litmus-why').replaceChildren();
  $('litmus-why-box').hidden = true;
  lastLitmus = { text, model, name: litmusName };
  const [j, h, g] = await Promise.all([
    post('/api/litmus?' + query(base), text),
    post('/api/litmus?' + query({ ...base, format: 'herd' }), text),
    vo ? Promise.resolve(null) : post('/api/litmus/graphs?' + query({ model, name: litmusName }), text),
  ]);
  $('litmus-run').disabled = false;
  if (j.status !== 200) { apiError(box, j); return; }
  $('litmus-json').textContent = JSON.stringify(j.data, null, 2);
  const t = j.data[0];
  if (!t || t.verdict === 'error') { setStatus(box, 'error', t ? t.error : 'no test in the answer'); return; }
  if (h.status === 200) $('litmus-herd').textContent = h.data;
  if (t.verdict === 'unknown') setStatus(box, 'warn', 'unknown: ' + t.reason);
  else {
    const what = t.condition + ' is ' + (t.verdict === 'allowed' ? 'reachable' : 'not reachable') + ' under ' + t.model;
    setStatus(box, t.verdict === 'allowed' ? 'allowed' : 'forbidden',
      t.test + ': ' + t.observation + ' — ' + what + (t.undefined ? ' (undefined behaviour: a data race)' : ''),
      [t.events + ' events, ' + t.sat_clauses + ' clauses, ' + t.sat_calls + ' SAT calls, ' + t.time.toFixed(3) + ' s' +
       (t.verdict_only ? ' (verdict only: no states enumerated)' : ', ' + t.states.length + ' final states')]);
    // The condition's outcome (for forall: its failure) never happens: offer to say why.
    const forbidden = t.quantifier === 'forall' ? t.observation === 'Always' : t.observation === 'Never';
    if (forbidden) {
      $('litmus-why-box').hidden = false;
      $('litmus-why').append(el('button', { id: 'litmus-why-run', class: 'run', text: 'Why is this outcome forbidden?', onclick: explainLitmus }));
    }
  }
  if (vo) { $('litmus-graphs').append(el('p', { class: 'hint', text: 'Verdict only: no executions are enumerated, so none is drawn.' })); return; }
  if (!g || g.status !== 200) { if (g) $('litmus-graphs').append(el('p', { class: 'error-inline', text: 'graphs: ' + (g.data.error || g.status) })); return; }
  for (const gr of g.data.graphs) {
    const holder = el('div', { class: 'svg-holder' });
    if (gr.svg) { holder.innerHTML = gr.svg; fitSvg(holder); }
    else holder.append(el('p', { class: 'hint', text: gr.reason ? 'not drawn: ' + gr.reason : 'not drawn' }));
    $('litmus-graphs').append(el('figure', { class: 'graph' + (gr.satisfies ? ' satisfies' : '') },
      el('figcaption', {}, el('span', { text: gr.state }), gr.satisfies ? el('span', { class: 'sat', title: 'this final state satisfies ' + t.condition, text: 'condition holds' }) : null), holder));
  }
  if (g.data.truncated) $('litmus-graphs').append(el('p', { class: 'hint', text: 'Only the first ' + g.data.graphs.length + ' of ' + g.data.states + ' final states are drawn.' }));
}
$('litmus-run').addEventListener('click', runLitmus);

// Why an outcome is forbidden: the model's checks that forbid it, and a
// candidate execution with the outcome that violates exactly those
// (ravel litmus --explain), drawn by the server.
let lastLitmus = null;
async function explainLitmus() {
  if (!lastLitmus) return;
  const box = $('litmus-why');
  box.replaceChildren(el('p', { class: 'hint', text: 'Asking which checks of ' + lastLitmus.model + ' forbid it …' }));
  const r = await post('/api/litmus/graphs?' + query({ model: lastLitmus.model, name: lastLitmus.name, explain: 1 }), lastLitmus.text);
  if (r.status !== 200 || !r.data.explain) {
    box.replaceChildren(el('p', { class: 'error-inline', text: 'explain: ' + (r.data.reason || r.data.error || r.status) }));
    return;
  }
  const x = r.data.explain;
  const kids = [];
  if (x.result === 'checks') {
    const sets = x.forbidden_by.map((s) => s.join(' and '));
    kids.push(el('p', { class: 'why-verdict' }, el('strong', { text: 'Forbidden by ' }),
      el('span', { class: 'check-names', text: sets.join(' — or by — ') })));
    kids.push(el('p', { class: 'hint', text: 'Every check of ' + r.data.model + ': ' + x.checks.join(', ') +
      '. The execution below has the outcome (' + x.witness_state + '); it violates ' + x.forbidden_by[0].join(' and ') +
      ', and every other check holds in it.' }));
    const holder = el('div', { class: 'svg-holder' });
    if (r.data.svg) { holder.innerHTML = r.data.svg; fitSvg(holder); }
    kids.push(el('figure', { class: 'graph why' }, el('figcaption', {}, el('span', { text: 'violates ' + x.forbidden_by[0].join(' and ') })), holder));
  } else if (x.result === 'no-candidate') {
    kids.push(el('p', { class: 'why-verdict', text: 'No candidate execution has this outcome, whatever the model: no choice of paths, reads-from and coherence gives these values.' }));
  } else if (x.result === 'allowed') {
    kids.push(el('p', { class: 'why-verdict', text: 'The model allows this outcome.' }));
  } else {
    kids.push(el('p', { class: 'error-inline', text: 'unknown: ' + (x.reason || '') }));
  }
  box.replaceChildren(...kids);
}

// --- the C view ---
function showOptions() {
  const cmd = $('c-cmd').value;
  for (const l of document.querySelectorAll('.options label')) l.hidden = !l.classList.contains('opt-' + cmd);
}
$('c-cmd').addEventListener('change', showOptions);

let source = [];      // the program's lines, as sent
let steps = [];       // the collapsed trace
let cur = -1;

function renderSource(text) {
  source = text.split('\n');
  $('c-source').replaceChildren(...source.map((s, i) =>
    el('div', { class: 'line', 'data-line': String(i + 1), id: 'src-' + (i + 1) },
      el('span', { class: 'ln', text: String(i + 1) }), el('span', { class: 'code', text: s || ' ' }))));
}

function lineEl(n) { return $('src-' + n); }

function mark(n, cls, badge) {
  const l = lineEl(n);
  if (!l) return;
  l.classList.add(cls);
  if (badge) l.append(el('span', { class: 'badge ' + cls, text: badge }));
}

function focusLine(n) {
  for (const l of document.querySelectorAll('#c-source .focus')) l.classList.remove('focus');
  const l = lineEl(n);
  if (l) { l.classList.add('focus'); l.scrollIntoView({ block: 'nearest' }); }
}

// Consecutive steps of one thread on one line become one row.
function collapse(trace) {
  const out = [];
  for (const s of trace) {
    const last = out[out.length - 1];
    if (last && last.thread === s.thread && last.line === s.line) {
      if (!last.stmts.includes(s.statement)) last.stmts.push(s.statement);
      if (s.lhs !== undefined) last.values.push(s.lhs + ' = ' + s.value);
      continue;
    }
    out.push({ thread: s.thread, fn: s.function, line: s.line, col: s.col, stmts: [s.statement],
               values: s.lhs !== undefined ? [s.lhs + ' = ' + s.value] : [] });
  }
  return out;
}

function renderTrace(trace) {
  steps = collapse(trace || []);
  const threads = [...new Set(steps.map((s) => s.thread))].sort((a, b) => a - b);
  const fnOf = {};
  for (const s of steps) if (!(s.thread in fnOf)) fnOf[s.thread] = s.fn;
  const table = $('c-trace');
  table.replaceChildren(el('thead', {}, el('tr', {}, el('th', { text: '#' }),
    ...threads.map((t) => el('th', { class: 't' + (t % 6), text: 'T' + t + ' ' + fnOf[t] })))));
  const body = el('tbody');
  steps.forEach((s, i) => {
    const row = el('tr', { class: 'step', 'data-step': String(i), onclick: () => setStep(i) }, el('td', { class: 'n', text: String(i + 1) }));
    for (const t of threads) {
      row.append(t === s.thread
        ? el('td', { class: 'cell t' + (t % 6) }, el('span', { class: 'at', text: 'line ' + s.line }), ' ',
             el('code', { text: s.stmts.join('; ') }), s.values.length ? el('span', { class: 'vals', text: ' ⇒ ' + s.values.join(', ') }) : null)
        : el('td', { class: 'empty' }));
    }
    body.append(row);
  });
  table.append(body);
  $('c-trace-box').hidden = steps.length === 0;
  $('c-stepper').hidden = steps.length === 0;
  $('c-slider').max = String(Math.max(0, steps.length - 1));
  cur = -1;
  if (steps.length) setStep(0);
}

function setStep(i) {
  if (!steps.length) return;
  i = Math.max(0, Math.min(steps.length - 1, i));
  cur = i;
  const s = steps[i];
  for (const r of document.querySelectorAll('#c-trace tr.current')) r.classList.remove('current');
  const row = document.querySelector('#c-trace tr[data-step="' + i + '"]');
  if (row) { row.classList.add('current'); row.scrollIntoView({ block: 'nearest' }); }
  for (const l of document.querySelectorAll('#c-source .current')) l.classList.remove('current', 't0', 't1', 't2', 't3', 't4', 't5');
  const l = lineEl(s.line);
  if (l) { l.classList.add('current', 't' + (s.thread % 6)); l.scrollIntoView({ block: 'nearest' }); }
  $('c-slider').value = String(i);
  $('c-step-label').textContent = 'step ' + (i + 1) + ' of ' + steps.length + ' · T' + s.thread + ' ' + s.fn + ' · line ' + s.line;
}
$('c-prev').addEventListener('click', () => setStep(cur - 1));
$('c-next').addEventListener('click', () => setStep(cur + 1));
$('c-first').addEventListener('click', () => setStep(0));
$('c-last').addEventListener('click', () => setStep(steps.length - 1));
$('c-slider').addEventListener('input', () => setStep(Number($('c-slider').value)));
document.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
    if ($('view-litmus').classList.contains('active')) runLitmus(); else runC();
    e.preventDefault();
    return;
  }
  if (document.activeElement && ['TEXTAREA', 'INPUT', 'SELECT'].includes(document.activeElement.tagName)) return;
  if (!$('view-c').classList.contains('active') || !steps.length) return;
  if (e.key === 'ArrowRight') { setStep(cur + 1); e.preventDefault(); }
  if (e.key === 'ArrowLeft') { setStep(cur - 1); e.preventDefault(); }
});

function site(f, label) {
  return el('a', { href: '#src-' + f.line, class: 'site', 'data-line': String(f.line),
    onclick: (e) => { e.preventDefault(); focusLine(f.line); } }, label || (f.function + ':' + f.line));
}

function showRace(d, k) {
  renderSource(source.join('\n'));
  const r = d.races[k];
  for (const b of document.querySelectorAll('#c-findings .race')) b.classList.toggle('active', Number(b.dataset.race) === k);
  mark(r.first.line, 'race-a', 'A: ' + r.first.access + ' by T' + r.first.thread);
  mark(r.second.line, 'race-b', 'B: ' + r.second.access + ' by T' + r.second.thread);
  renderTrace(r.trace);
}

// The cycle: locks on a circle, one curved arrow per edge (held -> wanted).
function drawCycle(f) {
  const locks = [];
  for (const e of f.edges) for (const n of [e.held, e.wanted]) if (!locks.includes(n)) locks.push(n);
  const W = 360, H = 240, R = Math.min(W, H) / 2 - 50, cx = W / 2, cy = H / 2;
  const pos = {};
  locks.forEach((n, i) => {
    const a = -Math.PI / 2 + (2 * Math.PI * i) / locks.length;
    pos[n] = [cx + R * Math.cos(a) * 1.3, cy + R * Math.sin(a)];
  });
  const svg = sv('svg', { viewBox: '0 0 ' + W + ' ' + H, class: 'cycle', role: 'img', 'aria-label': 'lock cycle' });
  const defs = sv('defs');
  const m = sv('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: '10', refY: '5', markerWidth: '7', markerHeight: '7', orient: 'auto-start-reverse' });
  m.append(sv('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#c0392b' }));
  defs.append(m);
  svg.append(defs);
  f.edges.forEach((e, i) => {
    const [x1, y1] = pos[e.held], [x2, y2] = pos[e.wanted];
    const dx = x2 - x1, dy = y2 - y1, len = Math.hypot(dx, dy) || 1;
    const nx = -dy / len, ny = dx / len, bend = 40;
    const mx = (x1 + x2) / 2 + nx * bend, my = (y1 + y2) / 2 + ny * bend;
    const shrink = (x, y, tx, ty) => { const l = Math.hypot(tx - x, ty - y) || 1; return [x + (tx - x) * 34 / l, y + (ty - y) * 34 / l]; };
    const [sx, sy] = shrink(x1, y1, mx, my), [ex, ey] = shrink(x2, y2, mx, my);
    const g = sv('g', { class: 'edge', 'data-edge': String(i) });
    g.append(sv('path', { d: 'M' + sx + ',' + sy + ' Q' + mx + ',' + my + ' ' + ex + ',' + ey, fill: 'none', stroke: '#c0392b', 'stroke-width': '2', 'marker-end': 'url(#arrow)' }));
    g.append(sv('text', { x: String((sx + 2 * mx + ex) / 4), y: String((sy + 2 * my + ey) / 4 - 4), 'text-anchor': 'middle', class: 'elabel' }, e.thread));
    g.addEventListener('click', () => { const w = e.wanted_at[0] || e.held_at[0]; if (w) focusLine(w.line); });
    svg.append(g);
  });
  for (const n of locks) {
    const [x, y] = pos[n];
    const g = sv('g', { class: 'lock' });
    g.append(sv('ellipse', { cx: String(x), cy: String(y), rx: '34', ry: '20', fill: '#fff4e0', stroke: '#b9770e', 'stroke-width': '1.5' }));
    g.append(sv('text', { x: String(x), y: String(y + 5), 'text-anchor': 'middle', class: 'lname' }, n));
    svg.append(g);
  }
  return svg;
}

function chain(frames) {
  const span = el('span', { class: 'chain' });
  frames.forEach((f, i) => { if (i) span.append(' → '); span.append(site(f)); });
  return span;
}

function showDeadlock(d) {
  const fs = d.findings || [];
  const box = $('c-findings');
  fs.forEach((f, k) => {
    box.append(el('button', { class: 'finding', 'data-finding': String(k), onclick: () => showFinding(f, k) },
      f.kind + ': ' + (f.edges ? f.edges.map((e) => e.held + '→' + e.wanted).join(', ') : (f.lock || ''))));
  });
  if (fs.length) showFinding(fs[0], 0);
}

function showFinding(f, k) {
  renderSource(source.join('\n'));
  for (const b of document.querySelectorAll('#c-findings .finding')) b.classList.toggle('active', Number(b.dataset.finding) === k);
  const edges = f.edges || [];
  $('c-cycle-box').hidden = false;
  $('c-cycle').replaceChildren(edges.length ? drawCycle(f) : el('pre', { text: JSON.stringify(f, null, 2) }));
  const rows = [el('tr', {}, el('th', { text: 'thread' }), el('th', { text: 'holds' }), el('th', { text: 'at' }), el('th', { text: 'wants' }), el('th', { text: 'at' }))];
  for (const e of edges) {
    rows.push(el('tr', {}, el('td', { text: e.thread }), el('td', {}, el('code', { text: e.held })), el('td', {}, chain(e.held_at)),
      el('td', {}, el('code', { text: e.wanted })), el('td', {}, chain(e.wanted_at))));
    if (e.held_at[0]) mark(e.held_at[0].line, 'lock-held', e.thread + ' holds ' + e.held);
    if (e.wanted_at[0]) mark(e.wanted_at[0].line, 'lock-wanted', e.thread + ' wants ' + e.wanted);
  }
  $('c-cycle-edges').replaceChildren(...rows);
}

async function runC() {
  const cmd = $('c-cmd').value;
  const text = $('c-editor').value;
  const box = $('c-status');
  const p = { name: cName };
  if (cmd !== 'deadlock') Object.assign(p, { unwind: $('c-unwind').value, pending: $('c-pending').value, explore: $('c-explore').value, timeout: $('c-timeout').value });
  if (cmd !== 'deadlock') p.engine = $('c-engine').value;
  if (cmd === 'race') p.max_races = $('c-max-races').value;
  if (cmd === 'deadlock' && $('c-lock-order').checked) p.lock_order = 1;
  setStatus(box, 'busy', 'Running ravel ' + cmd + ' …');
  $('c-run').disabled = true;
  $('c-findings').replaceChildren();
  $('c-trace-box').hidden = true;
  $('c-cycle-box').hidden = true;
  $('c-stepper').hidden = true;
  $('c-json').textContent = '';
  steps = [];
  renderSource(text);
  const res = await post('/api/' + cmd + '?' + query(p), text);
  $('c-run').disabled = false;
  if (res.status !== 200) { apiError(box, res); return; }
  const d = res.data;
  $('c-json').textContent = JSON.stringify(d, null, 2);
  // po's answers name threads, KISS's pending slots: the bounds the engine really had.
  const bounds = d.unwind === undefined ? '' : d.engine === 'po'
    ? ' (unwind ' + d.unwind + ', ' + d.max_threads + ' threads)' : ' (unwind ' + d.unwind + ', pending ' + d.pending + ')';
  // What a non-bug answer claims: a proof only when the engine says safe.
  const claim = d.verdict === 'safe'
    ? ['a proof: every interleaving under SC, and no loop, recursion or thread creation exceeds the bounds (engine ' + d.engine + ')']
    : d.engine === 'po' ? ['not a proof: every interleaving under SC, but a bound was reached' + (d.bound_reached ? '' : ' or something was inexact')]
      : ['not a proof: KISS explores a subset of the schedules, within the bounds'];
  const answer = (v, dflt) => v === 'safe' ? 'true: ' + dflt : v;
  if (cmd === 'check') {
    if (d.verdict === 'bug') {
      setStatus(box, 'found', 'Bug: ' + d.message + ' at line ' + d.line + bounds, ['found by ' + d.engine + '; step through the interleaving below (← →)']);
      mark(d.line, 'bug-line', d.message);
      renderTrace(d.trace);
    } else if (d.verdict === 'unknown') setStatus(box, 'warn', 'unknown: ' + (d.reason || d.message || 'no answer within the budget') + bounds);
    else setStatus(box, 'ok', answer(d.verdict, 'no execution fails an assertion') + bounds, claim);
  } else if (cmd === 'race') {
    if (d.verdict === 'race') {
      setStatus(box, 'found', d.races.length + ' data race' + (d.races.length > 1 ? 's' : '') + bounds, ['A and B mark the two accesses in the source']);
      d.races.forEach((r, k) => $('c-findings').append(el('button', { class: 'race', 'data-race': String(k), onclick: () => showRace(d, k) },
        r.object + ': ' + r.first.access + ' line ' + r.first.line + ' (T' + r.first.thread + ') / ' + r.second.access + ' line ' + r.second.line + ' (T' + r.second.thread + ')')));
      showRace(d, 0);
    } else if (d.verdict === 'unknown') setStatus(box, 'warn', 'unknown: ' + (d.reason || 'no answer within the budget') + bounds);
    else setStatus(box, 'ok', answer(d.verdict || 'no race', 'no data race') + bounds, d.verdict === 'safe' ? claim : ['not a proof: within the bounds only']);
  } else {
    const n = (d.findings || []).length;
    if (n) { setStatus(box, 'found', n + ' finding' + (n > 1 ? 's' : '') + ' (' + d.threads + ' threads, ' + d.functions + ' functions)', ['click a lock site to see its line']); showDeadlock(d); }
    else setStatus(box, 'ok', 'no deadlock found (' + d.threads + ' threads, ' + d.functions + ' functions)');
  }
}
$('c-run').addEventListener('click', runC);

showOptions();
loadMeta().catch((e) => setStatus($('litmus-status'), 'error', 'cannot load the samples and models: ' + e.message));
