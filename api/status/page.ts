// The status page (GET /status on the JSON-RPC port): one HTML document without external resources that polls
// /status.json every second and redraws in place (no reload). Elements carry data-field names for the browser test.

export const STATUS_POLL_MS = 1_000;

export const STATUS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>slotstream status</title>
<style>
  body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5rem; color: #1b1f24; background: #f6f8fa; }
  h1 { font-size: 1.3rem; margin: 0 0 .2rem; } h2 { font-size: 1rem; margin: 0 0 .5rem; }
  .sub { color: #57606a; margin-bottom: 1rem; }
  .grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: 1rem; }
  section { background: #fff; border: 1px solid #d0d7de; border-radius: 6px; padding: .8rem 1rem; }
  table { border-collapse: collapse; width: 100%; } td, th { text-align: left; padding: .2rem .4rem; border-bottom: 1px solid #eaeef2; }
  td.n { text-align: right; font-variant-numeric: tabular-nums; }
  .ok { color: #1a7f37; } .bad { color: #cf222e; font-weight: 600; } .muted { color: #57606a; }
  #error { color: #cf222e; }
</style>
</head>
<body>
<h1>slotstream</h1>
<div class="sub">updated <span data-field="updated">-</span> <span id="error"></span></div>
<div class="grid">
  <section><h2>Chain tip</h2><table>
    <tr><td>Kafka (newest slot read by the api)</td><td class="n" data-field="tip">-</td></tr>
    <tr><td>views, processed</td><td class="n" data-field="views.processed">-</td></tr>
    <tr><td>views, confirmed</td><td class="n" data-field="views.confirmed">-</td></tr>
    <tr><td>views, finalized</td><td class="n" data-field="views.finalized">-</td></tr>
  </table></section>
  <section><h2>Lag of every role</h2><table><thead><tr><th>role</th><th>slots</th><th>other</th></tr></thead>
    <tbody data-field="lag"></tbody></table></section>
  <section><h2>Throughput</h2><table>
    <tr><td>slots / s</td><td class="n" data-field="throughput.slotsPerSecond">-</td></tr>
    <tr><td>records published / s</td><td class="n" data-field="throughput.ingestRecordsPerSecond">-</td></tr>
    <tr><td>events stored / s</td><td class="n" data-field="throughput.projectorEventsPerSecond">-</td></tr>
    <tr><td>JSON-RPC requests / s</td><td class="n" data-field="throughput.rpcRequestsPerSecond">-</td></tr>
  </table></section>
  <section><h2>Open streams</h2><table><tbody data-field="streams"></tbody></table></section>
  <section><h2>Upstreams</h2><table><thead><tr><th>source</th><th>tip</th><th>lag</th><th>state</th><th>reconnects</th></tr></thead>
    <tbody data-field="upstreams"></tbody></table></section>
</div>
<script>
  window.statusPageLoadedAt = Date.now();
  window.statusPolls = 0;
  const token = new URLSearchParams(location.search).get('token');
  const url = '/status.json' + (token ? '?token=' + encodeURIComponent(token) : '');
  const field = (name) => document.querySelector('[data-field="' + name + '"]');
  const text = (v) => (v === null || v === undefined ? '-' : String(v));
  const cell = (v, cls) => { const td = document.createElement('td'); td.textContent = text(v); if (cls) td.className = cls; return td; };
  const rows = (tbody, list) => { tbody.replaceChildren(...list.map((cells) => { const tr = document.createElement('tr'); tr.append(...cells); return tr; })); };
  function render(s) {
    field('updated').textContent = s.at;
    field('tip').textContent = text(s.chain.tip);
    for (const c of ['processed', 'confirmed', 'finalized']) field('views.' + c).textContent = text(s.chain.views[c]);
    for (const k of Object.keys(s.throughput)) field('throughput.' + k).textContent = text(s.throughput[k]);
    rows(field('lag'), s.lag.map((l) => {
      const role = cell(l.role + (l.here ? '' : ' (elsewhere)'));
      role.dataset.role = l.role;
      const other = [l.records !== undefined && l.records !== null ? l.records + ' records' : '', l.ms !== undefined && l.ms !== null ? l.ms + ' ms' : '', l.behind ? 'BEHIND' : '', l.note].filter(Boolean).join(' · ');
      return [role, cell(l.slots, 'n'), cell(other, l.behind ? 'bad' : 'muted')];
    }));
    const streams = Object.entries(s.streams.grpc).map(([m, n]) => [cell('gRPC ' + m), cell(n, 'n')]);
    streams.push([cell('PubSub connections'), cell(s.streams.pubsubConnections, 'n')]);
    for (const [k, n] of Object.entries(s.streams.pubsubSubscriptions)) streams.push([cell('PubSub ' + k + ' subscriptions'), cell(n, 'n')]);
    streams.push([cell('from_slot replays'), cell(s.streams.replays, 'n')]);
    for (const [k, n] of Object.entries(s.streams.perKey)) streams.push([cell('key ' + k), cell(n, 'n')]);
    rows(field('streams'), streams);
    rows(field('upstreams'), s.upstreams.length === 0 ? [[cell('no ingest in this process', 'muted')]] : s.upstreams.map((u) => [
      cell(u.source), cell(u.tip, 'n'), cell(u.lagSlots, 'n'), cell(u.behind === null ? '-' : u.behind ? 'behind' : 'ok', u.behind ? 'bad' : 'ok'), cell(u.reconnects, 'n'),
    ]));
  }
  async function poll() {
    try {
      const res = await fetch(url, { cache: 'no-store' });
      if (!res.ok) throw new Error('status.json: HTTP ' + res.status);
      render(await res.json());
      document.getElementById('error').textContent = '';
      window.statusPolls++;
    } catch (err) {
      document.getElementById('error').textContent = String(err.message || err);
    } finally {
      setTimeout(poll, ${STATUS_POLL_MS});
    }
  }
  poll();
</script>
</body>
</html>
`;
