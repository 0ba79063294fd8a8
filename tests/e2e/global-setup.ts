import type { TestProject } from 'vitest/node'
import { startIssuer } from '../support/oidc-issuer'
import { startServer } from '../support/server'

declare module 'vitest' {
  export interface ProvidedContext {
    port: number
    partyPort: number
    oidcIssuer: string
  }
}

/**
 * The browser suites run against the product started as `npm start` starts it, with Google sign-in pointed at a
 * local OpenID issuer (start.ts passes GOOGLE_ISSUER and GOOGLE_JWKS_URL on to the Worker).
 */
export default async function setup(project: TestProject) {
  const issuer = await startIssuer()
  process.env.GOOGLE_ISSUER = issuer.url
  process.env.GOOGLE_JWKS_URL = issuer.jwksUrl
  const server = await startServer()
  project.provide('port', server.port)
  project.provide('partyPort', server.partyPort)
  project.provide('oidcIssuer', issuer.url)
  return async () => {
    await server.stop()
    await issuer.stop()
  }
}
