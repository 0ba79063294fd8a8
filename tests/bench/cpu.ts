import type { BenchContext, Scenario } from './harness'
import { readdirSync, readFileSync } from 'node:fs'

/**
 * CPU time (user + system, in ms) used so far by the workerd processes serving the Worker: the descendants of the
 * server process (`npm start`) that run workerd under wrangler (not PartyKit's). Read from /proc/<pid>/stat
 * (utime + stime, in clock ticks of 10 ms), so the figure is the work done by the server, whatever else the
 * machine runs. It includes the local D1 (SQLite runs inside the same workerd) and wrangler's proxy worker.
 */
export function workerCpuMs(serverPid: number): number {
  const procs = new Map<number, { ppid: number; comm: string; ticks: number; cmd: string }>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const close = stat.lastIndexOf(')')
      const comm = stat.slice(stat.indexOf('(') + 1, close)
      const rest = stat.slice(close + 2).split(' ')
      // Fields after the name: state(3) ppid(4) … utime(14) stime(15), counted from 1 with pid and comm first.
      const ppid = Number(rest[1])
      const ticks = Number(rest[11]) + Number(rest[12])
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ')
      procs.set(Number(entry), { ppid, comm, ticks, cmd })
    } catch {
      // the process ended while we read
    }
  }
  const ancestry = (pid: number) => {
    const chain: number[] = []
    for (let p = procs.get(pid)?.ppid; p && procs.has(p); p = procs.get(p)!.ppid) chain.push(p)
    return chain
  }
  let ticks = 0
  for (const [pid, p] of procs) {
    if (p.comm !== 'workerd') continue
    const chain = ancestry(pid)
    if (!chain.includes(serverPid)) continue
    if (!chain.some((a) => procs.get(a)!.cmd.includes('wrangler'))) continue
    ticks += p.ticks
  }
  return ticks * 10
}

/** The server's workerd processes, parted: wrangler dev's proxy (listening on the server's port) and the Worker's own. */
export function serverWorkerd(serverPid: number, port: number): { proxy: number[]; worker: number[] } {
  const procs = new Map<number, { ppid: number; comm: string; cmd: string }>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const close = stat.lastIndexOf(')')
      procs.set(Number(entry), {
        ppid: Number(stat.slice(close + 2).split(' ')[1]),
        comm: stat.slice(stat.indexOf('(') + 1, close),
        cmd: readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' '),
      })
    } catch {
      // the process ended while we read
    }
  }
  const out = { proxy: [] as number[], worker: [] as number[] }
  for (const [pid, p] of procs) {
    if (p.comm !== 'workerd') continue
    let under = false
    let wrangler = false
    for (let a = p.ppid; a && procs.has(a); a = procs.get(a)!.ppid) {
      if (a === serverPid) under = true
      if (procs.get(a)!.cmd.includes('wrangler')) wrangler = true
    }
    if (!under || !wrangler) continue
    if (p.cmd.includes(`--socket-addr=entry=localhost:${port} `)) out.proxy.push(pid)
    else out.worker.push(pid)
  }
  return out
}

/**
 * Time on CPU and time waiting for a CPU (runnable, but the machine busy with others) of processes, in ms, summed over
 * their live threads (/proc/<pid>/task/<tid>/schedstat: nanoseconds).
 */
export function schedMs(pids: number[]): { cpu: number; wait: number } {
  let cpu = 0
  let wait = 0
  for (const pid of pids) {
    try {
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        const [run, queued] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')
        cpu += Number(run) / 1e6
        wait += Number(queued) / 1e6
      }
    } catch {
      // a thread ended while we read
    }
  }
  return { cpu, wait }
}

/**
 * Wraps a scenario so its note says the Worker CPU per request (workerd's utime+stime over the run ÷ requests), parted
 * into the Worker's own process and wrangler dev's proxy in front of it, followed by the scenario's own note when it has
 * one. A scenario run one at a time also says what its slowest requests were made of: for the slowest 5% against the
 * others, the latency, the CPU both processes spent on the request, and how long their threads waited for a CPU while
 * it ran (run-queue time: the machine busy with other work). Those readings are taken between requests, outside the
 * timed call.
 */
export function withCpu(s: Scenario, ctx: BenchContext): Scenario {
  let before = 0
  let parts = { proxy: [] as number[], worker: [] as number[] }
  let partBefore = { proxy: 0, worker: 0 }
  const each: { ms: number; proxy: number; worker: number; wait: number }[] = []
  let last = { proxy: { cpu: 0, wait: 0 }, worker: { cpu: 0, wait: 0 } }
  const one = s.concurrency === 1
  const read = () => ({ proxy: schedMs(parts.proxy), worker: schedMs(parts.worker) })
  return {
    ...s,
    before: async () => {
      await s.before?.()
      parts = serverWorkerd(ctx.serverPid, Number(new URL(ctx.base('localhost')).port))
      const now = read()
      partBefore = { proxy: now.proxy.cpu, worker: now.worker.cpu }
      before = workerCpuMs(ctx.serverPid)
    },
    ...(one
      ? {
          beforeEach: async () => {
            last = read()
          },
          afterEach: async (_i: number, ms: number) => {
            const now = read()
            each.push({
              ms,
              proxy: now.proxy.cpu - last.proxy.cpu,
              worker: now.worker.cpu - last.worker.cpu,
              wait: now.proxy.wait - last.proxy.wait + now.worker.wait - last.worker.wait,
            })
          },
        }
      : {}),
    after: async () => {
      const total = (workerCpuMs(ctx.serverPid) - before) / s.requests
      const now = read()
      const split = `Worker ${((now.worker.cpu - partBefore.worker) / s.requests).toFixed(1)} + dev proxy ${((now.proxy.cpu - partBefore.proxy) / s.requests).toFixed(1)}`
      let cpu = `CPU ${total.toFixed(1)} ms/req (${split})`
      if (one && each.length >= 20) {
        const sorted = [...each].sort((a, b) => b.ms - a.ms)
        const n = Math.max(1, Math.ceil(sorted.length * 0.05))
        const avg = (xs: typeof each, k: 'ms' | 'proxy' | 'worker' | 'wait') => (xs.reduce((t, x) => t + x[k], 0) / xs.length).toFixed(1)
        const slow = sorted.slice(0, n)
        const rest = sorted.slice(n)
        cpu +=
          `; slowest ${n}: ${avg(slow, 'ms')} ms, CPU ${avg(slow, 'worker')}+${avg(slow, 'proxy')}, run-queue wait ${avg(slow, 'wait')}` +
          ` (others ${avg(rest, 'ms')} ms, CPU ${avg(rest, 'worker')}+${avg(rest, 'proxy')}, wait ${avg(rest, 'wait')})`
      }
      const own = s.after ? await s.after() : ''
      return own ? `${cpu}; ${own}` : cpu
    },
  }
}
