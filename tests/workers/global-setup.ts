import type { TestProject } from 'vitest/node'
import { startIssuer } from '../support/oidc-issuer'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Base URL of the local OpenID issuer standing in for Google in tests. */
    oidcIssuer: string
  }
}

/** Starts the local OpenID issuer; vitest.config.ts hands its URL to the Worker as GOOGLE_ISSUER / GOOGLE_JWKS_URL. */
export default async function setup(project: TestProject) {
  const issuer = await startIssuer()
  project.provide('oidcIssuer', issuer.url)
  return () => issuer.stop()
}
