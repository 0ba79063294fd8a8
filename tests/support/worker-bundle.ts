import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

/**
 * The Worker as `wrangler deploy` would upload it (`--dry-run`, not minified, with esbuild's metafile), and how many
 * copies of each library named below it holds. esbuild includes a file of node_modules once; a second copy can only
 * come inlined in another input (the Remix server build, before it left its dependencies as imports). Each library
 * is recognised by a string of its own source: the Worker holds that string as often as the library's files do,
 * times the number of copies.
 */
const LIBRARIES = [
  { name: 'katex', signature: '"KaTeX parse error: "', files: ['node_modules/katex/dist/katex.mjs'] },
  {
    name: 'htmlparser2',
    signature: 'onprocessinginstruction',
    files: ['node_modules/htmlparser2/lib/esm/Parser.js', 'node_modules/htmlparser2/lib/esm/Tokenizer.js'],
  },
  { name: 'valibot', signature: '"~standard"', files: ['node_modules/valibot/dist/index.mjs'] },
  { name: '@remix-run/router', signature: 'No route matches URL', files: ['node_modules/@remix-run/router/dist/router.cjs.js'] },
]

/** Packages of the rich-text editor (and, later, the canvas editor): browser-only, never in the Worker. */
const EDITORS = /node_modules\/(@tiptap\/|prosemirror-|konva\/|react-konva\/)/

export interface WorkerBundle {
  /** Unminified size of the Worker script, bytes. */
  bytes: number
  libraries: { name: string; copies: number }[]
  /** Files of editor packages the Worker bundle holds. */
  editorFiles: string[]
  editorsInServerBuild: boolean
}

const count = (text: string, needle: string) => text.split(needle).length - 1

export async function workerBundle(root = process.cwd()): Promise<WorkerBundle> {
  const dir = mkdtempSync(join(tmpdir(), 'worker-bundle-'))
  try {
    await promisify(execFile)('npx', ['wrangler', 'deploy', '--dry-run', '--outdir', dir, '--metafile', join(dir, 'meta.json')], { cwd: root })
    const output = readFileSync(join(dir, 'index.js'), 'utf8')
    const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as { inputs: Record<string, unknown> }
    const libraries = LIBRARIES.map((lib) => {
      const once = lib.files.reduce((n, f) => n + count(readFileSync(join(root, f), 'utf8'), lib.signature), 0)
      if (once === 0) throw new Error(`${lib.name}: signature "${lib.signature}" not found in ${lib.files.join(', ')}`)
      return { name: lib.name, copies: count(output, lib.signature) / once }
    })
    const editorFiles = Object.keys(meta.inputs).filter((f) => EDITORS.test(f))
    // ProseMirror's own class name: present when an editor is inlined in another input as well.
    const editorsInServerBuild = editorFiles.length > 0 || output.includes('ProseMirror')
    return { bytes: Buffer.byteLength(output), libraries, editorFiles, editorsInServerBuild }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
