// Attaches to a node process's inspector (after SIGUSR1) and records a CPU profile of its main thread.
import WebSocket from 'ws';
import { writeFileSync } from 'node:fs';
const [pid, seconds, out] = process.argv.slice(2);
process.kill(Number(pid), 'SIGUSR1');
await new Promise((r) => setTimeout(r, 1000));
const list = await (await fetch('http://127.0.0.1:9229/json/list')).json();
const ws = new WebSocket(list[0].webSocketDebuggerUrl);
await new Promise((r) => ws.once('open', r));
let id = 0; const pending = new Map();
ws.on('message', (m) => { const d = JSON.parse(m); if (d.id && pending.has(d.id)) { pending.get(d.id)(d.result); pending.delete(d.id); } });
const call = (method, params = {}) => new Promise((r) => { const i = ++id; pending.set(i, r); ws.send(JSON.stringify({ id: i, method, params })); });
await call('Profiler.enable'); await call('Profiler.setSamplingInterval', { interval: 2000 }); await call('Profiler.start');
await new Promise((r) => setTimeout(r, Number(seconds) * 1000));
const { profile } = await call('Profiler.stop');
writeFileSync(out, JSON.stringify(profile));
ws.close();
console.log('wrote', out);
