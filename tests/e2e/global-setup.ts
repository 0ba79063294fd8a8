import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { startAiProviders } from '../support/ai-providers'
import { startCallsApi } from '../support/calls-api'
import { startIssuer } from '../support/oidc-issuer'
import { startServer } from '../support/server'

declare module 'vitest' {
  export interface ProvidedContext {
    port: number
    partyPort: number
    oidcIssuer: string
    /** The server's state directory (D1, R2), for a test that must set what no API sets yet (tests/e2e/d1.ts). */
    stateDir: string
    /** The local speech and animation providers the server's DID/ElevenLabs/Google/MiniMax addresses point at (key `e2e-ai-key`). */
    aiProviders: string
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
  // The live parties' SFU (issue 20): a local server speaking Cloudflare Realtime's API, so a room above the mesh size
  // moves to it (tests/e2e/conference-sfu.test.ts); rooms within the mesh never call it.
  const calls = await startCallsApi('e2e-calls-app', 'e2e-calls-secret')
  // A live session ends this long after its last participant left (15 s in a real run): the party tests watch a
  // session end and its metrics reach the realm API without waiting 15 s each time.
  const stateDir = mkdtempSync(join(tmpdir(), 'console-e2e-'))
  // Speech and animation providers (lesson narration, issue 18): only a realm with their keys calls them.
  const ai = await startAiProviders('e2e-ai-key')
  const server = await startServer({
    state: stateDir,
    env: {
      LIVE_END_GRACE_MS: '3000',
      CALLS_APP_ID: 'e2e-calls-app',
      CALLS_APP_SECRET: 'e2e-calls-secret',
      CALLS_API_URL: calls.url,
      DID_API_URL: ai.url,
      ELEVENLABS_API_URL: ai.url,
      GOOGLE_TTS_API_URL: ai.url,
      MINIMAX_API_URL: ai.url,
    },
  })
  project.provide('port', server.port)
  project.provide('partyPort', server.partyPort)
  project.provide('oidcIssuer', issuer.url)
  project.provide('stateDir', stateDir)
  project.provide('aiProviders', ai.url)
  return async () => {
    await server.stop()
    rmSync(stateDir, { recursive: true, force: true })
    await issuer.stop()
    await calls.stop()
    await ai.stop()
  }
}
