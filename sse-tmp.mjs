// Measures mock send → SSE arrival in a plain HTTP client (no browser), for one server.
const base = process.argv[2];
const name = 's' + Date.now().toString(36);
const j = (r) => r.json();
let cookie = '';
const req = async (path, init = {}) => {
  const res = await fetch(base + path, { ...init, redirect: 'manual', headers: { origin: base, cookie, 'content-type': 'application/x-www-form-urlencoded', ...(init.headers ?? {}) } });
  const set = res.headers.get('set-cookie'); if (set) cookie = set.split(';')[0];
  return res;
};
await req('/signup', { method: 'POST', body: `name=${name}&password=correct+horse+battery` });
const s = await (await req('/api/v1/sessions', { method: 'POST', body: JSON.stringify({ title: 'sse' }), headers: { 'content-type': 'application/json' } })).json();
const ev = await fetch(`${base}/api/v1/sessions/${s.id}/events`, { headers: { cookie, accept: 'text/event-stream' } });
const reader = ev.body.getReader(); const dec = new TextDecoder(); const lat = [];
let done = false;
(async () => { let buf = ''; while (!done) { const { value, done: d } = await reader.read(); if (d) break; const now = Date.now(); buf += dec.decode(value); for (const m of buf.matchAll(/⟦(\d+):(\d+)⟧/g)) lat[Number(m[1])] ??= now - Number(m[2]); if (buf.includes('turn.committed')) done = true; buf = buf.slice(-200); } })();
await new Promise((r) => setTimeout(r, 300));
await req(`/api/v1/sessions/${s.id}/turns`, { method: 'POST', body: JSON.stringify({ text: 'go #perf', idempotencyKey: 'k-' + name }), headers: { 'content-type': 'application/json' } });
while (!done) await new Promise((r) => setTimeout(r, 200));
const v = lat.filter((x) => x !== undefined).sort((a, b) => a - b);
console.log(base, 'n', v.length, 'p50', v[Math.floor(v.length / 2)], 'p95', v[Math.floor(v.length * 0.95)], 'max', v.at(-1));
process.exit(0);
