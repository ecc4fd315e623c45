/**
 * The run page's live progress (service/routes/runs.ts), served as a script of its own at
 * RUN_PROGRESS_PATH so that the pages' Content-Security-Policy allows no inline script. The page
 * names its run in the script element: `<script src="/assets/run-progress.js" data-run-id="...">`.
 * Kept as a string in a module so that the build (scripts/build.mjs) ships it with the service.
 *
 * It follows the run's event stream (service/runEvents.ts): each `progress` event sets the state,
 * the progress line, the progress bar and the operations table (a row per operation, added when
 * first named, its state and counts set as text, never as markup). At `done` it reads the run's
 * page anew and swaps in what the run's end changed (verdict, coverage, problem, operations, the
 * report's link, the certificate, the findings), without reloading the page; should that read
 * fail, it reloads. Without the script the page shows the same at each reload.
 */
export const RUN_PROGRESS_PATH = '/assets/run-progress.js';

export const RUN_PROGRESS_SCRIPT = `(() => {
  const script = document.currentScript;
  const id = script && script.dataset.runId;
  if (!id) return;
  const COLUMNS = ['pass', 'fail', 'error', 'warn', 'skip', 'omit'];
  const byId = (name) => document.getElementById(name);
  const setText = (el, text) => {
    if (el && el.textContent !== text) el.textContent = text;
  };
  const newRow = (op) => {
    const tr = document.createElement('tr');
    tr.dataset.operation = op.id;
    const th = document.createElement('th');
    th.scope = 'row';
    const code = document.createElement('code');
    code.textContent = op.id;
    th.append(code);
    tr.append(th);
    for (const name of ['op-state', 'op-verdict', ...COLUMNS.map((c) => 'count-' + c)]) {
      const td = document.createElement('td');
      td.className = name;
      tr.append(td);
    }
    return tr;
  };
  const showProgress = (p) => {
    if (!p) return;
    const ops = Array.isArray(p.operations) ? p.operations : undefined;
    const total = ops ? ops.length : p.total;
    const done = ops ? ops.filter((o) => o.state === 'done').length : p.done;
    const counted = done + ' of ' + total;
    const bar = byId('progress-bar');
    if (bar && total > 0) {
      bar.max = total;
      bar.value = done;
      setText(bar, counted);
    }
    setText(byId('progress-count'), counted);
    const table = byId('operations');
    if (!ops || !table || !table.tBodies[0]) return;
    const rows = new Map();
    for (const tr of table.tBodies[0].rows) rows.set(tr.dataset.operation, tr);
    for (const op of ops) {
      let tr = rows.get(op.id);
      if (!tr) {
        tr = newRow(op);
        table.tBodies[0].append(tr);
        rows.set(op.id, tr);
      }
      if (tr.dataset.state !== op.state) tr.dataset.state = op.state;
      setText(tr.querySelector('.op-state'), op.state);
      const verdict = tr.querySelector('.op-verdict');
      if (verdict) {
        setText(verdict, op.verdict || '');
        verdict.className = 'op-verdict' + (op.verdict ? ' verdict-' + op.verdict : '');
      }
      for (const c of COLUMNS) setText(tr.querySelector('.count-' + c), String(op[c] || 0));
    }
    if (ops.length > 0) table.hidden = false;
  };
  const showOutcome = async () => {
    const answer = await fetch(location.pathname, { credentials: 'same-origin', headers: { accept: 'text/html' } });
    if (!answer.ok) throw new Error('Expected the run page, received HTTP ' + answer.status);
    const page = new DOMParser().parseFromString(await answer.text(), 'text/html');
    for (const name of ['state', 'verdict', 'progress']) {
      const from = page.getElementById(name);
      if (from) setText(byId(name), from.textContent);
    }
    for (const name of ['coverage', 'run-problem', 'run-progress-detail', 'run-outcome']) {
      const from = page.getElementById(name);
      const to = byId(name);
      if (from && to) to.replaceWith(document.importNode(from, true));
    }
    for (const n of document.querySelectorAll('noscript')) n.remove();
    document.body.dataset.runEnded = 'yes';
  };
  const events = new EventSource('/runs/' + encodeURIComponent(id) + '/events');
  events.addEventListener('progress', (e) => {
    const p = JSON.parse(e.data);
    setText(byId('state'), p.state);
    setText(byId('progress'), p.text);
    showProgress(p.progress);
  });
  events.addEventListener('done', () => {
    events.close();
    showOutcome().catch(() => location.reload());
  });
})();
`;
