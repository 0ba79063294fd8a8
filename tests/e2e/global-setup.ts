import type { TestProject } from 'vitest/node'
import { startServer } from '../support/server'

declare module 'vitest' {
  export interface ProvidedContext {
    port: number
    partyPort: number
  }
}

/** The browser suites run against the product started as `npm start` starts it. */
export default async function setup(project: TestProject) {
  const server = await startServer()
  project.provide('port', server.port)
  project.provide('partyPort', server.partyPort)
  return () => server.stop()
}
