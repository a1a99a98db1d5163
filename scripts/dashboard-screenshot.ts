import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchBrowser } from '../test/helpers/browser';
import { inviteBody } from '../test/helpers/invite';
import { freePort, stopProcess } from './services';
import { startBenchStack } from './bench/stack';

/**
 * `npm run --silent dashboard-screenshot`: docs/screenshots/dashboard-metrics.png, the Grafana dashboard
 * (deploy/grafana/hiring-integration.json) as it looks after a batch of calls and invitations. The stack is
 * real (database, Temporal, an API and a worker, each exporting metrics). Prometheus is Debian's
 * (`apt-get install prometheus`), scraping both every 2 s. The panels are drawn from the dashboard's own
 * queries with uPlot, the chart library of Grafana's time series, because Grafana has no build on this
 * machine (docs/metrics.md).
 */
const ROOT = join(__dirname, '..');
const OUT = join(ROOT, 'docs', 'screenshots', 'dashboard-metrics.png');
const WORK_MS = Number(process.env.SCREENSHOT_WORK_SECONDS ?? 150) * 1_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const prometheusBin = process.env.PROMETHEUS_BIN ?? spawnSync('sh', ['-c', 'command -v prometheus']).stdout.toString().trim();
  if (!prometheusBin) throw new Error('Prometheus is needed: apt-get install prometheus (or set PROMETHEUS_BIN)');
  const dir = mkdtempSync(join(tmpdir(), 'dashboard-'));
  const stack = await startBenchStack(dir);
  const promPort = await freePort();
  const target = (url: string | null) => new URL(url!).host;
  writeFileSync(
    join(dir, 'prometheus.yml'),
    [
      'global: { scrape_interval: 2s }',
      'scrape_configs:',
      `  - { job_name: hiring-api, static_configs: [{ targets: ['${target(stack.api.metricsUrl)}'] }] }`,
      `  - { job_name: hiring-worker, static_configs: [{ targets: ['${target(stack.worker.metricsUrl)}'] }] }`,
    ].join('\n'),
  );
  const log = openSync(join(dir, 'logs', 'prometheus.log'), 'a');
  const prometheus = spawn(
    prometheusBin,
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'tsdb')}`,
      `--web.listen-address=127.0.0.1:${promPort}`,
    ],
    { stdio: ['ignore', log, log] },
  );
  const promUrl = `http://127.0.0.1:${promPort}`;
  const started = Date.now() / 1000;
  try {
    await work(stack, WORK_MS);
    await sleep(6_000); // the last scrapes
    const png = await render(promUrl, started, Date.now() / 1000);
    writeFileSync(OUT, png);
    process.stdout.write(`written ${OUT}\n`);
  } finally {
    await stopProcess(prometheus, 5_000);
    await stack.stop();
  }
}

