/**
 * The run page's live progress (service/routes/runs.ts), served as a script of its own at
 * RUN_PROGRESS_PATH so that the pages' Content-Security-Policy allows no inline script. The page
 * names its run in the script element: `<script src="/assets/run-progress.js" data-run-id="...">`.
 * Kept as a string in a module so that the build (scripts/build.mjs) ships it with the service.
 */
export const RUN_PROGRESS_PATH = '/assets/run-progress.js';

export const RUN_PROGRESS_SCRIPT = `(() => {
  const id = document.currentScript && document.currentScript.dataset.runId;
  if (!id) return;
  const events = new EventSource('/runs/' + encodeURIComponent(id) + '/events');
  events.addEventListener('progress', (e) => {
    const p = JSON.parse(e.data);
    document.getElementById('state').textContent = p.state;
    document.getElementById('progress').textContent = p.text;
  });
  events.addEventListener('done', () => {
    events.close();
    location.reload();
  });
})();
`;
