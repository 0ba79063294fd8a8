import { readFileSync, readdirSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import type { TestProject } from 'vitest/node'
import { hashPassword } from '../../worker/lib/password'
import { startAiProviders } from '../support/ai-providers'
import { startCallsApi } from '../support/calls-api'
import { startMailApi } from '../support/mail-api'
import { startIssuer } from '../support/oidc-issuer'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Base URL of the local OpenID issuer standing in for Google in tests. */
    oidcIssuer: string
    /** Base URL of the local stand-in for the HTTP e-mail provider (key `test-mail-key`). */
    mailApi: string
    /** Base URL of the local AI providers (OpenAI chat completions under /v1, D-ID, ElevenLabs; key `test-ai-key`). */
    aiProviders: string
    /** Base URL (`…/v1`) of the local Cloudflare Realtime SFU API stand-in (app `test-calls-app`, secret `test-calls-secret`). */
    callsApi: string
    /** The demo password's hash (PBKDF2, 600k iterations), computed once per run for every file's demo seed. */
    demoPasswordHash: string
    /** The knowledge fixtures (tests/fixtures/knowledge/), base64 by file name: the Worker cannot read files. */
    knowledgeFixtures: Record<string, string>
    /** Gzip size of each script of the built console (`/assets/<file>.js` → bytes), for page-weight.test.ts. */
    scriptSizes: Record<string, number>
  }
}

/**
 * Starts the local OpenID issuer (vitest.config.ts hands its URL to the Worker as GOOGLE_ISSUER / GOOGLE_JWKS_URL)
 * the local e-mail provider the HTTP sender is tested against, the local AI providers (tests/support/ai-providers.ts), and hashes the demo password once for the whole run.
 */
export default async function setup(project: TestProject) {
  const issuer = await startIssuer()
  const mail = await startMailApi('test-mail-key')
  const ai = await startAiProviders('test-ai-key')
  const calls = await startCallsApi('test-calls-app', 'test-calls-secret')
  project.provide('oidcIssuer', issuer.url)
  project.provide('mailApi', mail.url)
  project.provide('aiProviders', ai.url)
  project.provide('callsApi', calls.url)
  project.provide('demoPasswordHash', await hashPassword('demo1234'))
  project.provide('knowledgeFixtures', knowledgeFixtures(new URL('../fixtures/knowledge/', import.meta.url)))
  project.provide('scriptSizes', scriptSizes(new URL('../../build/client/assets/', import.meta.url)))
  return async () => {
    await issuer.stop()
    await mail.stop()
    await ai.stop()
    await calls.stop()
  }
}

/** The Worker cannot read the build's files: their gzip sizes (as the bench counts them) are measured here. */
function scriptSizes(dir: URL): Record<string, number> {
  const sizes: Record<string, number> = {}
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.js'))) sizes[`/assets/${file}`] = gzipSync(readFileSync(new URL(file, dir))).length
  return sizes
}

/** The knowledge fixtures as base64, by file name (PDF, PPTX and TXT files only). */
function knowledgeFixtures(dir: URL): Record<string, string> {
  const out: Record<string, string> = {}
  for (const file of readdirSync(dir).filter((f) => /\.(pdf|pptx|txt)$/.test(f))) out[file] = readFileSync(new URL(file, dir)).toString('base64')
  return out
}