/** Calls (some retried, some failing), invitations, job descriptions and a webhook, in waves, for `ms`. */
async function work(stack: Awaited<ReturnType<typeof startBenchStack>>, ms: number): Promise<void> {
  const receiver = createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end('{}')));
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  await stack.post('/api/public/v1/webhooks', { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks` });
  const outcomes = ['completed', 'missed,completed', 'completed', 'declined', 'missed,missed', 'completed', 'sent_to_voicemail,completed'];
  const deadline = Date.now() + ms;
  for (let wave = 0; Date.now() < deadline; wave++) {
    const job = `dash-${wave}`;
    await stack.post('/api/public/v1/campaigns', { ats_job_id: job, name: `Wave ${wave}` });
    const size = 6 + (wave % 4) * 3;
    await stack.post('/api/public/v1/call/initiate', {
      ats_job_id: job,
      instructions: 'Ask {{candidate_first_name}} about availability.',
      call_settings: { retry_policy: { conditions: ['missed'], intervals: [{ type: 'delay', duration: 0.1, unit: 'minutes' }] } },
      candidates: Array.from({ length: size }, (_, i) => ({
        id: `c${wave}-${i}`,
        name: 'Dana Dash',
        email: `dana.${wave}.${i}@example.com`,
        phone: `+1415${String(5550000 + wave * 100 + i)}`,
        custom_fields: { simulated_outcomes: outcomes[(wave + i) % outcomes.length] },
      })),
    });
    await stack.post(
      '/api/public/v1/interview/invite',
      inviteBody(
        Array.from({ length: 3 }, (_, i) => ({ id: `i${wave}-${i}`, name: 'Ivy Invite', email: `ivy.${wave}.${i}@example.com` })),
        { ats_job_id: `dash-i-${wave}` },
      ),
    );
    // Every other wave: the workspace may parse 5 a minute (AI_RATE_LIMIT).
    if (wave % 2 === 0)
      await stack.post('/api/public/v1/ai/parse-jd', {
        job_description: 'Senior Python engineer, 5+ years, remote, Django and PostgreSQL.',
      });
    process.stderr.write(`  wave ${wave + 1}: ${size} calls, 3 invitations\n`);
    await sleep(10_000);
  }
  await new Promise((r) => receiver.close(r));
}

/** The dashboard's panels, each query answered by Prometheus over the range, drawn in headless Chromium. */
async function render(promUrl: string, from: number, to: number): Promise<Buffer> {
  const dashboard = JSON.parse(readFileSync(join(ROOT, 'deploy', 'grafana', 'hiring-integration.json'), 'utf8'));
  const step = Math.max(2, Math.round((to - from) / 120));
  const range = `${Math.round(to - from)}s`;
  const promql = (expr: string) => expr.replaceAll('$__rate_interval', `${Math.max(8, step * 4)}s`).replaceAll('$__range', range);
  const panels = [];
  for (const p of dashboard.panels) {
    const series = [];
    for (const t of p.targets) {
      const q = new URLSearchParams({ query: promql(t.expr), start: String(from), end: String(to), step: String(step) });
      const answer = (await (await fetch(`${promUrl}/api/v1/query_range?${q}`)).json()) as any;
      if (answer.status !== 'success') throw new Error(`${p.title}: ${answer.error}`);
      for (const r of answer.data.result) {
        const legend = (t.legendFormat ?? '').replace(/\{\{(\w+)\}\}/g, (_: string, k: string) => r.metric[k] ?? '');
        series.push({ name: legend || t.expr, values: r.values.map(([x, y]: [number, string]) => [x, Number(y)]) });
      }
    }
    panels.push({
      title: p.title,
      type: p.type,
      unit: p.fieldConfig?.defaults?.unit,
      decimals: p.fieldConfig?.defaults?.decimals,
      grid: p.gridPos,
      series,
    });
  }
  const uplot = readFileSync(join(ROOT, 'node_modules', 'uplot', 'dist', 'uPlot.iife.min.js'), 'utf8');
  const css = readFileSync(join(ROOT, 'node_modules', 'uplot', 'dist', 'uPlot.min.css'), 'utf8');
  const html = `<!doctype html><meta charset="utf-8"><style>${css}${PAGE_CSS}</style>
<header>Hiring integration <span>${new Date(from * 1000).toISOString().slice(11, 16)}–${new Date(to * 1000).toISOString().slice(11, 16)} UTC · Prometheus, ${dashboard.panels.length} panels of deploy/grafana/hiring-integration.json</span></header>
<main id="grid"></main><script>${uplot}</script><script>const PANELS=${JSON.stringify(panels)};${PAGE_SCRIPT}</script>`;
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 1600, height: 1000, deviceScaleFactor: 1 });
    await page.setContent(html, { waitUntil: 'load' });
    await page.waitForFunction('window.drawn === true');
    return Buffer.from(await page.screenshot({ fullPage: true }));
  } finally {
    await browser.close();
  }
}

const PAGE_CSS = `
body{margin:0;background:#111217;color:#ccccdc;font:13px Inter,Helvetica,Arial,sans-serif}
header{padding:10px 16px;font-size:18px;color:#fff}header span{font-size:12px;color:#8e8e9e;margin-left:12px}
#grid{display:grid;grid-template-columns:repeat(24,1fr);grid-auto-rows:44px;gap:8px;padding:0 12px 12px}
.panel{background:#181b1f;border:1px solid #2c3235;border-radius:3px;padding:6px 8px;overflow:hidden}
.panel h2{margin:0 0 4px;font-size:13px;font-weight:500;color:#ccccdc}
.stat{font-size:40px;color:#73bf69;font-weight:500;padding-top:4px}.u-legend{font-size:11px}
.u-legend .u-marker{width:10px;height:3px}`;

const PAGE_SCRIPT = `
const COLORS=['#73bf69','#f2cc0c','#8ab8ff','#ff780a','#f2495c','#5794f2','#b877d9','#705da0','#37872d','#fade2a'];
const fmt=(v,unit)=>v==null||isNaN(v)?'–':unit==='percentunit'?(v*100).toFixed(0)+'%':unit==='s'?(v<1?(v*1000).toFixed(0)+' ms':v.toFixed(2)+' s'):Math.abs(v)>=100?v.toFixed(0):+v.toFixed(2)+'';
for(const p of PANELS){
  const el=document.createElement('section');el.className='panel';
  el.style.gridColumn=(p.grid.x+1)+' / span '+p.grid.w;el.style.gridRow=(p.grid.y/4*2+1)+' / span '+(p.grid.h/4*2);
  el.innerHTML='<h2></h2>';el.querySelector('h2').textContent=p.title;document.getElementById('grid').appendChild(el);
  if(p.type==='stat'){const s=p.series[0];const v=s?s.values[s.values.length-1][1]:null;const d=document.createElement('div');d.className='stat';d.textContent=p.decimals===0&&v!=null?Math.round(v)+'':fmt(v,p.unit);el.appendChild(d);continue;}
  const xs=[...new Set(p.series.flatMap(s=>s.values.map(v=>v[0])))].sort((a,b)=>a-b);
  const data=[xs,...p.series.map(s=>{const m=new Map(s.values);return xs.map(x=>m.has(x)?m.get(x):null);})];
  const w=el.clientWidth-16,h=el.clientHeight-30-18*Math.ceil(p.series.length/4);
  new uPlot({width:w,height:h,legend:{show:true},cursor:{show:false},
    axes:[{stroke:'#8e8e9e',grid:{stroke:'#2c3235'}},{stroke:'#8e8e9e',size:64,grid:{stroke:'#2c3235'},values:(u,vals)=>vals.map(v=>fmt(v,p.unit))}],
    series:[{},...p.series.map((s,i)=>({label:s.name,stroke:COLORS[i%COLORS.length],width:1.5,spanGaps:true}))]},data,el);
}
window.drawn=true;`;

if (require.main === module) {
  main().then(
    () => process.exit(0),
    (err: Error) => {
      process.stderr.write(`${err.stack}\n`);
      process.exit(1);
    },
  );
}
