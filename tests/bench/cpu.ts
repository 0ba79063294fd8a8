import type { Scenario } from './harness'
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

/**
 * Wraps a scenario so its note says the Worker CPU per request (workerd's utime+stime over the run ÷ requests),
 * followed by the scenario's own note when it has one.
 */
export function withCpu(s: Scenario, serverPid: number): Scenario {
  let before = 0
  return {
    ...s,
    before: async () => {
      await s.before?.()
      before = workerCpuMs(serverPid)
    },
    after: async () => {
      const cpu = `CPU ${((workerCpuMs(serverPid) - before) / s.requests).toFixed(1)} ms/req`
      const own = s.after ? await s.after() : ''
      return own ? `${cpu}; ${own}` : cpu
    },
  }
}
